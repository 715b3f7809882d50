// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <vector>

#include "mechanisms/mechanism.hpp"
#include "model/context_prior.hpp"

namespace dxt {

// The ordering mechanism: metric differential privacy on public cycles
// through the vocabulary (the model's orderings section, docs/format.md
// §10.3), in which neighbours are near words. The idea of ordering the
// vocabulary on lines and moving a word along one is 1-Diffractor's
// (Meisenbacher, Chevli, Matthes, "1-Diffractor: Efficient and Utility-
// Preserving Text Obfuscation Leveraging Word-Level Metric Differential
// Privacy", 2024); here the lines are closed into cycles and the move is a
// wrapped two-sided geometric draw, so that the law is the same at every
// position and its guarantee needs no factor 2:
//
//   1. pick one of the K orderings L uniformly;
//   2. draw k = floor(E1/eps) - floor(E2/eps), E1, E2 ~ Exp(1): the two-sided
//      geometric law Pr[k] = (1-a)/(1+a) a^|k|, a = e^-eps (the difference
//      of two Geometric(1-a) variables);
//   3. release the word k places along L from w, modulo the cycle's length.
//
// With an output vocabulary S the cycle is L's words of S in L's order; a
// word not in S starts from the first member of S at or after it.
//
// Guarantee: eps * d(w, w') with d(w, w') = max over L of the cyclic
// distance between w's and w''s positions in L (the metric "ordering";
// docs/guarantees.md proves it). On a cycle of n places the offset has law
// f(r) ∝ a^r + a^(n-r) (r = 0 .. n-1), and f(r) <= e^eps f(r +- 1), so one
// ordering gives e^(eps * d_L); a uniform mixture of orderings gives the
// largest of them. With S, a step of one place along L moves the start in
// S's cycle by at most one place, so the same bound holds. Out-of-vocabulary
// words all start at place 0 of every cycle.
//
// The context prior (params().context_prior = B > 0, a model with a context
// prior section, model/context_prior.hpp): after the release of a word c,
// the law above, P(y | w), is weighted by how well y follows c in public
// text and renormalised:
//
//   P_c(y | w) = P(y | w) (1 + b(c, y)) / Z_c(w),  b(c, y) = min(B, lift(c, y) - 1),
//   Z_c(w) = 1 + sum over c's stored successors y of P(y | w) b(c, y)
//
// (b = 0 for a word the section does not list after c). It is drawn
// exactly as the mixture it is: with probability 1 / Z_c(w) the plain
// ordering draw, otherwise a successor y with probability proportional to
// P(y | w) b(c, y); both are always drawn, so the time does not depend on
// the outcome. c is a released word, so the weights are public.
// Guarantee: for every c, P_c(y | w) / P_c(y | w') <=
// e^(eps d(w, w')) Z_c(w') / Z_c(w), and Z_c(w') / Z_c(w) is at most
// e^(eps d(w, w')) (each term of the sums is) and at most 1 + B (1 <= Z <=
// 1 + B): eps d + min(eps d, ln(1 + B)) (docs/guarantees.md, "The context
// prior", proves it).
class OrderingMechanism final : public Mechanism {
 public:
  OrderingMechanism(const Model& model, const MechanismParams& params);
  dxt_metric metric() const override { return DXT_METRIC_ORDERING; }
  uint32_t privatize(RandomStream& rng, std::optional<uint32_t> index) override;
  uint32_t privatize_after(RandomStream& rng, std::optional<uint32_t> index, std::optional<uint32_t> previous) override;
  bool reads_context() const override { return prior_ != nullptr; }

  // The offset along a cycle of n places: floor(E1/eps) - floor(E2/eps)
  // modulo n, in [0, n). Shared with the statistical tests.
  static uint32_t cycle_offset(RandomStream& rng, double epsilon, uint32_t n);

  // The exact law in logs: log_law[o] = ln Pr[o | index] for every
  // vocabulary word o, -infinity outside the output vocabulary
  // (mechanisms/exact_law.hpp).
  // With `previous`, the law after that released word (the context prior's;
  // the same law without a prior or a previous word).
  void log_law(std::optional<uint32_t> index, std::vector<double>& log_law,
               std::optional<uint32_t> previous = std::nullopt) const;

 private:
  uint32_t K_ = 0, V_ = 0, n_ = 0;
  // start_[L * V + w]: w's place in the cycle of ordering L (over S);
  // member_[L * n + r]: the word at place r of that cycle.
  const uint32_t* start_ = nullptr;
  const uint32_t* member_ = nullptr;
  std::vector<uint32_t> own_start_, own_member_;  // with an output vocabulary

  // The context prior, when B > 0. place_[w * K + L] = start_[L * V + w]
  // (one cache line per word: a successor's K places in one read);
  // mass_[d] = Pr[a given place at cyclic distance d from the start] / K;
  // bonus_[code] = min(B, lift(code) - 1); weight_: scratch.
  void restrict_to_output(const OrderingsView& orderings);
  std::vector<double> log_place_law() const;
  void use_prior(const Model& model);
  const ContextPrior* prior_ = nullptr;
  const OutputSet* output_ = nullptr;
  std::vector<uint32_t> place_;
  std::vector<double> mass_;
  double bonus_[256] = {};
  std::vector<double> weight_;
};

// The cyclic distance of two places of a cycle of n places.
inline uint32_t cyclic_distance(uint32_t p, uint32_t q, uint32_t n) {
  const uint32_t gap = p > q ? p - q : q - p;
  return gap < n - gap ? gap : n - gap;
}

}  // namespace dxt
