// SPDX-License-Identifier: Apache-2.0
#include "unicode/fold.hpp"

#include <algorithm>
#include <iterator>
#include <utility>

#include "unicode/case_mapping.hpp"
#include "unicode/utf8.hpp"

namespace dxt::unicode {

namespace {

// The layout of `packed` is in tools/unicode/generate_fold_table.py.
struct FoldEntry {
  uint32_t first;
  uint32_t packed;
};
struct CombiningRun {
  uint32_t first, last;
  uint8_t combining_class;
};
struct Decomposition {
  uint32_t code_point;
  uint16_t offset;  // kDecompositionPool[offset .. offset + length)
  uint8_t length;
};
struct Composition {
  uint32_t first, second, composite;
};

#include "unicode/fold_table.inc"

// Hangul syllables (The Unicode Standard, section 3.12).
constexpr uint32_t kSBase = 0xAC00, kLBase = 0x1100, kVBase = 0x1161, kTBase = 0x11A7;
constexpr uint32_t kLCount = 19, kVCount = 21, kTCount = 28, kNCount = kVCount * kTCount, kSCount = kLCount * kNCount;

uint8_t combining_class(uint32_t c) {
  if (c < 0x300) return 0;
  const auto* r = std::upper_bound(std::begin(kCombiningClasses), std::end(kCombiningClasses), c,
                                   [](uint32_t v, const CombiningRun& e) { return v < e.first; });
  if (r == std::begin(kCombiningClasses)) return 0;
  --r;
  return c <= r->last ? r->combining_class : 0;
}

void decompose(uint32_t c, std::vector<uint32_t>& out) {
  if (c >= kSBase && c < kSBase + kSCount) {
    const uint32_t s = c - kSBase;
    out.push_back(kLBase + s / kNCount);
    out.push_back(kVBase + (s % kNCount) / kTCount);
    if (s % kTCount != 0) out.push_back(kTBase + s % kTCount);
    return;
  }
  const auto* d = std::lower_bound(std::begin(kDecompositions), std::end(kDecompositions), c,
                                   [](const Decomposition& e, uint32_t v) { return e.code_point < v; });
  if (d != std::end(kDecompositions) && d->code_point == c)
    out.insert(out.end(), kDecompositionPool + d->offset, kDecompositionPool + d->offset + d->length);
  else
    out.push_back(c);
}

// The primary composite of (a, b), or 0.
uint32_t compose(uint32_t a, uint32_t b) {
  if (a >= kLBase && a < kLBase + kLCount && b >= kVBase && b < kVBase + kVCount)
    return kSBase + ((a - kLBase) * kVCount + (b - kVBase)) * kTCount;
  if (a >= kSBase && a < kSBase + kSCount && (a - kSBase) % kTCount == 0 && b > kTBase && b < kTBase + kTCount)
    return a + (b - kTBase);
  const auto* p = std::lower_bound(std::begin(kCompositions), std::end(kCompositions), Composition{a, b, 0},
                                   [](const Composition& x, const Composition& y) {
                                     return x.first != y.first ? x.first < y.first : x.second < y.second;
                                   });
  return p != std::end(kCompositions) && p->first == a && p->second == b ? p->composite : 0;
}

// Appends the folding of c (NFKC_Casefold) to out.
void fold_code_point(uint32_t c, std::vector<uint32_t>& out) {
  const auto* e = std::upper_bound(std::begin(kFold), std::end(kFold), c,
                                   [](uint32_t v, const FoldEntry& x) { return v < x.first; });
  if (e != std::begin(kFold)) {
    --e;
    const uint32_t p = e->packed, at = c - e->first;
    if ((p & 0x80000000u) == 0) {
      if (at <= (p & 0xFFFu)) {
        const uint32_t length = (p >> 12) & 0x1Fu, offset = (p >> 17) & 0x3FFFu;
        out.insert(out.end(), kFoldPool + offset, kFoldPool + offset + length);
        return;
      }
    } else if (at <= (p & 0x7FFu) && ((p & 0x800u) == 0 || at % 2 == 0)) {
      const uint32_t bits = (p >> 12) & 0x7FFFFu;  // 19-bit two's complement
      const int32_t delta = (bits & 0x40000u) != 0 ? static_cast<int32_t>(bits) - 0x80000 : static_cast<int32_t>(bits);
      out.push_back(static_cast<uint32_t>(static_cast<int32_t>(c) + delta));
      return;
    }
  }
  out.push_back(c);
}

bool ascii(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

}  // namespace

void nfd(std::vector<uint32_t>& cps) {
  // Canonical decomposition, then the canonical ordering of each run of
  // non-starters (UAX #15, section 3: a stable sort by combining class).
  // Each run is sorted on its own by counting its classes, so a run of n
  // marks takes O(n) whatever their order (an insertion sort took O(n^2):
  // minutes for a word of a million marks of alternating classes).
  std::vector<uint32_t> d;
  d.reserve(cps.size() + 4);
  for (uint32_t c : cps) decompose(c, d);
  std::vector<std::pair<uint8_t, uint32_t>> run;  // (class, code point)
  for (size_t i = 0; i < d.size();) {
    const uint8_t k = combining_class(d[i]);
    if (k == 0) {
      ++i;
      continue;
    }
    const size_t start = i;
    run.clear();
    for (; i < d.size(); ++i) {
      const uint8_t ki = combining_class(d[i]);
      if (ki == 0) break;
      run.emplace_back(ki, d[i]);
    }
    if (run.size() < 2) continue;
    // A counting sort on the class: stable, O(n + 256).
    size_t first[257] = {};
    for (const auto& m : run) ++first[m.first + 1];
    for (int b = 1; b < 257; ++b) first[b] += first[b - 1];
    for (const auto& m : run) d[start + first[m.first]++] = m.second;
  }
  cps.swap(d);
}

void nfc(std::vector<uint32_t>& cps) {
  nfd(cps);
  const std::vector<uint32_t> d = std::move(cps);
  // Canonical composition (UAX #15, section 9 reference algorithm): a
  // character combines with the last starter unless blocked, i.e. unless a
  // character between them has a class of 0 or at least its own.
  cps.clear();
  if (d.empty()) return;
  size_t starter = 0;
  int last_class = combining_class(d[0]) == 0 ? 0 : 256;  // a leading mark blocks
  cps.push_back(d[0]);
  for (size_t i = 1; i < d.size(); ++i) {
    const uint32_t c = d[i];
    const int k = combining_class(c);
    const uint32_t composite = last_class == 256 ? 0 : compose(cps[starter], c);
    if (composite != 0 && (last_class < k || last_class == 0)) {
      cps[starter] = composite;
      continue;
    }
    if (k == 0) {
      starter = cps.size();
      last_class = 0;
    } else {
      last_class = k;
    }
    cps.push_back(c);
  }
}

std::string fold(std::string_view s) {
  if (ascii(s)) {
    std::string out(s);
    for (char& c : out)
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
    return out;
  }
  // NFD first: a mark that case folding turns into a starter (U+0345 to
  // U+03B9) must be mapped from its canonical place, or two canonically
  // equivalent spellings would fold apart.
  std::vector<uint32_t> in;
  in.reserve(s.size());
  size_t i = 0;
  while (i < s.size()) {
    const uint32_t c = utf8::decode(s.data(), s.size(), i);
    if (c == utf8::kInvalid) return std::string(s);
    in.push_back(c);
  }
  nfd(in);
  std::vector<uint32_t> cps;
  cps.reserve(in.size());
  for (uint32_t c : in) fold_code_point(c, cps);
  nfc(cps);
  std::string out;
  out.reserve(s.size());
  for (uint32_t c : cps) utf8::append(out, c);
  return out;
}

std::string fold_keeping_case(std::string_view s) {
  if (ascii(s)) return std::string(s);
  std::vector<uint32_t> cps;
  cps.reserve(s.size());
  size_t i = 0;
  while (i < s.size()) {
    const uint32_t c = utf8::decode(s.data(), s.size(), i);
    if (c == utf8::kInvalid) return std::string(s);
    if (is_upper(c)) {
      cps.push_back(c);
    } else {
      fold_code_point(c, cps);
    }
  }
  nfc(cps);
  std::string out;
  out.reserve(s.size());
  for (uint32_t c : cps) utf8::append(out, c);
  return out;
}

bool is_folded(std::string_view s) {
  if (ascii(s)) return std::none_of(s.begin(), s.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
  return fold(s) == s;
}

const char* fold_unicode_version() { return kFoldUnicodeVersion; }

}  // namespace dxt::unicode
