// SPDX-License-Identifier: Apache-2.0
// The hyperbolic mechanism (DESIGN.md §5-§6, §10):
// - the radius sampler against the exact law: e^(-2R) ~ Beta((eps-n+1)/2, n);
// - the whole mechanism on a 20-word Poincare-disk vocabulary against output
//   probabilities integrated numerically: geodesic polar coordinates around
//   phi(w) (radius quantiles of the density ∝ e^(-eps r) sinh r, equal
//   angles), each grid point moved to phi(w) by Mobius addition in the ball
//   and decoded with the ball distance formula, a code path independent of
//   the mechanism's Lorentz boost and hyperboloid decoding;
// - broken variants that the same tests must reject.
// All at alpha = 1e-6 with fixed seeds.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <vector>

#include "errors/error.hpp"
#include "mechanisms/hyperbolic_mechanism.hpp"
#include "sampling/samplers.hpp"
#include "support/polar_integration.hpp"
#include "support/statistics.hpp"
#include "support/toy_models.hpp"

using namespace dxt;

namespace {

constexpr size_t kTrials = 100000;

RandomStream seeded(uint8_t tag) {
  std::array<uint8_t, 32> seed{};
  seed[0] = tag;
  seed[1] = 0x42;
  return RandomStream(make_keyed_stream(seed));
}

// The Poincare distance, written out independently of src/geometry.
double ball_distance(double ax, double ay, double bx, double by) {
  const double aa = ax * ax + ay * ay, bb = bx * bx + by * by;
  const double dd = (ax - bx) * (ax - bx) + (ay - by) * (ay - by);
  return std::acosh(1 + 2 * dd / ((1 - aa) * (1 - bb)));
}

// Mobius addition x (+) y in the disk.
std::array<double, 2> mobius(std::array<double, 2> x, std::array<double, 2> y) {
  const double xy = x[0] * y[0] + x[1] * y[1], xx = x[0] * x[0] + x[1] * x[1], yy = y[0] * y[0] + y[1] * y[1];
  const double den = 1 + 2 * xy + xx * yy;
  return {((1 + 2 * xy + yy) * x[0] + (1 - xx) * y[0]) / den, ((1 + 2 * xy + yy) * x[1] + (1 - xx) * y[1]) / den};
}

uint32_t nearest(const test::ToyModelSpec& spec, std::array<double, 2> z, int skip = -1) {
  uint32_t best = 0;
  double best_d = INFINITY;
  for (uint32_t v = 0; v < spec.words.size(); ++v) {
    if (static_cast<int>(v) == skip) continue;
    const double d = ball_distance(z[0], z[1], spec.vectors[v][0], spec.vectors[v][1]);
    if (d < best_d) best_d = d, best = v;
  }
  return best;
}

std::vector<double> exact_probabilities(const test::ToyModelSpec& spec, std::array<double, 2> center, double eps) {
  std::vector<double> p(spec.words.size(), 0);
  test::for_each_polar_point(test::hyperbolic_plane_radius_cdf(eps), 2000, 2000,
                             [&](double r, double c, double s, double w) {
                               const double t = std::tanh(r / 2);  // ball radius of a point r from 0
                               const auto z = mobius(center, {t * c, t * s});
                               if (z[0] * z[0] + z[1] * z[1] >= 1) return;  // beyond double precision
                               p[nearest(spec, z)] += w;
                             });
  return p;
}

enum class Mutation { kRateWithout2k, kEpsilonTimes1_5, kEuclideanRadius, kSkipInputWord };

// Broken samplers composed from the same primitives, decoded in the ball.
uint32_t broken(const test::ToyModelSpec& spec, RandomStream& rng, uint32_t w, double eps, Mutation m) {
  double r = 0;
  switch (m) {
    case Mutation::kRateWithout2k:  // sum E_k / (eps - n + 1): forgets the 2k
      r = (sample_exponential(rng) + sample_exponential(rng)) / (eps - 1);
      break;
    case Mutation::kEpsilonTimes1_5: r = HyperbolicMechanism::sample_radius(rng, 2, 1.5 * eps); break;
    case Mutation::kEuclideanRadius:  // the laplace radius used as a hyperbolic one
      r = sample_gamma_integer_shape(rng, 2, 1 / eps);
      break;
    case Mutation::kSkipInputWord: r = HyperbolicMechanism::sample_radius(rng, 2, eps); break;
  }
  double u[2];
  sample_unit_direction(rng, u, 2);
  const double t = std::tanh(r / 2);
  const auto z = mobius({spec.vectors[w][0], spec.vectors[w][1]}, {t * u[0], t * u[1]});
  return nearest(spec, z, m == Mutation::kSkipInputWord ? static_cast<int>(w) : -1);
}

MechanismParams hyperbolic(double eps) {
  MechanismParams p;
  p.id = DXT_MECHANISM_HYPERBOLIC;
  p.epsilon = eps;
  return p;
}

}  // namespace

