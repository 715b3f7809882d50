// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <vector>

#include "mechanisms/mechanism.hpp"

namespace dxt {

// The multivariate Laplace mechanism of Fernandes, Dras & McIver (2019,
// Algorithms 1-2), also used by Feyisetan et al. (2020):
//   z = phi(w) + R u,  R ~ Gamma(n, 1/eps),  u uniform on S^(n-1),
// released as the vocabulary word nearest to z.
//
// Guarantee: the noise has density proportional to exp(-eps ||z - phi(w)||)
// on R^n (R is the radial part of that density: r^(n-1) e^(-eps r)), so by the
// triangle inequality Pr[z | w] <= exp(eps d2(w, w')) Pr[z | w'], and decoding
// is post-processing of z alone: eps * d2(w, w')-privacy per word. For bags of
// N words it gives eps*N*EMD (Fernandes et al. 2019); for texts in order,
// eps * sum_i d2(x_i, x'_i), not EMD (docs/guarantees.md proves both).
// Out-of-vocabulary words are all privatised from the origin.
class LaplaceMechanism final : public Mechanism {
 public:
  LaplaceMechanism(const Model& model, const MechanismParams& params);
  dxt_metric metric() const override { return DXT_METRIC_EUCLIDEAN; }
  uint32_t privatize(RandomStream& rng, std::optional<uint32_t> index) override;
  void privatize_batch(RandomStream& rng, const std::optional<uint32_t>* indices, size_t count, uint32_t* out) override;

  // The noisy point z = phi(w) + R u, written into `point` (the model's
  // dimension): shared with the vickrey mechanism.
  static void noisy_point(const Model& model, double epsilon, RandomStream& rng, std::optional<uint32_t> index,
                          float* point, double* direction_scratch);

 private:
  const Model& model_;
  std::vector<float> point_;
  std::vector<double> direction_;
  std::optional<EuclideanDecoder> decoder_;
  BatchDecoder batch_;
};

}  // namespace dxt
