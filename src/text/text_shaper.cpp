// SPDX-License-Identifier: Apache-2.0
#include "text/text_shaper.hpp"

#include <algorithm>

#include "text/case_shape.hpp"
#include "unicode/case_mapping.hpp"
#include "unicode/utf8.hpp"

namespace dxt {

namespace {

bool ends_sentence(uint32_t c) {
  switch (c) {
    case '.':
    case '!':
    case '?':
    case 0x2026:  // … horizontal ellipsis
    case 0x203C:
    case 0x2047:
    case 0x2048:
    case 0x2049:  // ‼ ⁇ ⁈ ⁉
    case 0x3002:  // 。 ideographic full stop
    case 0xFF01:
    case 0xFF1F:
    case 0xFF0E:  // ！ ？ ． fullwidth
    case 0x061F:  // ؟ Arabic question mark
    case 0x0964:
    case 0x0965:  // । ॥ Devanagari danda
      return true;
    default: return false;
  }
}

bool marks_clause(uint32_t c) {
  switch (c) {
    case ',':
    case ';':
    case ':':
    case '(':
    case ')':
    case '[':
    case ']':
    case '{':
    case '}':
    case '"':
    case 0x201C:
    case 0x201D:
    case 0x201E:  // “ ” „
    case 0x00AB:
    case 0x00BB:  // « »
    case 0x2013:
    case 0x2014:  // – — en and em dash
    case 0xFF0C:
    case 0xFF1B:
    case 0xFF1A:  // ， ； ： fullwidth
    case 0x3001:  // 、 ideographic comma
    case 0xFF08:
    case 0xFF09:  // （ ） fullwidth
      return true;
    default: return false;
  }
}

// The word with its first cased letter in upper case, the rest as it is.
std::string capitalised(std::string_view w) {
  std::string out;
  out.reserve(w.size());
  bool done = false;
  for (size_t i = 0; i < w.size();) {
    const uint32_t c = utf8::decode(w.data(), w.size(), i);
    const bool cased = unicode::is_lower(c) || unicode::is_upper(c);
    utf8::append(out, !done && cased ? unicode::to_upper(c) : c);
    done = done || cased;
  }
  return out;
}

}  // namespace

GapMark gap_mark(std::string_view span) {
  GapMark mark = GapMark::kSpace;
  for (size_t i = 0; i < span.size();) {
    const uint32_t c = utf8::decode(span.data(), span.size(), i);
    if (ends_sentence(c)) return GapMark::kSentence;
    if (marks_clause(c)) mark = GapMark::kClause;
  }
  return mark;
}

void TextShaper::span(std::string_view text) {
  switch (shape_) {
    case DXT_SHAPE_NORMALIZE: pending_ = std::max(pending_, gap_mark(text)); break;
    case DXT_SHAPE_STRICT: break;  // nothing between words but one space
    default:
      if (holding_) {
        // Of the spans around a dropped token, the one with the stronger mark.
        holding_ = false;
        if (hold_wins_ || gap_mark(held_) >= gap_mark(text)) text = held_;
      }
      out_ += text;
      last_span_ = text.size();
      break;
  }
}

void TextShaper::release_held() {
  if (!holding_) return;
  holding_ = false;
  out_ += held_;
}

void TextShaper::drop() {
  if (shape_ == DXT_SHAPE_NORMALIZE || shape_ == DXT_SHAPE_STRICT) return;
  if (holding_) return;  // two drops in a row: the span between them comes next
  holding_ = true;
  held_.assign(out_, out_.size() - last_span_, last_span_);
  out_.resize(out_.size() - last_span_);
  hold_wins_ = out_.empty();  // nothing but this span before: the next one goes
  last_span_ = 0;
}

void TextShaper::word(std::string_view released, std::string_view input, bool privatized) {
  if (shape_ != DXT_SHAPE_NORMALIZE && shape_ != DXT_SHAPE_STRICT) {
    release_held();
    out_ += privatized ? apply_case_shape(released, case_shape(input)) : std::string(released);
    last_span_ = 0;
    return;
  }
  if (released.empty()) return;  // an empty placeholder: nothing to separate
  const bool sentence_start = !any_word_ || pending_ == GapMark::kSentence;
  if (any_word_) {
    if (shape_ == DXT_SHAPE_STRICT) {
      out_ += ' ';
    } else {
      out_ += pending_ == GapMark::kSentence ? ". " : pending_ == GapMark::kClause ? ", " : " ";
    }
  }
  out_ += shape_ == DXT_SHAPE_NORMALIZE && privatized && sentence_start ? capitalised(released) : std::string(released);
  any_word_ = true;
  pending_ = GapMark::kNone;
}

void TextShaper::finish() {
  release_held();
  if (shape_ == DXT_SHAPE_NORMALIZE && any_word_ && pending_ == GapMark::kSentence) out_ += '.';
  pending_ = GapMark::kNone;
}

}  // namespace dxt
