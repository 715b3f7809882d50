// SPDX-License-Identifier: Apache-2.0
#include "mechanisms/laplace_mechanism.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "errors/error.hpp"
#include "sampling/samplers.hpp"
#include "search/exact_scan.hpp"

namespace dxt {

LaplaceMechanism::LaplaceMechanism(const Model& model, const MechanismParams& params)
    : Mechanism(params), model_(model), point_(model.dimension()), direction_(model.dimension()) {
  require_geometry(model, DXT_GEOMETRY_EUCLIDEAN, "laplace");
  decoder_.emplace(model, params.search, params.ivf_nprobe, output_rows(this->params()));
}

void LaplaceMechanism::noisy_point(const Model& model, double epsilon, RandomStream& rng, std::optional<uint32_t> index,
                                   float* point, double* direction) {
  const uint32_t n = model.dimension();
  if (index) {
    model.row(*index, point);
  } else {
    std::fill(point, point + n, 0.0f);
  }
  const double radius = sample_gamma_integer_shape(rng, n, 1.0 / epsilon);
  sample_unit_direction(rng, direction, n);
  for (uint32_t i = 0; i < n; ++i) point[i] = static_cast<float>(static_cast<double>(point[i]) + radius * direction[i]);
}

uint32_t LaplaceMechanism::privatize(RandomStream& rng, std::optional<uint32_t> index) {
  noisy_point(model_, epsilon(), rng, index, point_.data(), direction_.data());
  return decoder_->nearest(point_.data());
}

void LaplaceMechanism::privatize_batch(RandomStream& rng, const std::optional<uint32_t>* indices, size_t count,
                                       uint32_t* out) {
  batch_.run(*decoder_, count, out, [&](size_t j, float* point) {
    noisy_point(model_, epsilon(), rng, indices[j], point, direction_.data());
  });
}

}  // namespace dxt
