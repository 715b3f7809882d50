// Plausible-deniability statistics for choosing epsilon (Feyisetan, Balle,
// Drake & Diethe, WSDM 2020, §5): over a sample of vocabulary words,
//   N_w = Pr[M(w) = w]          (how often a word survives), and
//   S_w = |{M(w) over k trials}| (how many distinct words it becomes),
// each estimated from `trials` privatisations per word.
#pragma once

#include <cstdint>
#include <vector>

#include "mechanisms/mechanism.hpp"
#include "rng/random_stream.hpp"

namespace dxt {

struct CalibrationStats {
  uint32_t words = 0, trials = 0;
  double keep_mean = 0, keep_median = 0, keep_max = 0;              // N_w as a fraction of trials
  double distinct_mean = 0, distinct_median = 0, distinct_max = 0;  // S_w
};

// `count` distinct indices below `vocabulary_size`, uniformly at random
// (partial Fisher-Yates). count is capped at vocabulary_size.
std::vector<uint32_t> sample_words(RandomStream& rng, uint32_t vocabulary_size, uint32_t count);

CalibrationStats calibrate(Mechanism& mechanism, RandomStream& rng, const std::vector<uint32_t>& words,
                           uint32_t trials);

}  // namespace dxt
