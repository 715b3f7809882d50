// SPDX-License-Identifier: Apache-2.0
// Reference distributions and goodness-of-fit tests for the statistical
// suites. Written independently of the samplers they check. Every test using
// these runs at significance alpha = 1e-6 with a fixed seed, so a correct
// implementation fails with probability at most 1e-6 per check.
#pragma once

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>
#include <vector>

namespace dxt::test {

inline constexpr double kAlpha = 1e-6;

// Regularised lower incomplete gamma P(a, x) (series for x < a+1, Lentz's
// continued fraction for the upper part otherwise).
inline double gamma_p(double a, double x) {
  if (x <= 0) return 0;
  const double log_prefix = a * std::log(x) - x - std::lgamma(a);
  if (x < a + 1) {
    double term = 1.0 / a, sum = term;
    for (int n = 1; n < 100000; ++n) {
      term *= x / (a + n);
      sum += term;
      if (std::fabs(term) < std::fabs(sum) * 1e-16) break;
    }
    return sum * std::exp(log_prefix);
  }
  const double tiny = 1e-300;
  double b = x + 1 - a, c = 1 / tiny, d = 1 / b, h = d;
  for (int i = 1; i < 100000; ++i) {
    const double an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (std::fabs(d) < tiny) d = tiny;
    c = b + an / c;
    if (std::fabs(c) < tiny) c = tiny;
    d = 1 / d;
    const double delta = d * c;
    h *= delta;
    if (std::fabs(delta - 1) < 1e-16) break;
  }
  return 1 - std::exp(log_prefix) * h;
}

// Regularised incomplete beta I_x(a, b) by the continued fraction (modified
// Lentz), using the symmetry I_x(a,b) = 1 - I_{1-x}(b,a) for convergence.
inline double beta_i(double a, double b, double x) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  if (x > (a + 1) / (a + b + 2)) return 1 - beta_i(b, a, 1 - x);
  const double log_front =
      std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x) - std::log(a);
  const double tiny = 1e-300;
  double f = 1, c = 1, d = 0;
  for (int i = 0; i <= 100000; ++i) {
    const int m = i / 2;
    double numerator;
    if (i == 0) {
      numerator = 1;
    } else if (i % 2 == 0) {
      numerator = (m * (b - m) * x) / ((a + 2.0 * m - 1) * (a + 2.0 * m));
    } else {
      numerator = -((a + m) * (a + b + m) * x) / ((a + 2.0 * m) * (a + 2.0 * m + 1));
    }
    d = 1 + numerator * d;
    if (std::fabs(d) < tiny) d = tiny;
    d = 1 / d;
    c = 1 + numerator / c;
    if (std::fabs(c) < tiny) c = tiny;
    const double cd = c * d;
    f *= cd;
    if (std::fabs(1 - cd) < 1e-15) break;
  }
  return std::exp(log_front) * (f - 1);
}

// Kolmogorov–Smirnov statistic of `sample` against the continuous CDF.
inline double ks_statistic(std::vector<double> sample, const std::function<double(double)>& cdf) {
  std::sort(sample.begin(), sample.end());
  const double n = static_cast<double>(sample.size());
  double d = 0;
  for (size_t i = 0; i < sample.size(); ++i) {
    const double f = cdf(sample[i]);
    d = std::max({d, f - static_cast<double>(i) / n, static_cast<double>(i + 1) / n - f});
  }
  return d;
}

// Critical value of the KS statistic: the asymptotic bound
// P(sqrt(n) D > t) <= 2 exp(-2 t^2) (Dvoretzky–Kiefer–Wolfowitz–Massart).
inline double ks_critical(size_t n, double alpha = kAlpha) {
  return std::sqrt(std::log(2 / alpha) / (2 * static_cast<double>(n)));
}

struct ChiSquare {
  double statistic = 0;
  int degrees_of_freedom = 0;
  double p_value = 1;
};

// Pearson's chi-square of observed counts against probabilities; cells with
// an expected count below 5 are pooled into one cell.
inline ChiSquare chi_square(const std::vector<double>& observed, const std::vector<double>& probability) {
  double total = 0;
  for (double o : observed) total += o;
  ChiSquare r;
  double pooled_o = 0, pooled_e = 0;
  int cells = 0;
  for (size_t i = 0; i < observed.size(); ++i) {
    const double e = probability[i] * total;
    if (e < 5) {
      pooled_o += observed[i];
      pooled_e += e;
      continue;
    }
    r.statistic += (observed[i] - e) * (observed[i] - e) / e;
    ++cells;
  }
  if (pooled_e > 0 || pooled_o > 0) {
    // A pooled cell with no expected mass but observations is an outright
    // impossibility: make the statistic infinite.
    r.statistic += pooled_e > 0 ? (pooled_o - pooled_e) * (pooled_o - pooled_e) / pooled_e
                                : std::numeric_limits<double>::infinity();
    ++cells;
  }
  r.degrees_of_freedom = std::max(cells - 1, 1);
  r.p_value = std::isfinite(r.statistic) ? 1 - gamma_p(r.degrees_of_freedom / 2.0, r.statistic / 2) : 0;
  return r;
}

}  // namespace dxt::test
