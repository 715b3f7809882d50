// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <vector>

#include "mechanisms/mechanism.hpp"

namespace dxt {

// The hyperbolic mechanism of Feyisetan, Diethe & Drake (ICDM 2019) with an
// exact sampler. Words live in the Poincare ball B^n. The noisy point has
// density proportional to exp(-eps d_H(z, phi(w))) with respect to the
// hyperbolic volume, and the released word is the nearest in d_H.
//
// Sampling (DESIGN.md §5): around the origin the density factors into a
// uniform direction u and a radius with density ∝ e^(-eps R) sinh^(n-1) R,
// normalisable iff eps > n-1. With t = e^(-2R) that radius law is
// Beta((eps-n+1)/2, n), so R = sum_{k<n} E_k / (eps - n + 1 + 2k) with
// E_k ~ Exp(1) is exact. The origin-centred point is moved to phi(w) by the
// isometry taking 0 to phi(w): Mobius addition in the ball, computed here as
// the equivalent Lorentz boost on the hyperboloid, scaled by 1/cosh R so that
// no coordinate overflows however large R is (decoding only needs the point
// up to a positive factor).
//
// Guarantee: the density's normaliser does not depend on w (isometries
// preserve volume), so by the triangle inequality for d_H the noisy point is
// eps*d_H-private and decoding is post-processing: eps * d_H(w, w') per word.
// The paper samples with Metropolis-Hastings, which is only approximately the
// target law; see docs/guarantees.md.
// Out-of-vocabulary words start from the origin of the ball.
class HyperbolicMechanism final : public Mechanism {
 public:
  HyperbolicMechanism(const Model& model, const MechanismParams& params);
  dxt_metric metric() const override { return DXT_METRIC_HYPERBOLIC; }
  uint32_t privatize(RandomStream& rng, std::optional<uint32_t> index) override;

  // R = sum_{k<n} E_k / (eps - n + 1 + 2k): the hyperbolic radius sampler.
  static double sample_radius(RandomStream& rng, uint32_t n, double epsilon);

 private:
  const Model& model_;
  std::vector<float> row_;
  std::vector<double> direction_, spatial_;
};

}  // namespace dxt
