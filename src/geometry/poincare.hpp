// SPDX-License-Identifier: Apache-2.0
// Poincare-ball and Lorentz-hyperboloid maths (curvature -1).
//
// A point p of the ball (|p| < 1) corresponds to the hyperboloid point
//   x = ((1 + |p|^2) / (1 - |p|^2),  2 p / (1 - |p|^2)),
// and  cosh d_H(p, q) = -<x, y>_L  with the Lorentz product
//   <x, y>_L = -x0 y0 + sum_i xi yi.
// Distances near the boundary lose all precision in the ball formula; the
// Lorentz form keeps them (Nickel & Kiela 2018).
#pragma once

#include <cmath>
#include <cstddef>

namespace dxt::poincare {

// d_H(a, b) = arcosh(1 + 2|a-b|^2 / ((1-|a|^2)(1-|b|^2))), in double.
inline double distance(const double* a, const double* b, size_t n) {
  double aa = 0, bb = 0, diff = 0;
  for (size_t i = 0; i < n; ++i) {
    aa += a[i] * a[i];
    bb += b[i] * b[i];
    diff += (a[i] - b[i]) * (a[i] - b[i]);
  }
  return std::acosh(1 + 2 * diff / ((1 - aa) * (1 - bb)));
}

// Mobius addition x (+) y in the ball: the isometry that moves 0 to x,
// applied to y (Ungar; Ganea et al. 2018, eq. 2).
inline void mobius_add(const double* x, const double* y, double* out, size_t n) {
  double xy = 0, xx = 0, yy = 0;
  for (size_t i = 0; i < n; ++i) {
    xy += x[i] * y[i];
    xx += x[i] * x[i];
    yy += y[i] * y[i];
  }
  const double den = 1 + 2 * xy + xx * yy;
  for (size_t i = 0; i < n; ++i) out[i] = ((1 + 2 * xy + yy) * x[i] + (1 - xx) * y[i]) / den;
}

}  // namespace dxt::poincare
