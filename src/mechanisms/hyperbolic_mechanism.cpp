// SPDX-License-Identifier: Apache-2.0
#include "mechanisms/hyperbolic_mechanism.hpp"

#include <cmath>
#include <string>

#include "errors/error.hpp"
#include "sampling/samplers.hpp"
#include "search/exact_scan.hpp"

namespace dxt {

HyperbolicMechanism::HyperbolicMechanism(const Model& model, const MechanismParams& params)
    : Mechanism(params),
      model_(model),
      row_(model.dimension()),
      direction_(model.dimension()),
      spatial_(model.dimension()) {
  require_geometry(model, DXT_GEOMETRY_POINCARE, "hyperbolic");
  const double bound = static_cast<double>(model.dimension()) - 1;
  if (!(params.epsilon > bound))
    fail(DXT_E_INVALID_EPSILON, "the hyperbolic mechanism in " + std::to_string(model.dimension()) +
                                    " dimensions needs epsilon > n - 1 = " + std::to_string(model.dimension() - 1) +
                                    " (got " + format_number(params.epsilon) +
                                    "); for smaller epsilon use the exponential or tem mechanism on this model, "
                                    "which give epsilon * d_H for any epsilon (docs/guarantees.md)");
}

double HyperbolicMechanism::sample_radius(RandomStream& rng, uint32_t n, double epsilon) {
  const double a = epsilon - static_cast<double>(n) + 1;  // > 0
  double r = 0;
  for (uint32_t k = 0; k < n; ++k) r += sample_exponential(rng) / (a + 2.0 * k);
  return r;
}

uint32_t HyperbolicMechanism::privatize(RandomStream& rng, std::optional<uint32_t> index) {
  const uint32_t n = model_.dimension();
  double pp = 0;
  if (index) {
    model_.row(*index, row_.data());
    for (uint32_t i = 0; i < n; ++i) pp += double{row_[i]} * row_[i];
  } else {
    std::fill(row_.begin(), row_.end(), 0.0f);
  }
  const double radius = sample_radius(rng, n, epsilon());
  sample_unit_direction(rng, direction_.data(), n);

  // Lorentz coordinates of phi(w): x0 = (1+|p|^2)/(1-|p|^2), xs = 2p/(1-|p|^2).
  const double inv = 1.0 / (1.0 - pp);
  const double x0 = (1.0 + pp) * inv;
  double xs_dot_u = 0;
  for (uint32_t i = 0; i < n; ++i) xs_dot_u += 2.0 * row_[i] * inv * direction_[i];
  // Boost B with B e0 = x applied to (cosh R, sinh R u), divided by cosh R:
  //   y0 = x0 + tanh R <xs,u>,  ys = xs + tanh R (u + xs <xs,u> / (x0 + 1)).
  const double t = std::tanh(radius);
  const double y0 = x0 + t * xs_dot_u;
  for (uint32_t i = 0; i < n; ++i) {
    const double xs = 2.0 * row_[i] * inv;
    spatial_[i] = xs + t * (direction_[i] + xs * xs_dot_u / (x0 + 1.0));
  }
  if (const std::vector<uint32_t>* rows = output_rows(params()))
    return nearest_hyperbolic_in(model_, y0, spatial_.data(), *rows);
  return nearest_hyperbolic(model_, y0, spatial_.data());
}

}  // namespace dxt
