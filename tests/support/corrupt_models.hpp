// SPDX-License-Identifier: Apache-2.0
// Hand-made corrupt model files, each with the status it must produce
// (DESIGN.md §3, §10): used by tests/unit/test_model_corrupt.cpp and as seeds
// of the model-open fuzz target. Header fields are changed and the header
// digest then recomputed, so each case reaches the validation it is meant to
// exercise.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "dxtext/dxtext.h"
#include "model/format.hpp"
#include "model/sha256.hpp"
#include "support/toy_models.hpp"

namespace dxt::test::corrupt {

namespace fmt = dxt::format;

// The model every corruption starts from: the 20-word grid, int8, with
// frequencies.
inline std::string valid_model() {
  test::ToyModelSpec s = test::grid_2d_spec();
  s.quantization = DXT_QUANT_INT8;
  s.with_frequencies = true;
  return test::build_model_bytes(s);
}

inline uint8_t* u8(std::string& b, size_t at) { return reinterpret_cast<uint8_t*>(&b[at]); }
inline void set_u64_raw(std::string& b, size_t at, uint64_t v) { fmt::store_u64(u8(b, at), v); }
inline uint32_t section_count(std::string& b) { return fmt::load_u32(u8(b, fmt::header::kSectionCount)); }
inline size_t entry_at(uint32_t s) { return fmt::kHeaderFixedSize + s * fmt::kSectionEntrySize; }

// Index of the section table entry of `kind`.
inline uint32_t find_section(std::string& b, fmt::SectionKind kind) {
  for (uint32_t s = 0; s < section_count(b); ++s)
    if (fmt::load_u32(u8(b, entry_at(s) + fmt::entry::kKind)) == static_cast<uint32_t>(kind)) return s;
  throw std::runtime_error("section not found");
}
inline uint64_t section_offset(std::string& b, fmt::SectionKind kind) {
  return fmt::load_u64(u8(b, entry_at(find_section(b, kind)) + fmt::entry::kOffset));
}

inline void fix_header_digest(std::string& b) {
  // A corrupted section count can claim more entries than the file holds:
  // digest what is there (the file is refused for its count anyway).
  const size_t n = std::min(b.size(), fmt::kHeaderFixedSize + size_t{section_count(b)} * fmt::kSectionEntrySize);
  std::memset(u8(b, fmt::header::kHeaderDigest), 0, 32);
  const Digest d = sha256(b.data(), n);
  std::memcpy(u8(b, fmt::header::kHeaderDigest), d.data(), 32);
}

inline void fix_section_digest(std::string& b, fmt::SectionKind kind) {
  const size_t e = entry_at(find_section(b, kind));
  const uint64_t off = fmt::load_u64(u8(b, e + fmt::entry::kOffset));
  const uint64_t size = fmt::load_u64(u8(b, e + fmt::entry::kSize));
  const Digest d = sha256(b.data() + off, size);
  std::memcpy(u8(b, e + fmt::entry::kDigest), d.data(), 32);
  fix_header_digest(b);
}

// Offset and size of every section, sorted by offset.
inline std::vector<std::pair<uint64_t, uint64_t>> section_ranges(std::string& b) {
  std::vector<std::pair<uint64_t, uint64_t>> r;
  for (uint32_t s = 0; s < section_count(b); ++s)
    r.emplace_back(fmt::load_u64(u8(b, entry_at(s) + fmt::entry::kOffset)),
                   fmt::load_u64(u8(b, entry_at(s) + fmt::entry::kSize)));
  std::sort(r.begin(), r.end());
  return r;
}

// The section that starts last, with `n` (a multiple of 64) zero bytes put
// before it: a gap the header accounts for (offset, file size, digest).
inline void gap_before_last_section(std::string& b, uint64_t n) {
  const uint64_t last = section_ranges(b).back().first;
  b.insert(last, n, '\0');
  for (uint32_t s = 0; s < section_count(b); ++s)
    if (fmt::load_u64(u8(b, entry_at(s) + fmt::entry::kOffset)) == last)
      set_u64_raw(b, entry_at(s) + fmt::entry::kOffset, last + n);
  set_u64_raw(b, fmt::header::kFileSize, b.size());
  fix_header_digest(b);
}

// The vocabulary hash table rebuilt with `capacity` slots (inserting the
// words in index order, as the writer does), the metadata moved behind it:
// a valid table, only larger than the writer would make it.
inline void with_hash_capacity(std::string& b, uint32_t capacity) {
  using K = fmt::SectionKind;
  const uint32_t V = fmt::load_u32(u8(b, fmt::header::kVocabularySize));
  const uint64_t offsets = section_offset(b, K::kVocabOffsets), strings = section_offset(b, K::kVocabStrings);
  std::vector<uint32_t> slots(capacity, 0);
  for (uint32_t i = 0; i < V; ++i) {
    const uint32_t begin = fmt::load_u32(u8(b, offsets + 4 * i)), end = fmt::load_u32(u8(b, offsets + 4 * i + 4));
    uint64_t pos = fmt::fnv1a64(&b[strings + begin], end - begin - 1) & (capacity - 1);
    while (slots[pos] != 0) pos = (pos + 1) & (capacity - 1);
    slots[pos] = i + 1;
  }
  const size_t hash_entry = entry_at(find_section(b, K::kVocabHash));
  const size_t meta_entry = entry_at(find_section(b, K::kMetadata));
  const uint64_t hash_at = section_offset(b, K::kVocabHash);
  const uint64_t meta_at = section_offset(b, K::kMetadata);
  const uint64_t meta_size = fmt::load_u64(u8(b, meta_entry + fmt::entry::kSize));
  if (meta_at < hash_at) throw std::runtime_error("the writer puts the metadata after the hash table");
  const std::string metadata = b.substr(meta_at, meta_size);
  b.resize(hash_at);
  b.append(reinterpret_cast<const char*>(slots.data()), 4 * size_t{capacity});
  const uint64_t new_meta_at = (b.size() + 63) / 64 * 64;
  b.resize(new_meta_at);
  b += metadata;
  b.resize((b.size() + 63) / 64 * 64);
  set_u64_raw(b, hash_entry + fmt::entry::kSize, 4 * uint64_t{capacity});
  set_u64_raw(b, meta_entry + fmt::entry::kOffset, new_meta_at);
  set_u64_raw(b, fmt::header::kFileSize, b.size());
  fix_section_digest(b, K::kVocabHash);
}

// One more section table entry, of kind 100 (unknown to this version) and
// `size` bytes, appended after the last section: the header grows by one
// entry, every other section moves 64 bytes on, and the new section's bytes
// (zero) and digest are filled in unless `materialize` is false (then the
// caller writes the file sparse, as an attacker would).
inline void with_unknown_section(std::string& b, uint64_t size, bool materialize = true) {
  const uint32_t count = section_count(b);
  const size_t header_size = entry_at(count);
  b.insert(header_size, fmt::kSectionEntrySize, '\0');
  for (uint32_t s = 0; s < count; ++s) {
    const size_t at = entry_at(s) + fmt::entry::kOffset;
    set_u64_raw(b, at, fmt::load_u64(u8(b, at)) + fmt::kSectionEntrySize);
  }
  fmt::store_u32(u8(b, fmt::header::kSectionCount), count + 1);
  fmt::store_u32(u8(b, fmt::header::kHeaderSize), static_cast<uint32_t>(header_size + fmt::kSectionEntrySize));
  b.resize((b.size() + 63) / 64 * 64);
  const uint64_t offset = b.size();
  const size_t e = entry_at(count);
  fmt::store_u32(u8(b, e + fmt::entry::kKind), 100);
  set_u64_raw(b, e + fmt::entry::kOffset, offset);
  set_u64_raw(b, e + fmt::entry::kSize, size);
  uint64_t file_size = (offset + size + 63) / 64 * 64;
  if (materialize) {
    b.resize(offset + size);
    const Digest d = sha256(b.data() + offset, size);
    std::memcpy(u8(b, e + fmt::entry::kDigest), d.data(), 32);
    b.resize(file_size);
  }
  set_u64_raw(b, fmt::header::kFileSize, file_size);
  fix_header_digest(b);
}

// The most that sections of unknown kinds may hold in `b` (docs/format.md
// §4, check 21): 1 MiB plus 4 times the sizes of kinds 2 and 4 to 11.
inline uint64_t unknown_sections_limit(std::string& b) {
  uint64_t counted = 0;
  for (uint32_t s = 0; s < section_count(b); ++s) {
    const uint32_t kind = fmt::load_u32(u8(b, entry_at(s) + fmt::entry::kKind));
    if (kind == 2 || (kind >= 4 && kind <= fmt::kHighestKnownKind))
      counted += fmt::load_u64(u8(b, entry_at(s) + fmt::entry::kSize));
  }
  return (uint64_t{1} << 20) + 4 * counted;
}

struct Corruption {
  const char* name;
  std::function<void(std::string&)> apply;
  dxt_status expected;
};

inline void set_u32(std::string& b, size_t at, uint32_t v) { fmt::store_u32(u8(b, at), v); }
inline void set_u64(std::string& b, size_t at, uint64_t v) { fmt::store_u64(u8(b, at), v); }
// Changes a header field and re-signs the header.
inline std::function<void(std::string&)> header_u32(size_t at, uint32_t v) {
  return [=](std::string& b) { set_u32(b, at, v), fix_header_digest(b); };
}
inline std::function<void(std::string&)> entry_field(fmt::SectionKind kind, size_t field, uint64_t v,
                                                     bool is_u64 = true) {
  return [=](std::string& b) {
    const size_t at = entry_at(find_section(b, kind)) + field;
    is_u64 ? set_u64(b, at, v) : set_u32(b, at, static_cast<uint32_t>(v));
    fix_header_digest(b);
  };
}

// Corruptions caught at open, with the status each must give.
inline std::vector<Corruption> table() {
  using K = fmt::SectionKind;
  namespace h = fmt::header;
  return {
      {"empty file", [](std::string& b) { b.clear(); }, DXT_E_NOT_A_MODEL},
      {"four bytes", [](std::string& b) { b.resize(4); }, DXT_E_NOT_A_MODEL},
      {"bad magic", [](std::string& b) { b[1] = 'Q'; }, DXT_E_NOT_A_MODEL},
      {"text-mode mangled line ending", [](std::string& b) { b.erase(4, 1); }, DXT_E_NOT_A_MODEL},
      {"truncated inside the header", [](std::string& b) { b.resize(100); }, DXT_E_TRUNCATED_MODEL},
      {"truncated inside the section table", [](std::string& b) { b.resize(200); }, DXT_E_TRUNCATED_MODEL},
      {"last byte missing", [](std::string& b) { b.pop_back(); }, DXT_E_TRUNCATED_MODEL},
      {"extra trailing byte", [](std::string& b) { b.push_back('\0'); }, DXT_E_CORRUPT_MODEL},
      {"major version 2", header_u32(h::kVersionMajor, 2), DXT_E_UNSUPPORTED_VERSION},
      {"byte-swapped endianness tag", header_u32(h::kEndianTag, 0x0D0C0B0A), DXT_E_CORRUPT_MODEL},
      {"header byte flipped, digest stale", [](std::string& b) { b[h::kDimension] ^= 1; }, DXT_E_DIGEST_MISMATCH},
      {"section entry flipped, digest stale", [](std::string& b) { b[entry_at(0) + 9] ^= 1; }, DXT_E_DIGEST_MISMATCH},
      {"reserved flag bit", header_u32(h::kFlags, 0x80), DXT_E_CORRUPT_MODEL},
      {"reserved header byte", header_u32(h::kReserved + 8, 1), DXT_E_CORRUPT_MODEL},
      {"zero sections", header_u32(h::kSectionCount, 0), DXT_E_CORRUPT_MODEL},
      {"65 sections", header_u32(h::kSectionCount, 65), DXT_E_CORRUPT_MODEL},
      {"header size disagrees", header_u32(h::kHeaderSize, 1024), DXT_E_CORRUPT_MODEL},
      {"declared file size too large",
       [](std::string& b) { set_u64(b, h::kFileSize, b.size() + 64), fix_header_digest(b); }, DXT_E_TRUNCATED_MODEL},
      {"empty vocabulary", header_u32(h::kVocabularySize, 0), DXT_E_CORRUPT_MODEL},
      {"vocabulary size disagrees with sections", header_u32(h::kVocabularySize, 21), DXT_E_CORRUPT_MODEL},
      {"huge vocabulary size", header_u32(h::kVocabularySize, 0xFFFFFFF0u), DXT_E_CORRUPT_MODEL},
      {"dimension 0", header_u32(h::kDimension, 0), DXT_E_CORRUPT_MODEL},
      {"dimension 70000", header_u32(h::kDimension, 70000), DXT_E_CORRUPT_MODEL},
      {"dimension disagrees with the matrix", header_u32(h::kDimension, 3), DXT_E_CORRUPT_MODEL},
      {"unknown geometry", header_u32(h::kGeometry, 7), DXT_E_CORRUPT_MODEL},
      {"unknown quantisation", header_u32(h::kQuantization, 9), DXT_E_CORRUPT_MODEL},
      {"int8 model claims f32", header_u32(h::kQuantization, DXT_QUANT_F32), DXT_E_CORRUPT_MODEL},
      {"unaligned section", entry_field(K::kMatrix, fmt::entry::kOffset, 64 * 7 + 8), DXT_E_CORRUPT_MODEL},
      {"section past the end", entry_field(K::kMetadata, fmt::entry::kOffset, 1u << 20), DXT_E_TRUNCATED_MODEL},
      {"section size overflows", entry_field(K::kMetadata, fmt::entry::kSize, ~0ull - 8), DXT_E_CORRUPT_MODEL},
      {"section over the header", entry_field(K::kMatrix, fmt::entry::kOffset, 0), DXT_E_CORRUPT_MODEL},
      {"sections overlap",
       [](std::string& b) {
         const uint64_t m = section_offset(b, K::kMatrix);
         set_u64(b, entry_at(find_section(b, K::kRowNorms)) + fmt::entry::kOffset, m);
         fix_header_digest(b);
       },
       DXT_E_CORRUPT_MODEL},
      {"duplicate section kind", entry_field(K::kFrequencies, fmt::entry::kKind, 7, false), DXT_E_CORRUPT_MODEL},
      {"missing matrix (kind renamed)", entry_field(K::kMatrix, fmt::entry::kKind, 99, false), DXT_E_CORRUPT_MODEL},
      {"section kind 0", entry_field(K::kFrequencies, fmt::entry::kKind, 0, false), DXT_E_CORRUPT_MODEL},
      {"section flags set", entry_field(K::kMatrix, fmt::entry::kFlags, 1, false), DXT_E_CORRUPT_MODEL},
      {"matrix size wrong", entry_field(K::kMatrix, fmt::entry::kSize, 39), DXT_E_CORRUPT_MODEL},
      {"hash capacity not a power of two", entry_field(K::kVocabHash, fmt::entry::kSize, 4 * 63), DXT_E_CORRUPT_MODEL},
      {"hash capacity not above the vocabulary", entry_field(K::kVocabHash, fmt::entry::kSize, 4 * 16),
       DXT_E_CORRUPT_MODEL},
      {"metadata byte flipped", [](std::string& b) { b[section_offset(b, K::kMetadata) + 6] ^= 0x40; },
       DXT_E_DIGEST_MISMATCH},
      {"metadata count too large (re-signed)",
       [](std::string& b) {
         set_u32(b, section_offset(b, K::kMetadata), 1000000);
         fix_section_digest(b, K::kMetadata);
       },
       DXT_E_CORRUPT_MODEL},
      {"metadata string length past its section (re-signed)",
       [](std::string& b) {
         set_u32(b, section_offset(b, K::kMetadata) + 4, 0x7FFFFFFF);
         fix_section_digest(b, K::kMetadata);
       },
       DXT_E_CORRUPT_MODEL},
      // No bytes outside the sections but zero padding below 64 bytes
      // (docs/format.md §2, check 17): a valid model with a sparse tail or
      // gap would make the fingerprint read all of it.
      {"64 zero bytes after the last section, file_size admitting them",
       [](std::string& b) {
         b.append(64, '\0');
         set_u64(b, h::kFileSize, b.size()), fix_header_digest(b);
       },
       DXT_E_CORRUPT_MODEL},
      {"4 KiB of zeros after the last section, file_size admitting them",
       [](std::string& b) {
         b.append(4096, '\0');
         set_u64(b, h::kFileSize, b.size()), fix_header_digest(b);
       },
       DXT_E_CORRUPT_MODEL},
      {"a 64-byte gap between two sections", [](std::string& b) { gap_before_last_section(b, 64); },
       DXT_E_CORRUPT_MODEL},
      {"a padding byte set",
       [](std::string& b) {
         const auto r = section_ranges(b);
         for (size_t i = 0; i + 1 < r.size(); ++i)
           if (r[i].first + r[i].second < r[i + 1].first) {
             b[r[i].first + r[i].second] = 1;
             return;
           }
         throw std::runtime_error("the toy model has no padding between sections");
       },
       DXT_E_CORRUPT_MODEL},
      {"hash table of more than 4 V slots", [](std::string& b) { with_hash_capacity(b, 128); }, DXT_E_CORRUPT_MODEL},
      // Sections of unknown kinds: at most 1 MiB + 4 x the sections the
      // counts size (check 21), or reading the file would cost what a sparse
      // section of any size declares.
      {"a section of unknown kind one byte over the limit",
       [](std::string& b) { with_unknown_section(b, unknown_sections_limit(b) + 1); }, DXT_E_CORRUPT_MODEL},
      {"vocabulary offsets do not span the strings",
       [](std::string& b) { set_u32(b, section_offset(b, K::kVocabOffsets), 1); }, DXT_E_CORRUPT_MODEL},
  };
}

// A corruption of per-word data, which open does not read: caught when the
// word is used (DXT_E_CORRUPT_MODEL), or at open with digest verification.
struct LazyCorruption {
  const char* name;
  std::function<void(std::string&)> apply;
};

inline std::vector<LazyCorruption> lazy_table() {
  using K = fmt::SectionKind;
  return {
      {"offset of word 3 points backwards",
       [](std::string& b) { set_u32(b, section_offset(b, K::kVocabOffsets) + 12, 0); }},
      {"offset of word 3 past the strings",
       [](std::string& b) { set_u32(b, section_offset(b, K::kVocabOffsets) + 16, 100000); }},
      {"word terminator overwritten", [](std::string& b) { b[section_offset(b, K::kVocabStrings) + 2] = 'x'; }},
      {"word bytes not UTF-8", [](std::string& b) { b[section_offset(b, K::kVocabStrings)] = '\xC0'; }},
      {"hash slots out of range",
       [](std::string& b) {
         const uint64_t off = section_offset(b, K::kVocabHash);
         for (int i = 0; i < 64; ++i) set_u32(b, off + 4 * i, 0xFFFFFFFFu);
       }},
  };
}

}  // namespace dxt::test::corrupt
