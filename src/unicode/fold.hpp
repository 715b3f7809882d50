// SPDX-License-Identifier: Apache-2.0
// Word folding: toNFKC_Casefold (The Unicode Standard, section 3.13), the
// loose matching UAX #31 uses for identifiers. Two spellings of one word that
// differ in case (full case folding: "STRAẞE" and "strasse"), in
// compatibility forms (full-width "ｔｏｍ", mathematical "𝐭𝐨𝐦", the "ﬁ"
// ligature), in canonical composition ("café" with U+0301 or precomposed) or
// in default-ignorable code points inside them (zero-width joiner, soft
// hyphen) fold to the same string. Tables: src/unicode/fold_table.inc, made
// from the UCD by tools/unicode/generate_fold_table.py.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dxt::unicode {

// toNFKC_Casefold of the NFD of valid UTF-8 (NFD first keeps the folding
// blind to canonical reordering around U+0345) (the caller has validated it; an invalid
// sequence is returned unchanged). ASCII input takes a fast path (A-Z to
// a-z). The result may be empty (a word of default-ignorables only).
std::string fold(std::string_view utf8);

// The compatibility folding the strict and normalize release shapes read a
// text through before it is tokenized (docs/guarantees.md, "Release
// shapes"): every code point that dxtext's case mapping
// (unicode/case_mapping.hpp) reads as upper case is kept, every other one is
// replaced by its NFKC_Casefold (full-width forms, ligatures, compatibility
// digits and punctuation to their plain forms; default-ignorables removed),
// and the result is brought to NFC. So "１，５００", "don＇t" and "ﬁne" are
// read as "1,500", "don't" and "fine", and a word's case shape (as dxtext
// reads it) is what it was. Valid UTF-8 in (an invalid sequence is returned
// unchanged); per code point, so folding pieces of a text that end after an
// ASCII space or punctuation mark folds the whole text.
std::string fold_keeping_case(std::string_view utf8);

// Whether fold(s) == s, without building the folded string for ASCII.
bool is_folded(std::string_view utf8);

// Normalization Forms D and C (UAX #15) of code points, in place.
void nfd(std::vector<uint32_t>& code_points);
void nfc(std::vector<uint32_t>& code_points);

// The Unicode version the tables were generated from, e.g. "15.0.0".
const char* fold_unicode_version();

}  // namespace dxt::unicode
