// SPDX-License-Identifier: Apache-2.0
#include "mechanisms/ordering_mechanism.hpp"

#include <cmath>
#include <limits>
#include <string>

#include "errors/error.hpp"
#include "sampling/samplers.hpp"

namespace dxt {

OrderingMechanism::OrderingMechanism(const Model& model, const MechanismParams& params) : Mechanism(params) {
  const OrderingsView* o = model.orderings();
  if (o == nullptr)
    fail(DXT_E_UNSUPPORTED,
         "the ordering mechanism needs a model with an orderings section; add one with `dxtext order`");
  K_ = o->count;
  V_ = model.vocabulary_size();
  const std::vector<uint32_t>* rows = output_rows(this->params());
  if (rows == nullptr) {
    n_ = V_;
    start_ = o->positions;
    member_ = o->words;
    return;
  }
  // Each ordering's cycle restricted to S, and every word's start in it:
  // the first member of S at or after the word's place, found by walking
  // the cycle backwards from the last member.
  const OutputSet& s = *this->params().output;
  n_ = s.size();
  own_start_.resize(uint64_t{K_} * V_);
  own_member_.resize(uint64_t{K_} * n_);
  for (uint64_t L = 0; L < K_; ++L) {
    const uint32_t* words = o->words + L * V_;
    uint32_t r = 0;
    for (uint32_t p = 0; p < V_; ++p)
      if (s.contains(words[p])) own_member_[L * n_ + r++] = words[p];
    // Walking back from the end, `next` is the place in S's cycle of the
    // first member at or after p; past the last member it wraps to 0.
    uint32_t next = 0;
    for (uint32_t p = V_; p-- > 0;) {
      if (s.contains(words[p])) next = --r;
      own_start_[L * V_ + words[p]] = next;
    }
  }
  start_ = own_start_.data();
  member_ = own_member_.data();
}

uint32_t OrderingMechanism::cycle_offset(RandomStream& rng, double epsilon, uint32_t n) {
  // Two Exp(1) draws whatever the outcome: the time does not depend on k.
  // floor(E/eps) <= 45,470 / 1e-6 < 2^53, so the doubles hold it exactly.
  const double g1 = std::floor(sample_exponential(rng) / epsilon);
  const double g2 = std::floor(sample_exponential(rng) / epsilon);
  const double m = std::fmod(g1 - g2, static_cast<double>(n));  // in (-n, n), exact
  return static_cast<uint32_t>(m < 0 ? m + n : m);
}

uint32_t OrderingMechanism::privatize(RandomStream& rng, std::optional<uint32_t> index) {
  const uint32_t L = K_ == 1 ? 0 : uniform_index(rng, K_);
  const uint32_t from = index ? start_[uint64_t{L} * V_ + *index] : 0;
  const uint32_t k = cycle_offset(rng, epsilon(), n_);
  const uint64_t place = (uint64_t{from} + k) % n_;
  return member_[uint64_t{L} * n_ + place];
}

void OrderingMechanism::log_law(std::optional<uint32_t> index, std::vector<double>& log_law) const {
  // ln f_n(r) = ln((1-a)/(1+a) / (1 - a^n)) - eps min(r, n-r) + ln(1 + a^|n-2r|),
  // a = e^-eps: the two-sided geometric law wrapped on n places
  // (ordering_mechanism.hpp), in logs so that far places keep their mass
  // (e^-eps r underflows long before r reaches n/2 on a large vocabulary).
  const double eps = epsilon();
  const double base = std::log(-std::expm1(-eps)) - std::log1p(std::exp(-eps)) - std::log(-std::expm1(-eps * n_)) -
                      std::log(static_cast<double>(K_));
  std::vector<double> f(n_);
  for (uint32_t r = 0; r < n_; ++r) {
    const uint32_t near = r < n_ - r ? r : n_ - r;
    const double gap = r > n_ - r ? 2.0 * r - n_ : n_ - 2.0 * r;
    f[r] = base - eps * near + std::log1p(std::exp(-eps * gap));
  }
  log_law.assign(V_, -std::numeric_limits<double>::infinity());
  for (uint64_t L = 0; L < K_; ++L) {
    const uint32_t from = index ? start_[L * V_ + *index] : 0;
    for (uint32_t r = 0; r < n_; ++r) {
      double& acc = log_law[member_[L * n_ + (uint64_t{from} + r) % n_]];
      const double hi = acc > f[r] ? acc : f[r], lo = acc > f[r] ? f[r] : acc;
      acc = lo == -std::numeric_limits<double>::infinity() ? hi : hi + std::log1p(std::exp(lo - hi));
    }
  }
}

}  // namespace dxt
