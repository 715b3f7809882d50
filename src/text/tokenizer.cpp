// SPDX-License-Identifier: Apache-2.0
#include "text/tokenizer.hpp"

#include <string>

#include "errors/error.hpp"
#include "text/structured_tokens.hpp"
#include "unicode/char_class.hpp"
#include "unicode/utf8.hpp"

namespace dxt {

namespace {

using unicode::CharClass;

bool is_apostrophe(uint32_t c) { return c == '\'' || c == 0x2019; }

// Code points are decoded as they are needed (with a look-ahead of one
// run), so the memory used is that of the tokens alone, whatever the text.
class Scanner {
 public:
  explicit Scanner(std::string_view text) : p_(text.data()), n_(text.size()) {}
  size_t size() const { return n_; }
  // The code point at byte `at`, its class, and where the next one starts.
  uint32_t at(size_t at, CharClass& cls, size_t& next) const {
    next = at;
    const uint32_t c = utf8::decode(p_, n_, next);
    cls = unicode::char_class(c);
    return c;
  }
  CharClass class_at(size_t at, size_t& next) const {
    CharClass cls;
    (void)this->at(at, cls, next);
    return cls;
  }
  // The end of the run of code points of class `cls` that starts at `from`.
  size_t run_end(size_t from, CharClass cls) const {
    size_t next = from;
    while (from < n_ && class_at(from, next) == cls) from = next;
    return from;
  }

 private:
  const char* p_;
  size_t n_;
};

// The end of the word or number that starts at `start` (a word character),
// and whether it holds a letter.
size_t word_end(const Scanner& s, size_t start, bool& has_letter) {
  size_t i = start, next = start;
  CharClass previous = CharClass::kOther;
  has_letter = false;
  while (i < s.size()) {
    CharClass cls;
    const uint32_t c = s.at(i, cls, next);
    if (unicode::is_word_class(cls)) {
      has_letter |= cls == CharClass::kLetter;
      previous = cls;
      i = next;
      continue;
    }
    // Joiners continue the word only between two word characters.
    if (cls == CharClass::kInvisible) {
      const size_t after = s.run_end(i, CharClass::kInvisible);
      size_t ignored;
      if (after < s.size() && unicode::is_word_class(s.class_at(after, ignored))) {
        i = after;
        continue;
      }
      break;
    }
    if (next < s.size()) {
      size_t after = next;
      const CharClass d = s.class_at(next, after);
      const bool between_letters = previous == CharClass::kLetter && d == CharClass::kLetter;
      const bool between_digits = previous == CharClass::kDigit && d == CharClass::kDigit;
      if ((is_apostrophe(c) && between_letters) || ((c == '.' || c == ',') && between_digits)) {
        i = next;  // the word character after the joiner is taken by the loop
        continue;
      }
    }
    break;
  }
  return i;
}

}  // namespace

std::vector<Token> tokenize(std::string_view text) {
  const size_t bad = utf8::first_invalid(text.data(), text.size());
  if (bad != text.size()) fail(DXT_E_INVALID_UTF8, "text is not valid UTF-8 at byte " + std::to_string(bad));
  const Scanner s(text);
  std::vector<Token> tokens;
  size_t i = 0, next = 0;
  while (i < s.size()) {
    const size_t start = i;
    if (const auto m = match_structured(text, start)) {
      const bool word = m->cls == DXT_TYPED_EMAIL || m->cls == DXT_TYPED_URL || m->cls == DXT_TYPED_HANDLE ||
                        m->cls == DXT_TYPED_STREET;
      tokens.push_back({start, m->end, word ? TokenKind::kWord : TokenKind::kNumber, m->cls});
      i = m->end;
      continue;
    }
    const CharClass cls = s.class_at(i, next);
    if (unicode::is_word_class(cls)) {
      bool has_letter = false;
      i = word_end(s, start, has_letter);
      tokens.push_back({start, i, has_letter ? TokenKind::kWord : TokenKind::kNumber});
    } else if (cls == CharClass::kInvisible) {
      i = s.run_end(start, CharClass::kInvisible);
      tokens.push_back({start, i, TokenKind::kInvisible});
    } else {
      // A span ends where a structured token starts ("see @bob", "(555) 123").
      i = next;
      while (i < s.size() && s.class_at(i, next) == CharClass::kOther && !match_structured(text, i)) i = next;
      tokens.push_back({start, i, TokenKind::kSpan});
    }
  }
  return tokens;
}

}  // namespace dxt
