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

  // Code points are decoded as they are needed (with one of look-ahead), so
  // the memory used is that of the tokens alone, whatever the text.
  const char* p = text.data();
  const size_t n = text.size();
  auto decode_at = [&](size_t at, size_t& next) {
    next = at;
    return utf8::decode(p, n, next);
  };
  std::vector<Token> tokens;
  size_t i = 0, next = 0;
  while (i < n) {
    const size_t start = i;
    if (!is_word_char(decode_at(i, next))) {
      while (i < n && !is_word_char(decode_at(i, next))) i = next;
      tokens.push_back({start, i, TokenKind::kSpan});
      continue;
    }
    bool has_letter = false;
    uint32_t previous = 0;
    while (i < n) {
      const uint32_t c = decode_at(i, next);
      if (is_word_char(c)) {
        has_letter |= !is_digit(c);
        previous = c;
        i = next;
        continue;
      }
      // A joiner continues the token only between two word characters:
      // apostrophes between letters, '.' or ',' between digits.
      if (next < n) {
        size_t after = next;
        const uint32_t d = decode_at(next, after);
        if (is_word_char(d) && is_apostrophe(c) && !is_digit(previous) && !is_digit(d)) {
          i = after;
          has_letter = true;
          previous = d;
          continue;
        }
        if (is_word_char(d) && (c == '.' || c == ',') && is_digit(previous) && is_digit(d)) {
          i = after;
          previous = d;
          continue;
        }
      }
      break;
    }
    tokens.push_back({start, i, has_letter ? TokenKind::kWord : TokenKind::kNumber});
  }
  return tokens;
}

}  // namespace dxt
