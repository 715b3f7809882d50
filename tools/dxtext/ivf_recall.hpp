// SPDX-License-Identifier: Apache-2.0
// Measured recall of IVF decoding against exact decoding, on the same noisy
// points: what `dxtext index` prints after a build and `dxtext bench --search
// ivf` reports. The points are laplace noisy vectors around words drawn at
// random from a keyed (reproducible, not private) stream.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "model/model.hpp"

namespace dxt::cli {

struct RecallPoint {
  uint32_t nprobe = 0;
  double recall = 0;        // share of points whose IVF word is the exact word
  double ms_per_point = 0;  // IVF decoding alone
};

struct RecallReport {
  size_t points = 0;
  double epsilon = 0;
  double exact_ms_per_point = 0;  // single-point exact scan, same points
  std::vector<RecallPoint> probes;
};

// `points` noisy points at `epsilon`; the exact words by the batched scan;
// exact single-point time over at most `timed_exact` of them. The nprobe
// values are measured in the order given; with `stop_when_slower`, values
// after the first that is not faster than exact decoding are skipped.
RecallReport measure_ivf_recall(const Model& model, double epsilon, size_t points, uint64_t seed,
                                const std::vector<uint32_t>& nprobes, bool stop_when_slower = false,
                                size_t timed_exact = 64);

// One JSON object: {"points":..,"epsilon":..,"exact_ms_per_point":..,
// "ivf":[{"nprobe":..,"recall":..,"ms_per_point":..,"speedup":..},..]}.
std::string recall_json(const RecallReport& report);

}  // namespace dxt::cli
