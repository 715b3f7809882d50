// SPDX-License-Identifier: Apache-2.0
#include "mechanisms/vickrey_mechanism.hpp"

#include <cmath>
#include <string>

#include "errors/error.hpp"
#include "mechanisms/laplace_mechanism.hpp"
#include "search/exact_scan.hpp"

namespace dxt {

VickreyMechanism::VickreyMechanism(const Model& model, const MechanismParams& params)
    : Mechanism(params), model_(model), point_(model.dimension()), direction_(model.dimension()) {
  require_geometry(model, DXT_GEOMETRY_EUCLIDEAN, "vickrey");
  if (!(params.vickrey_t >= 0 && params.vickrey_t <= 1))
    fail(DXT_E_INVALID_ARGUMENT, "vickrey t must be in [0, 1] (got " + std::to_string(params.vickrey_t) + ")");
  decoder_.emplace(model, params.search, params.ivf_nprobe, output_rows(this->params()));
}

double VickreyMechanism::first_probability(double t, double d1, double d2) {
  const double den = t * d1 + (1 - t) * d2;
  // z exactly on a word (d1 = 0) with t = 1, or d1 = d2 = 0: no preference
  // can be computed; the nearest word is kept.
  if (!(den > 0)) return 1;
  return (1 - t) * d2 / den;
}

uint32_t VickreyMechanism::privatize(RandomStream& rng, std::optional<uint32_t> index) {
  LaplaceMechanism::noisy_point(model_, epsilon(), rng, index, point_.data(), direction_.data());
  const TwoNearest n = decoder_->two_nearest(point_.data());
  const double p = first_probability(params().vickrey_t, n.first_distance, n.second_distance);
  return rng.uniform() < p ? n.first : n.second;
}

}  // namespace dxt
