// SPDX-License-Identifier: Apache-2.0
// src/text/case_shape.hpp: detecting and applying lower / Title / UPPER.
#include <doctest/doctest.h>

#include <string>

#include "text/case_shape.hpp"

using dxt::apply_case_shape;
using dxt::case_shape;
using dxt::CaseShape;

namespace {
const char* name(CaseShape s) {
  switch (s) {
    case CaseShape::kLower: return "lower";
    case CaseShape::kTitle: return "Title";
    case CaseShape::kUpper: return "UPPER";
    case CaseShape::kMixed: return "Mixed";
  }
  return "?";
}
std::string shape(const std::string& w) { return name(case_shape(w)); }
}  // namespace

TEST_CASE("case_shape: ASCII detection") {
  CHECK(shape("cat") == "lower");
  CHECK(shape("Cat") == "Title");
  CHECK(shape("CAT") == "UPPER");
  CHECK(shape("cAt") == "Mixed");
  CHECK(shape("iPhone") == "Mixed");
  CHECK(shape("McDonald") == "Mixed");
  CHECK(shape("CATs") == "Mixed");
  CHECK(shape("NASA") == "UPPER");
  CHECK(shape("OK") == "UPPER");
}

TEST_CASE("case_shape: single letters") {
  // A lone capital is Title (a sentence-initial "A" or the pronoun "I"),
  // so a replacement is capitalised, not shouted.
  CHECK(shape("I") == "Title");
  CHECK(shape("A") == "Title");
  CHECK(shape("a") == "lower");
  CHECK(shape("x") == "lower");
}

TEST_CASE("case_shape: caseless characters do not count") {
  CHECK(shape("42") == "lower");
  CHECK(shape("") == "lower");
  CHECK(shape("R2D2") == "UPPER");
  CHECK(shape("A1") == "Title");
  CHECK(shape("DON'T") == "UPPER");
  CHECK(shape("Don't") == "Title");
  CHECK(shape("don't") == "lower");
  CHECK(shape("3D") == "Title");
  CHECK(shape("\xE4\xB8\xAD\xE6\x96\x87") == "lower");  // 中文: no case at all
}

TEST_CASE("case_shape: non-ASCII detection") {
  CHECK(shape("\xC3\xA9"
              "cole") == "lower");  // école
  CHECK(shape("\xC3\x89"
              "cole") == "Title");  // École
  CHECK(shape("\xC3\x89"
              "COLE") == "UPPER");  // ÉCOLE
  CHECK(shape("M\xC3\xBC"
              "ller") == "Title");  // Müller
  CHECK(shape("M\xC3\x9C"
              "LLER") == "UPPER");  // MÜLLER
  CHECK(shape("stra\xC3\x9F"
              "e") == "lower");                                                 // straße
  CHECK(shape("\xD0\x9C\xD0\xBE\xD1\x81\xD0\xBA\xD0\xB2\xD0\xB0") == "Title");  // Москва
  CHECK(shape("\xD0\x9C\xD0\x9E\xD0\xA1\xD0\x9A\xD0\x92\xD0\x90") == "UPPER");  // МОСКВА
  CHECK(shape("\xD0\xBC\xD0\xBE\xD1\x81\xD0\xBA\xD0\xB2\xD0\xB0") == "lower");  // москва
  CHECK(shape("\xCE\x91\xCE\xB8\xCE\xB7\xCE\xBD\xCE\xB1") == "Title");          // Αθηνα
  CHECK(shape("\xC5\x81\xC3\xB3"
              "d\xC5\xBA") == "Title");  // Łódź
}

