// SPDX-License-Identifier: Apache-2.0
// Euclidean decoding of noisy points for the mechanisms that release the
// nearest word to a noisy point (laplace, vickrey, mahalanobis): exact
// (the default) or through the model's search index, as the caller chose.
// Either way the word is a deterministic function of the noisy point and the
// model only (DESIGN.md §6, §7), so the choice affects utility, never privacy.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "dxtext/dxtext.h"
#include "model/model.hpp"
#include "search/exact_scan.hpp"
#include "search/ivf_search.hpp"

namespace dxt {

class EuclideanDecoder {
 public:
  // Batches smaller than this use the single-point scan (exact search).
  static constexpr size_t kMinBlocked = 4;

  // DXT_SEARCH_IVF needs a search index (DXT_E_UNSUPPORTED otherwise);
  // ivf_nprobe must be 0 with DXT_SEARCH_EXACT.
  // rows: an output vocabulary (ascending, non-empty; the caller keeps it
  // alive), decoded exactly over its rows only; nullptr = every word. The
  // search index covers the whole vocabulary, so DXT_SEARCH_IVF with rows is
  // refused (DXT_E_UNSUPPORTED).
  EuclideanDecoder(const Model& model, dxt_search search, uint32_t ivf_nprobe,
                   const std::vector<uint32_t>* rows = nullptr);

  const Model& model() const { return model_; }
  dxt_search search() const { return ivf_ ? DXT_SEARCH_IVF : DXT_SEARCH_EXACT; }

  uint32_t nearest(const float* z);
  TwoNearest two_nearest(const float* z);
  // out[j] = nearest(z + j * D) for j < count.
  void nearest_batch(const float* z, size_t count, uint32_t* out);

 private:
  const Model& model_;
  std::optional<IvfSearch> ivf_;
  const std::vector<uint32_t>* rows_ = nullptr;
  BatchScratch scratch_;
};

}  // namespace dxt
