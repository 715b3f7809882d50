#include "sampling/samplers.hpp"

#include <cmath>

namespace dxt {

namespace {
constexpr double kTwoPi = 6.283185307179586476925286766559;
}

double sample_exponential(RandomStream& rng) { return -std::log(rng.uniform()); }

double sample_gamma_integer_shape(RandomStream& rng, uint32_t shape, double scale) {
  double sum = 0;
  for (uint32_t k = 0; k < shape; ++k) sum += sample_exponential(rng);
  return sum * scale;
}

void sample_normal_pair(RandomStream& rng, double& a, double& b) {
  const double radius = std::sqrt(-2.0 * std::log(rng.uniform()));
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

double sample_gumbel(RandomStream& rng) { return -std::log(-std::log(rng.uniform())); }

}  // namespace dxt
