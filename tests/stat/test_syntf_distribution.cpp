// SPDX-License-Identifier: Apache-2.0
// Distribution test of the SynTF mechanism (DESIGN.md §10): on a 20-word
// toy vocabulary the exact probabilities
//   Pr[w | v] = exp(eps rho(v,w) / (2 Delta)) / Z(v),
//   rho = cos - s * Dice(bigrams),  Delta = 2 + s,
// are computed independently (tests/support/syntf_reference.hpp). The
// mechanism's outputs must pass Pearson's chi-square at alpha = 1e-6 for
// several (word, eps, s), and the broken variants (no /2, Delta = 2, s
// ignored) must fail the same test wherever their distribution differs
// enough to be told apart. Then the per-draw privacy loss: its exact value l
// on the toy is at most eps, and the empirical log-ratios of output
// frequencies between any two inputs stay below l (so below eps) up to
// sampling error, while the variant without the /2 exceeds l.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "mechanisms/syntf_mechanism.hpp"
#include "support/statistics.hpp"
#include "support/syntf_reference.hpp"
#include "support/toy_models.hpp"

using namespace dxt;
using test::SyntfVariant;

namespace {

constexpr size_t kTrials = 100000;

struct Toy {
  test::ToyModelSpec spec = test::syntf_toy_spec();
  test::AlignedBytes bytes{test::build_model_bytes(spec)};
  std::shared_ptr<const Model> model = test::open_bytes(bytes);
};

MechanismParams syntf_params(double eps, double s) {
  MechanismParams p;
  p.id = DXT_MECHANISM_SYNTF;
  p.epsilon = eps;
  p.syntf_s = s;
  return p;
}

RandomStream seeded(uint8_t tag) {
  std::array<uint8_t, 32> seed{};
  seed[0] = tag;
  seed[1] = 0x5f;
  return RandomStream(make_keyed_stream(seed));
}

// A draw from explicit probabilities by inversion: how the broken variants
// are sampled (their distributions are what matters, not their sampler).
uint32_t draw_from(const std::vector<double>& p, RandomStream& rng) {
  const double u = rng.uniform();
  double acc = 0;
  for (uint32_t i = 0; i < p.size(); ++i)
    if (u < (acc += p[i])) return i;
  return static_cast<uint32_t>(p.size() - 1);
}

// Expected chi-square excess of a variant over n draws: the noncentrality
// n * sum (q - p)^2 / p. Above 200 a wrong sampler fails at alpha = 1e-6
// with overwhelming probability; below it the variant is not checked.
double noncentrality(const std::vector<double>& p, const std::vector<double>& q, size_t n) {
  double x = 0;
  for (size_t i = 0; i < p.size(); ++i) x += (q[i] - p[i]) * (q[i] - p[i]) / p[i];
  return x * static_cast<double>(n);
}

}  // namespace

TEST_CASE("syntf matches the exact softmax; broken variants are rejected") {
  Toy toy;
  struct Case {
    uint32_t word;
    double eps, s;
  };
  const Case cases[] = {{0, 4.0, 0.3}, {14, 10.0, 0.3}, {17, 8.0, 1.0}, {16, 6.0, 0.5}, {19, 5.0, 0.3}, {3, 20.0, 2.0}};
  int rejected[4] = {0, 0, 0, 0};
  for (const Case& c : cases) {
    CAPTURE(toy.spec.words[c.word]);
    CAPTURE(c.eps);
    CAPTURE(c.s);
    const std::vector<double> p = test::reference_probabilities(toy.spec, c.word, c.eps, c.s);
    SyntfMechanism mech(*toy.model, syntf_params(c.eps, c.s));
    RandomStream rng = seeded(static_cast<uint8_t>(c.word * 7 + c.eps));
    std::vector<double> counts(p.size(), 0);
    for (size_t t = 0; t < kTrials; ++t) ++counts[mech.privatize(rng, c.word)];
    const auto good = test::chi_square(counts, p);
    MESSAGE("syntf '" << toy.spec.words[c.word] << "' eps=" << c.eps << " s=" << c.s << ": chi2=" << good.statistic
                      << " df=" << good.degrees_of_freedom << " p=" << good.p_value);
    CHECK(good.p_value > test::kAlpha);

    for (SyntfVariant v : {SyntfVariant::kMissingHalf, SyntfVariant::kDeltaTwo, SyntfVariant::kIgnoreS}) {
      CAPTURE(static_cast<int>(v));
      const std::vector<double> q = test::reference_probabilities(toy.spec, c.word, c.eps, c.s, v);
      if (noncentrality(p, q, kTrials) < 200) continue;  // indistinguishable here (e.g. no bigrams)
      std::vector<double> bad(p.size(), 0);
      for (size_t t = 0; t < kTrials; ++t) ++bad[draw_from(q, rng)];
      const auto r = test::chi_square(bad, p);
      MESSAGE("  variant " << static_cast<int>(v) << ": p=" << r.p_value);
      CHECK(r.p_value < test::kAlpha);
      ++rejected[static_cast<int>(v)];
    }
  }
  // Every variant was actually exercised, in several cases.
  CHECK(rejected[static_cast<int>(SyntfVariant::kMissingHalf)] >= 3);
  CHECK(rejected[static_cast<int>(SyntfVariant::kDeltaTwo)] >= 3);
  CHECK(rejected[static_cast<int>(SyntfVariant::kIgnoreS)] >= 3);
}

