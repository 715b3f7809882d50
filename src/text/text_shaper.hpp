// SPDX-License-Identifier: Apache-2.0
// Joins the words a text release puts out into the released text, copying
// of the input's form only what the release shape allows (DESIGN.md §8;
// docs/guarantees.md, "Release shapes"):
//   keep       the spans between words verbatim, each word's case shape;
//   normalize  one separator per gap between words: ". " where the gap holds
//              a sentence end, ", " where it holds other punctuation, " "
//              otherwise; words as the model spells them, the first word of
//              each sentence capitalised; a final "." if the text ends a
//              sentence;
//   strict     words as the model spells them, joined by one space.
#pragma once

#include <string>
#include <string_view>

#include "dxtext/dxtext.h"

namespace dxt {

// What a gap between two words holds, as normalize sees it (strongest first).
enum class GapMark { kNone, kSpace, kClause, kSentence };

// The mark of one span (text between words): kSentence if it holds one of
// . ! ? … ‼ ⁇ ⁈ ⁉ 。 ！ ？ ． ؟ । ॥; else kClause if it holds one of
// , ; : ( ) [ ] { } " “ ” „ « » – — ， ； ： 、 （ ）; else kSpace.
GapMark gap_mark(std::string_view span);

class TextShaper {
 public:
  // Appends to `out`, which the caller owns (and may read between calls).
  TextShaper(dxt_release_shape shape, std::string& out) : shape_(shape), out_(out) {}

  // The text between two tokens of the input.
  void span(std::string_view text);
  // One released token: `released` is what the policy put out (the model's
  // word, the placeholder, a kept word), `input` the token of the input;
  // `privatized` when `released` is the mechanism's output, which alone
  // takes the input's case shape (keep) or a sentence capital (normalize).
  void word(std::string_view released, std::string_view input, bool privatized);
  // A token dropped without a trace (DXT_TYPED_DROP): normalize and strict
  // already join the gaps around it; keep copies only one of the two spans
  // around it, the one with the stronger mark (the one before on a tie; at
  // the start of the text none), so that no doubled gap shows its place.
  void drop();
  // Ends the text (normalize: the final full stop).
  void finish();

 private:
  // keep: writes the span held back by drop(), if any.
  void release_held();

  dxt_release_shape shape_;
  std::string& out_;
  bool any_word_ = false;
  GapMark pending_ = GapMark::kNone;  // the strongest mark since the last word
  // keep: the size of the span just written (0 after a word), and the span
  // held back by drop() until the next span decides which of the two stays.
  size_t last_span_ = 0;
  bool holding_ = false;
  bool hold_wins_ = false;  // at the start of the text: the span after a drop goes
  std::string held_;
};

}  // namespace dxt
