// SPDX-License-Identifier: Apache-2.0
// Gumbel-max over many candidates without drawing a Gumbel for each of them.
//
// Gumbel-max releases argmax_o (s_o + G_o) with G_o i.i.d. Gumbel(0,1): the
// winner is o with probability exp(s_o) / sum exp(s). A race visits the
// candidates in groups; all it needs of a group is its size n and a bound b
// with s_o <= b for every member. It then draws the group's n Gumbels
// lazily, largest first, and stops as soon as b plus the next one cannot beat
// the best score so far. The result is the same random variable as the full
// argmax (the same law exactly, not an approximation), because:
//
// 1. Order statistics (Renyi 1953). With E_o = exp(-G_o), the E_o are i.i.d.
//    Exp(1), and their increasing order statistics are
//    E_(j) = sum_{i<=j} X_i / (n - i + 1) with X_i i.i.d. Exp(1). So the
//    group's Gumbels in decreasing order are G_(j) = -ln E_(j).
// 2. Exchangeability. For i.i.d. continuous values, the ranks are a uniformly
//    random permutation independent of the sorted values: the member that
//    carries G_(j) is drawn uniformly, without replacement, from the members
//    not drawn yet (the caller's `pick`).
// 3. Stopping. Once b + G_(j) <= best, every member not drawn yet has
//    s_o + G_o <= b + G_(j) <= best, so none of them can be the argmax; the
//    draws that were not made cannot change the winner. Groups may be
//    offered in any order, the bound of each only needs to hold.
//
// Ties of s_o + G_o have probability zero. Everything runs in the log
// domain (ln E_(j) by log-add-exp), so the Gumbels are not capped: a
// candidate far behind the best keeps its exact, tiny chance.
//
// The expected number of members drawn from a group is about
// n exp(b) / sum_all exp(s): cheap when the bound is tight or the group's
// share of the total weight is small. Time depends on the scores and the
// draws (docs/limitations.md, Timing).
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

#include "rng/random_stream.hpp"
#include "sampling/samplers.hpp"

namespace dxt {

class GumbelRace {
 public:
  static constexpr uint32_t kNone = UINT32_MAX;

  // Offers a group of n candidates whose scores are all <= bound. pick()
  // returns a member not returned before (uniformly at random among those
  // left); score(o) its exact score. Scores may be -infinity; a NaN score
  // never wins.
  template <typename Pick, typename Score>
  void offer(RandomStream& rng, double bound, uint64_t n, Pick&& pick, Score&& score) {
    double log_sum = -std::numeric_limits<double>::infinity();  // ln E_(j)
    for (uint64_t j = 0; j < n; ++j) {
      log_sum = log_add_exp(log_sum, sample_log_exponential(rng) - std::log(static_cast<double>(n - j)));
      const double gumbel = -log_sum;
      if (!(bound + gumbel > best_)) return;  // no member left can win
      const uint32_t o = pick();
      const double s = score(o) + gumbel;
      if (s > best_) best_ = s, winner_ = o;
    }
  }

  // The argmax so far, or kNone if no candidate has had a finite score.
  uint32_t winner() const { return winner_; }
  double best() const { return best_; }

  // ln(e^a + e^b) without overflow; a may be -infinity.
  static double log_add_exp(double a, double b) {
    const double hi = a > b ? a : b, lo = a > b ? b : a;
    if (hi == -std::numeric_limits<double>::infinity()) return hi;
    return hi + std::log1p(std::exp(lo - hi));
  }

 private:
  double best_ = -std::numeric_limits<double>::infinity();
  uint32_t winner_ = kNone;
};

}  // namespace dxt
