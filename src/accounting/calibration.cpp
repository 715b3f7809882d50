// SPDX-License-Identifier: Apache-2.0
#include "accounting/calibration.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <numeric>
#include <unordered_map>
#include <unordered_set>

#include "errors/error.hpp"
#include "mechanisms/exponential_mechanism.hpp"
#include "model/sha256.hpp"
#include "rng/byte_source.hpp"

namespace dxt {

namespace {

struct Summary {
  double mean, median, max;
};

Summary summarise(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  const double median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  return {std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(n), median, v.back()};
}

}  // namespace

std::vector<uint32_t> sample_words(RandomStream& rng, uint32_t vocabulary_size, uint32_t count) {
  count = std::min(count, vocabulary_size);
  // Sparse partial Fisher-Yates: only the swapped positions are stored.
  std::unordered_map<uint32_t, uint32_t> swapped;  // position -> value
  auto value_at = [&](uint32_t pos) {
    const auto it = swapped.find(pos);
    return it == swapped.end() ? pos : it->second;
  };
  std::vector<uint32_t> out;
  out.reserve(count);
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t j = i + uniform_index(rng, vocabulary_size - i);
    const uint32_t vi = value_at(i), vj = value_at(j);
    swapped[i] = vj;
    swapped[j] = vi;
    out.push_back(vj);
  }
  return out;
}

std::vector<uint32_t> sample_output_words(RandomStream& rng, const OutputSet* output, uint32_t vocabulary_size,
                                          uint32_t count) {
  if (output == nullptr) return sample_words(rng, vocabulary_size, count);
  std::vector<uint32_t> picks = sample_words(rng, output->size(), count);
  for (uint32_t& p : picks) p = output->rows[p];
  return picks;
}

namespace {

// N_w and S_w of one word over `trials` draws from `rng`, decoded in batches.
std::pair<double, double> word_stats(Mechanism& mechanism, RandomStream& rng, uint32_t w, uint32_t trials) {
  constexpr uint32_t kChunk = 1024;
  const std::vector<std::optional<uint32_t>> inputs(std::min(trials, kChunk), w);
  std::vector<uint32_t> released(inputs.size());
  std::unordered_set<uint32_t> seen;
  uint32_t same = 0;
  for (uint32_t done = 0; done < trials; done += kChunk) {
    const uint32_t n = std::min(kChunk, trials - done);
    mechanism.privatize_batch(rng, inputs.data(), n, released.data());
    for (uint32_t j = 0; j < n; ++j) {
      same += released[j] == w;
      seen.insert(released[j]);
    }
  }
  return {static_cast<double>(same) / trials, static_cast<double>(seen.size())};
}

template <typename RngFor>
CalibrationStats calibrate_with(Mechanism& mechanism, const std::vector<uint32_t>& words, uint32_t trials,
                                RngFor&& rng_for) {
  if (words.empty() || trials == 0) fail(DXT_E_INVALID_ARGUMENT, "calibration needs at least one word and trial");
  std::vector<double> keep, distinct;
  keep.reserve(words.size());
  distinct.reserve(words.size());
  for (size_t i = 0; i < words.size(); ++i) {
    const auto [k, d] = word_stats(mechanism, rng_for(i), words[i], trials);
    keep.push_back(k);
    distinct.push_back(d);
  }
  const Summary k = summarise(keep), d = summarise(distinct);
  CalibrationStats s;
  s.words = static_cast<uint32_t>(words.size());
  s.trials = trials;
  s.keep_mean = k.mean, s.keep_median = k.median, s.keep_max = k.max;
  s.distinct_mean = d.mean, s.distinct_median = d.median, s.distinct_max = d.max;
  s.keep_per_word = std::move(keep);
  return s;
}

}  // namespace

CalibrationStats calibrate(Mechanism& mechanism, RandomStream& rng, const std::vector<uint32_t>& words,
                           uint32_t trials) {
  return calibrate_with(mechanism, words, trials, [&rng](size_t) -> RandomStream& { return rng; });
}

CalibrationStats calibrate_common(Mechanism& mechanism, const std::array<uint8_t, 32>& key,
                                  const std::vector<uint32_t>& words, uint32_t trials) {
  std::unique_ptr<RandomStream> stream;
  return calibrate_with(mechanism, words, trials, [&](size_t i) -> RandomStream& {
    uint8_t material[36];
    std::memcpy(material, key.data(), 32);
    for (int b = 0; b < 4; ++b) material[32 + b] = static_cast<uint8_t>(i >> (8 * b));
    stream = std::make_unique<RandomStream>(make_keyed_stream(sha256(material, sizeof material)));
    return *stream;
  });
}

