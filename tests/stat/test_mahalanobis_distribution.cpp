// SPDX-License-Identifier: Apache-2.0
// Distribution test of the mahalanobis mechanism (DESIGN.md §10). The toy
// is the 20-word 2-D grid sheared and squeezed, so that its covariance is
// strongly anisotropic and correlated, written with its covariance section.
// With S = Sigma_l^(1/2) the noisy point is z = phi(w) + S y, where y has the
// isotropic planar laplace density (eps^2 / 2 pi) exp(-eps ||y||); so
//   Pr[o | w] = ∫ over y with phi(w) + S y in the Voronoi cell of o,
// computed here by integrating y in polar coordinates (equal-probability
// quantiles of its radius Gamma(2, 1/eps) times equal angles). The test
// computes Sigma, its trace normalisation, the regularisation and the 2x2
// square root itself, in closed form. The mechanism must pass Pearson's
// chi-square at alpha = 1e-6 against these probabilities; broken variants
// (Sigma_l instead of its square root, lambda ignored, gamma shape n - 1)
// must fail it.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <optional>
#include <sstream>
#include <vector>

#include "mechanisms/mahalanobis_mechanism.hpp"
#include "model/model_writer.hpp"
#include "sampling/samplers.hpp"
#include "support/statistics.hpp"
#include "support/toy_models.hpp"

using namespace dxt;

