// SPDX-License-Identifier: Apache-2.0
// Whether a model's geometry makes a mechanism a no-op at its epsilon: the
// words so far apart, relative to the noise, that every word comes back
// unchanged. Scaling a model's vectors by 1e12 does that at any epsilon a
// call accepts; the release would then be the input, under a record that
// says "private". The check (docs/guarantees.md, "A mechanism that keeps
// its input") takes a fixed sample of up to 16 words, evenly spaced rows,
// and for each its nearest other word at distance d. A word is kept with
// probability at least 1 - 1e-9 when t = epsilon * d / 2 passes the bound
// of its mechanism:
//   laplace: the noise's norm is Gamma(n, 1/epsilon) (n the dimension), and
//     a draw can leave the word only if the norm reaches d / 2; by the
//     Chernoff bound P(Gamma(n, 1) >= t) <= exp(n - t + n ln(t / n)) for t > n;
//   exponential: P(another word) <= (V - 1) exp(-epsilon d / 2), V words
//     (the mechanism weighs w' by exp(-epsilon d(w, w') / 2));
//   tem: as exponential with min(d, gamma) (every distance capped at gamma);
//   mahalanobis: as laplace with d / sqrt(lambda n + 1 - lambda), the noise
//     being laplace's shaped by Sigma_lambda^(1/2), whose largest singular
//     value that bounds.
// When every sampled word passes, the mechanism keeps its input: the
// release record then says so (DXT_REVEALS_INPUT_WORDS, not private).
// vickrey, syntf, hyperbolic models and restricted output vocabularies are
// not checked (false); ordering needs none: its step's law does not depend
// on the model, and a step of k places, 0 < k < V, never returns the word. A word-sample upper bound on d (the nearest
// other sampled word) is tried first, so a model and epsilon far from the bound, the usual case, cost K^2 distances and
// no pass over the vocabulary.
#pragma once

#include "mechanisms/mechanism.hpp"
#include "model/model.hpp"

namespace dxt {

// tem_gamma: the tem mechanism's truncation radius (ignored otherwise).
bool mechanism_keeps_input(const Model& model, const MechanismParams& params, double tem_gamma = 0);

}  // namespace dxt
