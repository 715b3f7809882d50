// SPDX-License-Identifier: Apache-2.0
// Distribution test of the laplace mechanism (DESIGN.md §10): on a 2-D toy
// vocabulary of 20 words the exact output probabilities
//   Pr[o | w] = ∫_{Voronoi cell of o} (eps^2 / 2 pi) exp(-eps ||z - phi(w)||) dz
// are computed here by numerical integration in polar coordinates around
// phi(w) (equal-probability radial quantiles of Gamma(2, 1/eps) times equal
// angles), a code path that shares nothing with the sampler. The mechanism's
// empirical distribution must pass Pearson's chi-square at alpha = 1e-6, and
// the broken variants (gamma shape n-1, 1.5 eps, a decoder that skips the
// input word) must fail it.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <optional>
#include <vector>

#include "mechanisms/laplace_mechanism.hpp"
#include "sampling/samplers.hpp"
#include "support/statistics.hpp"
#include "support/toy_models.hpp"

using namespace dxt;

namespace {

constexpr size_t kTrials = 100000;

struct Toy {
  test::ToyModelSpec spec = test::grid_2d_spec();
  test::AlignedBytes bytes{test::build_model_bytes(spec)};
  std::shared_ptr<const Model> model = test::open_bytes(bytes);
};

// Inverse CDF of Gamma(2, 1): solve 1 - e^-x (1 + x) = u by Newton's method.
double gamma2_quantile(double u) {
  double x = 2;
  for (int i = 0; i < 100; ++i) {
    const double f = 1 - std::exp(-x) * (1 + x) - u;
    const double df = x * std::exp(-x);
    const double step = f / df;
    x = std::max(x - step, x / 4);
    if (std::fabs(step) < 1e-14 * x) break;
  }
  return x;
}

std::vector<double> exact_probabilities(const test::ToyModelSpec& spec, std::array<double, 2> center, double eps) {
  constexpr int kRadial = 3000, kAngular = 3000;
  std::vector<double> p(spec.words.size(), 0);
  std::vector<double> cos_t(kAngular), sin_t(kAngular);
  for (int j = 0; j < kAngular; ++j) {
    const double t = 2 * M_PI * (j + 0.5) / kAngular;
    cos_t[j] = std::cos(t);
    sin_t[j] = std::sin(t);
  }
  const double weight = 1.0 / (double{kRadial} * kAngular);
  for (int i = 0; i < kRadial; ++i) {
    const double r = gamma2_quantile((i + 0.5) / kRadial) / eps;
    for (int j = 0; j < kAngular; ++j) {
      const double x = center[0] + r * cos_t[j], y = center[1] + r * sin_t[j];
      size_t best = 0;
      double best_d = INFINITY;
      for (size_t v = 0; v < spec.words.size(); ++v) {
        const double dx = x - spec.vectors[v][0], dy = y - spec.vectors[v][1];
        const double d = dx * dx + dy * dy;
        if (d < best_d) best_d = d, best = v;
      }
      p[best] += weight;
    }
  }
  return p;
}

MechanismParams laplace_params(double eps) {
  MechanismParams p;
  p.id = DXT_MECHANISM_LAPLACE;
  p.epsilon = eps;
  return p;
}

RandomStream seeded(uint8_t tag) {
  std::array<uint8_t, 32> seed{};
  seed[0] = tag;
  return RandomStream(make_keyed_stream(seed));
}

// Broken mechanisms for the mutation checks: the same samplers composed
// wrongly, decoded by a plain nearest-word search.
enum class Mutation { kGammaShapeMinusOne, kEpsilonTimes1_5, kSkipInputWord };

uint32_t broken_privatize(const test::ToyModelSpec& spec, RandomStream& rng, uint32_t w, double eps, Mutation m) {
  const uint32_t shape = m == Mutation::kGammaShapeMinusOne ? 1 : 2;
  const double e = m == Mutation::kEpsilonTimes1_5 ? 1.5 * eps : eps;
  const double r = sample_gamma_integer_shape(rng, shape, 1 / e);
  double u[2];
  sample_unit_direction(rng, u, 2);
  const double x = spec.vectors[w][0] + r * u[0], y = spec.vectors[w][1] + r * u[1];
  uint32_t best = 0;
  double best_d = INFINITY;
  for (uint32_t v = 0; v < spec.words.size(); ++v) {
    if (m == Mutation::kSkipInputWord && v == w) continue;
    const double dx = x - spec.vectors[v][0], dy = y - spec.vectors[v][1];
    if (dx * dx + dy * dy < best_d) best_d = dx * dx + dy * dy, best = v;
  }
  return best;
}

}  // namespace

