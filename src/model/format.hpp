// SPDX-License-Identifier: Apache-2.0
// Constants of the .dxe model format, version 1.5. docs/format.md is the
// normative description; this file must agree with it field for field.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace dxt::format {

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "dxtext reads .dxe files in place and needs a little-endian host"
#endif

inline constexpr uint8_t kMagic[8] = {0x89, 'D', 'X', 'E', '\r', '\n', 0x1A, '\n'};
inline constexpr uint16_t kVersionMajor = 1;
// The newest minor version this library reads and writes. 1.1 adds the
// covariance section (kind 9), 1.2 the search index (kind 10), 1.3 the
// orderings (kind 11), 1.4 the typed classes (kind 12), 1.5 the context
// prior (kind 13). The writer
// stamps the oldest minor version whose sections the file uses, so a file
// without either is a 1.0 file byte for byte.
inline constexpr uint16_t kVersionMinor = 5;
inline constexpr uint16_t kMinorCovariance = 1;
inline constexpr uint16_t kMinorSearchIndex = 2;
inline constexpr uint16_t kMinorOrderings = 3;
inline constexpr uint16_t kMinorTypedClasses = 4;
inline constexpr uint16_t kMinorContextPrior = 5;
inline constexpr uint32_t kEndianTag = 0x0A0B0C0Du;

inline constexpr size_t kHeaderFixedSize = 128;
inline constexpr size_t kSectionEntrySize = 64;
inline constexpr uint32_t kMaxSections = 64;
inline constexpr uint64_t kSectionAlignment = 64;
inline constexpr uint32_t kMaxDimension = 65536;
inline constexpr uint64_t kMaxMetadataSize = 1u << 20;
// Bounds of a row's squared Euclidean norm (docs/format.md §9): 0, or in
// [kMinRowSquaredNorm, kMaxRowSquaredNorm]. Below the upper bound every
// product and sum the mechanisms form from two rows and a noisy point stays
// far from the binary32 limit (3.4e38) even in float; above the lower one a
// norm, its square root and a cosine of it are normal numbers (a row of
// subnormal elements would have a squared norm that rounds to 0).
inline constexpr double kMaxRowSquaredNorm = 1e30;
inline constexpr double kMinRowSquaredNorm = 1e-30;
// Sections of unknown kinds (14 and above) hold together at most this many
// bytes plus kUnknownSectionsFactor times the bytes of the sections whose
// sizes the header's counts fix (every known kind but metadata and strings):
// docs/format.md §4, check 21. This bounds what reading a whole file costs.
inline constexpr uint64_t kUnknownSectionsAllowance = 1u << 20;
inline constexpr uint64_t kUnknownSectionsFactor = 4;
inline constexpr size_t kDigestSize = 32;

// Byte offsets inside the fixed header.
namespace header {
inline constexpr size_t kMagic = 0;
inline constexpr size_t kVersionMajor = 8;
inline constexpr size_t kVersionMinor = 10;
inline constexpr size_t kEndianTag = 12;
inline constexpr size_t kHeaderSize = 16;
inline constexpr size_t kSectionCount = 20;
inline constexpr size_t kFileSize = 24;
inline constexpr size_t kFlags = 32;
inline constexpr size_t kVocabularySize = 40;
inline constexpr size_t kDimension = 44;
inline constexpr size_t kGeometry = 48;
inline constexpr size_t kQuantization = 52;
inline constexpr size_t kReserved = 56;  // 40 bytes, must be zero
inline constexpr size_t kHeaderDigest = 96;
}  // namespace header

// Byte offsets inside one section-table entry.
namespace entry {
inline constexpr size_t kKind = 0;
inline constexpr size_t kFlags = 4;  // must be zero
inline constexpr size_t kOffset = 8;
inline constexpr size_t kSize = 16;
inline constexpr size_t kDigest = 24;
inline constexpr size_t kReserved = 56;  // 8 bytes, must be zero
}  // namespace entry

