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

  // Scores multiplied by eps/2 so the Gumbel noise has scale 1. Every word
  // gets a Gumbel draw and the outside word is always chosen, whether or
  // not the bottom candidate wins: the work (and the random bytes used) does
  // not depend on how many words lie within gamma of the input, which would
  // otherwise show in the time of the call (docs/limitations.md, Timing).
  // Draws for words outside gamma are discarded, so the law is unchanged.
  const double half_eps = epsilon() / 2;
  uint32_t outside = 0;
  uint32_t best = 0;
  double best_score = -std::numeric_limits<double>::infinity();
  for (uint32_t o = 0; o < V; ++o) {
    const double gumbel = sample_gumbel(rng);
    const bool is_outside = distances_[o] > gamma_;
    outside += is_outside ? 1 : 0;
    const double score = is_outside ? -std::numeric_limits<double>::infinity() : -half_eps * distances_[o] + gumbel;
    if (score > best_score) best_score = score, best = o;
  }
  // The bottom candidate: log(outside) + the score at gamma (absent when no
  // word lies outside), and the uniform outside word it would release.
  const double bottom_gumbel = sample_gumbel(rng);
  const uint32_t k = uniform_index(rng, outside > 0 ? outside : 1);
  uint32_t chosen_outside = 0;
  for (uint32_t o = 0, seen = 0; o < V; ++o) {
    const bool is_outside = distances_[o] > gamma_;
    if (is_outside && seen == k) chosen_outside = o;
    seen += is_outside ? 1 : 0;
  }
  if (outside > 0) {
    const double bottom = -half_eps * gamma_ + std::log(static_cast<double>(outside)) + bottom_gumbel;
    if (bottom > best_score) return chosen_outside;
  }
  return best;
}

}  // namespace dxt
