// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <vector>

#include "mechanisms/mechanism.hpp"

namespace dxt {

// The regularised Mahalanobis mechanism of Xu, Aggarwal, Feyisetan &
// Teissier ("A Differentially Private Text Perturbation Method Using a
// Regularized Mahalanobis Metric", PrivateNLP 2020, Algorithm 1):
//
//   z = phi(w) + R Sigma_l^(1/2) u,  R ~ Gamma(n, 1/eps),  u uniform on S^(n-1),
//   Sigma_l = lambda Sigma' + (1 - lambda) I,
//
// released as the vocabulary word nearest to z in Euclidean distance.
// Sigma' is the model's covariance (section kind 9) scaled to trace n, i.e.
// divided by the mean per-dimension variance, as the public implementations
// of the paper do. Why: embedding variances are far from 1 (about 0.1-0.4
// per dimension for GloVe), so without it lambda would trade the shape of
// the noise for its overall size; with it tr(Sigma_l) = n for every lambda,
// the expected squared noise is the same as laplace's, and lambda only
// changes the shape (lambda = 0 is exactly the laplace mechanism).
//
// Guarantee: with S = Sigma_l^(1/2) (symmetric positive definite), the
// change of variables y = S^(-1) z turns z into y = S^(-1) phi(w) + R u, the
// laplace noise of density ∝ exp(-eps ||y - S^(-1) phi(w)||); so z has
// density ∝ exp(-eps ||S^(-1) (z - phi(w))||) with a normaliser (a
// determinant) that does not depend on w. By the triangle inequality
// p(z|w) <= exp(eps ||S^(-1) (phi(w) - phi(w'))||) p(z|w'), and decoding is
// post-processing: eps * ||Sigma_l^(-1/2) (phi(w) - phi(w'))|| per word
// (DXT_METRIC_MAHALANOBIS). Out-of-vocabulary words start from the origin.
//
// Sigma_l^(1/2) is computed once per mechanism object (which the context
// caches) by a symmetric eigendecomposition in double. Euclidean models
// only; lambda in [0, 1]; Sigma_l must be positive definite.
class MahalanobisMechanism final : public Mechanism {
 public:
  MahalanobisMechanism(const Model& model, const MechanismParams& params);
  dxt_metric metric() const override { return DXT_METRIC_MAHALANOBIS; }
  uint32_t privatize(RandomStream& rng, std::optional<uint32_t> index) override;
  void privatize_batch(RandomStream& rng, const std::optional<uint32_t>* indices, size_t count, uint32_t* out) override;

  // Sigma_l^(1/2), row-major n x n (empty when lambda = 0: the identity).
  const std::vector<double>& sqrt_sigma() const { return sqrt_sigma_; }

  // Sigma' = Sigma * n / tr(Sigma), then lambda Sigma' + (1 - lambda) I, and
  // its symmetric square root: the computation of the constructor, exposed
  // for tests. Throws DXT_E_UNSUPPORTED when the result is not positive
  // definite.
  static std::vector<double> regularised_sqrt(const double* sigma, uint32_t n, double lambda);

 private:
  // z = phi(w) + R S u into `point` (the model's dimension).
  void noisy_point(RandomStream& rng, std::optional<uint32_t> index, float* point);

  const Model& model_;
  std::vector<double> sqrt_sigma_;
  std::vector<float> point_;
  std::vector<double> direction_;
  std::optional<EuclideanDecoder> decoder_;
  BatchDecoder batch_;
};

}  // namespace dxt
