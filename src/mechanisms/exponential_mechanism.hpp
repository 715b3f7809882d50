// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>
#include <vector>

#include "mechanisms/candidate_selector.hpp"
#include "mechanisms/mechanism.hpp"
#include "sampling/samplers.hpp"  // uniform_index

namespace dxt {

// The metric exponential mechanism over the vocabulary (as used by SanText,
// Yue et al. 2021): Pr[o | w] ∝ exp(-eps d(w, o) / 2), with d the model's
// geometry (Euclidean, or the Poincare distance).
//
// Guarantee: for any o, |d(w,o) - d(w',o)| <= d(w,w') (triangle inequality),
// so numerator and normaliser each change by at most exp(eps d(w,w')/2):
// eps * d(w, w') per word (McSherry & Talwar 2007 with sensitivity d(w,w')).
//
// Samplers:
// - Gumbel-max (default): argmax_o of -eps d(w,o)/2 + G_o, which is exactly
//   the law above. The race is lazy (candidate_selector.hpp): the words
//   nearest to w, from a cached candidate list, and then the rest of the
//   vocabulary, drawing only the Gumbels that can still win. Same law, same
//   distances (distances_from's, bit for bit), far less work; the time of
//   a call depends on the input and the draw.
// - permute-and-flip (McKenna & Sheldon 2020): visit words in a random
//   order and accept o with probability exp(-eps (d(w,o) - d_min) / 2); it
//   satisfies the same bound (their Thm. 1 with sensitivity d(w,w'), since
//   d_min also moves by at most d(w,w')) and never has higher expected
//   distance than Gumbel-max. It scans the whole vocabulary every time, in
//   time that does not depend on the input word.
// Out-of-vocabulary words are scored from the origin.
class ExponentialMechanism final : public Mechanism {
 public:
  ExponentialMechanism(const Model& model, const MechanismParams& params);
  dxt_metric metric() const override;
  uint32_t privatize(RandomStream& rng, std::optional<uint32_t> index) override;
  void privatize_batch(RandomStream& rng, const std::optional<uint32_t>* indices, size_t count, uint32_t* out) override;
  size_t cache_bytes() const override { return selector_ ? selector_->heap_bytes() : 0; }

 private:
  uint32_t draw(RandomStream& rng, const CandidateList& list, std::optional<uint32_t> index);
  uint32_t permute_and_flip(RandomStream& rng, std::optional<uint32_t> index);

  const Model& model_;
  std::unique_ptr<CandidateSelector> selector_;  // Gumbel-max only
  std::vector<double> point_;
  std::vector<float> row_;  // permute-and-flip only, as the next two
  std::vector<double> distances_;
  std::vector<uint32_t> order_;
};

}  // namespace dxt
