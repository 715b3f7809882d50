// SPDX-License-Identifier: Apache-2.0
#include "search/ivf_build.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

#include "errors/error.hpp"
#include "search/kernels.hpp"

namespace dxt {

namespace {

// SplitMix64 (Steele, Lea & Flood 2014): a small, well-mixed generator with a
// fixed definition, so an index built from a seed is the same on every
// platform (the standard library's distributions are not).
class SplitMix64 {
  __extension__ typedef unsigned __int128 U128;

 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n) up to a bias below n / 2^64 (Lemire's multiply-high):
  // this chooses training rows, not noise.
  uint64_t below(uint64_t n) { return static_cast<uint64_t>((static_cast<U128>(next()) * n) >> 64); }

 private:
  uint64_t state_;
};

constexpr uint32_t kRowBlock = 48;  // rows per product; fixed, so results do not depend on threads

// Nearest centroid of each of the listed rows, by one blocked product per
// block of rows (the decoding scan's gemm kernel), in parallel.
class Assigner {
 public:
  Assigner(const Model& model, const ScanKernels& kernels, unsigned threads)
      : model_(model), k_(kernels), threads_(threads) {}

  // Packs the centroids as the kernel's queries.
  void set_centroids(const std::vector<float>& centroids, uint32_t K) {
    const uint32_t D = model_.dimension();
    K_ = K;
    Q_ = (K + kQueryBlock - 1) / kQueryBlock * kQueryBlock;
    zt_.assign(size_t{D} * Q_, 0.0f);
    norms_.resize(K);
    for (uint32_t c = 0; c < K; ++c) {
      double nn = 0;
      for (uint32_t i = 0; i < D; ++i) {
        const float x = centroids[size_t{c} * D + i];
        zt_[(size_t{c} / kQueryBlock * D + i) * kQueryBlock + c % kQueryBlock] = x;
        nn += double{x} * x;
      }
      norms_[c] = static_cast<float>(nn);
    }
  }
  const std::vector<float>& norms() const { return norms_; }

  // out[i] = the nearest centroid to row rows[i] (or row i when rows is
  // null) for i < n; returns how many changed.
  uint64_t run(const uint32_t* rows, uint64_t n, std::vector<uint32_t>& out,
               const std::function<void(uint64_t, uint64_t)>& progress) {
    const uint64_t blocks = (n + kRowBlock - 1) / kRowBlock;
    std::atomic<uint64_t> next{0}, changed{0};
    std::atomic<bool> failed{false};
    auto work = [&](unsigned id) {
      const uint32_t D = model_.dimension();
      std::vector<float> block(size_t{kRowBlock} * D), scores(size_t{kRowBlock} * Q_);
      uint64_t local_changed = 0;
      try {
        for (uint64_t b; (b = next.fetch_add(1)) < blocks && !failed;) {
          const uint64_t first = b * kRowBlock;
          const auto m = static_cast<uint32_t>(std::min<uint64_t>(kRowBlock, n - first));
          for (uint32_t i = 0; i < m; ++i)
            model_.row(rows != nullptr ? rows[first + i] : static_cast<uint32_t>(first + i),
                       block.data() + size_t{i} * D);
          k_.gemm_f32(block.data(), m, D, zt_.data(), Q_, scores.data(), nullptr, 0);
          for (uint32_t i = 0; i < m; ++i) {
            const float* s = scores.data() + size_t{i} * Q_;
            uint32_t best = 0;
            float best_score = std::numeric_limits<float>::infinity();
            for (uint32_t c = 0; c < K_; ++c) {
              const float score = norms_[c] - 2.0f * s[c];
              if (score < best_score) best_score = score, best = c;  // lowest cell wins a tie
            }
            if (out[first + i] != best) ++local_changed, out[first + i] = best;
          }
          if (id == 0 && progress) progress(std::min(n, (b + 1) * kRowBlock), n);
        }
      } catch (...) {
        failed = true;
      }
      changed += local_changed;
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads_; ++t) pool.emplace_back(work, t);
    work(0);
    for (auto& t : pool) t.join();
    if (failed) fail(DXT_E_INTERNAL, "assigning rows to cells failed");
    return changed;
  }

