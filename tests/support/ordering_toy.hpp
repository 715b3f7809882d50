// SPDX-License-Identifier: Apache-2.0
// The 20-word toy of the ordering mechanism's exact-law tests: the grid of
// toy_models.hpp with 3 chosen orderings (the identity, a stride-7
// permutation and a hand-shuffled one), and the mechanism's law computed
// from its definition (docs/guarantees.md, "ordering"), not from the library:
//   Pr[o | w] = (1/K) sum_L f_n((place_L(o) - start_L(w)) mod n),
//   f_n(r) = (1-a)/(1+a) (a^r + a^(n-r)) / (1 - a^n),  a = e^-eps,
// over the orderings restricted to an output vocabulary S (a word starts at
// the first member of S at or after it).
#pragma once

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "model/format.hpp"
#include "model/ordering_builder.hpp"
#include "model/section_append_writer.hpp"
#include "support/toy_models.hpp"

namespace dxt::test {

inline constexpr uint32_t kToyWords = 20;
inline constexpr uint32_t kToyOrderings = 3;

// K x V: the word at each place of each ordering.
inline std::vector<uint32_t> toy_orderings() {
  std::vector<uint32_t> words;
  for (uint32_t p = 0; p < kToyWords; ++p) words.push_back(p);
  for (uint32_t p = 0; p < kToyWords; ++p) words.push_back((7 * p + 3) % kToyWords);
  const uint32_t shuffled[kToyWords] = {5, 17, 2, 11, 0, 19, 8, 13, 3, 16, 9, 1, 14, 6, 18, 4, 12, 10, 15, 7};
  words.insert(words.end(), shuffled, shuffled + kToyWords);
  return words;
}

struct OrderingToy {
  AlignedBytes bytes;
  std::shared_ptr<const Model> model;
  std::vector<uint32_t> words = toy_orderings();  // K x V
};

// The toy model with its orderings, and a context prior section of `pairs`
// when there are any.
inline OrderingToy make_ordering_toy(const std::vector<PriorPair>& pairs = {}) {
  OrderingToy t;
  const std::vector<uint32_t> words = t.words;
  std::string bytes = with_section(build_model_bytes(grid_2d_spec()), format::SectionKind::kOrderings,
                                   format::kMinorOrderings, [&](const Model& m) {
                                     OrderingBuildOptions o;
                                     o.count = kToyOrderings;
                                     return encode_orderings(m, o, words);
                                   });
  if (!pairs.empty()) bytes = with_context_prior(bytes, pairs);
  t.bytes = AlignedBytes(bytes);
  t.model = Model::open_memory(t.bytes.data(), t.bytes.size, {});
  return t;
}

// f_n(r) for r in [0, n).
inline double wrapped(double eps, uint32_t n, uint32_t r) {
  const double a = std::exp(-eps);
  return (1 - a) / (1 + a) * (std::pow(a, r) + std::pow(a, n - r)) / (1 - std::pow(a, n));
}

// The law for input w (nullopt: out of vocabulary) over the vocabulary, with
// the output vocabulary `s` (empty: all words), mixing the first
// `orderings_used` orderings (0: all).
inline std::vector<double> ordering_law(const OrderingToy& t, double eps, std::optional<uint32_t> w,
                                        const std::vector<uint8_t>& s, uint32_t orderings_used = 0) {
  const uint32_t K = orderings_used == 0 ? kToyOrderings : orderings_used;
  std::vector<double> p(kToyWords, 0.0);
  for (uint32_t L = 0; L < K; ++L) {
    const uint32_t* cycle = t.words.data() + L * kToyWords;
    std::vector<uint32_t> members;  // S in L's order
    for (uint32_t q = 0; q < kToyWords; ++q)
      if (s.empty() || s[cycle[q]]) members.push_back(cycle[q]);
    const auto n = static_cast<uint32_t>(members.size());
    uint32_t start = 0;  // the first member at or after w's place (wrapping to 0)
    if (w) {
      const auto place = static_cast<uint32_t>(std::find(cycle, cycle + kToyWords, *w) - cycle);
      uint32_t before = 0;
      for (uint32_t q = 0; q < place; ++q) before += s.empty() || s[cycle[q]];
      start = before == n ? 0 : before;
    }
    for (uint32_t r = 0; r < n; ++r) p[members[(start + r) % n]] += wrapped(eps, n, r) / K;
  }
  return p;
}

// d_ord(w, v): the largest cyclic distance along the orderings.
inline uint32_t toy_ordering_distance(const OrderingToy& t, uint32_t w, uint32_t v) {
  uint32_t d = 0;
  for (uint32_t L = 0; L < kToyOrderings; ++L) {
    const uint32_t* c = t.words.data() + L * kToyWords;
    const auto pw = static_cast<uint32_t>(std::find(c, c + kToyWords, w) - c);
    const auto pv = static_cast<uint32_t>(std::find(c, c + kToyWords, v) - c);
    const uint32_t gap = pw > pv ? pw - pv : pv - pw;
    d = std::max(d, std::min(gap, kToyWords - gap));
  }
  return d;
}

}  // namespace dxt::test
