// SPDX-License-Identifier: Apache-2.0
#include "model/typed_lists.hpp"

#include <algorithm>
#include <cstring>

#include "errors/error.hpp"
#include "model/checked_math.hpp"
#include "model/format.hpp"
#include "unicode/fold.hpp"
#include "unicode/utf8.hpp"

namespace dxt {

namespace tf = typed_format;
using format::load_u32;
using format::load_u64;

namespace {

[[noreturn]] void corrupt(const std::string& what) { fail(DXT_E_CORRUPT_MODEL, "typed classes section: " + what); }

// Why `w` may not be a member, or nullptr.
const char* member_fault(std::string_view w) {
  if (w.empty()) return "is empty";
  if (w.size() > tf::kMaxMemberBytes) return "is longer than 64 bytes";
  if (!utf8::valid(w.data(), w.size())) return "is not valid UTF-8";
  for (char c : w)
    if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7f) return "holds a space or control character";
  if (!unicode::is_folded(w)) return "is not in folded form (lower case, NFKC)";
  return nullptr;
}

}  // namespace

void check_typed_lists_header(const uint8_t* data, uint64_t size) {
  if (size < tf::kHeaderSize) corrupt("shorter than its 64-byte header");
  if (size > tf::kMaxSectionSize) corrupt("larger than 64 MiB");
  const uint32_t C = load_u32(data + tf::kClassCount);
  const uint32_t N = load_u32(data + tf::kEntryCount);
  const uint64_t S = load_u64(data + tf::kStringsSize);
  for (size_t i = tf::kReserved; i < tf::kHeaderSize; ++i)
    if (data[i] != 0) corrupt("reserved header bytes are set");
  if (C == 0 || C > DXT_TYPED_DRUG) corrupt("class count " + std::to_string(C) + " is outside 1..8");
  if (N == 0 || N > tf::kMaxEntries) corrupt("entry count " + std::to_string(N) + " is outside 1..4194304");
  // Every term is bounded above, so the sum cannot wrap.
  if (S > tf::kMaxSectionSize ||
      size != tf::kHeaderSize + uint64_t{C} * tf::kClassRecordSize + uint64_t{N} * tf::kEntrySize + S)
    corrupt("size is not 64 + 16 C + 8 N + S");
}

TypedLists decode_typed_lists(const uint8_t* data, uint64_t size) {
  check_typed_lists_header(data, size);
  const uint32_t C = load_u32(data + tf::kClassCount);
  const uint32_t N = load_u32(data + tf::kEntryCount);
  const uint64_t S = load_u64(data + tf::kStringsSize);
  const uint8_t* classes = data + tf::kHeaderSize;
  const uint8_t* entries = classes + uint64_t{C} * tf::kClassRecordSize;
  const char* strings = reinterpret_cast<const char*>(entries + uint64_t{N} * tf::kEntrySize);
  TypedLists lists;
  uint32_t previous_class = 0, next_first = 0;
  for (uint32_t c = 0; c < C; ++c) {
    const uint8_t* r = classes + uint64_t{c} * tf::kClassRecordSize;
    const uint32_t cls = load_u32(r), first = load_u32(r + 4), count = load_u32(r + 8);
    if (load_u32(r + 12) != 0) corrupt("reserved class record bytes are set");
    if (!is_list_class(cls)) corrupt("class " + std::to_string(cls) + " is not a list class (1..8)");
    if (cls <= previous_class) corrupt("classes are not in increasing order");
    if (first != next_first || count == 0 || count > N - first)
      corrupt("the members of class " + std::to_string(cls) + " do not follow the class before");
    if (count < tf::kMinClassMembers)
      corrupt("class " + std::to_string(cls) + " has " + std::to_string(count) + " member, fewer than " +
              std::to_string(tf::kMinClassMembers) + " (its replacement would be the input itself)");
    previous_class = cls;
    next_first = first + count;
    std::vector<TypedMember>& members = lists.members[cls];
    members.reserve(count);
    for (uint32_t e = first; e < first + count; ++e) {
      const uint8_t* x = entries + uint64_t{e} * tf::kEntrySize;
      const uint32_t offset = load_u32(x);
      const uint16_t length = format::load_u16(x + 4);
      const uint8_t flags = x[6];
      if (x[7] != 0 || (flags & ~tf::kFlagCommonWord) != 0) corrupt("reserved entry bits are set");
      if (offset > S || length > S - offset) corrupt("entry " + std::to_string(e) + " runs past the strings");
      std::string_view w(strings + offset, length);
      if (const char* fault = member_fault(w)) corrupt("member " + std::to_string(e) + " " + fault);
      if (!members.empty() && !(members.back().word < w))
        corrupt("members of class " + std::to_string(cls) + " are not sorted and distinct");
      members.push_back({std::string(w), (flags & tf::kFlagCommonWord) != 0});
      TypedLists::Entry& entry = lists.by_word[std::string(w)];
      entry.classes |= 1u << cls;
      if ((flags & tf::kFlagCommonWord) != 0) entry.common_classes |= 1u << cls;
    }
  }
  if (next_first != N) corrupt("entries belong to no class");
  return lists;
}

