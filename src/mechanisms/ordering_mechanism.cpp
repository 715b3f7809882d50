// SPDX-License-Identifier: Apache-2.0
#include "mechanisms/ordering_mechanism.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "errors/error.hpp"
#include "model/format.hpp"
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
  } else {
    restrict_to_output(*o);
  }
  if (this->params().context_prior > 0) use_prior(model);
}

void OrderingMechanism::restrict_to_output(const OrderingsView& orderings) {
  const OrderingsView* o = &orderings;
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

// ln f_n(d) - ln K for every cyclic distance d: the wrapped two-sided
// geometric law of one place at distance d from the start, per ordering
// (the header's f), in logs so that far places keep their mass.
std::vector<double> OrderingMechanism::log_place_law() const {
  const double eps = epsilon();
  const double base = std::log(-std::expm1(-eps)) - std::log1p(std::exp(-eps)) - std::log(-std::expm1(-eps * n_)) -
                      std::log(static_cast<double>(K_));
  std::vector<double> f(n_ / 2 + 1);
  for (uint32_t d = 0; d < f.size(); ++d) {
    // a^d + a^(n-d) = a^d (1 + a^(n-2d)), n - 2d >= 0.
    f[d] = base - eps * d + std::log1p(std::exp(-eps * (static_cast<double>(n_) - 2.0 * d)));
  }
  return f;
}

void OrderingMechanism::use_prior(const Model& model) {
  const double B = params().context_prior;
  if (!(B > 0) || !std::isfinite(B))
    fail(DXT_E_INVALID_ARGUMENT, "context_prior must be a finite number above 0 (0: none)");
  prior_ = model.context_prior();
  if (prior_ == nullptr)
    fail(DXT_E_UNSUPPORTED,
         "context_prior needs a model with a context prior section (docs/format.md §10.5); add one with "
         "`dxtext context-prior`");
  output_ = params().output.get();
  place_.resize(uint64_t{V_} * K_);
  for (uint64_t L = 0; L < K_; ++L)
    for (uint64_t w = 0; w < V_; ++w) place_[w * K_ + L] = start_[L * V_ + w];
  const std::vector<double> log_f = log_place_law();
  mass_.resize(log_f.size());
  for (size_t d = 0; d < log_f.size(); ++d) mass_[d] = std::exp(log_f[d]);
  for (int code = 0; code < 256; ++code)
    bonus_[code] = code == 0 ? 0 : std::min(B, prior_lift(static_cast<uint8_t>(code)) - 1);
  weight_.resize(prior_->max_successors);
}

uint32_t OrderingMechanism::privatize_after(RandomStream& rng, std::optional<uint32_t> index,
                                            std::optional<uint32_t> previous) {
  if (prior_ == nullptr || !previous) return privatize(rng, index);
  const uint32_t first = prior_->first[*previous], count = prior_->first[*previous + 1] - first;
  const uint32_t* successors = prior_->successors.data() + first;
  const uint8_t* codes = prior_->codes.data() + first;
  // P(y | w) b(c, y) for each successor y of c: the sum over the orderings
  // of the mass at y's distance from w's start; 0 outside S.
  uint32_t from[format::orderings::kMaxCount];
  for (uint32_t L = 0; L < K_; ++L) from[L] = index ? place_[uint64_t{*index} * K_ + L] : 0;
  double total = 0;
  for (uint32_t j = 0; j < count; ++j) {
    const uint32_t y = successors[j];
    double p = 0;
    if (output_ == nullptr || output_->contains(y)) {
      const uint32_t* at = place_.data() + uint64_t{y} * K_;
      for (uint32_t L = 0; L < K_; ++L) p += mass_[cyclic_distance(from[L], at[L], n_)];
    }
    weight_[j] = p * bonus_[codes[j]];
    total += weight_[j];
  }
  // Both draws are made whatever the coin says (the time shows neither).
  const uint32_t plain = privatize(rng, index);
  const double coin = rng.uniform() * (1 + total);
  double pick = rng.uniform() * total;
  uint32_t chosen = plain;
  for (uint32_t j = 0; j < count; ++j) {
    if (weight_[j] == 0) continue;
    chosen = successors[j];  // the last with weight, should rounding leave `pick` past the sum
    if (pick < weight_[j]) break;
    pick -= weight_[j];
  }
  return coin < total ? chosen : plain;
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

void OrderingMechanism::log_law(std::optional<uint32_t> index, std::vector<double>& log_law,
                                std::optional<uint32_t> previous) const {
  // The wrapped law by cyclic distance, in logs (log_place_law): far places
  // keep their mass (e^-eps r underflows long before r reaches n/2 on a
  // large vocabulary).
  const std::vector<double> by_distance = log_place_law();
  std::vector<double> f(n_);
  for (uint32_t r = 0; r < n_; ++r) f[r] = by_distance[r < n_ - r ? r : n_ - r];
  log_law.assign(V_, -std::numeric_limits<double>::infinity());
  for (uint64_t L = 0; L < K_; ++L) {
    const uint32_t from = index ? start_[L * V_ + *index] : 0;
    for (uint32_t r = 0; r < n_; ++r) {
      double& acc = log_law[member_[L * n_ + (uint64_t{from} + r) % n_]];
      const double hi = acc > f[r] ? acc : f[r], lo = acc > f[r] ? f[r] : acc;
      acc = lo == -std::numeric_limits<double>::infinity() ? hi : hi + std::log1p(std::exp(lo - hi));
    }
  }
  if (prior_ == nullptr || !previous) return;
  // The prior's weights from their definition: ln P(y | w) + ln(1 + b(c, y))
  // - ln Z_c(w), Z_c(w) = 1 + sum_y P(y | w) b(c, y).
  const double B = params().context_prior;
  double z = 1;
  for (uint32_t p = prior_->first[*previous]; p < prior_->first[*previous + 1]; ++p) {
    const double b = std::min(B, prior_lift(prior_->codes[p]) - 1);
    z += std::exp(log_law[prior_->successors[p]]) * b;
    log_law[prior_->successors[p]] += std::log1p(b);
  }
  for (double& x : log_law) x -= std::log(z);
}

}  // namespace dxt
