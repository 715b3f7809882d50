// SPDX-License-Identifier: Apache-2.0
// The classes of code points the tokenizer works with, derived from the
// Unicode Character Database by tools/unicode/generate_char_classes.py,
// which states how each class is made (docs/limitations.md, "Text").
#pragma once

#include <cstdint>

namespace dxt::unicode {

enum class CharClass : uint8_t {
  kOther,      // spaces, punctuation, other symbols, controls: copied between words
  kLetter,     // letters, marks, letter-like symbols, private use, unassigned
  kDigit,      // numbers (Nd, Nl, No)
  kInvisible,  // default-ignorable: part of a word between word characters, else dropped
};

CharClass char_class(uint32_t code_point);

inline bool is_word_class(CharClass c) { return c == CharClass::kLetter || c == CharClass::kDigit; }

// The Unicode version the table was generated from, e.g. "15.0.0".
const char* char_class_unicode_version();

}  // namespace dxt::unicode
