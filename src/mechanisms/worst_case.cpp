// SPDX-License-Identifier: Apache-2.0
#include "mechanisms/worst_case.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "accounting/syntf_loss.hpp"

namespace dxt {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// The largest norm of a row: the square root of the largest stored squared
// norm, widened by a few parts in a million for its float rounding, so the
// bound stays an upper bound.
double max_row_norm(const Model& model) {
  const float* norms = model.row_norms();
  float largest = 0;
  for (uint32_t v = 0; v < model.vocabulary_size(); ++v) largest = std::max(largest, norms[v]);
  return std::sqrt(static_cast<double>(largest)) * (1 + 1e-6);
}

}  // namespace

double metric_diameter_bound(const Mechanism& m, const Model& model) {
  switch (m.metric()) {
    case DXT_METRIC_ORDERING: return std::floor(model.vocabulary_size() / 2.0);
    case DXT_METRIC_EUCLIDEAN: return 2 * max_row_norm(model);
    case DXT_METRIC_HYPERBOLIC: {
      const double r = max_row_norm(model);
      return r < 1 ? 4 * std::atanh(r) : kInfinity;
    }
    case DXT_METRIC_MAHALANOBIS: {
      const double lambda = m.params().mahalanobis_lambda;
      return lambda < 1 ? 2 * max_row_norm(model) / std::sqrt(1 - lambda) : kInfinity;
    }
    case DXT_METRIC_DISCRETE: return 1;
    default: return kInfinity;
  }
}

double largest_output_probability(const Mechanism& m, const Model& model) {
  if (m.metric() != DXT_METRIC_ORDERING) return 1;
  const double eps = m.epsilon();
  const double n = output_count(model, m.params());
  // (1-a)/(1+a) (1+a^n)/(1-a^n) with 1-a and 1-a^n by expm1, exact at tiny eps.
  const double a = std::exp(-eps);
  const double an = std::exp(-eps * n);
  const double value = -std::expm1(-eps) / (1 + a) * (1 + an) / -std::expm1(-eps * n);
  return std::min(1.0, value * (1 + 1e-12));
}

double floor_cap(double p, double m, uint32_t output_size) {
  if (!(p > 0)) return kInfinity;
  return std::log1p((1 - p) * m * static_cast<double>(output_size) / p);
}

double worst_case_per_word(const Mechanism& m, const Model& model) {
  if (m.id() == DXT_MECHANISM_SYNTF) {
    const double vocabulary = syntf_vocabulary_bound(m.epsilon(), output_count(model, m.params()));
    return vocabulary > 0 ? std::min(m.epsilon(), vocabulary) : m.epsilon();
  }
  const double metric = m.epsilon() * metric_diameter_bound(m, model);
  // The context prior's weights, at most 1 + B, add min(eps D, ln(1 + B))
  // and raise the largest probability of one output by at most 1 + B
  // (ordering_mechanism.hpp).
  const double B = m.params().context_prior;
  const double prior = std::min(metric, std::log1p(B));
  const double largest = std::min(1.0, largest_output_probability(m, model) * (1 + B));
  const double cap = floor_cap(m.params().floor, largest, output_count(model, m.params()));
  return std::min(metric + prior, cap);
}

}  // namespace dxt
