// SPDX-License-Identifier: Apache-2.0
// The canonical ordering of combining marks inside word folding
// (src/unicode/fold.cpp, nfd): equal to the reference algorithm of UAX #15
// (an insertion sort by combining class, kept here) on random strings, and
// linear-logarithmic on long runs: a 1 MiB word of marks of alternating
// classes folds within the normal test run (an insertion sort takes tens of
// minutes on it). NormalizationTest.txt conformance is test_unicode_fold.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "unicode/fold.hpp"
#include "unicode/utf8.hpp"

namespace {

// Code points with their Canonical_Combining_Class (UnicodeData.txt field 3).
const std::vector<std::pair<uint32_t, int>> kAlphabet = {
    {'a', 0},      {'e', 0},      {0x00E9, 0},  // é decomposes to e + U+0301 (230)
    {0x01D6, 0},                                // ǖ: u + U+0308 + U+0304 (both 230)
    {0x1E09, 0},                                // ḉ: c + U+0327 (202) + U+0301 (230)
    {0x0300, 230}, {0x0301, 230}, {0x0316, 220}, {0x0327, 202}, {0x0334, 1},
    {0x05B0, 10},  {0x093C, 7},   {0x0345, 240}, {0x031B, 216}, {0x0F71, 129}};

int combining_class_of(uint32_t c) {
  // The classes of the alphabet and of the marks its letters decompose to.
  switch (c) {
    case 0x0300:
    case 0x0301:
    case 0x0304:
    case 0x0308: return 230;
    case 0x0316: return 220;
    case 0x0327: return 202;
    case 0x0334: return 1;
    case 0x05B0: return 10;
    case 0x093C: return 7;
    case 0x0345: return 240;
    case 0x031B: return 216;
    case 0x0F71: return 129;
    default: return 0;
  }
}

// UAX #15's canonical ordering as the library did it before: decompose each
// code point, then bubble every mark left past marks of a higher class.
std::vector<uint32_t> reference_nfd(const std::vector<uint32_t>& in) {
  std::vector<uint32_t> d;
  for (uint32_t c : in) {
    std::vector<uint32_t> one{c};
    dxt::unicode::nfd(one);  // a single code point's full decomposition
    d.insert(d.end(), one.begin(), one.end());
  }
  for (size_t i = 1; i < d.size(); ++i) {
    const int k = combining_class_of(d[i]);
    if (k == 0) continue;
    for (size_t j = i; j > 0; --j) {
      const int prev = combining_class_of(d[j - 1]);
      if (prev == 0 || prev <= k) break;
      std::swap(d[j - 1], d[j]);
    }
  }
  return d;
}

}  // namespace

TEST_CASE("canonical ordering equals the reference insertion sort on random strings") {
  std::mt19937 gen(20261128);
  std::uniform_int_distribution<size_t> pick(0, kAlphabet.size() - 1), length(0, 40);
  for (int trial = 0; trial < 5000; ++trial) {
    std::vector<uint32_t> in;
    const size_t n = length(gen);
    for (size_t i = 0; i < n; ++i) in.push_back(kAlphabet[pick(gen)].first);
    std::vector<uint32_t> got = in;
    dxt::unicode::nfd(got);
    const std::vector<uint32_t> want = reference_nfd(in);
    REQUIRE(got == want);
    // Folding is blind to the order the marks came in: a shuffled run of
    // marks after a starter folds as the sorted one does.
    std::vector<uint32_t> shuffled = want;
    std::string a, b;
    for (uint32_t c : want) dxt::utf8::append(a, c);
    for (size_t i = 0; i < shuffled.size();) {
      size_t j = i;
      while (j < shuffled.size() && combining_class_of(shuffled[j]) != 0) ++j;
      // Marks of different classes commute; equal classes keep their order.
      std::stable_sort(shuffled.begin() + static_cast<std::ptrdiff_t>(i),
                       shuffled.begin() + static_cast<std::ptrdiff_t>(j),
                       [](uint32_t x, uint32_t y) { return combining_class_of(x) > combining_class_of(y); });
      i = j == i ? i + 1 : j;
    }
    for (uint32_t c : shuffled) dxt::utf8::append(b, c);
    CHECK(dxt::unicode::fold(a) == dxt::unicode::fold(b));
  }
}

TEST_CASE("a 1 MiB run of combining marks of alternating classes folds in the normal test run") {
  // 'a' then U+0300 (230) and U+0316 (220) alternating: 2 bytes each.
  constexpr size_t kMarks = 1 << 19;
  std::string word = "a";
  for (size_t i = 0; i < kMarks; ++i) dxt::utf8::append(word, i % 2 == 0 ? 0x0300 : 0x0316);
  REQUIRE(word.size() == 1 + (1u << 20));
  const std::string folded = dxt::unicode::fold(word);
  // Canonical order puts every U+0316 before every U+0300; composition then
  // joins 'a' with the first U+0300 (not blocked: only class 220 between).
  std::vector<uint32_t> cps;
  for (size_t i = 0; i < folded.size();) cps.push_back(dxt::utf8::decode(folded.data(), folded.size(), i));
  REQUIRE(cps.size() == kMarks);
  CHECK(cps[0] == 0x00E0);
  for (size_t i = 1; i <= kMarks / 2; ++i) REQUIRE(cps[i] == 0x0316);
  for (size_t i = kMarks / 2 + 1; i < kMarks; ++i) REQUIRE(cps[i] == 0x0300);
  CHECK(dxt::unicode::is_folded(folded));
}
