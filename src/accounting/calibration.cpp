#include "accounting/calibration.hpp"

#include <algorithm>
#include <numeric>
#include <unordered_map>
#include <unordered_set>

#include "errors/error.hpp"
#include "mechanisms/exponential_mechanism.hpp"

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

CalibrationStats calibrate(Mechanism& mechanism, RandomStream& rng, const std::vector<uint32_t>& words,
                           uint32_t trials) {
  if (words.empty() || trials == 0) fail(DXT_E_INVALID_ARGUMENT, "calibration needs at least one word and trial");
  std::vector<double> keep, distinct;
  keep.reserve(words.size());
  distinct.reserve(words.size());
  std::unordered_set<uint32_t> seen;
  // The trials of one word are independent draws, decoded in batches.
  constexpr uint32_t kChunk = 1024;
  std::vector<std::optional<uint32_t>> inputs;
  std::vector<uint32_t> released(std::min(trials, kChunk));
  for (uint32_t w : words) {
    seen.clear();
    inputs.assign(released.size(), w);
    uint32_t same = 0;
    for (uint32_t done = 0; done < trials; done += kChunk) {
      const uint32_t n = std::min(kChunk, trials - done);
      mechanism.privatize_batch(rng, inputs.data(), n, released.data());
      for (uint32_t j = 0; j < n; ++j) {
        same += released[j] == w;
        seen.insert(released[j]);
      }
    }
    keep.push_back(static_cast<double>(same) / trials);
    distinct.push_back(static_cast<double>(seen.size()));
  }
  const Summary k = summarise(keep), d = summarise(distinct);
  CalibrationStats s;
  s.words = static_cast<uint32_t>(words.size());
  s.trials = trials;
  s.keep_mean = k.mean, s.keep_median = k.median, s.keep_max = k.max;
  s.distinct_mean = d.mean, s.distinct_median = d.median, s.distinct_max = d.max;
  return s;
}

}  // namespace dxt
