#include "mechanisms/exponential_mechanism.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "errors/error.hpp"
#include "sampling/samplers.hpp"
#include "search/exact_scan.hpp"

namespace dxt {

uint32_t uniform_index(RandomStream& rng, uint32_t n) {
  // Lemire's nearly-divisionless method would do; the plain rejection of the
  // top partial block is simpler and exactly uniform.
  const uint64_t limit = UINT64_MAX - UINT64_MAX % n;
  for (;;) {
    const uint64_t r = rng.next_u64();
    if (r < limit) return static_cast<uint32_t>(r % n);
  }
}

ExponentialMechanism::ExponentialMechanism(const Model& model, const MechanismParams& params)
    : Mechanism(params),
      model_(model),
      row_(model.dimension()),
      point_(model.dimension()),
      distances_(model.vocabulary_size()) {
  if (params.sampler != DXT_SAMPLER_GUMBEL && params.sampler != DXT_SAMPLER_PERMUTE_AND_FLIP)
    fail(DXT_E_INVALID_ARGUMENT, "unknown exponential sampler " + std::to_string(params.sampler));
  if (params.sampler == DXT_SAMPLER_PERMUTE_AND_FLIP) order_.resize(model.vocabulary_size());
}

dxt_metric ExponentialMechanism::metric() const { return geometry_metric(model_); }

uint32_t ExponentialMechanism::privatize(RandomStream& rng, std::optional<uint32_t> index) {
  const uint32_t V = model_.vocabulary_size();
  word_distances(model_, index, row_, point_, distances_);
  const double half_eps = epsilon() / 2;

  if (params().sampler == DXT_SAMPLER_GUMBEL) {
    uint32_t best = 0;
    double best_score = -std::numeric_limits<double>::infinity();
    for (uint32_t o = 0; o < V; ++o) {
      const double score = -half_eps * distances_[o] + sample_gumbel(rng);
      if (score > best_score) best_score = score, best = o;
    }
    return best;
  }

  // Permute-and-flip: a fresh uniformly random order (Fisher-Yates), then
  // accept each candidate with probability exp(-eps (d - d_min) / 2); the
  // first accepted word is released. The word at d_min is accepted with
  // probability 1, so there always is one. The permutation is drawn lazily,
  // one position at a time, and the loop always runs to the end (draws after
  // the first acceptance are discarded): stopping early would make the time
  // of the call depend on the input word (docs/limitations.md, Timing).
  const double d_min = *std::min_element(distances_.begin(), distances_.end());
  std::iota(order_.begin(), order_.end(), 0u);
  uint32_t released = V;
  for (uint32_t i = 0; i < V; ++i) {
    std::swap(order_[i], order_[i + uniform_index(rng, V - i)]);
    const uint32_t o = order_[i];
    const bool accept = rng.uniform() <= std::exp(-half_eps * (distances_[o] - d_min));
    if (accept && released == V) released = o;
  }
  if (released != V) return released;
  return order_[V - 1];  // unreachable: the d_min word accepts with probability 1
}

}  // namespace dxt
