// SPDX-License-Identifier: Apache-2.0
// Numerical integration of a 2-D noise density that is isotropic around a
// centre, for the distribution tests: the radius runs over equal-probability
// quantiles of its law and the angle over equal steps, so every grid point
// carries the same weight. A code path that shares nothing with the
// samplers under test.
#pragma once

#include <cmath>
#include <functional>
#include <vector>

namespace dxt::test {

// Inverse of a continuous increasing CDF on [0, inf) by bisection.
inline double invert_cdf(const std::function<double(double)>& cdf, double u) {
  double lo = 0, hi = 1;
  while (cdf(hi) < u) hi *= 2;
  for (int i = 0; i < 200 && hi - lo > 1e-15 * hi; ++i) {
    const double mid = (lo + hi) / 2;
    (cdf(mid) < u ? lo : hi) = mid;
  }
  return (lo + hi) / 2;
}

// Calls visit(r, cos, sin, weight) over the kRadial x kAngular grid, where
// the radius has CDF `radius_cdf`.
inline void for_each_polar_point(const std::function<double(double)>& radius_cdf, int radial, int angular,
                                 const std::function<void(double, double, double, double)>& visit) {
  std::vector<double> c(angular), s(angular);
  for (int j = 0; j < angular; ++j) {
    const double t = 2 * M_PI * (j + 0.5) / angular;
    c[j] = std::cos(t);
    s[j] = std::sin(t);
  }
  const double weight = 1.0 / (double(radial) * angular);
  for (int i = 0; i < radial; ++i) {
    const double r = invert_cdf(radius_cdf, (i + 0.5) / radial);
    for (int j = 0; j < angular; ++j) visit(r, c[j], s[j], weight);
  }
}

// CDF of the planar laplace radius Gamma(2, 1/eps).
inline std::function<double(double)> planar_laplace_radius_cdf(double eps) {
  return [eps](double r) { return 1 - std::exp(-eps * r) * (1 + eps * r); };
}

// CDF of the hyperbolic-plane radius, density ∝ e^(-eps r) sinh r (eps > 1):
// (eps^2 - 1)/2 [ (1 - e^((1-eps) r))/(eps-1) - (1 - e^(-(1+eps) r))/(eps+1) ].
inline std::function<double(double)> hyperbolic_plane_radius_cdf(double eps) {
  return [eps](double r) {
    return (eps * eps - 1) / 2 *
           ((1 - std::exp((1 - eps) * r)) / (eps - 1) - (1 - std::exp(-(1 + eps) * r)) / (eps + 1));
  };
}

}  // namespace dxt::test