namespace {

constexpr size_t kTrials = 100000;
using Mat2 = std::array<double, 4>;  // row-major 2x2

// The grid of grid_2d_spec() mapped by (x, y) -> (1.5 x + 0.9 y, 0.3 y).
test::ToyModelSpec sheared_spec() {
  test::ToyModelSpec s = test::grid_2d_spec();
  for (auto& v : s.vectors) {
    const float x = v[0], y = v[1];
    v = {1.5f * x + 0.9f * y, 0.3f * y};
  }
  return s;
}

std::string build_with_covariance(const test::ToyModelSpec& spec) {
  std::stringstream out(std::ios::in | std::ios::out | std::ios::binary);
  ModelWriterOptions o;
  o.dimension = 2;
  o.with_covariance = true;
  ModelWriter w(out, o);
  for (size_t i = 0; i < spec.words.size(); ++i) w.add(spec.words[i], spec.vectors[i].data());
  w.finish();
  return out.str();
}

struct Toy {
  test::ToyModelSpec spec = sheared_spec();
  test::AlignedBytes bytes{build_with_covariance(spec)};
  std::shared_ptr<const Model> model = test::open_bytes(bytes);
};

// Sample covariance (divided by V - 1) of the toy's rows, in double.
Mat2 covariance(const test::ToyModelSpec& spec) {
  const double n = static_cast<double>(spec.vectors.size());
  double mx = 0, my = 0;
  for (const auto& v : spec.vectors) mx += v[0] / n, my += v[1] / n;
  Mat2 c{};
  for (const auto& v : spec.vectors) {
    const double dx = v[0] - mx, dy = v[1] - my;
    c[0] += dx * dx / (n - 1);
    c[1] += dx * dy / (n - 1);
    c[3] += dy * dy / (n - 1);
  }
  c[2] = c[1];
  return c;
}

// lambda * Sigma * 2 / tr(Sigma) + (1 - lambda) I.
Mat2 regularised(const Mat2& c, double lambda) {
  const double k = 2 / (c[0] + c[3]);
  return {lambda * k * c[0] + 1 - lambda, lambda * k * c[1], lambda * k * c[2], lambda * k * c[3] + 1 - lambda};
}

// The square root of a 2x2 symmetric positive definite matrix:
// (M + sqrt(det M) I) / sqrt(tr M + 2 sqrt(det M)).
Mat2 sqrt2(const Mat2& m) {
  const double s = std::sqrt(m[0] * m[3] - m[1] * m[2]);
  const double t = std::sqrt(m[0] + m[3] + 2 * s);
  return {(m[0] + s) / t, m[1] / t, m[2] / t, (m[3] + s) / t};
}

// Inverse CDF of Gamma(k, 1) for k = 1 or 2, by Newton's method.
double gamma_quantile(int k, double u) {
  if (k == 1) return -std::log1p(-u);
  double x = 2;
  for (int i = 0; i < 100; ++i) {
    const double f = 1 - std::exp(-x) * (1 + x) - u;
    const double step = f / (x * std::exp(-x));
    x = std::max(x - step, x / 4);
    if (std::fabs(step) < 1e-14 * x) break;
  }
  return x;
}

size_t nearest(const test::ToyModelSpec& spec, double x, double y) {
  size_t best = 0;
  double best_d = INFINITY;
  for (size_t v = 0; v < spec.vectors.size(); ++v) {
    const double dx = x - spec.vectors[v][0], dy = y - spec.vectors[v][1];
    const double d = dx * dx + dy * dy;
    if (d < best_d) best_d = d, best = v;
  }
  return best;
}

// Pr[o | centre] for z = centre + R * A u, R ~ Gamma(shape, 1/eps).
std::vector<double> exact_probabilities(const test::ToyModelSpec& spec, std::array<double, 2> centre, double eps,
                                        const Mat2& a, int shape = 2) {
  constexpr int kRadial = 3000, kAngular = 3000;
  std::vector<double> p(spec.words.size(), 0);
  std::vector<double> ax(kAngular), ay(kAngular);
  for (int j = 0; j < kAngular; ++j) {
    const double t = 2 * M_PI * (j + 0.5) / kAngular;
    ax[j] = a[0] * std::cos(t) + a[1] * std::sin(t);
    ay[j] = a[2] * std::cos(t) + a[3] * std::sin(t);
  }
  const double weight = 1.0 / (double{kRadial} * kAngular);
  for (int i = 0; i < kRadial; ++i) {
    const double r = gamma_quantile(shape, (i + 0.5) / kRadial) / eps;
    for (int j = 0; j < kAngular; ++j) p[nearest(spec, centre[0] + r * ax[j], centre[1] + r * ay[j])] += weight;
  }
  return p;
}

MechanismParams params(double eps, double lambda) {
  MechanismParams p;
  p.id = DXT_MECHANISM_MAHALANOBIS;
  p.epsilon = eps;
  p.mahalanobis_lambda = lambda;
  return p;
}

RandomStream seeded(uint8_t tag) {
  std::array<uint8_t, 32> seed{};
  seed[0] = tag;
  seed[1] = 0x4d;
  return RandomStream(make_keyed_stream(seed));
}

enum class Mutation { kSigmaNotItsRoot, kLambdaIgnored, kGammaShapeMinusOne };

uint32_t broken_privatize(const test::ToyModelSpec& spec, RandomStream& rng, uint32_t w, double eps, double lambda,
                          Mutation m) {
  const Mat2 sigma = covariance(spec);
  const Mat2 a = m == Mutation::kSigmaNotItsRoot ? regularised(sigma, lambda)
                 : m == Mutation::kLambdaIgnored ? sqrt2(regularised(sigma, 1.0))
                                                 : sqrt2(regularised(sigma, lambda));
  const double r = sample_gamma_integer_shape(rng, m == Mutation::kGammaShapeMinusOne ? 1 : 2, 1 / eps);
  double u[2];
  sample_unit_direction(rng, u, 2);
  return static_cast<uint32_t>(nearest(spec, spec.vectors[w][0] + r * (a[0] * u[0] + a[1] * u[1]),
                                       spec.vectors[w][1] + r * (a[2] * u[0] + a[3] * u[1])));
}

}  // namespace

TEST_CASE("the toy covariance is anisotropic and the stored one matches it") {
  Toy toy;
  const Mat2 c = covariance(toy.spec);
  const double* stored = toy.model->covariance();
  REQUIRE(stored != nullptr);
  for (int i = 0; i < 4; ++i) CHECK(stored[i] == doctest::Approx(c[i]).epsilon(1e-12));
  // Eigenvalues of the trace-normalised covariance, far from 1 and 1.
  const Mat2 n = regularised(c, 1.0);
  const double mean = (n[0] + n[3]) / 2, dev = std::sqrt((n[0] - n[3]) * (n[0] - n[3]) / 4 + n[1] * n[2]);
  MESSAGE("normalised covariance eigenvalues " << mean + dev << ", " << mean - dev);
  CHECK(mean - dev < 0.2);
  // The mechanism's square root agrees with the closed form.
  for (double lambda : {0.25, 0.75, 0.9}) {
    const std::vector<double> s = MahalanobisMechanism::regularised_sqrt(stored, 2, lambda);
    const Mat2 expected = sqrt2(regularised(c, lambda));
    for (int i = 0; i < 4; ++i) CHECK(s[i] == doctest::Approx(expected[i]).epsilon(1e-10));
  }
}

