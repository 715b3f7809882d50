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
  return c;
}

inline bool is_upper(uint32_t c) { return to_lower(c) != c; }
inline bool is_lower(uint32_t c) { return to_upper(c) != c; }

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
