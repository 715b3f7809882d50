#include "text/tokenizer.hpp"

#include <string>

#include "errors/error.hpp"
#include "unicode/utf8.hpp"

namespace dxt {

namespace {

bool is_apostrophe(uint32_t c) { return c == '\'' || c == 0x2019; }

bool is_digit(uint32_t c) { return c >= '0' && c <= '9'; }

// Letters and digits. Outside ASCII everything counts except spaces,
// punctuation and symbol blocks, which is right for the scripts of the
// default models and errs towards "word" elsewhere.
bool is_word_char(uint32_t c) {
  if (c < 0x80) return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c);
  if (c <= 0xBF) return c == 0xAA || c == 0xB5 || c == 0xBA;  // ª µ º; rest is punctuation/symbols
  if (c == 0xD7 || c == 0xF7) return false;                   // × ÷
  if (c >= 0x2000 && c <= 0x2BFF) return false;               // spaces, punctuation, symbols, arrows
  if (c >= 0x3000 && c <= 0x303F) return false;               // CJK punctuation
  if (c >= 0xFE30 && c <= 0xFE4F) return false;               // CJK compatibility forms
  if (c >= 0xFF00 && c <= 0xFF0F) return false;               // fullwidth punctuation
  if (c == 0xFEFF || c == 0x1680 || c == 0x180E) return false;
  if (c >= 0xE000 && c <= 0xF8FF) return false;    // private use
  if (c >= 0x1F000 && c <= 0x1FAFF) return false;  // emoji and pictographs
  if (c >= 0xFE00 && c <= 0xFE0F) return false;    // variation selectors (emoji style)
  if (c >= 0xE0000 && c <= 0xE01EF) return false;  // tags, variation selectors supplement
  return true;
}

}  // namespace

std::vector<Token> tokenize(std::string_view text) {
  const size_t bad = utf8::first_invalid(text.data(), text.size());
  if (bad != text.size()) fail(DXT_E_INVALID_UTF8, "text is not valid UTF-8 at byte " + std::to_string(bad));

  // Decode once into (code point, byte offset) pairs.
  std::vector<uint32_t> cps;
  std::vector<size_t> at;
  cps.reserve(text.size());
  at.reserve(text.size() + 1);
  for (size_t i = 0; i < text.size();) {
    at.push_back(i);
    cps.push_back(utf8::decode(text.data(), text.size(), i));
  }
  at.push_back(text.size());

  std::vector<Token> tokens;
  const size_t n = cps.size();
  size_t i = 0;
  while (i < n) {
    const size_t start = i;
    if (!is_word_char(cps[i])) {
      while (i < n && !is_word_char(cps[i])) ++i;
      tokens.push_back({at[start], at[i], TokenKind::kSpan});
      continue;
    }
    bool has_letter = false;
    while (i < n) {
      const uint32_t c = cps[i];
      if (is_word_char(c)) {
        has_letter |= !is_digit(c);
        ++i;
        continue;
      }
      // A joiner continues the token only between two word characters:
      // apostrophes between letters, '.' or ',' between digits.
      const bool next_is_word = i + 1 < n && is_word_char(cps[i + 1]);
      if (next_is_word && is_apostrophe(c) && !is_digit(cps[i - 1]) && !is_digit(cps[i + 1])) {
        i += 2;
        has_letter = true;
        continue;
      }
      if (next_is_word && (c == '.' || c == ',') && is_digit(cps[i - 1]) && is_digit(cps[i + 1])) {
        i += 2;
        continue;
      }
      break;
    }
    tokens.push_back({at[start], at[i], has_letter ? TokenKind::kWord : TokenKind::kNumber});
  }
  return tokens;
}

}  // namespace dxt
