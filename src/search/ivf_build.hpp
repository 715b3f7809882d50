// SPDX-License-Identifier: Apache-2.0
// Building the search index of a model (docs/format.md §10.2): k-means cells
// over the rows, trained on a sample, then every row assigned to its nearest
// centroid.
//
// The random choices (which rows form the sample and the initial centroids)
// come from a plain seeded generator, not from the noise generator: they are
// public, like the vocabulary, and a fixed seed makes the build reproducible.
// With the same seed, parameters, model and kernel set the index is the same
// byte for byte, whatever the number of threads.
#pragma once

#include <cstdint>
#include <functional>

#include "model/model.hpp"
#include "model/search_index_writer.hpp"

namespace dxt {

struct ScanKernels;

struct IvfBuildOptions {
  uint32_t cells = 0;        // K; 0 = default_cells(V)
  uint32_t sample = 0;       // training rows; 0 = min(V, 32 K); at least K
  uint32_t iterations = 10;  // Lloyd iterations after the initial assignment
  uint64_t seed = 1;
  unsigned threads = 0;  // 0 = the hardware's count
  const ScanKernels* kernels = nullptr;
  // progress(stage, done, total), stage "training" or "assigning"; may be empty.
  std::function<void(const char*, uint64_t, uint64_t)> progress;
};

// round(4 sqrt(V)), at least 1 and at most V.
uint32_t default_cells(uint32_t vocabulary_size);

// Throws DXT_E_UNSUPPORTED for a Poincare model (decoded exactly in
// hyperbolic distance only) and DXT_E_INVALID_ARGUMENT for K = 0 or K > V.
SearchIndexData build_ivf_index(const Model& model, const IvfBuildOptions& options);

}  // namespace dxt
