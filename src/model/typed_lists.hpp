// SPDX-License-Identifier: Apache-2.0
// The typed classes section (kind 12, format 1.4, docs/format.md §10.4): for
// each list class (first names, surnames, cities, regions, countries,
// organisations, conditions, drugs) its members, lower case, sorted, each
// with a flag saying it is also a common English word (so it is taken as a
// member only when capitalised inside a sentence: "Bill" but not "bill").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "dxtext/dxtext.h"

namespace dxt {

namespace typed_format {
inline constexpr size_t kHeaderSize = 64;
inline constexpr size_t kClassCount = 0;        // u32 C
inline constexpr size_t kEntryCount = 4;        // u32 N
inline constexpr size_t kStringsSize = 8;       // u64 S
inline constexpr size_t kReserved = 16;         // 48 bytes, zero
inline constexpr size_t kClassRecordSize = 16;  // u32 class, u32 first, u32 count, u32 zero
inline constexpr size_t kEntrySize = 8;         // u32 offset, u16 length, u8 flags, u8 zero
inline constexpr uint8_t kFlagCommonWord = 0x1;
inline constexpr uint32_t kMaxEntries = 1u << 22;
inline constexpr uint64_t kMaxSectionSize = uint64_t{64} << 20;
inline constexpr size_t kMaxMemberBytes = 64;
// A class holds no members or at least this many (docs/format.md §10.4): a
// replacement is a member drawn uniformly, so a class of one member would
// release its member as its own "replacement", the input itself.
inline constexpr uint32_t kMinClassMembers = 2;
}  // namespace typed_format

// Classes a list may hold: DXT_TYPED_FIRST_NAME .. DXT_TYPED_DRUG.
inline bool is_list_class(uint32_t c) { return c >= DXT_TYPED_FIRST_NAME && c <= DXT_TYPED_DRUG; }

struct TypedMember {
  std::string word;  // lower case
  bool common_word = false;
};

// The decoded section: members by class, and each word's classes.
struct TypedLists {
  std::vector<TypedMember> members[DXT_TYPED_CLASS_COUNT];
  // What a typed replacement draws from, uniformly (indices into members):
  // the members the model's vocabulary has and that are not flagged common,
  // so a replaced city is a city the model's public text names, not one
  // nobody has heard of; all members when fewer than two are left. Set by
  // Model::typed_lists() (not part of the section's bytes).
  std::vector<uint32_t> replacements[DXT_TYPED_CLASS_COUNT];
  struct Entry {
    uint32_t classes = 0;         // bit (1u << class)
    uint32_t common_classes = 0;  // the classes in which it is flagged common
  };
  std::unordered_map<std::string, Entry> by_word;
  bool empty() const { return by_word.empty(); }
};

// The section's bytes for `lists` (members sorted and deduplicated here).
// Throws DXT_E_PARSE for a member that is empty, too long, not lower case,
// not valid UTF-8, or holds a space or control character, and for a class
// with fewer than kMinClassMembers distinct members (but none).
std::vector<uint8_t> encode_typed_lists(const TypedLists& lists);

// Decodes and checks the section's bytes (docs/format.md §10.4, check 19):
// throws DXT_E_CORRUPT_MODEL naming the first fault.
TypedLists decode_typed_lists(const uint8_t* data, uint64_t size);

// Checks the header alone (constant time, at open).
void check_typed_lists_header(const uint8_t* data, uint64_t size);

}  // namespace dxt
