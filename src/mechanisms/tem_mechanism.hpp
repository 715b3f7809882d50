// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <vector>

#include "mechanisms/candidate_selector.hpp"
#include "mechanisms/mechanism.hpp"

namespace dxt {

// The truncated exponential mechanism of Carvalho, Vasiloudis, Feyisetan &
// Wang (TEM, SDM 2023). For input w, the words within gamma of it,
// L_w = {o : d(w,o) <= gamma}, each score -d(w,o); one extra candidate "bottom"
// scores -gamma + (2/eps) ln |V \ L_w| and stands for all the others. Every
// score gets Gumbel noise of scale 2/eps and the argmax wins; if bottom wins,
// a word is drawn uniformly from V \ L_w.
//
// Equivalently Pr[o | w] ∝ exp(-eps min(d(w,o), gamma) / 2): an exponential
// mechanism whose distance is truncated at gamma. min(., gamma) is
// 1-Lipschitz, so |min(d(w,o),gamma) - min(d(w',o),gamma)| <= d(w,w') and the
// guarantee is eps * d(w, w') per word, for the model's metric.
//
// dxtext draws that law directly, by the lazy Gumbel race of the exponential
// mechanism (candidate_selector.hpp) with the truncated scores: the bottom
// candidate's Gumbel is the largest of |V \ L_w| Gumbels at score
// -eps gamma / 2, and the race draws it the same way (largest first, on a
// uniformly drawn word), so the two constructions release the same law.
//
// gamma: MechanismParams::tem_gamma when > 0, else from beta as in the
// paper's implementations, gamma = (2/eps) ln((1 - beta)(|V| - 1) / beta):
// the radius outside which the untruncated mechanism lands with probability
// at most beta. Out-of-vocabulary words are scored from the origin.
class TemMechanism final : public Mechanism {
 public:
  TemMechanism(const Model& model, const MechanismParams& params);
  dxt_metric metric() const override;
  uint32_t privatize(RandomStream& rng, std::optional<uint32_t> index) override;
  void privatize_batch(RandomStream& rng, const std::optional<uint32_t>* indices, size_t count, uint32_t* out) override;
  size_t cache_bytes() const override { return selector_.heap_bytes(); }
  double gamma() const { return gamma_; }

 private:
  uint32_t draw(RandomStream& rng, const CandidateList& list, std::optional<uint32_t> index);

  const Model& model_;
  double gamma_;
  CandidateSelector selector_;
  std::vector<double> point_;
};

}  // namespace dxt
