#include "mechanisms/tem_mechanism.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "errors/error.hpp"
#include "mechanisms/exponential_mechanism.hpp"
#include "sampling/samplers.hpp"
#include "search/exact_scan.hpp"

namespace dxt {

TemMechanism::TemMechanism(const Model& model, const MechanismParams& params)
    : Mechanism(params),
      model_(model),
      gamma_(params.tem_gamma),
      row_(model.dimension()),
      point_(model.dimension()),
      distances_(model.vocabulary_size()) {
  if (!std::isfinite(params.tem_gamma) || params.tem_gamma < 0)
    fail(DXT_E_INVALID_ARGUMENT, "tem gamma must be finite and >= 0 (0 = derive it from beta)");
  if (gamma_ == 0) {
    const double beta = params.tem_beta;
    if (!(beta > 0 && beta < 1))
      fail(DXT_E_INVALID_ARGUMENT, "tem beta must be in (0, 1) (got " + std::to_string(beta) + ")");
    const double v = static_cast<double>(model.vocabulary_size());
    gamma_ = std::max(0.0, 2.0 / params.epsilon * std::log((1 - beta) * std::max(v - 1, 1.0) / beta));
  }
}

dxt_metric TemMechanism::metric() const { return geometry_metric(model_); }

uint32_t TemMechanism::privatize(RandomStream& rng, std::optional<uint32_t> index) {
  const uint32_t V = model_.vocabulary_size();
  word_distances(model_, index, row_, point_, distances_);

  // Scores multiplied by eps/2 so the Gumbel noise has scale 1.
  const double half_eps = epsilon() / 2;
  uint32_t outside = 0;
  uint32_t best = 0;
  double best_score = -std::numeric_limits<double>::infinity();
  for (uint32_t o = 0; o < V; ++o) {
    if (distances_[o] > gamma_) {
      ++outside;
      continue;
    }
    const double score = -half_eps * distances_[o] + sample_gumbel(rng);
    if (score > best_score) best_score = score, best = o;
  }
  if (outside > 0) {
    const double bottom = -half_eps * gamma_ + std::log(static_cast<double>(outside)) + sample_gumbel(rng);
    if (bottom > best_score) {
      uint32_t k = uniform_index(rng, outside);
      for (uint32_t o = 0; o < V; ++o)
        if (distances_[o] > gamma_ && k-- == 0) return o;
    }
  }
  return best;
}

}  // namespace dxt
