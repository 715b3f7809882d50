// SPDX-License-Identifier: Apache-2.0
// Strict UTF-8 decoding (RFC 3629): no overlong forms, no surrogates, nothing
// above U+10FFFF, no truncated sequences. Used for input text and for words
// read from untrusted model files.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace dxt::utf8 {

inline constexpr uint32_t kInvalid = 0xFFFFFFFFu;

// Decodes the code point starting at s[i]; advances i past it. Returns
// kInvalid (and advances by one byte) for a malformed sequence.
inline uint32_t decode(const char* s, size_t n, size_t& i) {
  const auto b0 = static_cast<uint8_t>(s[i]);
  if (b0 < 0x80) {
    ++i;
    return b0;
  }
  size_t len;
  uint32_t cp;
  uint32_t min;
  if ((b0 & 0xE0) == 0xC0) {
    len = 2, cp = b0 & 0x1F, min = 0x80;
  } else if ((b0 & 0xF0) == 0xE0) {
    len = 3, cp = b0 & 0x0F, min = 0x800;
  } else if ((b0 & 0xF8) == 0xF0) {
    len = 4, cp = b0 & 0x07, min = 0x10000;
  } else {
    ++i;
    return kInvalid;
  }
  if (n - i < len) {
    ++i;
    return kInvalid;
  }
  for (size_t k = 1; k < len; ++k) {
    const auto b = static_cast<uint8_t>(s[i + k]);
    if ((b & 0xC0) != 0x80) {
      ++i;
      return kInvalid;
    }
    cp = (cp << 6) | (b & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
    ++i;
    return kInvalid;
  }
  i += len;
  return cp;
}

// Byte offset of the first invalid sequence, or n when all of s is valid.
inline size_t first_invalid(const char* s, size_t n) {
  size_t i = 0;
  while (i < n) {
    const size_t at = i;
    if (decode(s, n, i) == kInvalid) return at;
  }
  return n;
}

inline bool valid(const char* s, size_t n) { return first_invalid(s, n) == n; }

inline void append(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

}  // namespace dxt::utf8
