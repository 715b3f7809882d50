#include "search/exact_scan.hpp"

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

}  // namespace

uint32_t nearest_euclidean(const Model& model, const float* z) {
  const uint32_t V = model.vocabulary_size();
  const uint32_t D = model.dimension();
  const float* norms = model.row_norms();
  const uint8_t* m = model.matrix_data();
  uint32_t best = 0;
  float best_score = std::numeric_limits<float>::infinity();
  for (uint32_t v = 0; v < V; ++v) {
    float d;
    switch (model.quantization()) {
      case DXT_QUANT_F32: {
        const auto* r = reinterpret_cast<const float*>(m) + uint64_t{v} * D;
        d = dot(z, D, [r](uint32_t i) { return r[i]; });
        break;
      }
      case DXT_QUANT_F16: {
        const auto* r = reinterpret_cast<const uint16_t*>(m) + uint64_t{v} * D;
        d = dot(z, D, [r](uint32_t i) { return f16_to_f32(r[i]); });
        break;
      }
      case DXT_QUANT_INT8: {
        const auto* r = reinterpret_cast<const int8_t*>(m) + uint64_t{v} * D;
        d = model.row_scales()[v] * dot(z, D, [r](uint32_t i) { return static_cast<float>(r[i]); });
        break;
      }
      default: fail(DXT_E_INTERNAL, "unknown quantisation");
    }
    const float score = norms[v] - 2.0f * d;
    if (score < best_score) {  // strict: the lowest index wins a tie; NaN never wins
      best_score = score;
      best = v;
    }
  }
  return best;
}

}  // namespace dxt