double keep_statistic(const std::vector<double>& keep, KeepStatistic stat) {
  const Summary s = summarise(keep);
  return stat == KeepStatistic::kMax ? s.max : stat == KeepStatistic::kMean ? s.mean : s.median;
}

namespace {

// The epsilon where the statistic of the words `pick` crosses `target`,
// linear between the epsilons measured (curves: epsilon -> N_w per word);
// the first and last epsilons when it never crosses inside them.
double crossing(const std::map<double, std::vector<double>>& curves, const std::vector<uint32_t>& pick, double target,
                KeepStatistic stat) {
  std::vector<double> sub(pick.size());
  double prev_eps = 0, prev_value = 0;
  bool first = true;
  for (const auto& [eps, keep] : curves) {
    for (size_t j = 0; j < pick.size(); ++j) sub[j] = keep[pick[j]];
    const double value = keep_statistic(sub, stat);
    if (value >= target) {
      if (first || value == prev_value) return eps;
      return prev_eps + (eps - prev_eps) * (target - prev_value) / (value - prev_value);
    }
    prev_eps = eps, prev_value = value, first = false;
  }
  return prev_eps;
}

double percentile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  const size_t at = std::min(v.size() - 1, static_cast<size_t>(q * static_cast<double>(v.size())));
  return v[at];
}

}  // namespace

EpsilonSearch search_epsilon(const std::function<CalibrationStats(double)>& run, double target, KeepStatistic stat,
                             double floor, RandomStream& rng, uint32_t resamples) {
  std::map<double, CalibrationStats> done;
  EpsilonSearch out;
  auto at = [&](double eps) -> const CalibrationStats& {
    auto it = done.find(eps);
    if (it == done.end()) {
      it = done.emplace(eps, run(eps)).first;
      ++out.runs;
    }
    return it->second;
  };
  auto value = [&](double eps) { return keep_statistic(at(eps).keep_per_word, stat); };
  double lo = floor, hi = std::max(1.0, floor + 1);
  while (value(hi) < target) {
    if (hi >= DXT_EPSILON_MAX)
      fail(DXT_E_INVALID_ARGUMENT, "no epsilon up to 1e6 (the largest allowed) reaches the target N_w");
    lo = hi;
    hi = std::min(floor + 2 * (hi - floor), DXT_EPSILON_MAX);
  }
  for (int i = 0; i < 14; ++i) {
    const double mid = (lo + hi) / 2;
    (value(mid) < target ? lo : hi) = mid;
  }
  out.epsilon = hi;
  out.bracket_low = lo;
  out.stats = at(hi);

  // Bootstrap over words: which epsilon would another sample of as many
  // words have found? The randomness of the trials is fixed (common random
  // numbers), so the spread is that of the word sample and of the trials
  // together, as seen through these words.
  const size_t n = out.stats.keep_per_word.size();
  std::vector<std::vector<uint32_t>> picks(resamples, std::vector<uint32_t>(n));
  for (auto& pick : picks)
    for (auto& j : pick) j = uniform_index(rng, static_cast<uint32_t>(n));
  for (int round = 0; round < 4; ++round) {
    std::map<double, std::vector<double>> curves;
    for (const auto& [eps, s] : done) curves.emplace(eps, s.keep_per_word);
    std::vector<double> found;
    found.reserve(resamples);
    for (const auto& pick : picks) found.push_back(crossing(curves, pick, target, stat));
    out.interval_low = percentile(found, 0.025);
    out.interval_high = percentile(found, 0.975);
    // Measure the curves at the interval's ends (and one step beyond the
    // range measured, if an end sits on its edge), so that the next round
    // interpolates over a short step there.
    bool refined = false;
    for (double end : {out.interval_low, out.interval_high}) {
      double target_eps = end;
      if (end <= curves.begin()->first) target_eps = floor + (end - floor) / 2;
      if (end >= curves.rbegin()->first) target_eps = std::min(floor + 2 * (end - floor), DXT_EPSILON_MAX);
      const auto near = curves.lower_bound(target_eps * 0.99);
      if (near != curves.end() && near->first <= target_eps * 1.01) continue;
      if (!(target_eps > floor)) continue;
      at(target_eps);
      refined = true;
    }
    if (!refined) break;
  }
  return out;
}

}  // namespace dxt
