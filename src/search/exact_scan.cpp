#include "search/exact_scan.hpp"

#include <cmath>
#include <cstring>
#include <limits>

#include "errors/error.hpp"
#include "model/f16.hpp"

namespace dxt {

namespace {

// Eight independent partial sums let the compiler vectorise the loop without
// reassociating floating point on its own (no -ffast-math anywhere).
template <typename Load>
float dot(const float* z, uint32_t n, Load load) {
  float acc[8] = {};
  uint32_t i = 0;
  for (; i + 8 <= n; i += 8)
    for (int k = 0; k < 8; ++k) acc[k] += load(i + k) * z[i + k];
  for (; i < n; ++i) acc[0] += load(i) * z[i];
  return ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]));
}

// Calls visit(v, <row v, z>) for every row, in index order.
template <typename Visit>
void scan(const Model& model, const float* z, Visit visit) {
  const uint32_t V = model.vocabulary_size();
  const uint32_t D = model.dimension();
  const uint8_t* m = model.matrix_data();
  switch (model.quantization()) {
    case DXT_QUANT_F32:
      for (uint32_t v = 0; v < V; ++v) {
        const auto* r = reinterpret_cast<const float*>(m) + uint64_t{v} * D;
        visit(v, dot(z, D, [r](uint32_t i) { return r[i]; }));
      }
      return;
    case DXT_QUANT_F16:
      for (uint32_t v = 0; v < V; ++v) {
        const auto* r = reinterpret_cast<const uint16_t*>(m) + uint64_t{v} * D;
        visit(v, dot(z, D, [r](uint32_t i) { return f16_to_f32(r[i]); }));
      }
      return;
    case DXT_QUANT_INT8: {
      const float* scales = model.row_scales();
      for (uint32_t v = 0; v < V; ++v) {
        const auto* r = reinterpret_cast<const int8_t*>(m) + uint64_t{v} * D;
        visit(v, scales[v] * dot(z, D, [r](uint32_t i) { return static_cast<float>(r[i]); }));
      }
      return;
    }
    default: fail(DXT_E_INTERNAL, "unknown quantisation");
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
