#pragma once

#include <vector>

#include "mechanisms/mechanism.hpp"

namespace dxt {

// The metric exponential mechanism over the vocabulary (as used by SanText,
// Yue et al. 2021): Pr[o | w] ∝ exp(-eps d(w, o) / 2), with d the model's
// geometry (Euclidean, or the Poincare distance).
//
// Guarantee: for any o, |d(w,o) - d(w',o)| <= d(w,w') (triangle inequality),
// so numerator and normaliser each change by at most exp(eps d(w,w')/2):
// eps * d(w, w') per word (McSherry & Talwar 2007 with sensitivity d(w,w')).
//
// Samplers: Gumbel-max (argmax_o of -eps d/2 + G_o with full-range uniforms:
// exact), or permute-and-flip (McKenna & Sheldon 2020): visit words in a
// random order and accept o with probability exp(-eps (d(w,o) - d_min) / 2);
// it satisfies the same bound (their Thm. 1 with sensitivity d(w,w'), since
// d_min also moves by at most d(w,w')) and never has higher expected
// distance than Gumbel-max. Its running time depends on the draw.
// Out-of-vocabulary words are scored from the origin.
class ExponentialMechanism final : public Mechanism {
 public:
  ExponentialMechanism(const Model& model, const MechanismParams& params);
  dxt_metric metric() const override;
  uint32_t privatize(RandomStream& rng, std::optional<uint32_t> index) override;

 private:
  const Model& model_;
  std::vector<float> row_;
  std::vector<double> point_, distances_;
  std::vector<uint32_t> order_;
};

// An unbiased uniform integer in [0, n) by rejection (n > 0).
uint32_t uniform_index(RandomStream& rng, uint32_t n);

}  // namespace dxt
