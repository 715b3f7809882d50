// SPDX-License-Identifier: Apache-2.0
// Exact-law tests of the ordering mechanism's context prior (DESIGN.md §10),
// chi-square at alpha = 1e-6 with fixed seeds, on a 20-word toy vocabulary
// with 3 orderings and a context prior section. After the release of c,
//   P_c(y | w) = P(y | w) (1 + b(c, y)) / Z_c(w),  b = min(B, lift - 1),
//   Z_c(w) = 1 + sum_y P(y | w) b(c, y),
// with P the ordering mechanism's law (computed here from its definition,
// not from the library). Checked: the sampler against that law (with and
// without an output vocabulary and a floor, out-of-vocabulary input, a
// context with no successors); the library's log law against it; the bound
// eps d + min(eps d, ln(1 + B)) on every pair of inputs; and that text draws
// each word after the word released before it (the joint law of two words),
// and none across punctuation. Broken variants (a successor drawn by its
// weight alone, B ignored, the input word taken as the context) must be
// rejected by the same tests.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <memory>
#include <vector>

#include "errors/error.hpp"
#include "mechanisms/exact_law.hpp"
#include "mechanisms/ordering_mechanism.hpp"
#include "mechanisms/uniform_floor.hpp"
#include "model/context_prior.hpp"
#include "sampling/samplers.hpp"
#include "support/ordering_toy.hpp"
#include "support/statistics.hpp"
#include "support/toy_models.hpp"
#include "text/text_privatizer.hpp"

using namespace dxt;

namespace {

constexpr size_t kTrials = 100000;
constexpr uint32_t kWords = test::kToyWords;
using Toy = test::OrderingToy;

RandomStream seeded(uint8_t tag) {
  std::array<uint8_t, 32> seed{};
  seed[0] = tag;
  seed[5] = 0xc7;
  return RandomStream(make_keyed_stream(seed));
}

// Word 0 is followed by 3 (lift 4), 7 (2), 12 (30) and 8 (1.5); word 5 by
// 0 (8), 19 (64), 6 (3); word 7 by 8 (200); the others by nothing.
std::vector<PriorPair> toy_pairs() {
  return {{0, 3, 4}, {0, 7, 2}, {0, 12, 30}, {0, 8, 1.5}, {5, 0, 8}, {5, 19, 64}, {5, 6, 3}, {7, 8, 200}};
}

Toy make_toy() { return test::make_ordering_toy(toy_pairs()); }

using test::ordering_law;

// b(c, y) for every y: min(B, lift - 1) with the lift as stored (its code);
// `uncapped` ignores B (a broken variant).
std::vector<double> bonus(std::optional<uint32_t> c, double B, bool uncapped = false) {
  std::vector<double> b(kWords, 0.0);
  if (!c) return b;
  for (const PriorPair& p : toy_pairs())
    if (p.context == *c) {
      const double lift = prior_lift(prior_code(p.lift));
      b[p.successor] = uncapped ? lift - 1 : std::min(B, lift - 1);
    }
  return b;
}

std::vector<double> prior_law(const Toy& t, double eps, double B, std::optional<uint32_t> w, std::optional<uint32_t> c,
                              const std::vector<uint8_t>& s = {}, bool uncapped = false) {
  std::vector<double> p = ordering_law(t, eps, w, s);
  const std::vector<double> b = bonus(c, B, uncapped);
  double z = 1;
  for (uint32_t y = 0; y < kWords; ++y) z += p[y] * b[y];
  for (uint32_t y = 0; y < kWords; ++y) p[y] = p[y] * (1 + b[y]) / z;
  return p;
}

std::vector<double> histogram(const std::function<uint32_t()>& draw, size_t cells = kWords) {
  std::vector<double> h(cells, 0.0);
  for (size_t i = 0; i < kTrials; ++i) h[draw()] += 1;
  return h;
}

MechanismParams prior_params(double eps, double B) {
  MechanismParams p;
  p.id = DXT_MECHANISM_ORDERING;
  p.epsilon = eps;
  p.context_prior = B;
  return p;
}

const std::optional<uint32_t> kInputs[] = {0u, 7u, 13u, std::nullopt};
const std::optional<uint32_t> kContexts[] = {0u, 5u, 7u, 2u /* no successors */, std::nullopt};

}  // namespace