TEST_CASE("mahalanobis matches numerically integrated probabilities; broken variants are rejected") {
  Toy toy;
  const Mat2 sigma = covariance(toy.spec);
  struct Case {
    uint32_t word;
    double eps, lambda;
  };
  for (const Case c : {Case{7, 1.0, 0.75}, Case{12, 2.0, 0.5}, Case{0, 1.5, 0.75}, Case{16, 3.0, 0.6}}) {
    CAPTURE(c.word);
    CAPTURE(c.eps);
    CAPTURE(c.lambda);
    const auto& v = toy.spec.vectors[c.word];
    const std::vector<double> p =
        exact_probabilities(toy.spec, {v[0], v[1]}, c.eps, sqrt2(regularised(sigma, c.lambda)));

    MahalanobisMechanism mech(*toy.model, params(c.eps, c.lambda));
    RandomStream rng = seeded(static_cast<uint8_t>(c.word * 10 + c.eps));
    std::vector<double> counts(p.size(), 0);
    for (size_t t = 0; t < kTrials; ++t) ++counts[mech.privatize(rng, c.word)];
    const auto good = test::chi_square(counts, p);
    MESSAGE("mahalanobis w" << c.word << " eps=" << c.eps << " lambda=" << c.lambda << ": chi2=" << good.statistic
                            << " df=" << good.degrees_of_freedom << " p=" << good.p_value);
    CHECK(good.p_value > test::kAlpha);

    for (Mutation m : {Mutation::kSigmaNotItsRoot, Mutation::kLambdaIgnored, Mutation::kGammaShapeMinusOne}) {
      CAPTURE(static_cast<int>(m));
      std::vector<double> bad(p.size(), 0);
      for (size_t t = 0; t < kTrials; ++t) ++bad[broken_privatize(toy.spec, rng, c.word, c.eps, c.lambda, m)];
      const auto r = test::chi_square(bad, p);
      MESSAGE("  mutation " << static_cast<int>(m) << ": chi2=" << r.statistic << " p=" << r.p_value);
      CHECK(r.p_value < test::kAlpha);
    }
  }
}

TEST_CASE("mahalanobis privatises out-of-vocabulary words from the origin") {
  Toy toy;
  const double eps = 2.0, lambda = 0.75;
  const std::vector<double> p =
      exact_probabilities(toy.spec, {0.0, 0.0}, eps, sqrt2(regularised(covariance(toy.spec), lambda)));
  MahalanobisMechanism mech(*toy.model, params(eps, lambda));
  RandomStream rng = seeded(99);
  std::vector<double> counts(p.size(), 0);
  for (size_t t = 0; t < kTrials; ++t) ++counts[mech.privatize(rng, std::nullopt)];
  const auto r = test::chi_square(counts, p);
  MESSAGE("mahalanobis OOV: chi2=" << r.statistic << " p=" << r.p_value);
  CHECK(r.p_value > test::kAlpha);
}

TEST_CASE("privacy audit: Pr[o|w] <= exp(eps ||S^-1 (phi(w) - phi(w'))||) Pr[o|w'] on the exact probabilities") {
  Toy toy;
  const double eps = 1.0, lambda = 0.75;
  const Mat2 s = sqrt2(regularised(covariance(toy.spec), lambda));
  const double det = s[0] * s[3] - s[1] * s[2];
  const Mat2 inv = {s[3] / det, -s[1] / det, -s[2] / det, s[0] / det};
  const uint32_t ids[] = {0, 6, 12, 19};
  std::vector<std::vector<double>> p;
  for (uint32_t w : ids)
    p.push_back(exact_probabilities(toy.spec, {toy.spec.vectors[w][0], toy.spec.vectors[w][1]}, eps, s));
  for (size_t a = 0; a < 4; ++a)
    for (size_t b = 0; b < 4; ++b) {
      const double dx = double{toy.spec.vectors[ids[a]][0]} - toy.spec.vectors[ids[b]][0];
      const double dy = double{toy.spec.vectors[ids[a]][1]} - toy.spec.vectors[ids[b]][1];
      const double d = std::hypot(inv[0] * dx + inv[1] * dy, inv[2] * dx + inv[3] * dy);
      for (size_t o = 0; o < p[a].size(); ++o)
        if (p[b][o] > 1e-3) CHECK(p[a][o] <= std::exp(eps * d) * p[b][o] * 1.02 + 1e-4);
    }
}
