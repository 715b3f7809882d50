// SPDX-License-Identifier: Apache-2.0
#include "model/search_index_writer.hpp"

#include <cstring>

#include "errors/error.hpp"
#include "model/format.hpp"
#include "model/section_append_writer.hpp"

namespace dxt {

std::vector<uint8_t> encode_search_index(const Model& model, const SearchIndexData& x) {
  namespace si = format::search_index;
  const uint64_t K = x.cells, D = model.dimension(), V = model.vocabulary_size();
  if (K == 0 || K > V || x.centroids.size() != K * D || x.centroid_norms.size() != K || x.offsets.size() != K + 1 ||
      x.rows.size() != V)
    fail(DXT_E_INTERNAL, "search index sizes do not match the model");
  std::vector<uint8_t> out(si::kHeaderSize + 4 * (K * D + K + K + 1 + V), 0);
  uint8_t* h = out.data();
  format::store_u32(h + si::kMethod, si::kMethodIvf);
  format::store_u32(h + si::kCells, x.cells);
  format::store_u32(h + si::kDimension, model.dimension());
  format::store_u32(h + si::kVocabularySize, model.vocabulary_size());
  format::store_u32(h + si::kIterations, x.iterations);
  format::store_u32(h + si::kSample, x.sample);
  format::store_u64(h + si::kSeed, x.seed);
  uint8_t* p = h + si::kHeaderSize;
  auto put = [&p](const void* data, size_t bytes) {
    std::memcpy(p, data, bytes);
    p += bytes;
  };
  put(x.centroids.data(), x.centroids.size() * 4);
  put(x.centroid_norms.data(), x.centroid_norms.size() * 4);
  put(x.offsets.data(), x.offsets.size() * 4);
  put(x.rows.data(), x.rows.size() * 4);
  return out;
}

void write_model_with_search_index(const Model& model, const SearchIndexData& index, std::ostream& out) {
  write_model_with_section(model, static_cast<uint32_t>(format::SectionKind::kSearchIndex),
                           encode_search_index(model, index), format::kMinorSearchIndex, out);
}

}  // namespace dxt
