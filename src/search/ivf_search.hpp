// SPDX-License-Identifier: Apache-2.0
// Approximate decoding through the model's search index (an inverted file,
// docs/format.md §10.2; DESIGN.md §7): rank the K cell centroids by their
// distance to the noisy point z, then score the rows of the `nprobe` nearest
// cells exactly as the exact scan scores them.
//
// The result is a deterministic function of z and the model alone (centroid
// ranking and row scores depend on nothing else; ties break to the lowest
// cell, then the lowest row index), so using it instead of the exact scan is
// post-processing of z and leaves every privacy guarantee unchanged. It is
// the exact-scan word whenever that word lies in a probed cell; with
// nprobe = K it is the exact-scan word, always.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "model/model.hpp"
#include "search/exact_scan.hpp"

namespace dxt {

struct ScanKernels;

class IvfSearch {
 public:
  // Throws DXT_E_UNSUPPORTED when the model has no search index, and
  // DXT_E_CORRUPT_MODEL when its cells fail the first-use checks. nprobe = 0
  // selects default_nprobe(K); values above K mean K.
  IvfSearch(const Model& model, uint32_t nprobe, const ScanKernels* kernels = nullptr);

  // The default number of cells probed for an index of K cells: K / 16,
  // at least 8 (all of them for K <= 8). docs/performance.md gives its
  // measured recall.
  static uint32_t default_nprobe(uint32_t cells);

  uint32_t cells() const { return index_.cells; }
  uint32_t nprobe() const { return nprobe_; }

  // The nearest word among the probed cells' rows (nearest_euclidean's
  // score; the lowest index wins a tie). 0 when no row has a finite score,
  // as the exact scan.
  uint32_t nearest(const float* z);
  // The two nearest words among the probed cells' rows, as
  // two_nearest_euclidean.
  TwoNearest two_nearest(const float* z);
  // out[j] = nearest(z + j * D) for j < count, each probed cell's rows read
  // once for all the points that probe it.
  void nearest_batch(const float* z, size_t count, uint32_t* out);

 private:
  static constexpr uint32_t kGather = 256;  // rows scored per kernel call

  // The nprobe nearest cells to z, in no particular order, first in order_.
  void rank_cells(const float* z);
  // visit(v, score of row v) for every row of the probed cells.
  template <typename Visit>
  void scan_probed(const float* z, Visit visit);
  void gather(const uint32_t* ids, uint32_t n);
  // visit(ids[i], score of row ids[i] for z) for the n gathered rows.
  template <typename Visit>
  void score_gathered(const uint32_t* ids, uint32_t n, const float* z, Visit visit);

  const Model& model_;
  const SearchIndexView& index_;
  const ScanKernels& kernels_;
  uint32_t nprobe_;
  std::vector<float> cell_scores_;
  std::vector<uint32_t> order_;
  std::vector<uint8_t> gathered_;  // up to kGather rows, in the storage type
  std::vector<float> dots_;
  // nearest_batch: probed cells per point, points per cell, best so far.
  std::vector<uint32_t> probes_, cell_start_, cell_points_, fill_, best_;
  std::vector<float> best_score_;
};

}  // namespace dxt