 private:
  const Model& model_;
  const ScanKernels& k_;
  unsigned threads_;
  uint32_t K_ = 0, Q_ = 0;
  std::vector<float> zt_, norms_;
};

}  // namespace

uint32_t default_cells(uint32_t V) {
  const double k = std::round(4.0 * std::sqrt(static_cast<double>(V)));
  return static_cast<uint32_t>(std::clamp(k, 1.0, static_cast<double>(V)));
}

SearchIndexData build_ivf_index(const Model& model, const IvfBuildOptions& o) {
  if (model.geometry() != DXT_GEOMETRY_EUCLIDEAN)
    fail(DXT_E_UNSUPPORTED,
         "a search index is for Euclidean models only: Poincare models are decoded exactly in hyperbolic distance");
  const uint32_t V = model.vocabulary_size();
  const uint32_t D = model.dimension();
  const uint32_t K = o.cells == 0 ? default_cells(V) : o.cells;
  if (K > V)
    fail(DXT_E_INVALID_ARGUMENT, "the index needs 1 to V = " + std::to_string(V) + " cells, not " + std::to_string(K));
  const uint64_t default_sample = std::min<uint64_t>(V, uint64_t{32} * K);
  const auto N = static_cast<uint32_t>(std::clamp<uint64_t>(o.sample == 0 ? default_sample : o.sample, K, V));
  const ScanKernels& kernels = o.kernels != nullptr ? *o.kernels : scan_kernels();
  const unsigned threads = o.threads != 0 ? o.threads : std::max(1u, std::thread::hardware_concurrency());

  // The training sample: N distinct rows by a partial Fisher-Yates shuffle;
  // its first K rows are the initial centroids (Forgy initialisation).
  SplitMix64 rng(o.seed);
  std::vector<uint32_t> order(V);
  std::iota(order.begin(), order.end(), 0u);
  for (uint32_t i = 0; i < N; ++i) std::swap(order[i], order[i + rng.below(V - i)]);
  std::vector<uint32_t> sample(order.begin(), order.begin() + N);
  order = std::vector<uint32_t>();
  std::vector<float> centroids(size_t{K} * D);
  for (uint32_t c = 0; c < K; ++c) model.row(sample[c], centroids.data() + size_t{c} * D);
  std::sort(sample.begin(), sample.end());  // read the matrix in order while training

  Assigner assigner(model, kernels, threads);
  std::vector<uint32_t> assignment(N, UINT32_MAX);
  std::vector<double> sums(size_t{K} * D);
  std::vector<uint64_t> counts(K);
  std::vector<float> row(D);
  const uint64_t passes = uint64_t{o.iterations} + 1;
  for (uint64_t pass = 0; pass < passes; ++pass) {
    assigner.set_centroids(centroids, K);
    const uint64_t changed = assigner.run(sample.data(), N, assignment, [&](uint64_t done, uint64_t total) {
      if (o.progress) o.progress("training", pass * total + done, passes * total);
    });
    if (pass == passes - 1 || (pass > 0 && changed == 0)) break;
    // Lloyd's update, in sample order (deterministic). A cell left empty
    // keeps its centroid.
    std::fill(sums.begin(), sums.end(), 0.0);
    std::fill(counts.begin(), counts.end(), 0);
    for (uint32_t i = 0; i < N; ++i) {
      model.row(sample[i], row.data());
      double* s = sums.data() + size_t{assignment[i]} * D;
      for (uint32_t j = 0; j < D; ++j) s[j] += row[j];
      ++counts[assignment[i]];
    }
    for (uint32_t c = 0; c < K; ++c)
      if (counts[c] > 0)
        for (uint32_t j = 0; j < D; ++j)
          centroids[size_t{c} * D + j] = static_cast<float>(sums[size_t{c} * D + j] / static_cast<double>(counts[c]));
  }

  // Every row to its nearest centroid; cells list their rows in index order.
  assigner.set_centroids(centroids, K);
  std::vector<uint32_t> cell_of(V, UINT32_MAX);
  assigner.run(nullptr, V, cell_of, [&](uint64_t done, uint64_t total) {
    if (o.progress) o.progress("assigning", done, total);
  });
  SearchIndexData x;
  x.cells = K;
  x.iterations = o.iterations;
  x.sample = N;
  x.seed = o.seed;
  x.centroids = std::move(centroids);
  x.centroid_norms = assigner.norms();
  x.offsets.assign(size_t{K} + 1, 0);
  for (uint32_t v = 0; v < V; ++v) ++x.offsets[cell_of[v] + 1];
  for (uint32_t c = 0; c < K; ++c) x.offsets[c + 1] += x.offsets[c];
  x.rows.resize(V);
  std::vector<uint32_t> fill(x.offsets.begin(), x.offsets.end() - 1);
  for (uint32_t v = 0; v < V; ++v) x.rows[fill[cell_of[v]]++] = v;
  return x;
}

}  // namespace dxt
