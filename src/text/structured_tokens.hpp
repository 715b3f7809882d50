// SPDX-License-Identifier: Apache-2.0
// The typed tokens found by their pattern: e-mail addresses, URLs, user
// handles, street addresses, phone numbers, clock times and numbers of every
// shape (dates, versions, amounts, ordinals). The tokenizer tries them at every
// token start, so that each is ONE token (and the '.' of "example.com" is no
// sentence end).
//
// The patterns read the text folded (toNFKC_Casefold, unicode/fold.hpp)
// code point by code point, so compatibility forms are what they stand for:
// "＠" and "﹫" are "@", the full-width "ｊｏｅ" and the mathematical
// "𝐣𝐨𝐞" are "joe", U+00A0 and U+3000 are spaces, and default-ignorable
// code points (zero-width space, joiner, soft hyphen) are skipped. Any
// other non-ASCII letter or digit is a letter of a host, an address's local
// part or a URL's path ("josé@correo.es", "/café"); any other non-ASCII
// code point (’ “ ” … and the like) ends a match, which may stand right
// before or after it ("“@bridge”", "anna@mail.de’s").
//
// Every scan is bounded by kMaxStructuredBytes, except a URL's path, whose
// every byte scanned is part of the match: a hostile text costs at most
// that much per token start.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

#include "dxtext/dxtext.h"

namespace dxt {

inline constexpr size_t kMaxStructuredBytes = 256;

struct StructuredMatch {
  size_t end;           // one past the token's last byte
  dxt_typed_class cls;  // DXT_TYPED_EMAIL, _URL, _HANDLE, _STREET, _PHONE, _TIME or _NUMBER
};

// The structured token that starts at byte `at` of `text`, if any. `at`
// must be a token start: the code point before it (if any) is not a letter,
// digit or '_'. Patterns (docs/guarantees.md, "Typed replacement"), read
// folded as above:
//   URL     http:// https:// ftp:// or www. then URL characters (non-ASCII
//           letters too), less trailing punctuation (. , ; : ! ? ' " ) ] }),
//           of any length; or, without a scheme, a host name whose last
//           label is a common top-level domain ("reddit.com/r/x",
//           "bbc.co.uk"; not an English word such as "it" or "me"), or any
//           2..6 letters when a '/' '?' or '#' follows ("site.blog/post")
//   e-mail  local@domain.tld, local of letters, digits and ._%+- (at most
//           64 bytes), labels of letters, digits and '-', a final label of
//           at least two ASCII letters. The '@' may be written "&#64;",
//           "%40", "&commat;", "(at)", "[at]", "{at}", "<at>", with up to
//           three white-space characters (space, tab, line break, U+00A0)
//           on either side, or as the word "at" between spaces when the
//           domain spells a dot out too ("anna dot lee at gmail dot com");
//           a dot may be "(dot)", "[dot]", "{dot}" or the word "dot", or
//           have white space around it, only before a common top-level
//           domain (com, org, net, de, ...)
//   handle  '@' then 1..30 of [A-Za-z0-9_]
//   street  a house number (1..6 digits, and a letter: "12B"), one to three
//           words, none a stopword, all capitalised (or numbers: "42nd")
//           or all lower case, single spaces between, and a street type
//           (Street, Road, Avenue, Lane, Drive, Court, St, Rd, Ave, ...;
//           after lower-case words only street, avenue, boulevard, st,
//           ave, blvd), then a unit if any (", apartment 4", " Apt. 4B",
//           " #12")
//   phone   '+' or '(' then digits, or 7..15 digits in 2 or more groups of
//           2..4 (the last of at least 3; two groups only as 3-4) separated
//           by single '-', '.', ' ' (with '.', exactly 3-3-4)
//   time    H:MM or H:MM:SS, hour 0..23 (14:30, 23:59:30); or with am/pm
//           (attached or after one space, any case, "a.m": 2:08 PM, 9am,
//           12.30 p.m) H, H:MM, H.MM or H:MM:SS, hour 1..12; minutes and
//           seconds 00..59; no more digits joined on (a '-' may follow)
//   number  digits (full-width digits too) joined by single . , : / - between digits (1,000.50,
//           2024-03-12, 12:30, 3/12/2024, 1.2.3), optionally followed by
//           st nd rd th am pm (any case)
// A match must not run into a letter or digit (then the word rules apply).
std::optional<StructuredMatch> match_structured(std::string_view text, size_t at);

}  // namespace dxt