TEST_CASE("context prior: the released word follows P(y | w) (1 + b(c, y)) / Z_c(w) exactly") {
  const Toy t = make_toy();
  RandomStream rng = seeded(1);
  for (const double eps : {0.4, 2.5}) {
    for (const double B : {1.0, 15.0}) {
      OrderingMechanism mech(*t.model, prior_params(eps, B));
      CHECK(mech.reads_context());
      for (const auto w : kInputs)
        for (const auto c : kContexts) {
          CAPTURE(eps);
          CAPTURE(B);
          CAPTURE(w.value_or(999));
          CAPTURE(c.value_or(999));
          const std::vector<double> p = prior_law(t, eps, B, w, c);
          CHECK(test::chi_square(histogram([&] { return mech.privatize_after(rng, w, c); }), p).p_value > test::kAlpha);
          // The library's exact law (what `dxtext loss` reads) is the same law.
          std::vector<double> lib;
          exact_law(mech, *t.model, w, lib, c);
          for (uint32_t y = 0; y < kWords; ++y) CHECK(lib[y] == doctest::Approx(p[y]).epsilon(1e-12));
        }
    }
  }
}

TEST_CASE("context prior: with an output vocabulary and a uniform floor the law is the floor's mixture of it") {
  const Toy t = make_toy();
  RandomStream rng = seeded(2);
  std::vector<uint8_t> s(kWords, 0);
  auto set = std::make_shared<OutputSet>();
  set->kind = DXT_OUTPUT_LIST;
  set->member.assign(kWords, 0);
  for (uint32_t w = 0; w < kWords; ++w)
    if (w % 2 == 0 || w % 4 == 1 || w == 19) {
      s[w] = 1;
      set->member[w] = 1;
      set->rows.push_back(w);
    }
  MechanismParams params = prior_params(1.2, 7);
  params.output = set;
  params.floor = 0.1;
  std::unique_ptr<Mechanism> mech = make_mechanism(*t.model, params);
  CHECK(mech->reads_context());
  for (const auto w : kInputs)
    for (const auto c : kContexts) {
      CAPTURE(w.value_or(999));
      CAPTURE(c.value_or(999));
      std::vector<double> p = prior_law(t, 1.2, 7, w, c, s);
      for (uint32_t y = 0; y < kWords; ++y) p[y] = 0.9 * p[y] + (s[y] ? 0.1 / set->rows.size() : 0);
      CHECK(test::chi_square(histogram([&] { return mech->privatize_after(rng, w, c); }), p).p_value > test::kAlpha);
    }
}

TEST_CASE("context prior: broken variants are rejected by the same test") {
  const Toy t = make_toy();
  RandomStream rng = seeded(3);
  const double eps = 0.4, B = 15;
  const std::optional<uint32_t> w = 7, c = 0;
  OrderingMechanism plain(*t.model, prior_params(eps, 0));
  const std::vector<double> p = prior_law(t, eps, B, w, c);
  const std::vector<double> q = ordering_law(t, eps, w, {});
  const std::vector<double> b = bonus(c, B);
  double mass = 0, bsum = 0;
  for (uint32_t y = 0; y < kWords; ++y) {
    mass += q[y] * b[y];
    bsum += b[y];
  }
  // A successor drawn by its weight b alone, ignoring how near it is.
  CHECK(test::chi_square(histogram([&] {
                           const uint32_t base = plain.privatize(rng, w);
                           if (rng.uniform() * (1 + mass) >= mass) return base;
                           double pick = rng.uniform() * bsum;
                           for (uint32_t y = 0; y < kWords; ++y) {
                             if (pick < b[y]) return y;
                             pick -= b[y];
                           }
                           return base;
                         }),
                         p)
            .p_value < test::kAlpha);
  // B ignored: the whole lift as the weight.
  const std::vector<double> uncapped = prior_law(t, eps, B, w, c, {}, true);
  CHECK(test::chi_square(histogram([&] {
                           double u = rng.uniform();
                           for (uint32_t y = 0; y < kWords; ++y) {
                             if (u < uncapped[y]) return y;
                             u -= uncapped[y];
                           }
                           return kWords - 1;
                         }),
                         p)
            .p_value < test::kAlpha);
  // No prior at all.
  CHECK(test::chi_square(histogram([&] { return plain.privatize(rng, w); }), p).p_value < test::kAlpha);
}

TEST_CASE("context prior: the exact law meets eps d + min(eps d, ln(1 + B)) for every pair of inputs") {
  const Toy t = make_toy();
  for (const double eps : {0.1, 0.8, 4.0})
    for (const double B : {0.5, 15.0, 1000.0}) {
      OrderingMechanism mech(*t.model, prior_params(eps, B));
      for (const auto c : kContexts) {
        std::vector<std::vector<double>> law(kWords);
        for (uint32_t w = 0; w < kWords; ++w) law[w] = prior_law(t, eps, B, w, c);
        for (uint32_t w = 0; w < kWords; ++w)
          for (uint32_t v = 0; v < kWords; ++v) {
            const uint32_t d = test::toy_ordering_distance(t, w, v);
            const double bound = eps * d + std::min(eps * d, std::log1p(B));
            for (uint32_t o = 0; o < kWords; ++o) {
              const double loss = std::log(law[w][o] / law[v][o]);
              CHECK(loss <= bound * (1 + 1e-12) + 1e-12);
            }
          }
      }
    }
}

