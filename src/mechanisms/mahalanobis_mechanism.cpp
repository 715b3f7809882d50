// SPDX-License-Identifier: Apache-2.0
#include "mechanisms/mahalanobis_mechanism.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <string>

#include "errors/error.hpp"
#include "mechanisms/laplace_mechanism.hpp"
#include "sampling/samplers.hpp"
#include "search/exact_scan.hpp"

namespace dxt {

std::vector<double> MahalanobisMechanism::regularised_sqrt(const double* sigma, uint32_t n, double lambda) {
  using Matrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const Eigen::Index D = n;
  const Eigen::Map<const Matrix> s(sigma, D, D);
  const double trace = s.trace();
  if (!(trace > 0) || !std::isfinite(trace))
    fail(DXT_E_UNSUPPORTED, "the model's covariance has trace " + std::to_string(trace) +
                                "; the mahalanobis mechanism needs a positive one");
  const Matrix regularised = lambda * (s * (static_cast<double>(n) / trace)) + (1 - lambda) * Matrix::Identity(D, D);
  // A true covariance has |s_ij| <= sqrt(s_ii s_jj) <= trace, so the scaled
  // matrix is finite and the symmetric eigensolver converges; a damaged or
  // hostile section may break either.
  if (!regularised.allFinite())
    fail(DXT_E_CORRUPT_MODEL,
         "corrupt model: the covariance section is not a covariance (its scaled entries overflow)");
  const Eigen::SelfAdjointEigenSolver<Matrix> eigen(regularised);
  if (eigen.info() != Eigen::Success)
    fail(DXT_E_CORRUPT_MODEL, "corrupt model: the covariance section is not a covariance (no eigendecomposition)");
  const Eigen::VectorXd values = eigen.eigenvalues();
  // Positive definite, with a margin for rounding: otherwise the noise lives
  // in a subspace and the guarantee is infinite across it.
  if (!(values.minCoeff() > 1e-12 * std::max(1.0, values.maxCoeff())))
    fail(DXT_E_UNSUPPORTED, "Sigma_lambda = lambda Sigma' + (1 - lambda) I is singular (smallest eigenvalue " +
                                std::to_string(values.minCoeff()) + "); use lambda < 1");
  const Matrix root = eigen.eigenvectors() * values.cwiseSqrt().asDiagonal() * eigen.eigenvectors().transpose();
  std::vector<double> out(static_cast<size_t>(D * D));
  for (Eigen::Index i = 0; i < D; ++i)
    for (Eigen::Index j = 0; j < D; ++j) out[static_cast<size_t>(i * D + j)] = root(i, j);
  return out;
}

MahalanobisMechanism::MahalanobisMechanism(const Model& model, const MechanismParams& params)
    : Mechanism(params), model_(model), point_(model.dimension()), direction_(model.dimension()) {
  require_geometry(model, DXT_GEOMETRY_EUCLIDEAN, "mahalanobis");
  const double lambda = params.mahalanobis_lambda;
  if (!(lambda >= 0 && lambda <= 1))
    fail(DXT_E_INVALID_ARGUMENT, "mahalanobis needs lambda in [0, 1] (got " + std::to_string(lambda) + ")");
  decoder_.emplace(model, params.search, params.ivf_nprobe, output_rows(this->params()));
  if (lambda == 0) return;  // Sigma_0 = I: exactly the laplace mechanism, no covariance needed
  if (!model.has_covariance())
    fail(DXT_E_UNSUPPORTED,
         "the mahalanobis mechanism needs the model's covariance; reconvert the model with "
         "'dxtext convert --covariance'");
  sqrt_sigma_ = regularised_sqrt(model.covariance(), model.dimension(), lambda);
}

void MahalanobisMechanism::noisy_point(RandomStream& rng, std::optional<uint32_t> index, float* point) {
  if (sqrt_sigma_.empty()) {
    LaplaceMechanism::noisy_point(model_, epsilon(), rng, index, point, direction_.data());
    return;
  }
  const uint32_t n = model_.dimension();
  if (index) {
    model_.row(*index, point);
  } else {
    std::fill(point, point + n, 0.0f);
  }
  // Same draws in the same order as laplace: the radius, then the direction.
  const double radius = sample_gamma_integer_shape(rng, n, 1.0 / epsilon());
  sample_unit_direction(rng, direction_.data(), n);
  for (uint32_t i = 0; i < n; ++i) {
    const double* row = sqrt_sigma_.data() + uint64_t{i} * n;
    double shaped = 0;
    for (uint32_t j = 0; j < n; ++j) shaped += row[j] * direction_[j];
    point[i] = static_cast<float>(static_cast<double>(point[i]) + radius * shaped);
  }
}

uint32_t MahalanobisMechanism::privatize(RandomStream& rng, std::optional<uint32_t> index) {
  noisy_point(rng, index, point_.data());
  return decoder_->nearest(point_.data());
}

void MahalanobisMechanism::privatize_batch(RandomStream& rng, const std::optional<uint32_t>* indices, size_t count,
                                           uint32_t* out) {
  batch_.run(*decoder_, count, out, [&](size_t j, float* point) { noisy_point(rng, indices[j], point); });
}

}  // namespace dxt