TEST_CASE("laplace matches numerically integrated probabilities; broken variants are rejected") {
  Toy toy;
  struct Case {
    uint32_t word;
    double eps;
  };
  for (const Case c : {Case{0, 1.0}, Case{12, 1.0}, Case{12, 3.0}, Case{7, 6.0}}) {
    CAPTURE(c.word);
    CAPTURE(c.eps);
    const auto& v = toy.spec.vectors[c.word];
    const std::vector<double> p = exact_probabilities(toy.spec, {v[0], v[1]}, c.eps);

    LaplaceMechanism mech(*toy.model, laplace_params(c.eps));
    RandomStream rng = seeded(static_cast<uint8_t>(c.word * 10 + c.eps));
    std::vector<double> counts(p.size(), 0);
    for (size_t t = 0; t < kTrials; ++t) ++counts[mech.privatize(rng, c.word)];
    const auto good = test::chi_square(counts, p);
    CAPTURE(good.statistic);
    CAPTURE(good.degrees_of_freedom);
    CHECK(good.p_value > test::kAlpha);

    for (Mutation m : {Mutation::kGammaShapeMinusOne, Mutation::kEpsilonTimes1_5, Mutation::kSkipInputWord}) {
      CAPTURE(static_cast<int>(m));
      std::vector<double> bad(p.size(), 0);
      for (size_t t = 0; t < kTrials; ++t) ++bad[broken_privatize(toy.spec, rng, c.word, c.eps, m)];
      CHECK(test::chi_square(bad, p).p_value < test::kAlpha);
    }
  }
}

TEST_CASE("out-of-vocabulary words are privatised from the origin") {
  Toy toy;
  const double eps = 2.0;
  const std::vector<double> p = exact_probabilities(toy.spec, {0.0, 0.0}, eps);
  LaplaceMechanism mech(*toy.model, laplace_params(eps));
  RandomStream rng = seeded(99);
  std::vector<double> counts(p.size(), 0);
  for (size_t t = 0; t < kTrials; ++t) ++counts[mech.privatize(rng, std::nullopt)];
  CHECK(test::chi_square(counts, p).p_value > test::kAlpha);
}

TEST_CASE("privacy audit: Pr[o|w] <= exp(eps d(w,w')) Pr[o|w'] for every pair, on the exact probabilities") {
  // The integrated probabilities themselves must respect the guarantee (up to
  // the integration error), which checks the reference as much as the claim.
  Toy toy;
  const double eps = 1.0;
  std::vector<std::vector<double>> p;
  for (uint32_t w : {0u, 1u, 6u, 12u, 19u}) {
    const auto& v = toy.spec.vectors[w];
    p.push_back(exact_probabilities(toy.spec, {v[0], v[1]}, eps));
  }
  const uint32_t ids[] = {0, 1, 6, 12, 19};
  for (size_t a = 0; a < 5; ++a)
    for (size_t b = 0; b < 5; ++b) {
      const auto& va = toy.spec.vectors[ids[a]];
      const auto& vb = toy.spec.vectors[ids[b]];
      const double d = std::hypot(double{va[0]} - vb[0], double{va[1]} - vb[1]);
      for (size_t o = 0; o < p[a].size(); ++o)
        if (p[b][o] > 1e-3) CHECK(p[a][o] <= std::exp(eps * d) * p[b][o] * 1.02 + 1e-4);
    }
}