TEST_CASE("syntf rates an out-of-vocabulary word by its own bigrams with cosine 0") {
  Toy toy;
  const double eps = 12, s = 1.0;
  for (const std::string oov : {"nite", "stattion", "q"}) {
    CAPTURE(oov);
    const std::vector<double> p = test::reference_probabilities(toy.spec, std::vector<float>(3, 0.0f), oov, eps, s);
    SyntfMechanism mech(*toy.model, syntf_params(eps, s));
    RandomStream rng = seeded(static_cast<uint8_t>(oov.size()));
    std::vector<double> counts(p.size(), 0);
    mech.privatize_repeated(rng, std::nullopt, oov, kTrials, [&](uint32_t w) { ++counts[w]; });
    const auto r = test::chi_square(counts, p);
    MESSAGE("syntf OOV '" << oov << "': chi2=" << r.statistic << " p=" << r.p_value);
    CHECK(r.p_value > test::kAlpha);
  }
  // The generic interface's fixed point for every OOV word: all ratings 0.
  SyntfMechanism mech(*toy.model, syntf_params(eps, s));
  RandomStream rng = seeded(200);
  std::vector<double> counts(toy.spec.words.size(), 0);
  for (size_t t = 0; t < kTrials; ++t) ++counts[mech.privatize(rng, std::nullopt)];
  CHECK(test::chi_square(counts, std::vector<double>(counts.size(), 1.0 / counts.size())).p_value > test::kAlpha);
}

TEST_CASE("privacy audit: the per-draw loss of syntf stays below eps; without the /2 it does not") {
  Toy toy;
  const size_t V = toy.spec.words.size();
  const double eps = 3, s = 0.3;
  // Exact: the loss l on this vocabulary is at most eps; the broken variant's
  // (the mechanism at 2 eps) is about twice as large.
  const double exact = test::reference_loss(toy.spec, eps, s);
  const double broken = test::reference_loss(toy.spec, eps, s, SyntfVariant::kMissingHalf);
  MESSAGE("exact per-draw loss " << exact << " (eps " << eps << "), without the /2: " << broken);
  CHECK(exact <= eps);
  CHECK(exact > 0.4 * eps);
  CHECK(broken > 1.5 * exact);

  // Empirical: for every output w and inputs v, v', the one-sided lower
  // confidence bound ln(a/b) - z sqrt(1/a + 1/b) of ln(Pr[w|v] / Pr[w|v'])
  // (a, b the counts, at least 100) must not exceed l (hence not eps);
  // for the variant without the /2 it must. z = 6.5 keeps the family of
  // <= 8000 comparisons below alpha = 1e-6 (Bonferroni).
  const size_t n = 200000;
  const double z = 6.5;
  auto max_lower_bound = [&](const std::vector<std::vector<double>>& counts) {
    double worst = -INFINITY;
    for (size_t w = 0; w < V; ++w)
      for (size_t a = 0; a < V; ++a)
        for (size_t b = 0; b < V; ++b) {
          const double x = counts[a][w], y = counts[b][w];
          if (a == b || x < 100 || y < 100) continue;
          worst = std::max(worst, std::log(x / y) - z * std::sqrt(1 / x + 1 / y));
        }
    return worst;
  };
  SyntfMechanism mech(*toy.model, syntf_params(eps, s));
  RandomStream rng = seeded(201);
  std::vector<std::vector<double>> good(V, std::vector<double>(V, 0)), bad = good;
  for (uint32_t v = 0; v < V; ++v) {
    mech.privatize_repeated(rng, v, {}, n, [&](uint32_t w) { ++good[v][w]; });
    const std::vector<double> q = test::reference_probabilities(toy.spec, v, eps, s, SyntfVariant::kMissingHalf);
    for (size_t t = 0; t < n; ++t) ++bad[v][draw_from(q, rng)];
  }
  const double good_bound = max_lower_bound(good), bad_bound = max_lower_bound(bad);
  MESSAGE("largest lower confidence bound of the loss: " << good_bound << "; without the /2: " << bad_bound);
  CHECK(good_bound <= exact);
  CHECK(good_bound <= eps);
  CHECK(bad_bound > exact);
}