inline constexpr uint64_t kFlagLowercase = 1u << 0;
inline constexpr uint64_t kKnownFlags = kFlagLowercase;

enum class SectionKind : uint32_t {
  kMetadata = 1,
  kVocabOffsets = 2,
  kVocabStrings = 3,
  kVocabHash = 4,
  kMatrix = 5,
  kRowScales = 6,
  kRowNorms = 7,
  kFrequencies = 8,
  kCovariance = 9,     // since 1.1
  kSearchIndex = 10,   // since 1.2
  kOrderings = 11,     // since 1.3
  kTypedClasses = 12,  // since 1.4 (docs/format.md §10.4)
  kContextPrior = 13,  // since 1.5 (docs/format.md §10.5)
};
inline constexpr uint32_t kHighestKnownKind = 13;

// The search index section (kind 10, docs/format.md §10.2): a 64-byte
// header, then the centroids, their squared norms, the cell offsets and the
// row ids of each cell.
namespace search_index {
inline constexpr size_t kHeaderSize = 64;
inline constexpr size_t kMethod = 0;  // u32, 1 = IVF with Euclidean cells
inline constexpr size_t kCells = 4;   // u32 K
inline constexpr size_t kDimension = 8;
inline constexpr size_t kVocabularySize = 12;
inline constexpr size_t kIterations = 16;  // u32, build parameter (informative)
inline constexpr size_t kSample = 20;      // u32, build parameter (informative)
inline constexpr size_t kSeed = 24;        // u64, build parameter (informative)
inline constexpr size_t kReserved = 32;    // 32 bytes, must be zero
inline constexpr uint32_t kMethodIvf = 1;
}  // namespace search_index

// The orderings section (kind 11, docs/format.md §10.3): a 64-byte header,
// then K orderings of the vocabulary, each V u32 word indices: the word at
// position 0, 1, ..., V - 1 of a cycle (position V - 1 is followed by 0).
namespace orderings {
inline constexpr size_t kHeaderSize = 64;
inline constexpr size_t kMethod = 0;          // u32, 1 = tours (nearest-neighbour cycle improved by 2-opt)
inline constexpr size_t kCount = 4;           // u32 K, 1 .. kMaxCount
inline constexpr size_t kVocabularySize = 8;  // u32, = the model's V
inline constexpr size_t kNeighbours = 12;     // u32, build parameter (informative)
inline constexpr size_t kSeed = 16;           // u64, build parameter (informative)
inline constexpr size_t kReserved = 24;       // 40 bytes, must be zero
inline constexpr uint32_t kMethodTours = 1;
inline constexpr uint32_t kMaxCount = 64;
}  // namespace orderings

inline uint16_t load_u16(const uint8_t* p) {
  uint16_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline uint32_t load_u32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline uint64_t load_u64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
// A u32 of a section that may change while the model uses it (a mapped
// file rewritten in place): read exactly once, through a volatile access,
// so that the value checked is the value used and the compiler cannot load
// it again after the check. p must be 4-byte aligned, as every u32 array
// of a section is (docs/format.md §5).
inline uint32_t load_u32_once(const uint8_t* p) { return *reinterpret_cast<const volatile uint32_t*>(p); }

inline void store_u16(uint8_t* p, uint16_t v) { std::memcpy(p, &v, sizeof v); }
inline void store_u32(uint8_t* p, uint32_t v) { std::memcpy(p, &v, sizeof v); }
inline void store_u64(uint8_t* p, uint64_t v) { std::memcpy(p, &v, sizeof v); }

// FNV-1a, 64-bit: the hash of the stored vocabulary table (docs/format.md).
inline uint64_t fnv1a64(const char* data, size_t size) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < size; ++i) {
    h ^= static_cast<uint8_t>(data[i]);
    h *= 0x100000001b3ull;
  }
  return h;
}

inline size_t element_size(uint32_t quantization) {
  switch (quantization) {
    case 1: return 4;  // f32
    case 2: return 2;  // f16
    case 3: return 1;  // int8
    default: return 0;
  }
}

}  // namespace dxt::format