TEST_CASE("hyperbolic radius: e^(-2R) ~ Beta((eps-n+1)/2, n); a rate without the 2k is rejected") {
  constexpr size_t kSamples = 20000;
  for (uint32_t n : {2u, 5u, 10u, 20u}) {
    for (double margin : {0.5, 3.0, 20.0}) {
      const double eps = n - 1 + margin;
      CAPTURE(n);
      CAPTURE(eps);
      const double a = (eps - n + 1) / 2;
      const auto cdf = [a, n](double x) { return test::beta_i(a, n, x); };
      RandomStream rng = seeded(static_cast<uint8_t>(n * 3 + margin));
      std::vector<double> good(kSamples), bad(kSamples);
      for (double& x : good) x = std::exp(-2 * HyperbolicMechanism::sample_radius(rng, n, eps));
      CHECK(test::ks_statistic(good, cdf) < test::ks_critical(kSamples));
      for (double& x : bad) {
        double r = 0;
        for (uint32_t k = 0; k < n; ++k) r += sample_exponential(rng) / (eps - n + 1);
        x = std::exp(-2 * r);
      }
      CHECK(test::ks_statistic(bad, cdf) > test::ks_critical(kSamples));
    }
  }
}

TEST_CASE("hyperbolic mechanism matches integrated probabilities; broken variants are rejected") {
  const test::ToyModelSpec spec = test::poincare_2d_spec();
  const test::AlignedBytes bytes(test::build_model_bytes(spec));
  const auto model = test::open_bytes(bytes);
  struct Case {
    uint32_t word;
    double eps;
    bool spread;  // the output is spread enough for the mutants to show
  };
  for (const Case c : {Case{0, 2.0, true}, Case{5, 3.0, true}, Case{7, 6.0, false}, Case{3, 10.0, false}}) {
    CAPTURE(c.word);
    CAPTURE(c.eps);
    const auto& v = spec.vectors[c.word];
    const std::vector<double> p = exact_probabilities(spec, {v[0], v[1]}, c.eps);
    HyperbolicMechanism mech(*model, hyperbolic(c.eps));
    RandomStream rng = seeded(static_cast<uint8_t>(c.word * 7 + c.eps));
    std::vector<double> counts(p.size(), 0);
    for (size_t t = 0; t < kTrials; ++t) ++counts[mech.privatize(rng, c.word)];
    const auto good = test::chi_square(counts, p);
    CAPTURE(good.statistic);
    CAPTURE(good.degrees_of_freedom);
    CHECK(good.p_value > test::kAlpha);
    if (!c.spread) continue;
    for (Mutation m :
         {Mutation::kRateWithout2k, Mutation::kEpsilonTimes1_5, Mutation::kEuclideanRadius, Mutation::kSkipInputWord}) {
      CAPTURE(static_cast<int>(m));
      std::vector<double> bad(p.size(), 0);
      for (size_t t = 0; t < kTrials; ++t) ++bad[broken(spec, rng, c.word, c.eps, m)];
      CHECK(test::chi_square(bad, p).p_value < test::kAlpha);
    }
  }
}

TEST_CASE("hyperbolic: out-of-vocabulary words start from the origin") {
  const test::ToyModelSpec spec = test::poincare_2d_spec();
  const test::AlignedBytes bytes(test::build_model_bytes(spec));
  const auto model = test::open_bytes(bytes);
  const std::vector<double> p = exact_probabilities(spec, {0.0, 0.0}, 3.0);
  HyperbolicMechanism mech(*model, hyperbolic(3.0));
  RandomStream rng = seeded(200);
  std::vector<double> counts(p.size(), 0);
  for (size_t t = 0; t < kTrials; ++t) ++counts[mech.privatize(rng, std::nullopt)];
  CHECK(test::chi_square(counts, p).p_value > test::kAlpha);
}

