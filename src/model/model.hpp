// SPDX-License-Identifier: Apache-2.0
// A validated, read-only view of a .dxe model file (docs/format.md).
//
// Opening checks the header, the section table and the metadata: a constant
// amount of work, whatever the vocabulary size. Per-word data (string offsets,
// hash slots) is checked in O(1) each time it is used, so a hostile file can
// make a call fail with DXT_E_CORRUPT_MODEL but never read out of bounds.
//
// The bytes may change under the model (a mapped file rewritten in place, a
// caller's buffer reused): everything that bounds a read is either kept in
// the Model itself (sizes, counts, section places: read once at open), read
// once at each use and checked before it is used (word offsets, hash
// slots), or copied at first use and checked on the copy (search index
// cells, covariance). Changed bytes can change which words come out, never
// where the model reads (docs/format.md §12.4).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dxtext/dxtext.h"
#include "model/sha256.hpp"

namespace dxt {

struct ModelBytes;    // the mapping or the caller's buffer
struct TypedLists;    // model/typed_lists.hpp
struct ContextPrior;  // model/context_prior.hpp

struct ModelOpenOptions {
  bool verify_digests = false;
  // Read the file (or copy the buffer) into memory the model owns, instead
  // of mapping it: later writes, truncation or reuse of the file or buffer
  // do not reach the model (DXT_OPEN_PRIVATE_COPY).
  bool private_copy = false;
};

struct SectionView {
  const uint8_t* data = nullptr;
  uint64_t size = 0;
  Digest digest{};
};

// The search index section (kind 10, docs/format.md §10.2) in place: an
// inverted file of K cells over the rows, for approximate decoding.
struct SearchIndexView {
  uint32_t cells = 0;  // K
  uint32_t iterations = 0, sample = 0;
  uint64_t seed = 0;                      // build parameters, informative
  const float* centroids = nullptr;       // K x D, row-major
  const float* centroid_norms = nullptr;  // K squared norms
  const uint32_t* offsets = nullptr;      // K + 1: cell c holds rows[offsets[c] .. offsets[c+1])
  const uint32_t* rows = nullptr;         // V row ids, each exactly once
};

// The orderings section (kind 11, docs/format.md §10.3), checked and with
// each word's position in each ordering: K public cycles through the
// vocabulary for the ordering mechanism.
struct OrderingsView {
  uint32_t count = 0;  // K
  uint32_t vocabulary_size = 0;
  uint32_t neighbours = 0;  // build parameters, informative
  uint64_t seed = 0;
  const uint32_t* words = nullptr;      // K x V: words[L * V + p] = the word at position p of ordering L
  const uint32_t* positions = nullptr;  // K x V: positions[L * V + w] = the position of word w in ordering L
};

class Model {
 public:
  static std::shared_ptr<const Model> open_file(const std::string& path, const ModelOpenOptions& options);
  // Without private_copy the buffer must outlive the model and be 8-byte
  // aligned; with it, the buffer is copied and may go at once.
  static std::shared_ptr<const Model> open_memory(const void* data, size_t size, const ModelOpenOptions& options);
  ~Model();
  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;

  uint32_t vocabulary_size() const { return vocabulary_size_; }
  uint32_t dimension() const { return dimension_; }
  dxt_geometry geometry() const { return geometry_; }
  dxt_quantization quantization() const { return quantization_; }
  bool lowercase() const { return lowercase_; }
  uint16_t format_major() const { return format_major_; }
  uint16_t format_minor() const { return format_minor_; }
  bool has_frequencies() const { return frequencies_.data != nullptr; }
  bool has_covariance() const { return covariance_.data != nullptr; }
  bool has_search_index() const { return search_index_section_.data != nullptr; }
  bool has_orderings() const { return orderings_section_.data != nullptr; }
  bool has_typed_lists() const { return typed_section_.data != nullptr; }
  // The typed classes section (kind 12, docs/format.md §10.4) decoded, or
  // nullptr without one. The header is checked at open; on the first call
  // the section is copied and every member checked (O(section size)); a
  // failed check throws DXT_E_CORRUPT_MODEL on every call.
  const TypedLists* typed_lists() const;
  bool has_context_prior() const { return prior_section_.data != nullptr; }
  // The context prior section (kind 13, docs/format.md §10.5) decoded, or
  // nullptr without one; checked like the typed classes: the header at
  // open, every pair on the first call (O(V + P)).
  const ContextPrior* context_prior() const;
  const std::map<std::string, std::string>& metadata() const { return metadata_; }

  // The word at index i (validated: in bounds, NUL-terminated, UTF-8).
  std::string_view word(uint32_t index) const;
  // Exact lookup of the stored bytes (no case folding).
  std::optional<uint32_t> find_exact(std::string_view word) const;
  // Lookup as the text functions do: folded (unicode::fold: full case
  // folding, NFKC, default-ignorables dropped) when the vocabulary is
  // declared lowercase, i.e. folded; otherwise exact, then folded.
  std::optional<uint32_t> lookup(std::string_view word) const;

