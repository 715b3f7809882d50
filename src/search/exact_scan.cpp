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
  const uint32_t D = model.dimension();
  const uint8_t* m = model.matrix_data();
  const dxt_quantization q = model.quantization();
  const float* scales = model.row_scales();
  if (q != DXT_QUANT_F32 && q != DXT_QUANT_F16 && q != DXT_QUANT_INT8) fail(DXT_E_INTERNAL, "unknown quantisation");
  float dots[kScanBlock];
  for (uint32_t v0 = 0; v0 < V; v0 += kScanBlock) {
    const uint32_t n = std::min(kScanBlock, V - v0);
    const uint64_t first = uint64_t{v0} * D;
    if (q == DXT_QUANT_F32) {
      k.dot_f32(reinterpret_cast<const float*>(m) + first, n, D, z, dots);
    } else if (q == DXT_QUANT_F16) {
      k.dot_f16(reinterpret_cast<const uint16_t*>(m) + first, n, D, z, dots);
    } else {
      k.dot_i8(reinterpret_cast<const int8_t*>(m) + first, n, D, z, dots);
      for (uint32_t i = 0; i < n; ++i) dots[i] *= scales[v0 + i];
    }
    for (uint32_t i = 0; i < n; ++i) visit(v0 + i, dots[i]);
  }
}

}  // namespace

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

