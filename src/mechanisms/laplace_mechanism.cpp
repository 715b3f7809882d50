#include "mechanisms/laplace_mechanism.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "errors/error.hpp"
#include "sampling/samplers.hpp"
#include "search/exact_scan.hpp"

namespace dxt {

LaplaceMechanism::LaplaceMechanism(const Model& model, double epsilon)
    : model_(model), epsilon_(epsilon), point_(model.dimension()), direction_(model.dimension()) {
  check_epsilon(epsilon);
  if (model.geometry() != DXT_GEOMETRY_EUCLIDEAN)
    fail(DXT_E_UNSUPPORTED, "the laplace mechanism needs a Euclidean model; this model is Poincare");
}

uint32_t LaplaceMechanism::privatize(RandomStream& rng, std::optional<uint32_t> index) {
  const uint32_t n = model_.dimension();
  if (index) {
    model_.row(*index, point_.data());
  } else {
    std::fill(point_.begin(), point_.end(), 0.0f);
  }
  const double radius = sample_gamma_integer_shape(rng, n, 1.0 / epsilon_);
  sample_unit_direction(rng, direction_.data(), n);
  for (uint32_t i = 0; i < n; ++i)
    point_[i] = static_cast<float>(static_cast<double>(point_[i]) + radius * direction_[i]);
  return nearest_euclidean(model_, point_.data());
}

}  // namespace dxt
