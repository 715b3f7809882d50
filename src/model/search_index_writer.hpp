// SPDX-License-Identifier: Apache-2.0
// Writes a copy of a model with a search index section (kind 10,
// docs/format.md §10.2) added, or replaced when it already has one.
#pragma once

#include <cstdint>
#include <ostream>
#include <vector>

#include "model/model.hpp"

namespace dxt {

// The content of a search index section.
struct SearchIndexData {
  uint32_t cells = 0;  // K
  uint32_t iterations = 0, sample = 0;
  uint64_t seed = 0;
  std::vector<float> centroids;       // K x D
  std::vector<float> centroid_norms;  // K
  std::vector<uint32_t> offsets;      // K + 1
  std::vector<uint32_t> rows;         // V
};

// The section's bytes for `model` (checks the sizes against it).
std::vector<uint8_t> encode_search_index(const Model& model, const SearchIndexData& index);

// write_model_with_section (model/section_append_writer.hpp) with the index:
// every section of `model` but an existing search index copied, the new
// index appended, minor version max(its own, 2). `out` must be seekable and
// empty.
void write_model_with_search_index(const Model& model, const SearchIndexData& index, std::ostream& out);

}  // namespace dxt