std::vector<uint8_t> encode_typed_lists(const TypedLists& lists) {
  struct Item {
    uint32_t cls;
    std::string word;
    bool common;
  };
  std::vector<Item> items;
  for (uint32_t c = 0; c < DXT_TYPED_CLASS_COUNT; ++c) {
    if (lists.members[c].empty()) continue;
    if (!is_list_class(c)) fail(DXT_E_PARSE, "class " + std::to_string(c) + " cannot hold a list");
    for (const TypedMember& m : lists.members[c]) {
      if (const char* fault = member_fault(m.word)) fail(DXT_E_PARSE, "typed member '" + m.word + "' " + fault);
      items.push_back({c, m.word, m.common_word});
    }
  }
  std::sort(items.begin(), items.end(),
            [](const Item& a, const Item& b) { return a.cls != b.cls ? a.cls < b.cls : a.word < b.word; });
  // Duplicates: common if any copy is.
  std::vector<Item> unique;
  for (Item& it : items) {
    if (!unique.empty() && unique.back().cls == it.cls && unique.back().word == it.word) {
      unique.back().common |= it.common;
    } else {
      unique.push_back(std::move(it));
    }
  }
  if (unique.empty()) fail(DXT_E_PARSE, "the typed lists are empty");
  for (size_t i = 0; i < unique.size();) {
    size_t j = i;
    while (j < unique.size() && unique[j].cls == unique[i].cls) ++j;
    if (j - i < tf::kMinClassMembers)
      fail(DXT_E_PARSE, std::string("the typed class ") + std::to_string(unique[i].cls) + " has " +
                            std::to_string(j - i) + " member ('" + unique[i].word + "'), fewer than " +
                            std::to_string(tf::kMinClassMembers) +
                            ": a replacement drawn from it would be the input itself");
    i = j;
  }
  if (unique.size() > tf::kMaxEntries) fail(DXT_E_PARSE, "the typed lists hold more than 4194304 members");
  uint32_t C = 0;
  for (size_t i = 0; i < unique.size(); ++i) C += i == 0 || unique[i].cls != unique[i - 1].cls;
  const uint32_t N = static_cast<uint32_t>(unique.size());
  std::string strings;
  for (const Item& it : unique) strings += it.word;
  std::vector<uint8_t> out(tf::kHeaderSize + uint64_t{C} * tf::kClassRecordSize + uint64_t{N} * tf::kEntrySize +
                           strings.size());
  format::store_u32(out.data() + tf::kClassCount, C);
  format::store_u32(out.data() + tf::kEntryCount, N);
  format::store_u64(out.data() + tf::kStringsSize, strings.size());
  uint8_t* classes = out.data() + tf::kHeaderSize;
  uint8_t* entries = classes + uint64_t{C} * tf::kClassRecordSize;
  std::memcpy(entries + uint64_t{N} * tf::kEntrySize, strings.data(), strings.size());
  uint32_t c = 0, offset = 0;
  for (uint32_t i = 0; i < N; ++i) {
    if (i == 0 || unique[i].cls != unique[i - 1].cls) {
      uint8_t* r = classes + uint64_t{c++} * tf::kClassRecordSize;
      uint32_t count = 0;
      while (i + count < N && unique[i + count].cls == unique[i].cls) ++count;
      format::store_u32(r, unique[i].cls);
      format::store_u32(r + 4, i);
      format::store_u32(r + 8, count);
    }
    uint8_t* x = entries + uint64_t{i} * tf::kEntrySize;
    format::store_u32(x, offset);
    format::store_u16(x + 4, static_cast<uint16_t>(unique[i].word.size()));
    x[6] = unique[i].common ? tf::kFlagCommonWord : 0;
    offset += static_cast<uint32_t>(unique[i].word.size());
  }
  return out;
}

}  // namespace dxt
