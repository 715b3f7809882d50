// SPDX-License-Identifier: Apache-2.0
// Exact-law tests of the ordering mechanism (DESIGN.md §10), chi-square at
// alpha = 1e-6 with fixed seeds, on a 20-word toy vocabulary with 3 chosen
// orderings:
//   Pr[o | w] = (1/K) sum_L f_n((place_L(o) - place_L(w)) mod n),
//   f_n(r) = (1-a)/(1+a) (a^r + a^(n-r)) / (1 - a^n),  a = e^-eps,
// the two-sided geometric law wrapped around a cycle of n places; with an
// output vocabulary S the cycles are the orderings restricted to S and a
// word starts from the first member of S at or after it. The privacy bound
// eps * max_L d_L is checked on the exact law, and broken variants (1.5 eps,
// always the first ordering, clamped at the ends instead of wrapped, a
// one-sided step) must be rejected by the same test.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <memory>
#include <numeric>
#include <vector>

#include "mechanisms/ordering_mechanism.hpp"
#include "sampling/samplers.hpp"
#include "support/ordering_toy.hpp"
#include "support/statistics.hpp"
#include "support/toy_models.hpp"

using namespace dxt;

namespace {

constexpr size_t kTrials = 100000;
constexpr uint32_t kWords = test::kToyWords;
using Toy = test::OrderingToy;

RandomStream seeded(uint8_t tag) {
  std::array<uint8_t, 32> seed{};
  seed[0] = tag;
  seed[3] = 0x0d;
  return RandomStream(make_keyed_stream(seed));
}

Toy make_toy() { return test::make_ordering_toy(); }

using test::wrapped;

std::vector<double> exact_law(const Toy& t, double eps, std::optional<uint32_t> w, const std::vector<uint8_t>& s,
                              uint32_t orderings_used = 0) {
  return test::ordering_law(t, eps, w, s, orderings_used);
}

std::vector<double> histogram(const std::function<uint32_t()>& draw) {
  std::vector<double> h(kWords, 0.0);
  for (size_t i = 0; i < kTrials; ++i) h[draw()] += 1;
  return h;
}

}  // namespace

TEST_CASE("the wrapped offset follows f_n on cycles of every length, and a one-sided step is rejected") {
  RandomStream rng = seeded(1);
  for (const uint32_t n : {1u, 2u, 3u, 7u, 20u}) {
    for (const double eps : {0.2, 1.0, 3.0}) {
      std::vector<double> p(n), h(n, 0.0);
      for (uint32_t r = 0; r < n; ++r) p[r] = wrapped(eps, n, r);
      CHECK(std::accumulate(p.begin(), p.end(), 0.0) == doctest::Approx(1.0).epsilon(1e-12));
      for (size_t i = 0; i < kTrials; ++i) h[OrderingMechanism::cycle_offset(rng, eps, n)] += 1;
      CAPTURE(n);
      CAPTURE(eps);
      CHECK(test::chi_square(h, p).p_value > test::kAlpha);
      if (n >= 7) {  // broken: floor(E/eps) alone, a step one way only
        std::vector<double> b(n, 0.0);
        for (size_t i = 0; i < kTrials; ++i)
          b[static_cast<uint32_t>(std::fmod(std::floor(sample_exponential(rng) / eps), n))] += 1;
        CHECK(test::chi_square(b, p).p_value < test::kAlpha);
      }
    }
  }
}