TEST_CASE("hyperbolic: epsilon must exceed n - 1, and the model must be Poincare") {
  const test::ToyModelSpec spec = test::poincare_2d_spec();
  const test::AlignedBytes bytes(test::build_model_bytes(spec));
  const auto model = test::open_bytes(bytes);
  for (double eps : {0.5, 1.0}) {
    try {
      HyperbolicMechanism mech(*model, hyperbolic(eps));
      FAIL("accepted epsilon <= n - 1");
    } catch (const Error& e) {
      CHECK(e.status() == DXT_E_INVALID_EPSILON);
      CHECK(std::string(e.what()).find("n - 1 = 1") != std::string::npos);
    }
  }
  const test::AlignedBytes euclid(test::build_model_bytes(test::grid_2d_spec()));
  CHECK_THROWS_AS(HyperbolicMechanism(*test::open_bytes(euclid), hyperbolic(5)), Error);
}

namespace {

// Adaptive Simpson quadrature of f on [a, b] to an absolute tolerance.
template <typename F>
double simpson(const F& f, double a, double b, double fa, double fm, double fb, double whole, double tol, int depth) {
  const double m = (a + b) / 2, lm = (a + m) / 2, rm = (m + b) / 2;
  const double flm = f(lm), frm = f(rm);
  const double left = (m - a) / 6 * (fa + 4 * flm + fm), right = (b - m) / 6 * (fm + 4 * frm + fb);
  if (depth <= 0 || std::fabs(left + right - whole) <= 15 * tol) return left + right + (left + right - whole) / 15;
  return simpson(f, a, m, fa, flm, fm, left, tol / 2, depth - 1) +
         simpson(f, m, b, fm, frm, fb, right, tol / 2, depth - 1);
}
template <typename F>
double integrate(const F& f, double a, double b, double tol) {
  const double fa = f(a), fm = f((a + b) / 2), fb = f(b);
  return simpson(f, a, b, fa, fm, fb, (b - a) / 6 * (fa + 4 * fm + fb), tol, 30);
}

// Z(mu) = integral over the unit disk of exp(-eps d_H(mu, x)) dx with dx the
// Euclidean (Lebesgue) area, for mu = (m, 0). Directly, in polar
// coordinates around the origin:
double z_direct(double eps, double m) {
  return 2 * integrate(
                 [&](double r) {
                   return r * integrate(
                                  [&](double t) {
                                    return std::exp(-eps * ball_distance(m, 0, r * std::cos(t), r * std::sin(t)));
                                  },
                                  0, M_PI, 1e-8);
                 },
                 0, 1, 1e-7);
}

// And through the isometry T that takes 0 to mu: d_H(mu, T(y)) = d_H(0, y) =
// 2 artanh|y|, and dx = |T'(y)|^2 dy = (1 - m^2)^2 / |1 + m y|^4 dy, whose
// angular integral is 2 pi (1 + m^2 r^2) / (1 - m^2 r^2)^3 at |y| = r.
double z_mobius(double eps, double m) {
  return (1 - m * m) * (1 - m * m) *
         integrate(
             [&](double r) {
               const double a2 = m * m * r * r;
               return r < 1 ? std::pow((1 - r) / (1 + r), eps) * 2 * M_PI * (1 + a2) / std::pow(1 - a2, 3) * r : 0.0;
             },
             0, 1, 1e-12);
}

}  // namespace

TEST_CASE(
    "a density normalised by Lebesgue area has a normaliser that depends on the centre (the figures of the docs)") {
  // docs/guarantees.md, "Why the volume matters": Z(0)/Z(mu) is 1.36, 6.16
  // and 85.0 for |mu| = 0.5, 0.9, 0.99 at eps = 1.2, and 7.7 at |mu| = 0.99,
  // eps = 0.5, computed two ways that agree.
  struct Case {
    double eps, m, ratio;
  };
  for (const Case c : {Case{1.2, 0.5, 1.36}, Case{1.2, 0.9, 6.16}, Case{1.2, 0.99, 85.0}, Case{0.5, 0.99, 7.72}}) {
    CAPTURE(c.eps);
    CAPTURE(c.m);
    const double ratio = z_mobius(c.eps, 0) / z_mobius(c.eps, c.m);
    CHECK(ratio == doctest::Approx(c.ratio).epsilon(0.005));
    if (c.m < 0.95) {  // the direct grid resolves the peak at mu only away from the boundary
      CHECK(z_direct(c.eps, 0) == doctest::Approx(z_mobius(c.eps, 0)).epsilon(1e-4));
      CHECK(z_direct(c.eps, c.m) == doctest::Approx(z_mobius(c.eps, c.m)).epsilon(1e-4));
    }
  }
}
