// Statistical tests of the samplers (DESIGN.md §5, §10): Kolmogorov–Smirnov
// against exact CDFs at alpha = 1e-6 with fixed seeds. Each check is paired
// with a deliberately broken sampler that the same check must reject.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <vector>

#include "rng/random_stream.hpp"
#include "sampling/samplers.hpp"
#include "support/statistics.hpp"

using namespace dxt;
using dxt::test::ks_critical;
using dxt::test::ks_statistic;

namespace {

RandomStream seeded(uint8_t tag) {
  std::array<uint8_t, 32> seed{};
  seed[0] = tag;
  seed[31] = 0x5A;
  return RandomStream(make_keyed_stream(seed));
}

constexpr size_t kSamples = 20000;

}  // namespace

TEST_CASE("reference functions agree with closed forms") {
  CHECK(test::gamma_p(1, 2.0) == doctest::Approx(1 - std::exp(-2.0)).epsilon(1e-12));
  CHECK(test::gamma_p(3, 2.5) == doctest::Approx(1 - std::exp(-2.5) * (1 + 2.5 + 2.5 * 2.5 / 2)).epsilon(1e-12));
  CHECK(test::gamma_p(300, 300) == doctest::Approx(0.5).epsilon(0.02));
  CHECK(test::beta_i(1, 1, 0.3) == doctest::Approx(0.3).epsilon(1e-12));
  CHECK(test::beta_i(2.5, 2.5, 0.5) == doctest::Approx(0.5).epsilon(1e-12));
  CHECK(test::beta_i(3, 1, 0.6) == doctest::Approx(std::pow(0.6, 3)).epsilon(1e-12));
  CHECK(test::beta_i(0.5, 0.5, 0.25) == doctest::Approx(2 / M_PI * std::asin(0.5)).epsilon(1e-10));
}

TEST_CASE("uniform: KS against U(0,1), never 0 or 1") {
  RandomStream rng = seeded(1);
  std::vector<double> s(kSamples);
  for (double& u : s) {
    u = rng.uniform();
    REQUIRE(u > 0);
    REQUIRE(u < 1);
  }
  CHECK(ks_statistic(s, [](double x) { return x; }) < ks_critical(kSamples));
}

TEST_CASE("exponential: KS against Exp(1)") {
  RandomStream rng = seeded(2);
  std::vector<double> s(kSamples);
  for (double& x : s) x = sample_exponential(rng);
  CHECK(ks_statistic(s, [](double x) { return 1 - std::exp(-x); }) < ks_critical(kSamples));
}

TEST_CASE("Gamma(n, 1/eps) radius: KS against the exact CDF; broken shapes and scales are rejected") {
  for (uint32_t n : {1u, 2u, 5u, 50u, 300u}) {
    for (double eps : {0.5, 4.0}) {
      CAPTURE(n);
      CAPTURE(eps);
      const auto cdf = [n, eps](double r) { return test::gamma_p(n, eps * r); };
      RandomStream rng = seeded(static_cast<uint8_t>(n + 7));
      std::vector<double> good(kSamples), wrong_shape(kSamples), wrong_scale(kSamples);
      for (double& r : good) r = sample_gamma_integer_shape(rng, n, 1 / eps);
      CHECK(ks_statistic(good, cdf) < ks_critical(kSamples));
      // Mutations of DESIGN.md §10: shape n-1 and epsilon scaled by 1.5.
      if (n > 1) {
        for (double& r : wrong_shape) r = sample_gamma_integer_shape(rng, n - 1, 1 / eps);
        CHECK(ks_statistic(wrong_shape, cdf) > ks_critical(kSamples));
      }
      for (double& r : wrong_scale) r = sample_gamma_integer_shape(rng, n, 1 / (1.5 * eps));
      CHECK(ks_statistic(wrong_scale, cdf) > ks_critical(kSamples));
    }
  }
}

TEST_CASE("normal pairs: both coordinates are N(0,1)") {
  RandomStream rng = seeded(3);
  std::vector<double> a(kSamples), b(kSamples);
  for (size_t i = 0; i < kSamples; ++i) sample_normal_pair(rng, a[i], b[i]);
  const auto phi = [](double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); };
  CHECK(ks_statistic(a, phi) < ks_critical(kSamples));
  CHECK(ks_statistic(b, phi) < ks_critical(kSamples));
  // Independence of the pair: the product's sign is a fair coin.
  size_t positive = 0;
  for (size_t i = 0; i < kSamples; ++i) positive += a[i] * b[i] > 0;
  const double z = (static_cast<double>(positive) - kSamples / 2.0) / std::sqrt(kSamples / 4.0);
  CHECK(std::fabs(z) < 5.3);  // two-sided alpha = 1e-7
}

TEST_CASE("direction on S^(n-1): unit norm, (1+u_i)/2 ~ Beta((n-1)/2, (n-1)/2)") {
  for (size_t n : {2u, 3u, 5u, 20u, 301u}) {
    CAPTURE(n);
    RandomStream rng = seeded(static_cast<uint8_t>(40 + n));
    std::vector<double> u(n), first(kSamples), last(kSamples), skewed(kSamples);
    const double a = (static_cast<double>(n) - 1) / 2;
    const auto cdf = [a](double x) { return test::beta_i(a, a, x); };
    for (size_t k = 0; k < kSamples; ++k) {
      sample_unit_direction(rng, u.data(), n);
      double norm2 = 0;
      for (double x : u) norm2 += x * x;
      REQUIRE(norm2 == doctest::Approx(1.0).epsilon(1e-12));
      first[k] = (1 + u[0]) / 2;
      last[k] = (1 + u[n - 1]) / 2;
      // A broken direction: normalising uniform-cube samples is not uniform
      // on the sphere (for n >= 3 the marginal differs).
      double c2 = 0;
      for (size_t i = 0; i < n; ++i) {
        u[i] = 2 * rng.uniform() - 1;
        c2 += u[i] * u[i];
      }
      skewed[k] = (1 + u[0] / std::sqrt(c2)) / 2;
    }
    CHECK(ks_statistic(first, cdf) < ks_critical(kSamples));
    CHECK(ks_statistic(last, cdf) < ks_critical(kSamples));
    if (n >= 3) CHECK(ks_statistic(skewed, cdf) > ks_critical(kSamples));
  }
}

TEST_CASE("gumbel: KS against exp(-exp(-x))") {
  RandomStream rng = seeded(4);
  std::vector<double> s(kSamples);
  for (double& x : s) x = sample_gumbel(rng);
  CHECK(ks_statistic(s, [](double x) { return std::exp(-std::exp(-x)); }) < ks_critical(kSamples));
}