TEST_CASE("context prior: the worst case per word the record states holds for every context, input and output") {
  // A high eps makes the mechanism keep its input with probability near m;
  // the prior (word 5 is followed by 19 with lift 64) pushes it near 1, past
  // m: a cap computed without the prior's (1 + B) would be exceeded.
  const Toy t = make_toy();
  for (const double eps : {0.5, 4.0})
    for (const double B : {3.0, 1000.0}) {
      MechanismParams params = prior_params(eps, B);
      params.floor = 0.3;
      const std::unique_ptr<Mechanism> mech = make_mechanism(*t.model, params);
      const double stated = mech->worst_case_per_word();
      CAPTURE(eps);
      CAPTURE(B);
      CAPTURE(stated);
      double worst = 0;
      for (const auto c : kContexts) {
        std::vector<std::vector<double>> law(kWords);
        for (uint32_t w = 0; w < kWords; ++w) {
          law[w] = prior_law(t, eps, B, w, c);
          for (double& p : law[w]) p = 0.7 * p + 0.3 / kWords;
        }
        for (uint32_t w = 0; w < kWords; ++w)
          for (uint32_t v = 0; v < kWords; ++v)
            for (uint32_t o = 0; o < kWords; ++o) worst = std::max(worst, std::log(law[w][o] / law[v][o]));
      }
      CHECK(worst <= stated * (1 + 1e-12));
    }
}

TEST_CASE("context prior in text: each word is drawn after the word released before it, none across a comma") {
  const Toy t = make_toy();
  RandomStream rng = seeded(4);
  const double eps = 0.6, B = 31;
  OrderingMechanism mech(*t.model, prior_params(eps, B));
  TokenPolicies policies;
  TextPrivatizer text(*t.model, mech, rng, policies);
  auto index_of = [&](std::string_view word) { return *t.model->lookup(word); };
  // Two words: the joint law of (r0, r1) is P(r0 | w5) P_{r0}(r1 | w0).
  auto joint_histogram = [&](const std::string& input) {
    return histogram(
        [&] {
          const std::string out = text.privatize_text(input);
          const size_t gap = out.find_first_of(", ");
          const size_t second = out.find_first_not_of(", ", gap);
          return index_of(out.substr(0, gap)) * kWords + index_of(out.substr(second));
        },
        kWords * kWords);
  };
  auto joint = [&](bool in_context, bool input_as_context) {
    std::vector<double> p(kWords * kWords, 0.0);
    const std::vector<double> first = ordering_law(t, eps, 5u, {});
    for (uint32_t r0 = 0; r0 < kWords; ++r0) {
      std::optional<uint32_t> c;
      if (in_context) c = input_as_context ? 5u : r0;
      const std::vector<double> second = prior_law(t, eps, B, 0u, c);
      for (uint32_t r1 = 0; r1 < kWords; ++r1) p[r0 * kWords + r1] = first[r0] * second[r1];
    }
    return p;
  };
  const std::vector<double> spaced = joint_histogram("w5 w0");
  CHECK(test::chi_square(spaced, joint(true, false)).p_value > test::kAlpha);
  CHECK(test::chi_square(spaced, joint(true, true)).p_value < test::kAlpha);  // the input as context: caught
  CHECK(test::chi_square(spaced, joint(false, false)).p_value < test::kAlpha);
  const std::vector<double> comma = joint_histogram("w5, w0");
  CHECK(test::chi_square(comma, joint(false, false)).p_value > test::kAlpha);
  CHECK(test::chi_square(comma, joint(true, false)).p_value < test::kAlpha);
}

TEST_CASE("context prior: refused where it cannot hold") {
  const Toy t = make_toy();
  MechanismParams p = prior_params(1, 3);
  p.id = DXT_MECHANISM_EXPONENTIAL;
  CHECK_THROWS_WITH_AS(make_mechanism(*t.model, p), doctest::Contains("ordering mechanism's law only"), Error);
  p = prior_params(1, -1);
  CHECK_THROWS_WITH_AS(make_mechanism(*t.model, p), doctest::Contains("context_prior must be from 0"), Error);
  // A model without the section.
  test::ToyModelSpec spec = test::grid_2d_spec();
  spec.with_orderings = true;
  test::AlignedBytes bytes(test::build_model_bytes(spec));
  const auto bare = Model::open_memory(bytes.data(), bytes.size, {});
  CHECK_FALSE(bare->has_context_prior());
  CHECK_THROWS_WITH_AS(make_mechanism(*bare, prior_params(1, 3)), doctest::Contains("context prior section"), Error);
  // B = 0 is no prior.
  CHECK_FALSE(make_mechanism(*t.model, prior_params(1, 0))->reads_context());
}
