// SPDX-License-Identifier: Apache-2.0
#include "unicode/char_class.hpp"

#include <algorithm>
#include <iterator>

namespace dxt::unicode {

namespace {

struct CharClassRun {
  uint32_t first;  // the run lasts until the next run's first code point
  CharClass cls;
};

#include "unicode/char_class_table.inc"

static_assert(kCharClassRuns[0].first == 0x80, "the table starts where ASCII ends");

}  // namespace

CharClass char_class(uint32_t c) {
  if (c < 0x80) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) return CharClass::kLetter;
    return c >= '0' && c <= '9' ? CharClass::kDigit : CharClass::kOther;
  }
  // The last run whose first code point is at most c.
  const auto* run = std::upper_bound(std::begin(kCharClassRuns), std::end(kCharClassRuns), c,
                                     [](uint32_t v, const CharClassRun& r) { return v < r.first; });
  return std::prev(run)->cls;
}

const char* char_class_unicode_version() { return kCharClassUnicodeVersion; }

}  // namespace dxt::unicode