TEST_CASE("ordering: the released word follows the exact mixture law; broken variants are rejected") {
  const Toy t = make_toy();
  RandomStream rng = seeded(2);
  for (const double eps : {0.3, 1.0, 2.5}) {
    MechanismParams params;
    params.id = DXT_MECHANISM_ORDERING;
    params.epsilon = eps;
    OrderingMechanism mech(*t.model, params);
    CHECK(mech.metric() == DXT_METRIC_ORDERING);
    for (const std::optional<uint32_t> w : {std::optional<uint32_t>(0), std::optional<uint32_t>(7),
                                            std::optional<uint32_t>(19), std::optional<uint32_t>()}) {
      CAPTURE(eps);
      CAPTURE(w.value_or(999));
      const std::vector<double> p = exact_law(t, eps, w, {});
      CHECK(test::chi_square(histogram([&] { return mech.privatize(rng, w); }), p).p_value > test::kAlpha);
    }
  }
  // The broken variants, at eps 0.3 from word 7 (where every one differs).
  const double eps = 0.3;
  const uint32_t w = 7;
  const std::vector<double> p = exact_law(t, eps, w, {});
  auto place_of = [&](uint32_t L, uint32_t word) {
    const uint32_t* c = t.words.data() + L * kWords;
    return static_cast<uint32_t>(std::find(c, c + kWords, word) - c);
  };
  // 1.5 eps.
  CHECK(test::chi_square(histogram([&] {
                           const uint32_t L = uniform_index(rng, test::kToyOrderings);
                           const uint32_t k = OrderingMechanism::cycle_offset(rng, 1.5 * eps, kWords);
                           return t.words[L * kWords + (place_of(L, w) + k) % kWords];
                         }),
                         p)
            .p_value < test::kAlpha);
  // Always the first ordering: no mixture.
  CHECK(test::chi_square(histogram([&] {
                           const uint32_t k = OrderingMechanism::cycle_offset(rng, eps, kWords);
                           return t.words[(place_of(0, w) + k) % kWords];
                         }),
                         p)
            .p_value < test::kAlpha);
  // Lines instead of cycles: the step is clamped at the ends.
  CHECK(test::chi_square(histogram([&] {
                           const uint32_t L = uniform_index(rng, test::kToyOrderings);
                           const double g =
                               std::floor(sample_exponential(rng) / eps) - std::floor(sample_exponential(rng) / eps);
                           const double at = std::clamp(place_of(L, w) + g, 0.0, double{kWords - 1});
                           return t.words[L * kWords + static_cast<uint32_t>(at)];
                         }),
                         p)
            .p_value < test::kAlpha);
}

TEST_CASE(
    "ordering with an output vocabulary: the orderings restricted to S, words outside S start at the next member") {
  const Toy t = make_toy();
  RandomStream rng = seeded(3);
  // S: the 12 words of even index and of index 1, 5, 9, 13 (not a run of
  // any ordering), as a list the mechanism gets like output_top's.
  std::vector<uint8_t> s(kWords, 0);
  auto set = std::make_shared<OutputSet>();
  set->kind = DXT_OUTPUT_LIST;
  set->member.assign(kWords, 0);
  for (uint32_t w = 0; w < kWords; ++w)
    if (w % 2 == 0 || w % 4 == 1) {
      s[w] = 1;
      set->member[w] = 1;
      set->rows.push_back(w);
    }
  MechanismParams params;
  params.id = DXT_MECHANISM_ORDERING;
  params.epsilon = 0.7;
  params.output = set;
  OrderingMechanism mech(*t.model, params);
  for (const std::optional<uint32_t> w : {std::optional<uint32_t>(3), std::optional<uint32_t>(4),
                                          std::optional<uint32_t>(19), std::optional<uint32_t>()}) {
    CAPTURE(w.value_or(999));
    const std::vector<double> p = exact_law(t, 0.7, w, s);
    for (uint32_t o = 0; o < kWords; ++o)
      if (!s[o]) CHECK(p[o] == 0);
    CHECK(test::chi_square(histogram([&] { return mech.privatize(rng, w); }), p).p_value > test::kAlpha);
  }
}

TEST_CASE("ordering: the exact law meets eps * max_L d_L for every pair of words (with and without S)") {
  const Toy t = make_toy();
  std::vector<uint8_t> s(kWords, 0);
  for (uint32_t w = 0; w < kWords; w += 3) s[w] = 1;
  for (const std::vector<uint8_t>& set : {std::vector<uint8_t>{}, s}) {
    for (const double eps : {0.1, 0.8, 4.0}) {
      std::vector<std::vector<double>> law;
      for (uint32_t w = 0; w < kWords; ++w) law.push_back(exact_law(t, eps, w, set));
      for (uint32_t w = 0; w < kWords; ++w)
        for (uint32_t v = 0; v < kWords; ++v) {
          const uint32_t d = test::toy_ordering_distance(t, w, v);
          for (uint32_t o = 0; o < kWords; ++o) {
            if (law[v][o] == 0) {
              CHECK(law[w][o] == 0);
              continue;
            }
            CHECK(law[w][o] / law[v][o] <= std::exp(eps * d) * (1 + 1e-12));
          }
        }
    }
  }
}