TEST_CASE("apply_case_shape: ASCII") {
  CHECK(apply_case_shape("dog", CaseShape::kLower) == "dog");
  CHECK(apply_case_shape("dog", CaseShape::kTitle) == "Dog");
  CHECK(apply_case_shape("dog", CaseShape::kUpper) == "DOG");
  // Mixed leaves the replacement as the vocabulary has it.
  CHECK(apply_case_shape("dog", CaseShape::kMixed) == "dog");
  CHECK(apply_case_shape("a", CaseShape::kTitle) == "A");
  CHECK(apply_case_shape("a", CaseShape::kUpper) == "A");
  CHECK(apply_case_shape("don't", CaseShape::kUpper) == "DON'T");
  CHECK(apply_case_shape("don't", CaseShape::kTitle) == "Don't");
  // Title capitalises the first cased letter, skipping digits.
  CHECK(apply_case_shape("3d", CaseShape::kTitle) == "3D");
  CHECK(apply_case_shape("42", CaseShape::kUpper) == "42");
  CHECK(apply_case_shape("42", CaseShape::kTitle) == "42");
  CHECK(apply_case_shape("", CaseShape::kTitle) == "");
}

TEST_CASE("apply_case_shape: non-ASCII") {
  CHECK(apply_case_shape("\xC3\xA9"
                         "cole",
                         CaseShape::kTitle) ==
        "\xC3\x89"
        "cole");
  CHECK(apply_case_shape("\xC3\xA9"
                         "cole",
                         CaseShape::kUpper) ==
        "\xC3\x89"
        "COLE");
  CHECK(apply_case_shape("m\xC3\xBC"
                         "ller",
                         CaseShape::kUpper) ==
        "M\xC3\x9C"
        "LLER");
  CHECK(apply_case_shape("\xD0\xBC\xD0\xBE\xD1\x81\xD0\xBA\xD0\xB2\xD0\xB0", CaseShape::kTitle) ==
        "\xD0\x9C\xD0\xBE\xD1\x81\xD0\xBA\xD0\xB2\xD0\xB0");
  CHECK(apply_case_shape("\xD0\xBC\xD0\xBE\xD1\x81\xD0\xBA\xD0\xB2\xD0\xB0", CaseShape::kUpper) ==
        "\xD0\x9C\xD0\x9E\xD0\xA1\xD0\x9A\xD0\x92\xD0\x90");
  CHECK(apply_case_shape("\xCE\xB1\xCE\xB8\xCE\xB7\xCE\xBD\xCE\xB1", CaseShape::kTitle) ==
        "\xCE\x91\xCE\xB8\xCE\xB7\xCE\xBD\xCE\xB1");
  // ß has no single-letter uppercase: kept.
  CHECK(apply_case_shape("stra\xC3\x9F"
                         "e",
                         CaseShape::kUpper) ==
        "STRA\xC3\x9F"
        "E");
  // Caseless scripts are unchanged.
  CHECK(apply_case_shape("\xE4\xB8\xAD\xE6\x96\x87", CaseShape::kUpper) == "\xE4\xB8\xAD\xE6\x96\x87");
  CHECK(apply_case_shape("\xE4\xB8\xAD\xE6\x96\x87", CaseShape::kTitle) == "\xE4\xB8\xAD\xE6\x96\x87");
}

TEST_CASE("case shape round trip: the shape of the applied word is the shape asked for") {
  const char* words[] = {"dog",
                         "paris",
                         "\xC3\xA9"
                         "cole",
                         "\xD0\xBC\xD0\xBE\xD1\x81\xD0\xBA\xD0\xB2\xD0\xB0",
                         "\xC5\x82\xC3\xB3"
                         "d\xC5\xBA",
                         "ab"};
  for (const char* w : words) {
    CAPTURE(w);
    for (CaseShape s : {CaseShape::kLower, CaseShape::kTitle, CaseShape::kUpper}) {
      CHECK(case_shape(apply_case_shape(w, s)) == s);
    }
  }
  // Copying a shape from one word onto another.
  CHECK(apply_case_shape("rome", case_shape("Paris")) == "Rome");
  CHECK(apply_case_shape("esa", case_shape("NASA")) == "ESA");
  CHECK(apply_case_shape("cat", case_shape("dog")) == "cat");
  CHECK(apply_case_shape("you", case_shape("I")) == "You");
}
