// SPDX-License-Identifier: Apache-2.0
// The worst case per word on one scale, in nats (docs/guarantees.md, "Worst
// case per word"): the largest privacy loss ln(Pr[o | w] / Pr[o | w']) over
// any two inputs w, w' (vocabulary words or the out-of-vocabulary point) and
// any output o, for one privatised word. A metric guarantee eps * d is only
// as strong as d is small: along a 40 000-word ordering d reaches 20 000
// places, so "eps" alone does not compare mechanisms; this figure does.
#pragma once

#include <cstdint>

#include "mechanisms/mechanism.hpp"

namespace dxt {

// An upper bound on d(w, w') over all inputs, for the metric of `m` on
// `model` (infinity when none is known):
//   ordering     floor(V / 2), the most places two words can be apart on a
//                cycle of V places;
//   euclidean    2 max_w ||phi(w)|| (the out-of-vocabulary point is the
//                origin, within it);
//   hyperbolic   2 max_w d_H(0, phi(w)) = 4 max_w artanh ||phi(w)||;
//   mahalanobis  2 max_w ||phi(w)|| / sqrt(1 - lambda) (Sigma_lambda's least
//                eigenvalue is at least 1 - lambda); infinity at lambda 1;
//   discrete     1 (syntf: any two documents).
double metric_diameter_bound(const Mechanism& m, const Model& model);

// m: an upper bound on the largest probability the mechanism (without a
// floor) gives one output, for any input. For ordering, the wrapped
// two-sided geometric law's largest term (at offset 0) on a cycle of n = |S|
// places, (1-a)/(1+a) (1 + a^n)/(1 - a^n) with a = e^-eps, which also bounds
// a mixture over orderings; 1 for the others.
double largest_output_probability(const Mechanism& m, const Model& model);

// The cap of the uniform floor p on S: ln(1 + (1 - p) m |S| / p); infinity
// for p = 0.
double floor_cap(double p, double m, uint32_t output_size);

// min(eps * D, floor_cap) for `m` as built (its floor in m.params().floor);
// with a context prior B, min(eps * D + min(eps * D, ln(1 + B)), floor_cap
// with m (1 + B) for m); syntf: eps per draw (its vocabulary bound when
// smaller).
double worst_case_per_word(const Mechanism& m, const Model& model);

}  // namespace dxt
