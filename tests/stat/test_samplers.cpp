// SPDX-License-Identifier: Apache-2.0
// Statistical tests of the samplers (DESIGN.md §5, §10): Kolmogorov–Smirnov
// against exact CDFs at alpha = 1e-6 with fixed seeds. Each check is paired
// with a deliberately broken sampler that the same check must reject.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <memory>
#include <vector>

#include "errors/error.hpp"
#include "rng/byte_source.hpp"
#include "rng/random_stream.hpp"
#include "sampling/samplers.hpp"
#include "support/statistics.hpp"

using namespace dxt;
using dxt::test::ks_critical;
using dxt::test::ks_statistic;

namespace {

// Replays a fixed byte pattern, then zeros.
class ScriptedSource final : public ByteSource {
 public:
  explicit ScriptedSource(std::vector<uint8_t> bytes) : bytes_(std::move(bytes)) {}
  void fill(uint8_t* out, size_t n) override {
    for (size_t i = 0; i < n; ++i) out[i] = at_ < bytes_.size() ? bytes_[at_++] : 0;
  }
  dxt_rng_mode mode() const override { return DXT_RNG_DETERMINISTIC; }

 private:
  std::vector<uint8_t> bytes_;
  size_t at_ = 0;
};

void append_u64(std::vector<uint8_t>& bytes, uint64_t v) {
  for (int i = 0; i < 8; ++i) bytes.push_back(static_cast<uint8_t>(v >> (8 * i)));  // next_u64 reads little-endian
}

// A stream whose first uniform lies in [1/2, 1) and whose second is a bit
// string of j zeros, then a one, then zeros: W in [2^-(j+1), 2^-j).
RandomStream upper_tail_stream(uint64_t j) {
  std::vector<uint8_t> bytes;
  append_u64(bytes, uint64_t{1} << 63);
  for (uint64_t z = 0; z < j / 64; ++z) append_u64(bytes, 0);
  append_u64(bytes, uint64_t{1} << (63 - j % 64));
  return RandomStream(std::make_unique<ScriptedSource>(bytes));
}

// The old sampler, capped: -ln(-ln U) with U at most 1 - 2^-53.
double capped_gumbel(RandomStream& rng) { return -std::log(-std::log(rng.uniform())); }

// Whether `gumbel` maps the event "first uniform >= 1/2, then j zero bits and
// a one" (probability exactly 2^-(j+2)) into the Gumbel quantile interval of
// the same probability: E = e^-G in [-log1p(-2^-(j+2)), -log1p(-2^-(j+1))),
// whose Exp(1) probability is (1 - 2^-(j+2)) - (1 - 2^-(j+1)) = 2^-(j+2).
// The interval is written in the log domain, so j may be in the thousands.
bool maps_tail_event(uint64_t j, double (*gumbel)(RandomStream&)) {
  auto log_e = [](uint64_t bits) {  // ln(-log1p(-2^-bits))
    return bits < 900 ? std::log(-std::log1p(-std::ldexp(1.0, -static_cast<int>(bits))))
                      : -static_cast<double>(bits) * std::log(2.0);
  };
  const double lo = -log_e(j + 1), hi = -log_e(j + 2);  // G = -ln E
  RandomStream rng = upper_tail_stream(j);
  const double g = gumbel(rng);
  const double slack = 1e-12 * std::max(1.0, std::fabs(hi));
  return g >= lo - slack && g <= hi + slack;
}

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

TEST_CASE("ln of an exponential: KS of e^x against Exp(1), and of x against its own CDF 1 - exp(-e^x)") {
  RandomStream rng = seeded(5);
  std::vector<double> s(kSamples);
  for (double& x : s) x = sample_log_exponential(rng);
  CHECK(ks_statistic(s, [](double x) { return -std::expm1(-std::exp(x)); }) < ks_critical(kSamples));
  for (double& x : s) x = std::exp(x);
  CHECK(ks_statistic(s, [](double x) { return -std::expm1(-x); }) < ks_critical(kSamples));
}

TEST_CASE("gumbel: the extreme upper tail is exact, not capped; the capped sampler fails the same check") {
  // Each event of probability 2^-(j+2) is mapped onto the quantile interval
  // of the same probability, for tails far beyond what sampling can reach
  // (j = 20000: G near 13 900). The capped -ln(-ln U) never exceeds 36.7.
  for (uint64_t j : {0u, 1u, 10u, 51u, 52u, 53u, 60u, 63u, 64u, 65u, 100u, 1000u, 1074u, 1100u, 20000u}) {
    CAPTURE(j);
    CHECK(maps_tail_event(j, sample_gumbel));
    if (j >= 60) CHECK_FALSE(maps_tail_event(j, capped_gumbel));
  }
  RandomStream rng = upper_tail_stream(20000);
  CHECK(sample_gumbel(rng) > 13800);
  // -ln E near 0 as well: a first uniform below 2^-2000 gives E above
  // 2000 ln 2, so ln E = ln(2000 ln 2 - ...) with no overflow anywhere.
  std::vector<uint8_t> bytes;
  for (int z = 0; z < 2000 / 64; ++z) append_u64(bytes, 0);
  append_u64(bytes, uint64_t{1} << (63 - 2000 % 64));
  RandomStream low(std::make_unique<ScriptedSource>(bytes));
  CHECK(sample_log_exponential(low) == doctest::Approx(std::log(2001 * std::log(2.0))).epsilon(1e-9));
}

namespace {

// A stream whose first uniform is the bit string "j zero bits, a one, then
// the 63 bits of `rest`": U in [2^-(j+1), 2^-j), an event of probability
// exactly 2^-(j+1) (RandomStream::uniform_parts reads the word after the
// leading one for the mantissa).
RandomStream exponent_stream(uint64_t j, uint64_t rest = 0) {
  std::vector<uint8_t> bytes;
  for (uint64_t z = 0; z < j / 64; ++z) append_u64(bytes, 0);
  const int lead = static_cast<int>(j % 64);
  append_u64(bytes, (uint64_t{1} << (63 - lead)) | (lead < 63 ? rest >> (lead + 1) : 0));
  append_u64(bytes, rest << (63 - lead));
  return RandomStream(std::make_unique<ScriptedSource>(bytes));
}

// The sampler before: -ln of the uniform, whose floor 2^-1074 caps E at 744.4.
double capped_exponential(RandomStream& rng) { return -std::log(rng.uniform()); }

// Whether `exponential` maps the event of exponent_stream(j) (probability
// 2^-(j+1)) into the Exp(1) quantile interval of the same probability,
// (j ln 2, (j+1) ln 2]: e^(-j ln 2) - e^(-(j+1) ln 2) = 2^-(j+1).
bool maps_exponent_event(uint64_t j, uint64_t rest, double (*exponential)(RandomStream&)) {
  RandomStream rng = exponent_stream(j, rest);
  const double e = exponential(rng);
  const double lo = static_cast<double>(j) * std::log(2.0), hi = static_cast<double>(j + 1) * std::log(2.0);
  const double slack = 1e-13 * hi;
  return e > lo - slack && e <= hi + slack;
}

}  // namespace

TEST_CASE("exponential: the extreme upper tail is exact, beyond 744.4; the capped sampler fails the same check") {
  // Every event "j zero bits, then a one" lands on the quantile interval of
  // its own probability, far beyond 744.4 (the largest -ln U of a double U)
  // and up to the 65,536 zero bits at which a generator is declared broken.
  for (uint64_t j : {0u,    1u,    11u,   12u,   52u,   63u,   64u,   100u,  1000u,  1021u,  1022u,
                     1023u, 1073u, 1074u, 1075u, 1087u, 1088u, 1100u, 5000u, 20000u, 65535u, 65599u}) {
    for (uint64_t rest : {uint64_t{0}, ~uint64_t{0}, uint64_t{0x5A5A5A5A5A5A5A5A}}) {
      CAPTURE(j);
      CAPTURE(rest);
      CHECK(maps_exponent_event(j, rest, sample_exponential));
      // The old sampler agrees while U is representable, and is capped after.
      // (At j = 1074 it returns the interval's end, 1074 ln 2.)
      if (j <= 1074) CHECK(maps_exponent_event(j, rest, capped_exponential));
      if (j >= 1075) CHECK_FALSE(maps_exponent_event(j, rest, capped_exponential));
    }
  }
  RandomStream far = exponent_stream(65599);
  CHECK(sample_exponential(far) == doctest::Approx(65600 * std::log(2.0)).epsilon(1e-12));  // 45 470.3
  // A Gamma radius is a sum of such draws, so it is not capped at n * 744.4
  // either: three draws of j = 2000 give 3 * 2001 ln 2 / eps.
  std::vector<uint8_t> bytes;
  for (int d = 0; d < 3; ++d) {
    for (int z = 0; z < 2000 / 64; ++z) append_u64(bytes, 0);
    append_u64(bytes, uint64_t{1} << (63 - 2000 % 64));
    append_u64(bytes, 0);
  }
  RandomStream gamma(std::make_unique<ScriptedSource>(bytes));
  CHECK(sample_gamma_integer_shape(gamma, 3, 0.5) == doctest::Approx(0.5 * 3 * 2001 * std::log(2.0)).epsilon(1e-12));
  // 65 536 zero bits in a row are a broken generator, reported.
  RandomStream zeros(std::make_unique<ScriptedSource>(std::vector<uint8_t>{}));
  try {
    (void)sample_exponential(zeros);
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.status() == DXT_E_RNG_FAILURE);
  }
}

TEST_CASE("exponential and normals: the same bytes and, wherever U is a normal double, the same values as before") {
  // Seeded output does not change: sample_exponential reads the bytes that
  // -ln(uniform()) read and returns the same double, and so do the normals.
  RandomStream a = seeded(6), b = seeded(6);
  for (int i = 0; i < 200000; ++i) {
    const double x = sample_exponential(a), y = capped_exponential(b);
    REQUIRE(x == y);
  }
  RandomStream c = seeded(7), d = seeded(7);
  for (int i = 0; i < 50000; ++i) {
    double n1, n2;
    sample_normal_pair(c, n1, n2);
    const double radius = std::sqrt(-2.0 * std::log(d.uniform())),
                 angle = 6.283185307179586476925286766559 * d.uniform();
    REQUIRE(n1 == radius * std::cos(angle));
    REQUIRE(n2 == radius * std::sin(angle));
  }
}

TEST_CASE("a generator that returns only zero bits is reported, not looped on") {
  RandomStream rng(std::make_unique<ScriptedSource>(std::vector<uint8_t>{}));
  try {
    sample_gumbel(rng);
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.status() == DXT_E_RNG_FAILURE);
  }
}
