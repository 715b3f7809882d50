// SPDX-License-Identifier: Apache-2.0
// Splits UTF-8 text into words, numbers, invisible runs and the spans
// between them. Every byte of the input belongs to exactly one token, so
// joining the tokens gives the input back; what of each kind the output
// shows is the text privatizer's (the detokenizer's) choice.
//
// Code points are classified from the Unicode Character Database
// (src/unicode/char_class.hpp): letters (with marks, letter-like symbols,
// private use and unassigned code points), digits (every numeric category),
// invisible (default-ignorable) and other. A word is a maximal run of
// letters and digits, which continues across an apostrophe (' or U+2019)
// between two letters ("don't"), a '.' or ',' between two digits (3.14,
// 1,000) and a run of invisible code points between two word characters.
// A word without a letter is a number. Hyphens separate words. A run of
// invisible code points anywhere else is a token of its own, and so is
// every run of other code points (a span).
//
// Before those rules, at every token start (and at every code point of a
// span), the patterns of text/structured_tokens.hpp are tried: an e-mail
// address, URL, user handle, street address, phone number, clock time
// ("2:08 PM", its am/pm included) or number of any shape (a date, a
// version) that matches is ONE token, a word (e-mail, URL, handle, street)
// or a number (phone, time, number), with its typed class in `typed`.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "dxtext/dxtext.h"

namespace dxt {

enum class TokenKind { kWord, kNumber, kSpan, kInvisible };

struct Token {
  size_t begin;
  size_t end;
  TokenKind kind;
  // DXT_TYPED_EMAIL, _URL, _HANDLE, _STREET, _PHONE, _TIME, _NUMBER for a token that matched
  // a pattern; DXT_TYPED_NONE otherwise (every other number is a
  // DXT_TYPED_NUMBER too: see typed_classes.hpp).
  dxt_typed_class typed = DXT_TYPED_NONE;
};

inline bool is_word_or_number(TokenKind k) { return k == TokenKind::kWord || k == TokenKind::kNumber; }

// Throws Error(DXT_E_INVALID_UTF8) naming the byte offset of the first
// malformed sequence.
std::vector<Token> tokenize(std::string_view text);

}  // namespace dxt
