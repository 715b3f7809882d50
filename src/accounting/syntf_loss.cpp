// SPDX-License-Identifier: Apache-2.0
#include "accounting/syntf_loss.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <limits>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "errors/error.hpp"
#include "mechanisms/mechanism.hpp"
#include "mechanisms/syntf_mechanism.hpp"

namespace dxt {

namespace {

constexpr uint32_t kBlock = 64;  // input words per matrix product

struct ColumnExtremes {
  std::vector<double> max, min;
  std::vector<uint32_t> argmax, argmin;
  explicit ColumnExtremes(uint32_t V)
      : max(V, -std::numeric_limits<double>::infinity()),
        min(V, std::numeric_limits<double>::infinity()),
        argmax(V, 0),
        argmin(V, 0) {}
  void merge(const ColumnExtremes& o) {
    for (size_t w = 0; w < max.size(); ++w) {
      if (o.max[w] > max[w] || (o.max[w] == max[w] && o.argmax[w] < argmax[w]))
        max[w] = o.max[w], argmax[w] = o.argmax[w];
      if (o.min[w] < min[w] || (o.min[w] == min[w] && o.argmin[w] < argmin[w]))
        min[w] = o.min[w], argmin[w] = o.argmin[w];
    }
  }
};

}  // namespace

double syntf_vocabulary_bound(double epsilon, uint64_t vocabulary_size) {
  check_epsilon(epsilon);
  if (vocabulary_size <= 1) return 0;  // one possible output: nothing is revealed
  // ln(e^a + e^b) without overflow.
  const auto log_add = [](double a, double b) {
    const double hi = std::max(a, b), lo = std::min(a, b);
    return hi + std::log1p(std::exp(lo - hi));
  };
  const double h = epsilon / 2;                                         // ln q
  const double m = std::log(static_cast<double>(vocabulary_size - 1));  // ln (L - 1)
  const double ln_eta = log_add(0, m + h) - h - log_add(h, m);
  return std::clamp(epsilon + ln_eta, 0.0, epsilon);
}

SyntfLoss syntf_loss(const Model& model, double epsilon, double s,
                     const std::function<void(uint64_t, uint64_t)>& progress, unsigned threads) {
  check_epsilon(epsilon);
  if (!std::isfinite(s) || s < 0)
    fail(DXT_E_INVALID_ARGUMENT, "syntf needs a finite weight s >= 0 (got " + std::to_string(s) + ")");
  const uint32_t V = model.vocabulary_size();
  const uint32_t D = model.dimension();
  const double scale = epsilon / (2 * (2 + s));  // eps * rho / (2 Delta), Delta = 2 + s

  // Rows divided by their norms (zero rows stay zero: cosine 0).
  Eigen::MatrixXd unit(V, D);
  {
    std::vector<float> row(D);
    for (uint32_t v = 0; v < V; ++v) {
      model.row(v, row.data());
      double n2 = 0;
      for (uint32_t i = 0; i < D; ++i) n2 += double{row[i]} * row[i];
      const double inv = n2 > 0 ? 1 / std::sqrt(n2) : 0;
      for (uint32_t i = 0; i < D; ++i) unit(v, i) = row[i] * inv;
    }
  }
  const VocabularyBigrams bigrams(model);

  const uint32_t blocks = (V + kBlock - 1) / kBlock;
  unsigned workers = threads != 0 ? threads : std::max(1u, std::thread::hardware_concurrency());
  workers = std::min(workers, blocks);
  std::atomic<uint32_t> next_block{0};
  std::atomic<uint64_t> done{0};
  std::mutex progress_mutex;
  std::vector<ColumnExtremes> extremes(workers, ColumnExtremes(V));
  std::vector<std::exception_ptr> errors(workers);

  auto work = [&](unsigned id) {
    try {
      ColumnExtremes& ext = extremes[id];
      std::vector<uint32_t> common;
      std::vector<uint64_t> query;
      std::vector<double> score(V);
      Eigen::MatrixXd cosines;  // V x block: column r holds cos(v_r, .)
      for (uint32_t b = next_block++; b < blocks; b = next_block++) {
        const uint32_t first = b * kBlock;
        const uint32_t n = std::min(kBlock, V - first);
        cosines.noalias() = unit * unit.middleRows(first, n).transpose();
        for (uint32_t r = 0; r < n; ++r) {
          const uint32_t v = first + r;
          bigrams.bigrams_of(v, query);
          bigrams.intersections(query, common);
          const double q = static_cast<double>(query.size());
          const double* c = cosines.col(r).data();
          double top = -std::numeric_limits<double>::infinity();
          for (uint32_t w = 0; w < V; ++w) {
            const double b_vw = common[w] == 0 ? 0 : 2.0 * common[w] / (q + bigrams.size_of(w));
            score[w] = scale * (std::clamp(c[w], -1.0, 1.0) - s * b_vw);
            top = std::max(top, score[w]);
          }
          double z = 0;
          for (uint32_t w = 0; w < V; ++w) z += std::exp(score[w] - top);
          const double log_z = top + std::log(z);
          for (uint32_t w = 0; w < V; ++w) {
            const double lp = score[w] - log_z;
            if (lp > ext.max[w]) ext.max[w] = lp, ext.argmax[w] = v;
            if (lp < ext.min[w]) ext.min[w] = lp, ext.argmin[w] = v;
          }
        }
        const uint64_t now = done += n;
        if (progress) {
          std::lock_guard<std::mutex> lock(progress_mutex);
          progress(now, V);
        }
      }
    } catch (...) {
      errors[id] = std::current_exception();
      next_block = blocks;  // stop the others soon
    }
  };
  std::vector<std::thread> pool;
  for (unsigned id = 1; id < workers; ++id) pool.emplace_back(work, id);
  work(0);
  for (std::thread& t : pool) t.join();
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);

  for (unsigned id = 1; id < workers; ++id) extremes[0].merge(extremes[id]);
  const ColumnExtremes& ext = extremes[0];
  SyntfLoss r;
  r.epsilon = epsilon;
  r.s = s;
  r.vocabulary_size = V;
  r.loss = -1;
  for (uint32_t w = 0; w < V; ++w) {
    const double l = ext.max[w] - ext.min[w];
    if (l > r.loss) {
      r.loss = l;
      r.worst_output = w;
      r.most_likely_input = ext.argmax[w];
      r.least_likely_input = ext.argmin[w];
    }
  }
  return r;
}

}  // namespace dxt
