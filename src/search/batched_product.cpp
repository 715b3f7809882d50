// SPDX-License-Identifier: Apache-2.0
#include "search/batched_product.hpp"

#include <algorithm>
#include <cmath>

#include "errors/error.hpp"

namespace dxt {

void BatchedProduct::prepare(const Model& model, const ScanKernels& k, const float* z, size_t count) {
  const uint32_t D = model.dimension();
  const dxt_quantization quant = model.quantization();
  if (quant != DXT_QUANT_F32 && quant != DXT_QUANT_F16 && quant != DXT_QUANT_INT8)
    fail(DXT_E_INTERNAL, "unknown quantisation");
  if (count == 0 || count > kMaxQueries) fail(DXT_E_INTERNAL, "batched product: bad query count");
  model_ = &model;
  kernels_ = &k;
  count_ = count;
  // int8 rows times int8 queries in exact integer arithmetic, when the CPU
  // has a fast kernel for it; otherwise rows widened to f32.
  integer_ = quant == DXT_QUANT_INT8 && k.gemm_i8 != nullptr;
  delta_ = (2.0 * D + 64) * 0x1p-24;
  q_ = static_cast<uint32_t>((count + kQueryBlock - 1) / kQueryBlock * kQueryBlock);
  err_.assign(q_, 0.0f);
  if (integer_) {
    // zu = zq + 128 (unsigned), panels of 16 queries x groups of 4 elements
    // over D rounded up to a multiple of 4. Padding queries are zq = 0 with
    // scale 0.
    const uint32_t Dp = (D + 3) / 4 * 4;
    zu_.assign(size_t{q_} * Dp, 128);
    query_scale_.assign(q_, 0.0f);
    for (size_t j = 0; j < count; ++j) {
      const float* zj = z + j * D;
      float top = 0;
      for (uint32_t i = 0; i < D; ++i) top = std::max(top, std::fabs(zj[i]));
      const float scale = top > 0 && std::isfinite(top) ? top / 127.0f : 1.0f;
      double e2 = 0, zz = 0;
      for (uint32_t i = 0; i < D; ++i) {
        const float q = std::nearbyint(std::min(127.0f, std::max(-127.0f, zj[i] / scale)));
        const double e = double{zj[i]} - double{scale} * q;
        e2 += e * e;
        zz += double{zj[i]} * zj[i];
        zu_[((j / kQueryBlock) * (Dp / 4) + i / 4) * 64 + (j % kQueryBlock) * 4 + i % 4] =
            static_cast<uint8_t>(static_cast<int>(q) + 128);
      }
      query_scale_[j] = scale;
      err_[j] = static_cast<float>(std::sqrt(e2) + 2 * delta_ * std::sqrt(zz));
    }
  } else {
    zt_.assign(size_t{D} * q_, 0.0f);
    for (size_t j = 0; j < count; ++j) {
      double zz = 0;
      for (uint32_t i = 0; i < D; ++i) {
        const float x = z[j * D + i];
        zt_[(j / kQueryBlock * D + i) * kQueryBlock + j % kQueryBlock] = x;
        zz += double{x} * x;
      }
      err_[j] = static_cast<float>(2 * delta_ * std::sqrt(zz));
    }
    block_.resize(size_t{kRowBlock} * D);
  }
  scores_.resize(size_t{kRowBlock} * q_);
}

void BatchedProduct::compute_block(uint32_t v0, uint32_t n) {
  const Model& model = *model_;
  const ScanKernels& k = *kernels_;
  const uint32_t V = model.vocabulary_size();
  const uint32_t D = model.dimension();
  const dxt_quantization quant = model.quantization();
  const float* scales = model.row_scales();
  const uint8_t* m = model.matrix_data();
  const uint64_t first = uint64_t{v0} * D;
  // The rows after this block, prefetched while it is multiplied.
  const size_t next_rows = std::min(kRowBlock, V - v0 - n);
  if (integer_) {
    k.gemm_i8(reinterpret_cast<const int8_t*>(m) + first, n, D, zu_.data(), q_, scales + v0, query_scale_.data(),
              scores_.data(), m + first + size_t{n} * D, next_rows * D);
    return;
  }
  const float* rows = block_.data();
  if (quant == DXT_QUANT_F32) {
    rows = reinterpret_cast<const float*>(m) + first;
  } else if (quant == DXT_QUANT_F16) {
    k.widen_f16(reinterpret_cast<const uint16_t*>(m) + first, n, D, block_.data());
  } else {
    k.widen_i8(reinterpret_cast<const int8_t*>(m) + first, n, D, block_.data());
  }
  // Widened blocks are read from the matrix before the product, so only
  // rows used in place are worth prefetching from it.
  const bool direct = quant == DXT_QUANT_F32;
  k.gemm_f32(rows, n, D, zt_.data(), q_, scores_.data(), direct ? m + (first + size_t{n} * D) * 4 : nullptr,
             direct ? next_rows * D * 4 : 0);
  if (quant == DXT_QUANT_INT8)
    for (uint32_t i = 0; i < n; ++i)
      for (size_t j = 0; j < count_; ++j) scores_[size_t{i} * q_ + j] *= scales[v0 + i];
}

}  // namespace dxt
