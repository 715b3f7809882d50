// SPDX-License-Identifier: Apache-2.0
#include "ivf_recall.hpp"

#include <array>
#include <chrono>
#include <cstdio>
#include <memory>

#include "mechanisms/laplace_mechanism.hpp"
#include "rng/byte_source.hpp"
#include "rng/random_stream.hpp"
#include "search/exact_scan.hpp"
#include "search/ivf_search.hpp"

namespace dxt::cli {

namespace {
using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }
}  // namespace

RecallReport measure_ivf_recall(const Model& m, double epsilon, size_t n, uint64_t seed,
                                const std::vector<uint32_t>& nprobes, bool stop_when_slower, size_t timed_exact) {
  const uint32_t D = m.dimension();
  std::array<uint8_t, 32> key{};
  for (int i = 0; i < 8; ++i) key[i] = static_cast<uint8_t>(seed >> (8 * i));
  key[8] = 'r';  // a stream of its own, not the index build's
  RandomStream rng(make_keyed_stream(key));
  std::vector<float> points(n * D);
  std::vector<double> direction(D);
  for (size_t j = 0; j < n; ++j) {
    const auto word = static_cast<uint32_t>(rng.next_u64() % m.vocabulary_size());
    LaplaceMechanism::noisy_point(m, epsilon, rng, word, points.data() + j * D, direction.data());
  }
  RecallReport r;
  r.points = n;
  r.epsilon = epsilon;
  std::vector<uint32_t> exact(n);
  BatchScratch scratch;
  nearest_euclidean_batch(m, points.data(), n, exact.data(), scratch);
  const size_t timed = std::min(n, std::max<size_t>(1, timed_exact));
  volatile uint32_t sink = 0;
  const Clock::time_point t0 = Clock::now();
  for (size_t j = 0; j < timed; ++j) sink = nearest_euclidean(m, points.data() + j * D);
  r.exact_ms_per_point = seconds_since(t0) / static_cast<double>(timed) * 1e3;
  for (uint32_t p : nprobes) {
    IvfSearch ivf(m, p);
    size_t hits = 0;
    const Clock::time_point t1 = Clock::now();
    for (size_t j = 0; j < n; ++j) hits += ivf.nearest(points.data() + j * D) == exact[j];
    const double s = seconds_since(t1);
    r.probes.push_back(
        {ivf.nprobe(), static_cast<double>(hits) / static_cast<double>(n), s / static_cast<double>(n) * 1e3});
    if (stop_when_slower && r.probes.back().ms_per_point >= r.exact_ms_per_point) break;
  }
  (void)sink;
  return r;
}

std::string recall_json(const RecallReport& r) {
  char b[256];
  std::snprintf(b, sizeof b, "{\"points\":%zu,\"epsilon\":%.6g,\"exact_ms_per_point\":%.6g,\"ivf\":[", r.points,
                r.epsilon, r.exact_ms_per_point);
  std::string s = b;
  for (size_t i = 0; i < r.probes.size(); ++i) {
    const RecallPoint& p = r.probes[i];
    std::snprintf(b, sizeof b, "%s{\"nprobe\":%u,\"recall\":%.6g,\"ms_per_point\":%.6g,\"speedup\":%.6g}",
                  i > 0 ? "," : "", p.nprobe, p.recall, p.ms_per_point, r.exact_ms_per_point / p.ms_per_point);
    s += b;
  }
  return s + "]}";
}

}  // namespace dxt::cli
