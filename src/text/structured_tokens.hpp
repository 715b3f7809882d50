// SPDX-License-Identifier: Apache-2.0
// The typed tokens found by their pattern: e-mail addresses, URLs, user
// handles, phone numbers and numbers of every shape (dates, times, versions,
// amounts, ordinals). The tokenizer tries them at every token start, so that
// each is ONE token (and the '.' of "example.com" is no sentence end).
// ASCII patterns only; every scan is bounded (kMaxStructuredBytes), so a
// hostile text costs at most that much per token start.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

#include "dxtext/dxtext.h"

namespace dxt {

inline constexpr size_t kMaxStructuredBytes = 256;

struct StructuredMatch {
  size_t end;           // one past the token's last byte
  dxt_typed_class cls;  // DXT_TYPED_EMAIL, _URL, _HANDLE, _PHONE or _NUMBER
};

// The structured token that starts at byte `at` of `text`, if any. `at`
// must be a token start: the byte before it (if any) is not an ASCII letter
// or digit. Patterns (docs/guarantees.md, "Typed replacement"):
//   URL     http:// https:// or www. then URL characters, less trailing
//           punctuation (. , ; : ! ? ' " ) ] })
//   e-mail  local@domain.tld, local of [A-Za-z0-9._%+-] (at most 64),
//           labels of [A-Za-z0-9-], a final label of at least two letters;
//           a space may stand on either side of the '@', and on either side
//           of the '.' before a common top-level domain (com, org, net, ...)
//   handle  '@' then 1..30 of [A-Za-z0-9_]
//   phone   '+' or '(' then digits, or 7..15 digits in 2 or more groups of
//           2..4 (the last of at least 3; two groups only as 3-4) separated
//           by single '-', '.', ' ' (with '.', exactly 3-3-4)
//   number  digits joined by single . , : / - between digits (1,000.50,
//           2024-03-12, 12:30, 3/12/2024, 1.2.3), optionally followed by
//           st nd rd th am pm (any case)
// A match must not run into a letter or digit (then the word rules apply).
std::optional<StructuredMatch> match_structured(std::string_view text, size_t at);

}  // namespace dxt
