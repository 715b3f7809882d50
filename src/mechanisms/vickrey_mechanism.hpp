// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <vector>

#include "mechanisms/mechanism.hpp"

namespace dxt {

// The Vickrey mechanism of Xu, Aggarwal, Feyisetan & Teissier (2021), on
// laplace noise: z = phi(w) + R u as in LaplaceMechanism, then with d1 <= d2
// the distances from z to its two nearest words, release the nearest with
// probability
//   p = (1 - t) d2 / (t d1 + (1 - t) d2),
// and the second nearest otherwise. t = 0 is plain laplace, t = 1 always
// releases the second nearest, t = 0.5 gives p = d2 / (d1 + d2).
//
// Guarantee: the choice uses z, the public vocabulary and fresh randomness
// only, so it is post-processing of the laplace noisy point: eps * d2(w, w')
// per word, exactly as laplace.
class VickreyMechanism final : public Mechanism {
 public:
  VickreyMechanism(const Model& model, const MechanismParams& params);
  dxt_metric metric() const override { return DXT_METRIC_EUCLIDEAN; }
  uint32_t privatize(RandomStream& rng, std::optional<uint32_t> index) override;

  // The probability of releasing the nearest word.
  static double first_probability(double t, double d1, double d2);

 private:
  const Model& model_;
  std::vector<float> point_;
  std::vector<double> direction_;
  std::optional<EuclideanDecoder> decoder_;
};

}  // namespace dxt
