// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "mechanisms/mechanism.hpp"

namespace dxt {

// The uniform floor: any mechanism M mixed with the uniform law on its output
// vocabulary S (the whole vocabulary without one),
//
//   Pr[o | w] = (1 - p) Pr_M[o | w] + p / |S|     (o in S),
//
// drawn exactly: M's word and a uniform member of S are both drawn for every
// word, whatever the coin says, and a coin with Pr[U < p] = p chooses
// (rng.uniform() is the real uniform rounded down to the double grid, so the
// coin is exact for every double p). Drawing both keeps the time of a word
// from showing which of the two was released.
//
// Guarantee (docs/guarantees.md, "The uniform floor"): M's eps * d(w, w')
// still holds, since both parts of the mixture meet it, and for any two
// inputs the ratio of output probabilities is at most
//   ((1 - p) m + p / |S|) / (p / |S|) = 1 + (1 - p) m |S| / p,
// m the largest probability M gives one output (mechanisms/worst_case.hpp).
class UniformFloor final : public Mechanism {
 public:
  // `inner` must have been built for the same model and parameters.
  UniformFloor(const Model& model, std::unique_ptr<Mechanism> inner);

  dxt_metric metric() const override { return inner_->metric(); }
  uint32_t privatize(RandomStream& rng, std::optional<uint32_t> index) override;
  // M's word after `previous`, then the floor: the prior weights M's law
  // only, so the floor's cap holds as it does for M (docs/guarantees.md).
  uint32_t privatize_after(RandomStream& rng, std::optional<uint32_t> index,
                           std::optional<uint32_t> previous) override {
    return mix(rng, inner_->privatize_after(rng, index, previous));
  }
  bool reads_context() const override { return inner_->reads_context(); }
  void privatize_batch(RandomStream& rng, const std::optional<uint32_t>* indices, size_t count, uint32_t* out) override;
  size_t cache_bytes() const override { return inner_->cache_bytes(); }

  const Mechanism& inner() const { return *inner_; }

 private:
  // The word released when M released `word`: the floor's coin and a uniform
  // member of S, both drawn.
  uint32_t mix(RandomStream& rng, uint32_t word);

  std::unique_ptr<Mechanism> inner_;
  const std::vector<uint32_t>* rows_;  // S, or nullptr for the whole vocabulary
  uint32_t n_;                         // |S|
};

}  // namespace dxt
