// SPDX-License-Identifier: Apache-2.0
#include "mechanisms/input_keeping_check.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace dxt {
namespace {

constexpr uint32_t kSample = 16;
constexpr double kLogDelta = -20.72326583694641;  // ln(1e-9)

// Whether t = epsilon * d / 2 (scaled per mechanism, below) keeps a word
// with probability >= 1 - 1e-9.
bool keeps(dxt_mechanism id, double t, double dimension, double vocabulary) {
  if (!(t > 0)) return false;
  if (id == DXT_MECHANISM_LAPLACE || id == DXT_MECHANISM_MAHALANOBIS)
    return t > dimension && dimension - t + dimension * std::log(t / dimension) <= kLogDelta;
  return std::log(vocabulary - 1) - t <= kLogDelta;  // exponential, tem
}

double squared_distance(const float* a, const float* b, size_t n) {
  double s = 0;
  for (size_t i = 0; i < n; ++i) {
    const double d = static_cast<double>(a[i]) - static_cast<double>(b[i]);
    s += d * d;
  }
  return s;
}

}  // namespace

bool mechanism_keeps_input(const Model& model, const MechanismParams& params, double tem_gamma) {
  const dxt_mechanism id = params.id;
  if (id != DXT_MECHANISM_LAPLACE && id != DXT_MECHANISM_EXPONENTIAL && id != DXT_MECHANISM_TEM &&
      id != DXT_MECHANISM_MAHALANOBIS)
    return false;
  if (model.geometry() != DXT_GEOMETRY_EUCLIDEAN || params.output) return false;
  const uint32_t v = model.vocabulary_size();
  const uint32_t n = model.dimension();
  if (v < 2 || n == 0) return false;
  const uint32_t k = std::min(kSample, v);
  std::vector<uint32_t> rows(k);
  std::vector<float> sample(static_cast<size_t>(k) * n);
  for (uint32_t j = 0; j < k; ++j) {
    rows[j] = static_cast<uint32_t>(static_cast<uint64_t>(j) * v / k);
    model.row(rows[j], sample.data() + static_cast<size_t>(j) * n);
  }
  // mahalanobis shapes the laplace noise by Sigma_lambda^(1/2), whose
  // largest singular value is at most sqrt(lambda n + 1 - lambda) (Sigma'
  // has trace n); tem caps every distance at gamma.
  const double lambda = params.mahalanobis_lambda;
  const double stretch = id == DXT_MECHANISM_MAHALANOBIS ? std::sqrt(lambda * n + 1 - lambda) : 1.0;
  auto passes = [&](double nearest_squared) {
    double d = std::sqrt(nearest_squared) / stretch;
    if (id == DXT_MECHANISM_TEM) d = std::min(d, tem_gamma);
    return keeps(id, params.epsilon * d / 2, n, v);
  };
  // The nearest other sampled word bounds each word's nearest neighbour from
  // above: if that already fails the bound, the true one does too.
  std::vector<double> nearest(k, std::numeric_limits<double>::infinity());
  for (uint32_t a = 0; a < k; ++a)
    for (uint32_t b = a + 1; b < k; ++b) {
      const double d = squared_distance(sample.data() + size_t{a} * n, sample.data() + size_t{b} * n, n);
      nearest[a] = std::min(nearest[a], d);
      nearest[b] = std::min(nearest[b], d);
    }
  if (k >= 2)
    for (uint32_t a = 0; a < k; ++a)
      if (!passes(nearest[a])) return false;
  // One pass over the vocabulary for the true nearest neighbours.
  std::vector<float> row(n);
  for (uint32_t i = 0; i < v; ++i) {
    model.row(i, row.data());
    for (uint32_t a = 0; a < k; ++a) {
      if (i == rows[a]) continue;
      nearest[a] = std::min(nearest[a], squared_distance(sample.data() + size_t{a} * n, row.data(), n));
    }
  }
  for (uint32_t a = 0; a < k; ++a)
    if (!passes(nearest[a])) return false;
  return true;
}

}  // namespace dxt
