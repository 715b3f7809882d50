// SPDX-License-Identifier: Apache-2.0
// Simple one-to-one case mapping for the scripts dxtext's default models
// cover: ASCII, Latin-1, Latin Extended-A, Greek and Cyrillic. Other code
// points are caseless here (see docs/limitations in the README).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "unicode/utf8.hpp"

namespace dxt::unicode {

inline uint32_t to_lower(uint32_t c) {
  if (c >= 'A' && c <= 'Z') return c + 32;
  if (c < 0xC0) return c;
  if (c <= 0xDE) return c == 0xD7 ? c : c + 32;  // Latin-1
  if (c == 0x130) return 'i';                    // İ -> i
  if (c >= 0x100 && c <= 0x137) return c | 1;    // Ext-A
  if (c >= 0x139 && c <= 0x148) return (c & 1) ? c + 1 : c;
  if (c >= 0x14A && c <= 0x177) return c | 1;
  if (c == 0x178) return 0xFF;
  if (c >= 0x179 && c <= 0x17E) return (c & 1) ? c + 1 : c;
  if (c == 0x386) return 0x3AC;  // Greek, tonos
  if (c >= 0x388 && c <= 0x38A) return c + 37;
  if (c == 0x38C) return 0x3CC;
  if (c == 0x38E || c == 0x38F) return c + 63;
  if (c >= 0x391 && c <= 0x3AB && c != 0x3A2) return c + 32;  // Greek
  if (c >= 0x400 && c <= 0x40F) return c + 80;                // Cyrillic
  if (c >= 0x410 && c <= 0x42F) return c + 32;
  if (c >= 0x24B6 && c <= 0x24CF) return c + 26;  // circled Latin letters
  if (c >= 0xFF21 && c <= 0xFF3A) return c + 32;  // full-width Latin letters
  return c;
}

inline uint32_t to_upper(uint32_t c) {
  if (c >= 'a' && c <= 'z') return c - 32;
  if (c < 0xE0) return c;
  if (c <= 0xFE) return c == 0xF7 ? c : c - 32;
  if (c == 0xFF) return 0x178;
  if (c == 0x131) return 'I';  // ı -> I
  if (c >= 0x100 && c <= 0x137) return c & ~1u;
  if (c >= 0x139 && c <= 0x148) return (c & 1) ? c : c - 1;
  if (c >= 0x14A && c <= 0x177) return c & ~1u;
  if (c >= 0x179 && c <= 0x17E) return (c & 1) ? c : c - 1;
  if (c == 0x3C2) return 0x3A3;  // final sigma
  if (c == 0x3AC) return 0x386;
  if (c >= 0x3AD && c <= 0x3AF) return c - 37;
  if (c == 0x3CC) return 0x38C;
  if (c == 0x3CD || c == 0x3CE) return c - 63;
  if (c >= 0x3B1 && c <= 0x3CB && c != 0x3C2) return c - 32;
  if (c >= 0x430 && c <= 0x44F) return c - 32;
  if (c >= 0x450 && c <= 0x45F) return c - 80;
  if (c >= 0x24D0 && c <= 0x24E9) return c - 26;
  if (c >= 0xFF41 && c <= 0xFF5A) return c - 32;
  return c;
}

// Letters with a case but no case mapping: the mathematical alphanumeric
// Latin letters (U+1D400..U+1D6A3, 13 styles of 26 capitals then 26 small
// letters), the letter-like capitals (U+2102 "ℂ", U+210B "ℋ", ...) that
// stand in that block's gaps, and the squared, parenthesized and negative
// Latin capitals (U+1F130..U+1F189). Their case is what "𝐁𝐢𝐥𝐥" shows.
inline bool is_unmapped_upper(uint32_t c) {
  if (c >= 0x1D400 && c <= 0x1D6A3) return (c - 0x1D400) % 52 < 26;
  if (c >= 0x1F110 && c <= 0x1F189) return true;
  constexpr uint32_t kLetterlike[] = {0x2102, 0x2107, 0x210B, 0x210C, 0x210D, 0x2110, 0x2111,
                                      0x2112, 0x2115, 0x2119, 0x211A, 0x211B, 0x211C, 0x211D,
                                      0x2124, 0x2128, 0x212C, 0x212D, 0x2130, 0x2131, 0x2133};
  for (uint32_t l : kLetterlike)
    if (c == l) return true;
  return false;
}
inline bool is_unmapped_lower(uint32_t c) {
  if (c >= 0x1D400 && c <= 0x1D6A3) return (c - 0x1D400) % 52 >= 26;
  return c == 0x210A || c == 0x210E || c == 0x210F || c == 0x2113 || c == 0x212F || c == 0x2134;
}

inline bool is_upper(uint32_t c) { return to_lower(c) != c || is_unmapped_upper(c); }
inline bool is_lower(uint32_t c) { return to_upper(c) != c || is_unmapped_lower(c); }

// Lowercases valid UTF-8 (the caller has validated it).
inline std::string lowercase(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  size_t i = 0;
  while (i < s.size()) {
    const uint32_t cp = utf8::decode(s.data(), s.size(), i);
    if (cp == utf8::kInvalid) return std::string(s);
    utf8::append(out, to_lower(cp));
  }
  return out;
}

inline std::string uppercase(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  size_t i = 0;
  while (i < s.size()) {
    const uint32_t cp = utf8::decode(s.data(), s.size(), i);
    if (cp == utf8::kInvalid) return std::string(s);
    utf8::append(out, to_upper(cp));
  }
  return out;
}

}  // namespace dxt::unicode
