// SPDX-License-Identifier: Apache-2.0
#include "mechanisms/tem_mechanism.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "errors/error.hpp"

namespace dxt {

namespace {

double checked_gamma(const Model& model, const MechanismParams& params) {
  if (!std::isfinite(params.tem_gamma) || params.tem_gamma < 0)
    fail(DXT_E_INVALID_ARGUMENT, "tem gamma must be finite and >= 0 (0 = derive it from beta)");
  if (params.tem_gamma > 0) return params.tem_gamma;
  const double beta = params.tem_beta;
  if (!(beta > 0 && beta < 1))
    fail(DXT_E_INVALID_ARGUMENT, "tem beta must be in (0, 1) (got " + std::to_string(beta) + ")");
  // |V| of the formula is the number of words the mechanism ranges over:
  // |S| with an output vocabulary S (docs/guarantees.md, "Output vocabularies").
  const double v = static_cast<double>(output_count(model, params));
  return std::max(0.0, 2.0 / params.epsilon * std::log((1 - beta) * std::max(v - 1, 1.0) / beta));
}

}  // namespace

TemMechanism::TemMechanism(const Model& model, const MechanismParams& params)
    : Mechanism(params),
      model_(model),
      gamma_(checked_gamma(model, params)),
      selector_(model, CandidateOrder::kDistance, params.candidate_list_size, params.candidate_cache_entries,
                params.output.get()),
      point_(model.dimension()) {}

dxt_metric TemMechanism::metric() const { return geometry_metric(model_); }

uint32_t TemMechanism::draw(RandomStream& rng, const CandidateList& list, std::optional<uint32_t> index) {
  const double xx = selector_.load_point(index, point_.data());
  const double half_eps = epsilon() / 2, gamma = gamma_;
  CandidateScanner& scanner = selector_.scanner();
  // Scores -eps min(d, gamma) / 2, non-increasing in d: a lower bound of
  // the distance gives an upper bound of the score.
  return selector_.race(
      rng, list, [half_eps, gamma](double lower) { return -half_eps * std::min(lower, gamma); },
      [&](uint32_t o) { return -half_eps * std::min(scanner.exact(point_.data(), xx, o), gamma); });
}

uint32_t TemMechanism::privatize(RandomStream& rng, std::optional<uint32_t> index) {
  return selector_.select(index,
                          [&](const CandidateList& list, std::optional<uint32_t> i) { return draw(rng, list, i); });
}

void TemMechanism::privatize_batch(RandomStream& rng, const std::optional<uint32_t>* indices, size_t count,
                                   uint32_t* out) {
  selector_.select_batch(indices, count, out,
                         [&](const CandidateList& list, std::optional<uint32_t> i) { return draw(rng, list, i); });
}

}  // namespace dxt
