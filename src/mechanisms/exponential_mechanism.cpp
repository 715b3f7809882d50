// SPDX-License-Identifier: Apache-2.0
#include "mechanisms/exponential_mechanism.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "errors/error.hpp"
#include "sampling/samplers.hpp"
#include "search/exact_scan.hpp"

namespace dxt {

ExponentialMechanism::ExponentialMechanism(const Model& model, const MechanismParams& params)
    : Mechanism(params), model_(model), point_(model.dimension()) {
  if (params.sampler == DXT_SAMPLER_GUMBEL) {
    selector_ = std::make_unique<CandidateSelector>(model, CandidateOrder::kDistance, params.candidate_list_size,
                                                    params.candidate_cache_entries, params.output.get());
  } else if (params.sampler == DXT_SAMPLER_PERMUTE_AND_FLIP) {
    row_.resize(model.dimension());
    distances_.resize(model.vocabulary_size());
    order_.resize(output_count(model, params));
  } else {
    fail(DXT_E_INVALID_ARGUMENT, "unknown exponential sampler " + std::to_string(params.sampler));
  }
}

dxt_metric ExponentialMechanism::metric() const { return geometry_metric(model_); }

uint32_t ExponentialMechanism::draw(RandomStream& rng, const CandidateList& list, std::optional<uint32_t> index) {
  const double xx = selector_->load_point(index, point_.data());
  const double half_eps = epsilon() / 2;
  CandidateScanner& scanner = selector_->scanner();
  // Scores -eps d / 2: a lower bound of the distance bounds the score above.
  return selector_->race(
      rng, list, [half_eps](double lower) { return -half_eps * lower; },
      [&](uint32_t o) { return -half_eps * scanner.exact(point_.data(), xx, o); });
}

uint32_t ExponentialMechanism::privatize(RandomStream& rng, std::optional<uint32_t> index) {
  if (!selector_) return permute_and_flip(rng, index);
  return selector_->select(index,
                           [&](const CandidateList& list, std::optional<uint32_t> i) { return draw(rng, list, i); });
}

void ExponentialMechanism::privatize_batch(RandomStream& rng, const std::optional<uint32_t>* indices, size_t count,
                                           uint32_t* out) {
  if (!selector_) {
    for (size_t j = 0; j < count; ++j) out[j] = permute_and_flip(rng, indices[j]);
    return;
  }
  selector_->select_batch(indices, count, out,
                          [&](const CandidateList& list, std::optional<uint32_t> i) { return draw(rng, list, i); });
}

// Permute-and-flip: a fresh uniformly random order (Fisher-Yates), then
// accept each candidate with probability exp(-eps (d - d_min) / 2), exactly
// also far in the tail (an uncapped exponential draw); the first
// accepted word is released. The word at d_min is accepted with probability
// 1, so there always is one. The permutation is drawn lazily, one position
// at a time, and the loop always runs to the end (draws after the first
// acceptance are discarded): stopping early would make the time of the call
// depend on the input word (docs/limitations.md, Timing).
uint32_t ExponentialMechanism::permute_and_flip(RandomStream& rng, std::optional<uint32_t> index) {
  // Over the output vocabulary S when there is one (every word otherwise):
  // V below is |S|, and order_ starts as S's rows.
  const auto V = static_cast<uint32_t>(order_.size());
  word_distances(model_, index, row_, point_, distances_);
  const double half_eps = epsilon() / 2;
  if (const std::vector<uint32_t>* rows = output_rows(params())) {
    order_.assign(rows->begin(), rows->end());
  } else {
    std::iota(order_.begin(), order_.end(), 0u);
  }
  double d_min = distances_[order_[0]];
  for (uint32_t o : order_) d_min = std::min(d_min, distances_[o]);
  uint32_t released = UINT32_MAX;
  for (uint32_t i = 0; i < V; ++i) {
    std::swap(order_[i], order_[i + uniform_index(rng, V - i)]);
    const uint32_t o = order_[i];
    // Accepted with probability exp(-x) as E >= x, E ~ Exp(1) uncapped: the
    // same bytes and, in exact arithmetic, the same decision as
    // uniform() <= exp(-x), but exp(-x) underflows to 0 beyond x = 745, which
    // would make every word that far behind impossible to release.
    const bool accept = sample_exponential(rng) >= half_eps * (distances_[o] - d_min);
    if (accept && released == UINT32_MAX) released = o;
  }
  if (released != UINT32_MAX) return released;
  return order_[V - 1];  // unreachable: the d_min word accepts with probability 1
}

}  // namespace dxt