  // The rows, checked on first use of any of the four calls below (not at
  // open, so that opening stays constant work; docs/format.md §12.2): every
  // dequantised element, scale and stored norm finite, scales non-negative,
  // each row's squared norm 0 or within [kMinRowSquaredNorm,
  // kMaxRowSquaredNorm] (format.hpp), below 1 in a Poincare model, and the
  // stored norm equal to it within 1e-3 relative. So no mechanism meets an
  // infinite or NaN norm, product or cosine. O(V D) once; a failed check
  // throws DXT_E_CORRUPT_MODEL on every call.
  void check_rows() const;
  // Row i dequantised into out[0..dimension).
  void row(uint32_t index, float* out) const;
  // Raw matrix storage for the scan kernels.
  const uint8_t* matrix_data() const {
    check_rows();
    return matrix_.data;
  }
  const float* row_scales() const;           // int8 only, else nullptr
  const float* row_norms() const;            // squared norms of the dequantised rows
  uint64_t frequency(uint32_t index) const;  // 0 without a frequency section; throws when out of range
  // The D x D covariance matrix (row-major f64, docs/format.md §10.1), or
  // nullptr without a covariance section. On the first call it is copied out
  // of the file and the copy checked (finite, exactly symmetric), not at
  // open, so that opening stays constant work; a failed check throws
  // DXT_E_CORRUPT_MODEL on every call.
  const double* covariance() const;

  // The search index, or nullptr without one. Its sizes are checked at open;
  // on the first call the cell offsets and row ids are copied out of the
  // file, O(K + V), and the copy is checked (every row exactly once). A
  // failed check throws DXT_E_CORRUPT_MODEL on every call. After a
  // successful return every offset and row id is in range, and stays so
  // whatever happens to the file.
  const SearchIndexView* search_index() const;

  // The orderings, or nullptr without them. The header and the exact size
  // are checked at open; on the first call the orderings are copied out of
  // the file, O(K V), and each is checked to be a permutation of the
  // vocabulary; a failed check throws DXT_E_CORRUPT_MODEL on every call.
  const OrderingsView* orderings() const;

  // The whole file as stored (for tools that copy its sections).
  const uint8_t* file_data() const { return base_; }

  // SHA-256 of the whole file, computed on first use and cached.
  const Digest& fingerprint() const;
  uint64_t file_size() const { return size_; }

 private:
  Model() = default;
  void validate(const ModelOpenOptions& options);
  void parse_metadata();

  std::unique_ptr<ModelBytes> bytes_;
  const uint8_t* base_ = nullptr;
  uint64_t size_ = 0;

  uint16_t format_major_ = 0;
  uint16_t format_minor_ = 0;
  uint32_t vocabulary_size_ = 0;
  uint32_t dimension_ = 0;
  dxt_geometry geometry_ = DXT_GEOMETRY_UNKNOWN;
  dxt_quantization quantization_ = DXT_QUANT_UNKNOWN;
  bool lowercase_ = false;

  void parse_search_index();
  void parse_orderings();

  SectionView metadata_section_, offsets_, strings_, hash_, matrix_, scales_, norms_, frequencies_, covariance_,
      search_index_section_, orderings_section_, typed_section_, prior_section_;
  SearchIndexView search_index_;
  OrderingsView orderings_header_;  // header fields, set at open
  uint64_t hash_capacity_ = 0;
  std::map<std::string, std::string> metadata_;

  mutable std::once_flag covariance_once_;
  mutable std::vector<double> covariance_copy_;
  mutable std::string covariance_error_;  // empty when the values are valid
  mutable std::once_flag search_index_once_;
  mutable std::vector<uint32_t> index_offsets_, index_rows_;  // copies, checked
  mutable SearchIndexView checked_index_;                     // points at the copies
  mutable std::string search_index_error_;                    // empty when the cells are valid
  mutable std::once_flag orderings_once_;
  mutable std::vector<uint32_t> ordering_words_, ordering_positions_;  // copies, checked
  mutable OrderingsView checked_orderings_;                            // points at the copies
  mutable std::string orderings_error_;                                // empty when the orderings are valid
  mutable std::once_flag typed_once_;
  mutable std::unique_ptr<TypedLists> typed_lists_;
  mutable std::string typed_error_;
  mutable std::once_flag prior_once_;
  mutable std::unique_ptr<ContextPrior> prior_;
  mutable std::string prior_error_;
  mutable std::once_flag rows_once_;
  mutable std::string rows_error_;  // empty when the rows are valid
  mutable std::once_flag fingerprint_once_;
  mutable Digest fingerprint_{};
};

}  // namespace dxt
