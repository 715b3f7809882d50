#include "search/exact_scan.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "errors/error.hpp"
#include "model/f16.hpp"
#include "search/kernels.hpp"

namespace dxt {

namespace {

constexpr uint32_t kScanBlock = 256;  // rows per kernel call: scores stay on the stack

// Calls visit(v, <row v, z>) for every row, in index order, kScanBlock rows
// at a time through the dispatched kernel.
template <typename Visit>
void scan(const Model& model, const float* z, Visit visit) {
  const ScanKernels& k = scan_kernels();
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

uint32_t nearest_euclidean(const Model& model, const float* z) {
  const float* norms = model.row_norms();
  uint32_t best = 0;
  float best_score = std::numeric_limits<float>::infinity();
  scan(model, z, [&](uint32_t v, float d) {
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
  scan(model, z, [&](uint32_t v, float d) {
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

void nearest_euclidean_batch(const Model& model, const float* z, size_t count, uint32_t* out, BatchScratch& s) {
  const ScanKernels& k = scan_kernels();
  const uint32_t V = model.vocabulary_size();
  const uint32_t D = model.dimension();
  const dxt_quantization quant = model.quantization();
  if (quant != DXT_QUANT_F32 && quant != DXT_QUANT_F16 && quant != DXT_QUANT_INT8)
    fail(DXT_E_INTERNAL, "unknown quantisation");
  const float* norms = model.row_norms();
  const float* scales = model.row_scales();
  const uint8_t* m = model.matrix_data();
  // Rows per block: widened once, then multiplied with every query. A
  // multiple of the kernels' row tile (6).
  constexpr uint32_t kRowBlock = 48;
  constexpr size_t kMaxQueries = 256;  // per pass over the matrix

  for (size_t done = 0; done < count; done += kMaxQueries) {
    const size_t nq = std::min(kMaxQueries, count - done);
    const uint32_t Q = static_cast<uint32_t>((nq + kQueryBlock - 1) / kQueryBlock * kQueryBlock);
    s.zt.assign(size_t{D} * Q, 0.0f);
    for (size_t j = 0; j < nq; ++j)
      for (uint32_t i = 0; i < D; ++i)
        s.zt[(j / kQueryBlock * D + i) * kQueryBlock + j % kQueryBlock] = z[(done + j) * D + i];
    s.block.resize(size_t{kRowBlock} * D);
    s.scores.resize(size_t{kRowBlock} * Q);
    s.best_score.assign(nq, std::numeric_limits<float>::infinity());
    uint32_t* best = out + done;
    std::fill(best, best + nq, 0u);

    for (uint32_t v0 = 0; v0 < V; v0 += kRowBlock) {
      const uint32_t n = std::min(kRowBlock, V - v0);
      const uint64_t first = uint64_t{v0} * D;
      const float* rows = s.block.data();
      if (quant == DXT_QUANT_F32) {
        rows = reinterpret_cast<const float*>(m) + first;
      } else if (quant == DXT_QUANT_F16) {
        k.widen_f16(reinterpret_cast<const uint16_t*>(m) + first, n, D, s.block.data());
      } else {
        k.widen_i8(reinterpret_cast<const int8_t*>(m) + first, n, D, s.block.data());
      }
      k.gemm_f32(rows, n, D, s.zt.data(), Q, s.scores.data());
      for (uint32_t i = 0; i < n; ++i) {
        const uint32_t v = v0 + i;
        const float scale = scales != nullptr ? scales[v] : 1.0f;
        const float* dots = s.scores.data() + size_t{i} * Q;
        for (size_t j = 0; j < nq; ++j) {
          const float d = quant == DXT_QUANT_INT8 ? scale * dots[j] : dots[j];
          const float score = norms[v] - 2.0f * d;
          if (score < s.best_score[j]) {  // strict, as in nearest_euclidean
            s.best_score[j] = score;
            best[j] = v;
          }
        }
      }
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

void distances_from(const Model& model, const double* x, double* out) {
  const uint32_t D = model.dimension();
  double xx = 0;
  for (uint32_t i = 0; i < D; ++i) xx += x[i] * x[i];
  const bool hyperbolic = model.geometry() == DXT_GEOMETRY_POINCARE;
  scan_double(model, [&](uint32_t v, auto load) {
    double diff = 0, pp = 0;
    for (uint32_t i = 0; i < D; ++i) {
      const double p = load(i);
      diff += (p - x[i]) * (p - x[i]);
      pp += p * p;
    }
    out[v] = hyperbolic ? std::acosh(1 + 2 * diff / ((1 - pp) * (1 - xx))) : std::sqrt(diff);
  });
}

}  // namespace dxt
