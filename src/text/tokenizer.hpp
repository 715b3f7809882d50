// Splits UTF-8 text into words, numbers and the spans between them. Every
// byte of the input belongs to exactly one token, so joining the tokens gives
// the input back.
//
// A word is a maximal run of letters and digits (any code point that is not
// ASCII punctuation, whitespace, a control character or in one of the
// Unicode punctuation/space blocks listed in tokenizer.cpp counts as a
// letter), with single apostrophes (' or U+2019) allowed between letters, as
// in "don't". A run without letters whose digits may be separated by single
// '.' or ',' (3.14, 1,000) is a number. Hyphens separate words.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace dxt {

enum class TokenKind { kWord, kNumber, kSpan };

struct Token {
  size_t begin;
  size_t end;
  TokenKind kind;
};

// Throws Error(DXT_E_INVALID_UTF8) naming the byte offset of the first
// malformed sequence.
std::vector<Token> tokenize(std::string_view text);

}  // namespace dxt
