// SPDX-License-Identifier: Apache-2.0
// Poincaré-ball arithmetic and a seeded random generator for the Poincaré
// embedding trainer (tools/poincare/poincare_train.cpp). Standard library
// only; nothing here depends on dxtext.
//
// Ball of curvature -1:  d(u, v) = arcosh(1 + 2 |u - v|^2 / ((1 - |u|^2)(1 - |v|^2)))
// (Nickel & Kiela, "Poincaré Embeddings for Learning Hierarchical
// Representations", NIPS 2017, eq. 1).
#ifndef DXTEXT_TOOLS_POINCARE_MATH_HPP
#define DXTEXT_TOOLS_POINCARE_MATH_HPP

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>

namespace poincare {

// Points are kept strictly inside the ball: after every update a point whose
// norm reaches 1 - kBoundaryEps is scaled back to that norm (paper, eq. 5).
constexpr double kBoundaryEps = 1e-5;
constexpr double kMaxNorm = 1.0 - kBoundaryEps;

inline double dot(const double* a, const double* b, std::size_t n) {
  double s = 0;
  for (std::size_t i = 0; i < n; ++i) s += a[i] * b[i];
  return s;
}

inline double squared_distance(const double* a, const double* b, std::size_t n) {
  double s = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double t = a[i] - b[i];
    s += t * t;
  }
  return s;
}

// arcosh(x) for x >= 1, written so that it stays accurate near x = 1.
inline double arcosh(double x) {
  if (x < 1) x = 1;
  const double t = x - 1;
  return std::log1p(t + std::sqrt(t * (x + 1)));
}

// The argument of arcosh minus one: 2 |u - v|^2 / ((1 - |u|^2)(1 - |v|^2)).
// It is a strictly increasing function of the distance, so ranking by it is
// ranking by distance.
inline double distance_key(double sq_dist, double alpha_u, double alpha_v) {
  return 2.0 * sq_dist / (alpha_u * alpha_v);
}

inline double distance(const double* u, const double* v, std::size_t n) {
  const double alpha = 1.0 - dot(u, u, n);
  const double beta = 1.0 - dot(v, v, n);
  return arcosh(1.0 + distance_key(squared_distance(u, v, n), alpha, beta));
}

// Partial quantities of d(x, y) kept for the gradient.
struct DistanceParts {
  double sq_norm_x = 0, sq_norm_y = 0, dot_xy = 0, sq_dist = 0;
  double gamma = 1;  // 1 + 2 |x - y|^2 / (alpha beta)
  double value = 0;  // d(x, y)
};

inline DistanceParts distance_parts(const double* x, const double* y, std::size_t n) {
  DistanceParts p;
  p.sq_norm_x = dot(x, x, n);
  p.sq_norm_y = dot(y, y, n);
  p.dot_xy = dot(x, y, n);
  p.sq_dist = squared_distance(x, y, n);
  const double alpha = 1.0 - p.sq_norm_x, beta = 1.0 - p.sq_norm_y;
  p.gamma = 1.0 + distance_key(p.sq_dist, alpha, beta);
  p.value = arcosh(p.gamma);
  return p;
}

// Adds scale * (Euclidean gradient of d(x, y) with respect to x) to out:
//   dd/dx = 4 / (beta sqrt(gamma^2 - 1)) * ((|y|^2 - 2<x,y> + 1) / alpha^2 * x - y / alpha)
// with alpha = 1 - |x|^2, beta = 1 - |y|^2 (paper, eq. 4). At x = y the
// bracket vanishes; the denominator is clamped to avoid 0/0.
inline void add_distance_gradient(const double* x, const double* y, double sq_norm_x, double sq_norm_y, double dot_xy,
                                  double gamma, double scale, double* out, std::size_t n) {
  const double alpha = 1.0 - sq_norm_x, beta = 1.0 - sq_norm_y;
  double denom = beta * std::sqrt(std::max(gamma * gamma - 1.0, 0.0));
  if (denom < 1e-15) denom = 1e-15;
  const double c = 4.0 / denom * scale;
  const double a = (sq_norm_y - 2.0 * dot_xy + 1.0) / (alpha * alpha);
  const double b = 1.0 / alpha;
  for (std::size_t i = 0; i < n; ++i) out[i] += c * (a * x[i] - b * y[i]);
}

// The gradients of d(x, y) for both points at once, given what the distance
// computation already has: key = gamma - 1 and root = sqrt(gamma^2 - 1) =
// sqrt(key (key + 2)). Adds scale * dd/dx to gx and scale * dd/dy to gy.
inline void add_pair_gradients(const double* x, const double* y, double sq_norm_x, double sq_norm_y, double dot_xy,
                               double root, double scale, double* gx, double* gy, std::size_t n) {
  const double inv_alpha = 1.0 / (1.0 - sq_norm_x), inv_beta = 1.0 / (1.0 - sq_norm_y);
  const double c = 4.0 * scale / std::max(root, 1e-15);
  const double cx = c * inv_beta, cy = c * inv_alpha;  // 4 scale / (beta root), 4 scale / (alpha root)
  const double ax = (sq_norm_y - 2.0 * dot_xy + 1.0) * inv_alpha * inv_alpha;
  const double ay = (sq_norm_x - 2.0 * dot_xy + 1.0) * inv_beta * inv_beta;
  for (std::size_t i = 0; i < n; ++i) {
    gx[i] += cx * (ax * x[i] - inv_alpha * y[i]);
    gy[i] += cy * (ay * y[i] - inv_beta * x[i]);
  }
}

// Riemannian SGD step (paper, eq. 5 and 6): theta <- proj(theta - lr * (1 - |theta|^2)^2 / 4 * grad),
// proj scaling theta back to max_norm (< 1) when it gets there.
inline void rsgd_step(double* theta, const double* euclidean_grad, double lr, std::size_t n,
                      double max_norm = kMaxNorm) {
  const double s = 1.0 - dot(theta, theta, n);
  const double f = lr * s * s / 4.0;
  for (std::size_t i = 0; i < n; ++i) theta[i] -= f * euclidean_grad[i];
  const double norm = std::sqrt(dot(theta, theta, n));
  if (norm >= max_norm) {
    const double k = max_norm / norm;
    for (std::size_t i = 0; i < n; ++i) theta[i] *= k;
    // Rounding may leave the norm a hair above max_norm; it is still < 1.
  }
}

// --- Random numbers -------------------------------------------------------

inline uint64_t splitmix64_next(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

inline uint64_t mix64(uint64_t x) {
  uint64_t s = x;
  return splitmix64_next(s);
}

// xoshiro256** (Blackman & Vigna), seeded through splitmix64.
class Rng {
 public:
  explicit Rng(uint64_t seed) {
    uint64_t sm = seed;
    for (uint64_t& w : s_) w = splitmix64_next(sm);
  }
  uint64_t next() {
    const uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  // Uniform in [0, n) for n < 2^32 (Lemire's multiply-shift; the bias is
  // below n / 2^32 and irrelevant here).
  uint32_t below(uint32_t n) { return static_cast<uint32_t>(((next() >> 32) * uint64_t{n}) >> 32); }
  // Uniform in [0, 1).
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

}  // namespace poincare

#endif  // DXTEXT_TOOLS_POINCARE_MATH_HPP
