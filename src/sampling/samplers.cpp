// SPDX-License-Identifier: Apache-2.0
#include "sampling/samplers.hpp"

#include <cmath>
#include <cstdint>

#include "errors/error.hpp"

namespace dxt {

namespace {
constexpr double kTwoPi = 6.283185307179586476925286766559;
constexpr double kLn2 = 0.69314718055994530941723212145818;

// More zero words than this in one uniform means a broken generator.
constexpr int kMaxZeroWords = 1024;

// A uniform U on (0,1) as U = 2^-(k+1) * (1 + f * 2^-52): the position k+1
// of the first one bit of an infinite random bit string and the 52 bits
// after it (each double standing for [U, U + ulp), as RandomStream::uniform).
// k is not bounded, so -ln U is not capped.
struct UniformParts {
  uint64_t k;
  double fraction;  // f * 2^-52, in [0, 1)
};

UniformParts draw_uniform_parts(RandomStream& rng) {
  uint64_t k = 0;
  uint64_t bits = rng.next_u64();
  for (int zero_words = 0; bits == 0; bits = rng.next_u64()) {
    if (++zero_words > kMaxZeroWords) fail(DXT_E_RNG_FAILURE, "the random generator returned 65536 zero bits in a row");
    k += 64;
  }
  const int lead = __builtin_clzll(bits);
  k += static_cast<uint64_t>(lead);
  // The bits after the leading one, left-aligned; topped up from the next
  // word when fewer than 52 are left in this one.
  const uint64_t rest = (bits << lead) << 1;
  const int have = 63 - lead;
  const uint64_t mantissa = have >= 52 ? rest : rest | rng.next_u64() >> have;
  return {k, std::ldexp(static_cast<double>(mantissa >> 12), -52)};
}

}  // namespace

uint32_t uniform_index(RandomStream& rng, uint32_t n) {
  // Lemire's nearly-divisionless method would do; the plain rejection of the
  // top partial block is simpler and exactly uniform.
  const uint64_t limit = UINT64_MAX - UINT64_MAX % n;
  for (;;) {
    const uint64_t r = rng.next_u64();
    if (r < limit) return static_cast<uint32_t>(r % n);
  }
}

double sample_exponential(RandomStream& rng) {
  // E = -ln U with U = m 2^-(53+k) taken from its parts, so that U below the
  // smallest double (2^-1074), where uniform() would stop, still gives its
  // exact E: the tail of Exp(1) is not capped near 744.4. While U is a normal
  // double (k <= 1021) this is -ln(uniform()) bit for bit, from the same
  // bytes; below, E = (k+1) ln 2 - ln(1 + f) with f = m 2^-52 - 1 in [0, 1),
  // both terms exact to rounding (no cancellation: the first is >= 708).
  const RandomStream::UniformParts u = rng.uniform_parts();
  if (u.k <= 1021) return -std::log(std::ldexp(static_cast<double>(u.mantissa), -53 - static_cast<int>(u.k)));
  const double f = std::ldexp(static_cast<double>(u.mantissa - (uint64_t{1} << 52)), -52);
  return static_cast<double>(u.k + 1) * kLn2 - std::log1p(f);
}

double sample_gamma_integer_shape(RandomStream& rng, uint32_t shape, double scale) {
  double sum = 0;
  for (uint32_t k = 0; k < shape; ++k) sum += sample_exponential(rng);
  return sum * scale;
}

void sample_normal_pair(RandomStream& rng, double& a, double& b) {
  // sqrt(2E), E ~ Exp(1) uncapped; the same value as sqrt(-2 ln U) (doubling
  // and negation are exact) wherever U is a normal double.
  const double radius = std::sqrt(2.0 * sample_exponential(rng));
  const double angle = kTwoPi * rng.uniform();
  a = radius * std::cos(angle);
  b = radius * std::sin(angle);
}

void sample_unit_direction(RandomStream& rng, double* out, size_t n) {
  // The norm is zero with probability 0; the loop exists only so that an
  // astronomically unlikely underflow cannot produce a division by zero.
  for (;;) {
    double norm2 = 0;
    for (size_t i = 0; i < n; i += 2) {
      double a, b;
      sample_normal_pair(rng, a, b);
      out[i] = a;
      if (i + 1 < n) out[i + 1] = b;
    }
    for (size_t i = 0; i < n; ++i) norm2 += out[i] * out[i];
    if (norm2 > 0) {
      const double inv = 1.0 / std::sqrt(norm2);
      for (size_t i = 0; i < n; ++i) out[i] *= inv;
      return;
    }
  }
}

double sample_log_exponential(RandomStream& rng) {
  const UniformParts u = draw_uniform_parts(rng);
  if (u.k >= 1) {
    // U < 1/2: E = -ln U = (k+1) ln 2 - ln(1 + f) >= ln 2, no cancellation.
    return std::log(static_cast<double>(u.k + 1) * kLn2 - std::log1p(u.fraction));
  }
  // U in [1/2, 1), where E < ln 2. Given that, 1 - U is uniform on (0, 1/2]:
  // W/2 with W a fresh full-range uniform, so that E near 0 keeps all its
  // digits (computing 1 - U from U would round it to multiples of 2^-53).
  const UniformParts w = draw_uniform_parts(rng);
  if (w.k < 1000) {
    const double half_w = std::ldexp(1.0 + w.fraction, -static_cast<int>(w.k) - 2);  // a normal double
    return std::log(-std::log1p(-half_w));
  }
  // W/2 < 2^-1001: E = W/2 (1 + W/4 + ...), so ln E = ln(W/2) to far below
  // the rounding of a double; computed without forming W/2.
  return -static_cast<double>(w.k + 2) * kLn2 + std::log1p(w.fraction);
}

double sample_gumbel(RandomStream& rng) { return -sample_log_exponential(rng); }

}  // namespace dxt
