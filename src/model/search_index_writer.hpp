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

// Copies every section of `model` except an existing search index, byte for
// byte and with its stored digest, then appends the new index; the header
// gets the new section table, minor version max(its own, 2) and a new
// header digest. `out` must be seekable and empty.
void write_model_with_search_index(const Model& model, const SearchIndexData& index, std::ostream& out);

// The same for any optional section: copies every section of `model` but
// one of `kind`, appends `section` as that kind, and stamps the minor
// version max(its own, `minor`).
void write_model_with_section(const Model& model, uint32_t kind, const std::vector<uint8_t>& section, uint16_t minor,
                              std::ostream& out);

}  // namespace dxt
