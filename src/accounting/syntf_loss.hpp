// SPDX-License-Identifier: Apache-2.0
// The exact per-draw privacy loss of the SynTF mechanism on one vocabulary
// (DESIGN.md §9): what `dxtext account syntf` prints.
#pragma once

#include <cstdint>
#include <functional>

#include "model/model.hpp"

namespace dxt {

struct SyntfLoss {
  double epsilon = 0;
  double s = 0;
  uint32_t vocabulary_size = 0;
  // l = max_w [max_v ln Pr[w|v] - min_v ln Pr[w|v]] over all vocabulary words
  // v (inputs) and w (outputs): the largest log-ratio of the probabilities of
  // one output under two inputs. Always <= epsilon.
  double loss = 0;
  uint32_t worst_output = 0;        // the w attaining l
  uint32_t most_likely_input = 0;   // argmax_v Pr[w|v] for that w
  uint32_t least_likely_input = 0;  // argmin_v Pr[w|v] for that w
};

// The vocabulary-size bound on the per-draw loss, epsilon + ln eta(epsilon,
// L), for L = `vocabulary_size` output words (the form of Weggenmann &
// Kerschbaum 2018, Cor. 3.5; derivation in docs/guarantees.md, syntf):
//
//   eta(epsilon, L) = (1 + (L - 1) q) / (q (q + L - 1)),   q = e^(epsilon/2).
//
// It holds for any inputs whose ratings lie in the mechanism's range
// (out-of-vocabulary ones included), lies in [0, epsilon], is 0 for L = 1
// and tends to epsilon as L grows. Computed in log space: finite for any
// finite epsilon. The exact loss l below is never larger.
double syntf_vocabulary_bound(double epsilon, uint64_t vocabulary_size);

// Computes l exactly (up to rounding) for `model`: all V^2 ratings of
// SyntfMechanism, in blocks of input words (cosines by a block matrix
// product, bigram Dice through the inverted index, a log-sum-exp per input
// for ln Z(v)), keeping a running maximum and minimum of ln Pr[w|v] per output
// w. Uses `threads` threads (0: all hardware threads) and V*D doubles of
// memory for the normalised rows. `progress(done, total)` counts input words
// and is called from the worker threads, one call at a time. Throws
// DXT_E_INVALID_EPSILON / DXT_E_INVALID_ARGUMENT like the mechanism.
SyntfLoss syntf_loss(const Model& model, double epsilon, double s,
                     const std::function<void(uint64_t, uint64_t)>& progress = {}, unsigned threads = 0);

}  // namespace dxt
