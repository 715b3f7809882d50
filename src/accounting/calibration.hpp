// SPDX-License-Identifier: Apache-2.0
// Plausible-deniability statistics for choosing epsilon (Feyisetan, Balle,
// Drake & Diethe, WSDM 2020, §5): over a sample of vocabulary words,
//   N_w = Pr[M(w) = w]          (how often a word survives), and
//   S_w = |{M(w) over k trials}| (how many distinct words it becomes),
// each estimated from `trials` privatisations per word.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <vector>

#include "mechanisms/mechanism.hpp"
#include "mechanisms/output_set.hpp"
#include "rng/random_stream.hpp"

namespace dxt {

struct CalibrationStats {
  uint32_t words = 0, trials = 0;
  double keep_mean = 0, keep_median = 0, keep_max = 0;              // N_w as a fraction of trials
  double distinct_mean = 0, distinct_median = 0, distinct_max = 0;  // S_w
  std::vector<double> keep_per_word;                                // N_w of each word, in sample order
};

// `count` distinct indices below `vocabulary_size`, uniformly at random
// (partial Fisher-Yates). count is capped at vocabulary_size.
std::vector<uint32_t> sample_words(RandomStream& rng, uint32_t vocabulary_size, uint32_t count);

// The words a calibration samples: `count` words of the output vocabulary
// `output` (the words a mechanism can release, so the only ones it can keep;
// nullptr: the whole vocabulary), drawn as sample_words draws.
std::vector<uint32_t> sample_output_words(RandomStream& rng, const OutputSet* output, uint32_t vocabulary_size,
                                          uint32_t count);

CalibrationStats calibrate(Mechanism& mechanism, RandomStream& rng, const std::vector<uint32_t>& words,
                           uint32_t trials);

// The same with common random numbers: the trials of the i-th word draw
// from a keyed stream of their own, keyed by SHA-256(key, i), so calls with
// the same key and words at different epsilons use the same draws. For
// laplace, whose draws do not depend on epsilon in number, each trial's
// noisy point then moves along one ray towards phi(w) as epsilon grows, and
// N_w is non-decreasing in epsilon (w's decoding cell is convex and holds
// phi(w)): a search over epsilon sees one monotone curve, not fresh noise at
// every step.
CalibrationStats calibrate_common(Mechanism& mechanism, const std::array<uint8_t, 32>& key,
                                  const std::vector<uint32_t>& words, uint32_t trials);

enum class KeepStatistic { kMedian, kMean, kMax };
double keep_statistic(const std::vector<double>& keep, KeepStatistic stat);

// The search for the epsilon whose statistic of N_w reaches `target`:
// `run(eps)` calibrates at eps (on common random numbers). The bracket is
// found by doubling from `floor` (epsilon must exceed it), then narrowed by
// 14 bisection steps. The interval is a percentile bootstrap over the
// sampled words: `resamples` resamples, each mapped to epsilon through the
// curves measured, which are refined where the interval's ends fall.
struct EpsilonSearch {
  double epsilon = 0;                          // the upper end of the final bracket
  double bracket_low = 0;                      // its lower end: below the target
  double interval_low = 0, interval_high = 0;  // 95% over the word sample
  CalibrationStats stats;                      // at epsilon
  uint32_t runs = 0;                           // calibrations made
};
EpsilonSearch search_epsilon(const std::function<CalibrationStats(double)>& run, double target, KeepStatistic stat,
                             double floor, RandomStream& rng, uint32_t resamples = 1000);

}  // namespace dxt