// Exact by bounding, not by luck: the blocked product gives each score a_vq
// with |a_vq - s_vq| <= t_vq, where s_vq is the score nearest_euclidean
// computes. Rows whose lower bound a - t exceeds the best upper bound
// U_q = min_v (a_vq + t_vq) cannot be its answer; the few others are scored
// again exactly as nearest_euclidean scores them, in index order with the
// same strict comparison. So the result is the same word, bit for bit.
//
// t_vq = 2 ||phi(v)|| err_q + delta ||phi(v)||^2 with delta = (2D + 64) 2^-24:
// err_q bounds the error of the approximate dot product per unit row norm
// (Cauchy-Schwarz): 2 delta ||z|| for float rounding of both computations
// and, with int8 queries, also ||z - s_q zq||, the query's quantisation
// error. delta ||phi(v)||^2 covers the rounding of norm - 2 d.
void nearest_euclidean_batch(const Model& model, const float* z, size_t count, uint32_t* out, BatchScratch& s,
                             const ScanKernels* kernels) {
  const ScanKernels& k = kernels != nullptr ? *kernels : scan_kernels();
  const uint32_t V = model.vocabulary_size();
  const uint32_t D = model.dimension();
  const dxt_quantization quant = model.quantization();
  if (quant != DXT_QUANT_F32 && quant != DXT_QUANT_F16 && quant != DXT_QUANT_INT8)
    fail(DXT_E_INTERNAL, "unknown quantisation");
  const float* norms = model.row_norms();
  const float* scales = model.row_scales();
  const uint8_t* m = model.matrix_data();
  // int8 rows times int8 queries in exact integer arithmetic, when the CPU
  // has a fast kernel for it; otherwise rows widened to f32.
  const bool integer = quant == DXT_QUANT_INT8 && k.gemm_i8 != nullptr;
  const uint32_t Dp = (D + 3) / 4 * 4;  // queries padded to groups of 4 elements
  const double delta = (2.0 * D + 64) * 0x1p-24;
  // Rows per block: converted once, then multiplied with every query. A
  // multiple of the kernels' row tile (6).
  constexpr uint32_t kRowBlock = 48;
  constexpr size_t kMaxQueries = 256;  // per pass over the matrix
  constexpr size_t kCompactAt = 64;    // candidates kept per query before pruning

  for (size_t done = 0; done < count; done += kMaxQueries) {
    const size_t nq = std::min(kMaxQueries, count - done);
    const uint32_t Q = static_cast<uint32_t>((nq + kQueryBlock - 1) / kQueryBlock * kQueryBlock);
    // Padded to Q: the padding queries have no error and an upper bound of
    // -inf, so they never keep a row.
    s.err.assign(Q, 0.0f);
    if (integer) {
      // zu = zq + 128 (unsigned), panels of 16 queries x groups of 4 elements.
      // Padding queries are zq = 0 with scale 0.
      s.zu.assign(size_t{Q} * Dp, 128);
      s.query_scale.assign(Q, 0.0f);
      for (size_t j = 0; j < nq; ++j) {
        const float* zj = z + (done + j) * D;
        float top = 0;
        for (uint32_t i = 0; i < D; ++i) top = std::max(top, std::fabs(zj[i]));
        const float scale = top > 0 && std::isfinite(top) ? top / 127.0f : 1.0f;
        double e2 = 0, zz = 0;
        for (uint32_t i = 0; i < D; ++i) {
          const float q = std::nearbyint(std::min(127.0f, std::max(-127.0f, zj[i] / scale)));
          const double e = double{zj[i]} - double{scale} * q;
          e2 += e * e;
          zz += double{zj[i]} * zj[i];
          s.zu[((j / kQueryBlock) * (Dp / 4) + i / 4) * 64 + (j % kQueryBlock) * 4 + i % 4] =
              static_cast<uint8_t>(static_cast<int>(q) + 128);
        }
        s.query_scale[j] = scale;
        s.err[j] = static_cast<float>(std::sqrt(e2) + 2 * delta * std::sqrt(zz));
      }
    } else {
      s.zt.assign(size_t{D} * Q, 0.0f);
      for (size_t j = 0; j < nq; ++j) {
        double zz = 0;
        for (uint32_t i = 0; i < D; ++i) {
          const float x = z[(done + j) * D + i];
          s.zt[(j / kQueryBlock * D + i) * kQueryBlock + j % kQueryBlock] = x;
          zz += double{x} * x;
        }
        s.err[j] = static_cast<float>(2 * delta * std::sqrt(zz));
      }
      s.block.resize(size_t{kRowBlock} * D);
    }
    s.scores.resize(size_t{kRowBlock} * Q);
    s.upper.assign(Q, -std::numeric_limits<float>::infinity());
    std::fill(s.upper.begin(), s.upper.begin() + static_cast<ptrdiff_t>(nq), std::numeric_limits<float>::infinity());
    s.lower.resize(Q);
    s.candidates.resize(std::max(s.candidates.size(), nq));
    for (size_t j = 0; j < nq; ++j) s.candidates[j].clear();

    for (uint32_t v0 = 0; v0 < V; v0 += kRowBlock) {
      const uint32_t n = std::min(kRowBlock, V - v0);
      const uint64_t first = uint64_t{v0} * D;
      // The rows after this block, prefetched while it is multiplied.
      const size_t next_rows = std::min(kRowBlock, V - v0 - n);
      // Approximate dot products <phi(v), z_j> into scores (n x Q).
      if (integer) {
        k.gemm_i8(reinterpret_cast<const int8_t*>(m) + first, n, D, s.zu.data(), Q, scales + v0, s.query_scale.data(),
                  s.scores.data(), m + first + size_t{n} * D, next_rows * D);
      } else {
        const float* rows = s.block.data();
        if (quant == DXT_QUANT_F32) {
          rows = reinterpret_cast<const float*>(m) + first;
        } else if (quant == DXT_QUANT_F16) {
          k.widen_f16(reinterpret_cast<const uint16_t*>(m) + first, n, D, s.block.data());
        } else {
          k.widen_i8(reinterpret_cast<const int8_t*>(m) + first, n, D, s.block.data());
        }
        // Widened blocks are read from the matrix before the product, so
        // only rows used in place are worth prefetching from it.
        const bool direct = quant == DXT_QUANT_F32;
        k.gemm_f32(rows, n, D, s.zt.data(), Q, s.scores.data(), direct ? m + (first + size_t{n} * D) * 4 : nullptr,
                   direct ? next_rows * D * 4 : 0);
        if (quant == DXT_QUANT_INT8)
          for (uint32_t i = 0; i < n; ++i)
            for (size_t j = 0; j < nq; ++j) s.scores[size_t{i} * Q + j] *= scales[v0 + i];
      }
      // Bounds, and the rows that may still win.
      for (uint32_t i = 0; i < n; ++i) {
        const uint32_t v = v0 + i;
        const float nv = norms[v];
        const float rn = std::sqrt(std::max(nv, 0.0f));
        const float base = static_cast<float>(delta) * std::fabs(nv);
        if (!k.bound_row(s.scores.data() + size_t{i} * Q, Q, nv, rn, base, s.err.data(), s.upper.data(),
                         s.lower.data()))
          continue;
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
    }
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

}  // namespace

uint32_t nearest_hyperbolic(const Model& model, double y0, const double* ys) {
  const uint32_t D = model.dimension();
  uint32_t best = 0;
  double best_score = std::numeric_limits<double>::infinity();
  scan_double(model, [&](uint32_t v, auto load) {
    double pp = 0, dot = 0;
    for (uint32_t i = 0; i < D; ++i) {
      const double p = load(i);
      pp += p * p;
      dot += p * ys[i];
    }
    const double inv = 1.0 / (1.0 - pp);
    const double score = (1.0 + pp) * inv * y0 - 2.0 * inv * dot;
    if (score < best_score) {  // strict: lowest index wins ties; NaN never wins
      best_score = score;
      best = v;
    }
  });
  return best;
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

double squared_norm(const double* x, uint32_t D) {
  double xx = 0;
  for (uint32_t i = 0; i < D; ++i) xx += x[i] * x[i];
  return xx;
}

}  // namespace

void distances_from(const Model& model, const double* x, double* out) {
  const double xx = squared_norm(x, model.dimension());
  const bool hyperbolic = model.geometry() == DXT_GEOMETRY_POINCARE;
  visit_row_sums(model, x, [&](uint32_t v0, uint32_t n, const double* diff, const double* norm) {
    for (uint32_t r = 0; r < n; ++r)
      out[v0 + r] = hyperbolic ? std::acosh(1 + 2 * diff[r] / ((1 - norm[r]) * (1 - xx))) : std::sqrt(diff[r]);
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
