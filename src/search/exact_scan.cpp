// SPDX-License-Identifier: Apache-2.0
#include "search/exact_scan.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "errors/error.hpp"
#include "model/f16.hpp"
#include "search/kernels.hpp"

namespace dxt {

namespace {

constexpr uint32_t kScanBlock = 256;  // rows per kernel call: scores stay on the stack

// Calls visit(v, <row v, z>) for every row, in index order, kScanBlock rows
// at a time through the dispatched kernel.
template <typename Visit>
void scan(const Model& model, const float* z, const ScanKernels& k, Visit visit) {
  const uint32_t V = model.vocabulary_size();
  float dots[kScanBlock];
  for (uint32_t v0 = 0; v0 < V; v0 += kScanBlock) {
    const uint32_t n = std::min(kScanBlock, V - v0);
    approximate_dots(model, k, z, v0, n, dots);
    for (uint32_t i = 0; i < n; ++i) visit(v0 + i, dots[i]);
  }
}

}  // namespace

void approximate_dots(const Model& model, const ScanKernels& k, const float* z, uint32_t v0, uint32_t n, float* out) {
  const uint32_t D = model.dimension();
  const uint8_t* m = model.matrix_data();
  const uint64_t first = uint64_t{v0} * D;
  switch (model.quantization()) {
    case DXT_QUANT_F32: k.dot_f32(reinterpret_cast<const float*>(m) + first, n, D, z, out); return;
    case DXT_QUANT_F16: k.dot_f16(reinterpret_cast<const uint16_t*>(m) + first, n, D, z, out); return;
    case DXT_QUANT_INT8: {
      k.dot_i8(reinterpret_cast<const int8_t*>(m) + first, n, D, z, out);
      const float* scales = model.row_scales();
      for (uint32_t i = 0; i < n; ++i) out[i] *= scales[v0 + i];
      return;
    }
    default: fail(DXT_E_INTERNAL, "unknown quantisation");
  }
}

uint32_t nearest_euclidean(const Model& model, const float* z, const ScanKernels* kernels) {
  const float* norms = model.row_norms();
  uint32_t best = 0;
  float best_score = std::numeric_limits<float>::infinity();
  scan(model, z, kernels != nullptr ? *kernels : scan_kernels(), [&](uint32_t v, float d) {
    const float score = norms[v] - 2.0f * d;
    if (score < best_score) {  // strict: the lowest index wins a tie; NaN never wins
      best_score = score;
      best = v;
    }
  });
  return best;
}

TwoNearest two_nearest_euclidean(const Model& model, const float* z) {
  const float* norms = model.row_norms();
  constexpr float kInf = std::numeric_limits<float>::infinity();
  uint32_t b1 = 0, b2 = 0;
  float s1 = kInf, s2 = kInf;
  scan(model, z, scan_kernels(), [&](uint32_t v, float d) {
    const float score = norms[v] - 2.0f * d;
    if (score < s1) {
      b2 = b1, s2 = s1;
      b1 = v, s1 = score;
    } else if (score < s2) {
      b2 = v, s2 = score;
    }
  });
  if (model.vocabulary_size() == 1) b2 = b1, s2 = s1;
  double zz = 0;
  for (uint32_t i = 0; i < model.dimension(); ++i) zz += double{z[i]} * z[i];
  // ||v - z||^2 = score + ||z||^2, clamped at 0 against rounding.
  return {b1, b2, std::sqrt(std::max(0.0, double{s1} + zz)), std::sqrt(std::max(0.0, double{s2} + zz))};
}

// A kernel's result for a row does not depend on the other rows of the call,
// so this is the very score the scan computes.
float euclidean_score(const Model& model, const ScanKernels& k, uint32_t v, const float* z) {
  const uint32_t D = model.dimension();
  const uint64_t first = uint64_t{v} * D;
  const uint8_t* m = model.matrix_data();
  float d = 0;
  if (model.quantization() == DXT_QUANT_F32) {
    k.dot_f32(reinterpret_cast<const float*>(m) + first, 1, D, z, &d);
  } else if (model.quantization() == DXT_QUANT_F16) {
    k.dot_f16(reinterpret_cast<const uint16_t*>(m) + first, 1, D, z, &d);
  } else {
    k.dot_i8(reinterpret_cast<const int8_t*>(m) + first, 1, D, z, &d);
    d *= model.row_scales()[v];
  }
  return model.row_norms()[v] - 2.0f * d;
}

// Exact by bounding, not by luck: the blocked product gives each score
// a_vq = ||phi(v)||^2 - 2 <approximate dot> with |a_vq - s_vq| <= t_vq, where
// s_vq is the score nearest_euclidean computes. Rows whose lower bound
// a - t exceeds the best upper bound U_q = min_v (a_vq + t_vq) cannot be its
// answer; the few others are scored again exactly as nearest_euclidean
// scores them, in index order with the same strict comparison. So the result
// is the same word, bit for bit.
//
// t_vq = 2 ||phi(v)|| err_q + delta ||phi(v)||^2: err_q bounds the error of
// the approximate dot product per unit row norm (batched_product.hpp) and
// also covers nearest_euclidean's own float rounding (within the same
// 2 delta ||z||); delta ||phi(v)||^2 covers the rounding of norm - 2 d.
void nearest_euclidean_batch(const Model& model, const float* z, size_t count, uint32_t* out, BatchScratch& s,
                             const ScanKernels* kernels) {
  const ScanKernels& k = kernels != nullptr ? *kernels : scan_kernels();
  const uint32_t D = model.dimension();
  const float* norms = model.row_norms();
  constexpr size_t kCompactAt = 64;  // candidates kept per query before pruning

  for (size_t done = 0; done < count; done += BatchedProduct::kMaxQueries) {
    const size_t nq = std::min(BatchedProduct::kMaxQueries, count - done);
    s.product.prepare(model, k, z + done * D, nq);
    const uint32_t Q = s.product.padded_count();
    const float* err = s.product.errors();
    const auto delta = static_cast<float>(s.product.delta());
    // Padding queries have an upper bound of -inf, so they never keep a row.
    s.upper.assign(Q, -std::numeric_limits<float>::infinity());
    std::fill(s.upper.begin(), s.upper.begin() + static_cast<ptrdiff_t>(nq), std::numeric_limits<float>::infinity());
    s.lower.resize(Q);
    s.candidates.resize(std::max(s.candidates.size(), nq));
    for (size_t j = 0; j < nq; ++j) s.candidates[j].clear();

    s.product.for_each_block([&](uint32_t v0, uint32_t n, const float* scores) {
      // Bounds, and the rows that may still win.
      for (uint32_t i = 0; i < n; ++i) {
        const uint32_t v = v0 + i;
        const float nv = norms[v];
        const float rn = std::sqrt(std::max(nv, 0.0f));
        const float base = delta * std::fabs(nv);
        if (!k.bound_row(scores + size_t{i} * Q, Q, nv, rn, base, err, s.upper.data(), s.lower.data())) continue;
        for (size_t j = 0; j < nq; ++j) {
          if (!(s.lower[j] <= s.upper[j])) continue;
          auto& c = s.candidates[j];
          if (c.size() >= kCompactAt) {
            const float u = s.upper[j];
            c.erase(std::remove_if(c.begin(), c.end(), [u](const BatchScratch::Candidate& x) { return x.lower > u; }),
                    c.end());
          }
          c.push_back({v, s.lower[j]});
        }
      }
    });
    // The survivors, scored exactly as nearest_euclidean scores them.
    for (size_t j = 0; j < nq; ++j) {
      const float* zj = z + (done + j) * D;
      uint32_t best = 0;
      float best_score = std::numeric_limits<float>::infinity();
      for (const BatchScratch::Candidate& c : s.candidates[j]) {
        if (!(c.lower <= s.upper[j])) continue;
        const float score = euclidean_score(model, k, c.row, zj);
        if (score < best_score) {  // strict, in index order: the lowest index wins a tie
          best_score = score;
          best = c.row;
        }
      }
      out[done + j] = best;
    }
  }
}

namespace {

// Calls visit(v, load) for every row, where load(i) is element i of row v in
// double.
template <typename Visit>
void scan_double(const Model& model, Visit visit) {
  const uint32_t V = model.vocabulary_size();
  const uint32_t D = model.dimension();
  const uint8_t* m = model.matrix_data();
  switch (model.quantization()) {
    case DXT_QUANT_F32:
      for (uint32_t v = 0; v < V; ++v) {
        const auto* r = reinterpret_cast<const float*>(m) + uint64_t{v} * D;
        visit(v, [r](uint32_t i) { return double{r[i]}; });
      }
      return;
    case DXT_QUANT_F16:
      for (uint32_t v = 0; v < V; ++v) {
        const auto* r = reinterpret_cast<const uint16_t*>(m) + uint64_t{v} * D;
        visit(v, [r](uint32_t i) { return double{f16_to_f32(r[i])}; });
      }
      return;
    case DXT_QUANT_INT8: {
      const float* scales = model.row_scales();
      for (uint32_t v = 0; v < V; ++v) {
        const auto* r = reinterpret_cast<const int8_t*>(m) + uint64_t{v} * D;
        const double scale = scales[v];
        visit(v, [r, scale](uint32_t i) { return double{static_cast<float>(scale * r[i])}; });
      }
      return;
    }
    default: fail(DXT_E_INTERNAL, "unknown quantisation");
  }
}

// Calls visit(v, load) for row v only, load as scan_double's.
template <typename Visit>
void row_double(const Model& model, uint32_t v, Visit visit) {
  const uint32_t D = model.dimension();
  const uint8_t* m = model.matrix_data();
  switch (model.quantization()) {
    case DXT_QUANT_F32: {
      const auto* r = reinterpret_cast<const float*>(m) + uint64_t{v} * D;
      visit(v, [r](uint32_t i) { return double{r[i]}; });
      return;
    }
    case DXT_QUANT_F16: {
      const auto* r = reinterpret_cast<const uint16_t*>(m) + uint64_t{v} * D;
      visit(v, [r](uint32_t i) { return double{f16_to_f32(r[i])}; });
      return;
    }
    case DXT_QUANT_INT8: {
      const auto* r = reinterpret_cast<const int8_t*>(m) + uint64_t{v} * D;
      const double scale = model.row_scales()[v];
      visit(v, [r, scale](uint32_t i) { return double{static_cast<float>(scale * r[i])}; });
      return;
    }
    default: fail(DXT_E_INTERNAL, "unknown quantisation");
  }
}

// The hyperbolic decoding score of one row (smaller is nearer).
template <typename Load>
double hyperbolic_score(uint32_t D, double y0, const double* ys, Load load) {
  double pp = 0, dot = 0;
  for (uint32_t i = 0; i < D; ++i) {
    const double p = load(i);
    pp += p * p;
    dot += p * ys[i];
  }
  const double inv = 1.0 / (1.0 - pp);
  return (1.0 + pp) * inv * y0 - 2.0 * inv * dot;
}

}  // namespace

uint32_t nearest_hyperbolic(const Model& model, double y0, const double* ys) {
  const uint32_t D = model.dimension();
  uint32_t best = 0;
  double best_score = std::numeric_limits<double>::infinity();
  scan_double(model, [&](uint32_t v, auto load) {
    const double score = hyperbolic_score(D, y0, ys, load);
    if (score < best_score) {  // strict: lowest index wins ties; NaN never wins
      best_score = score;
      best = v;
    }
  });
  return best;
}

uint32_t nearest_hyperbolic_in(const Model& model, double y0, const double* ys, const std::vector<uint32_t>& rows) {
  const uint32_t D = model.dimension();
  uint32_t best = rows.empty() ? 0 : rows[0];
  double best_score = std::numeric_limits<double>::infinity();
  for (uint32_t v : rows)
    row_double(model, v, [&](uint32_t, auto load) {
      const double score = hyperbolic_score(D, y0, ys, load);
      if (score < best_score) best_score = score, best = v;  // rows ascend: lowest index wins ties
    });
  return best;
}

uint32_t nearest_euclidean_in(const Model& model, const float* z, const std::vector<uint32_t>& rows) {
  const ScanKernels& k = scan_kernels();
  uint32_t best = rows.empty() ? 0 : rows[0];
  float best_score = std::numeric_limits<float>::infinity();
  for (uint32_t v : rows) {
    const float score = euclidean_score(model, k, v, z);
    if (score < best_score) best_score = score, best = v;  // rows ascend: lowest index wins ties
  }
  return best;
}

TwoNearest two_nearest_euclidean_in(const Model& model, const float* z, const std::vector<uint32_t>& rows) {
  const ScanKernels& k = scan_kernels();
  constexpr float kInf = std::numeric_limits<float>::infinity();
  uint32_t b1 = rows.empty() ? 0 : rows[0], b2 = b1;
  float s1 = kInf, s2 = kInf;
  for (uint32_t v : rows) {
    const float score = euclidean_score(model, k, v, z);
    if (score < s1) {
      b2 = b1, s2 = s1;
      b1 = v, s1 = score;
    } else if (score < s2) {
      b2 = v, s2 = score;
    }
  }
  if (rows.size() == 1) b2 = b1, s2 = s1;
  double zz = 0;
  for (uint32_t i = 0; i < model.dimension(); ++i) zz += double{z[i]} * z[i];
  return {b1, b2, std::sqrt(std::max(0.0, double{s1} + zz)), std::sqrt(std::max(0.0, double{s2} + zz))};
}

namespace {

// Calls visit(v0, n, diff, norm) for consecutive blocks of rows, where for
// r < n, diff[r] = ||phi(v0 + r) - x||^2 and norm[r] = ||phi(v0 + r)||^2 in
// double (the sqdist_f64 kernel).
template <typename Visit>
void visit_row_sums(const Model& model, const double* x, Visit visit) {
  const uint32_t V = model.vocabulary_size();
  const uint32_t D = model.dimension();
  const ScanKernels& k = scan_kernels();
  const uint8_t* m = model.matrix_data();
  const float* scales = model.row_scales();
  // Rows in blocks small enough to stay in L1 once widened to f32 (the
  // kernel scales int8 rows in f32, as Model::row does).
  constexpr uint32_t kRows = 16;
  // Per thread and kept between calls: exponential and tem call this once
  // per word, and the hot path allocates nothing once it has grown.
  thread_local std::vector<float> widened;
  if (model.quantization() != DXT_QUANT_F32 && widened.size() < size_t{kRows} * D) widened.resize(size_t{kRows} * D);
  double diff[kRows], norm[kRows];
  for (uint32_t v0 = 0; v0 < V; v0 += kRows) {
    const uint32_t n = std::min(kRows, V - v0);
    const uint64_t first = uint64_t{v0} * D;
    const float* rows = widened.data();
    switch (model.quantization()) {
      case DXT_QUANT_F32: rows = reinterpret_cast<const float*>(m) + first; break;
      case DXT_QUANT_F16: k.widen_f16(reinterpret_cast<const uint16_t*>(m) + first, n, D, widened.data()); break;
      case DXT_QUANT_INT8: k.widen_i8(reinterpret_cast<const int8_t*>(m) + first, n, D, widened.data()); break;
      default: fail(DXT_E_INTERNAL, "unknown quantisation");
    }
    k.sqdist_f64(rows, n, D, scales != nullptr ? scales + v0 : nullptr, x, diff, norm);
    visit(v0, n, diff, norm);
  }
}

}  // namespace

double squared_norm(const double* x, uint32_t D) {
  double xx = 0;
  for (uint32_t i = 0; i < D; ++i) xx += x[i] * x[i];
  return xx;
}

double distance_from_sums(const Model& model, double diff, double norm, double xx) {
  if (model.geometry() == DXT_GEOMETRY_POINCARE) return std::acosh(1 + 2 * diff / ((1 - norm) * (1 - xx)));
  return std::sqrt(diff);
}

void row_sums(const Model& model, uint32_t v, const double* x, double& diff, double& norm, float* widened) {
  const ScanKernels& k = scan_kernels();
  const uint32_t D = model.dimension();
  const uint64_t first = uint64_t{v} * D;
  const uint8_t* m = model.matrix_data();
  const float* scales = model.row_scales();
  const float* row = widened;
  switch (model.quantization()) {
    case DXT_QUANT_F32: row = reinterpret_cast<const float*>(m) + first; break;
    case DXT_QUANT_F16: k.widen_f16(reinterpret_cast<const uint16_t*>(m) + first, 1, D, widened); break;
    case DXT_QUANT_INT8: k.widen_i8(reinterpret_cast<const int8_t*>(m) + first, 1, D, widened); break;
    default: fail(DXT_E_INTERNAL, "unknown quantisation");
  }
  // The kernel treats each row on its own, so this is the value
  // distances_from computes for row v.
  k.sqdist_f64(row, 1, D, scales != nullptr ? scales + v : nullptr, x, &diff, &norm);
}

void distances_from(const Model& model, const double* x, double* out) {
  const double xx = squared_norm(x, model.dimension());
  visit_row_sums(model, x, [&](uint32_t v0, uint32_t n, const double* diff, const double* norm) {
    for (uint32_t r = 0; r < n; ++r) out[v0 + r] = distance_from_sums(model, diff[r], norm[r], xx);
  });
}

void squared_norms(const Model& model, double* out) {
  const std::vector<double> origin(model.dimension(), 0.0);
  visit_row_sums(model, origin.data(), [&](uint32_t v0, uint32_t n, const double*, const double* norm) {
    for (uint32_t r = 0; r < n; ++r) out[v0 + r] = norm[r];
  });
}

void dots_from(const Model& model, const double* x, double* out) {
  const double xx = squared_norm(x, model.dimension());
  // <p, x> = (||p||^2 + ||x||^2 - ||p - x||^2) / 2: the cancellation costs
  // about 1e-16 (||p||^2 + ||x||^2) in absolute terms, far below anything a
  // rating or a probability can show.
  visit_row_sums(model, x, [&](uint32_t v0, uint32_t n, const double* diff, const double* norm) {
    for (uint32_t r = 0; r < n; ++r) out[v0 + r] = (norm[r] + xx - diff[r]) / 2;
  });
}

}  // namespace dxt
