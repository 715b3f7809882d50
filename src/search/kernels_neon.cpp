// SPDX-License-Identifier: Apache-2.0
// NEON kernels for AArch64 (where NEON is part of the base architecture).
// Everything here has internal linkage (see kernels.hpp).
#include <arm_neon.h>

#include <cstddef>
#include <cstdint>

#include "search/kernels.hpp"

namespace dxt {

namespace {

#include "search/kernels_prefetch.inc"  // NOLINT(bugprone-suspicious-include)

constexpr uint32_t W = 8;  // elements per step: two float32x4 registers

struct Pair {
  float32x4_t lo, hi;
};

struct F32 {
  using T = float;
  static Pair load(const float* p) { return {vld1q_f32(p), vld1q_f32(p + 4)}; }
};
struct F16 {
  using T = uint16_t;
  static Pair load(const uint16_t* p) {
    const float16x8_t h = vreinterpretq_f16_u16(vld1q_u16(p));
    return {vcvt_f32_f16(vget_low_f16(h)), vcvt_high_f32_f16(h)};
  }
};
struct I8 {
  using T = int8_t;
  static Pair load(const int8_t* p) {
    const int16x8_t w = vmovl_s8(vld1_s8(p));
    return {vcvtq_f32_s32(vmovl_s16(vget_low_s16(w))), vcvtq_f32_s32(vmovl_high_s16(w))};
  }
};

template <class L>
inline Pair load_tail(const typename L::T* p, uint32_t m) {
  typename L::T buf[W] = {};
  __builtin_memcpy(buf, p, m * sizeof(typename L::T));
  return L::load(buf);
}

inline Pair fma(Pair acc, Pair a, Pair b) { return {vfmaq_f32(acc.lo, a.lo, b.lo), vfmaq_f32(acc.hi, a.hi, b.hi)}; }
inline float hsum(Pair a) { return vaddvq_f32(vaddq_f32(a.lo, a.hi)); }

template <class L>
void dot(const typename L::T* rows, size_t n, uint32_t D, const float* z, float* out) {
  const uint32_t full = D - D % W, rem = D % W;
  const Pair zero = {vdupq_n_f32(0), vdupq_n_f32(0)};
  const Pair ztail = rem != 0 ? load_tail<F32>(z + full, rem) : zero;
  size_t i = 0;
  for (; i + 2 <= n; i += 2) {
    const typename L::T* r0 = rows + i * D;
    const typename L::T* r1 = r0 + D;
    Pair a0 = zero, a1 = zero;
    for (uint32_t k = 0; k < full; k += W) {
      const Pair zk = F32::load(z + k);
      a0 = fma(a0, L::load(r0 + k), zk);
      a1 = fma(a1, L::load(r1 + k), zk);
    }
    if (rem != 0) {
      a0 = fma(a0, load_tail<L>(r0 + full, rem), ztail);
      a1 = fma(a1, load_tail<L>(r1 + full, rem), ztail);
    }
    out[i] = hsum(a0), out[i + 1] = hsum(a1);
  }
  for (; i < n; ++i) {
    const typename L::T* r = rows + i * D;
    Pair a = zero;
    for (uint32_t k = 0; k < full; k += W) a = fma(a, L::load(r + k), F32::load(z + k));
    if (rem != 0) a = fma(a, load_tail<L>(r + full, rem), ztail);
    out[i] = hsum(a);
  }
}

template <class L>
void widen(const typename L::T* rows, size_t n, uint32_t D, float* out) {
  const size_t total = n * D, full = total - total % W;
  for (size_t k = 0; k < full; k += W) {
    const Pair v = L::load(rows + k);
    vst1q_f32(out + k, v.lo);
    vst1q_f32(out + k + 4, v.hi);
  }
  if (full < total) {
    const Pair v = load_tail<L>(rows + full, static_cast<uint32_t>(total - full));
    float buf[W];
    vst1q_f32(buf, v.lo);
    vst1q_f32(buf + 4, v.hi);
    __builtin_memcpy(out + full, buf, (total - full) * sizeof(float));
  }
}

// R rows x one panel of 16 queries (four registers): the sums for each (row, query) run
// over k in order.
template <int R>
inline void tile(const float* rows, uint32_t D, const float* panel, uint32_t Q, float* out) {
  float32x4_t acc[R][4];
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < 4; ++c) acc[r][c] = vdupq_n_f32(0);
  for (uint32_t k = 0; k < D; ++k) {
    float32x4_t zk[4];
    for (int c = 0; c < 4; ++c) zk[c] = vld1q_f32(panel + size_t{k} * kQueryBlock + 4 * c);
    for (int r = 0; r < R; ++r) {
      const float b = rows[static_cast<size_t>(r) * D + k];
      for (int c = 0; c < 4; ++c) acc[r][c] = vfmaq_n_f32(acc[r][c], zk[c], b);
    }
  }
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < 4; ++c) vst1q_f32(out + static_cast<size_t>(r) * Q + 4 * c, acc[r][c]);
}

template <int R>
inline void tile_rows(size_t left, const float* rows, uint32_t D, const float* zt, uint32_t Q, float* out) {
  if constexpr (R > 1) {
    if (left < static_cast<size_t>(R)) return tile_rows<R - 1>(left, rows, D, zt, Q, out);
  }
  tile<R>(rows, D, zt, Q, out);
}

void gemm_f32(const float* rows, size_t n, uint32_t D, const float* zt, uint32_t Q, float* out, const void* next,
              size_t next_bytes) {
  constexpr size_t kRows = 6;  // 24 accumulators + 4 query registers
  static_assert(kQueryBlock == 16, "one panel is four registers");
  Prefetch prefetch(next, next_bytes, Q / kQueryBlock * ((n + kRows - 1) / kRows));
  for (uint32_t q = 0; q < Q; q += kQueryBlock)
    for (size_t i = 0; i < n; i += kRows, prefetch.next())
      tile_rows<kRows>(n - i, rows + i * D, D, zt + size_t{q} * D, Q, out + i * Q + q);
}

uint64_t peak_madd(uint64_t iterations, float* sink) {
  float32x4_t a[12];
  for (int r = 0; r < 12; ++r) a[r] = vdupq_n_f32(static_cast<float>(r));
  const float32x4_t m = vdupq_n_f32(0.999999f), c = vdupq_n_f32(1e-6f);
  for (uint64_t it = 0; it < iterations; ++it)
    for (int r = 0; r < 12; ++r) a[r] = vfmaq_f32(c, a[r], m);
  float lanes[4];
  float s = 0;
  for (int r = 0; r < 12; ++r) {
    vst1q_f32(lanes, a[r]);
    for (float x : lanes) s += x;
  }
  *sink = s;
  return iterations * 12 * 4;
}

#include "search/kernels_bound.inc"   // NOLINT(bugprone-suspicious-include)
#include "search/kernels_sqdist.inc"  // NOLINT(bugprone-suspicious-include)

}  // namespace

const ScanKernels kNeonKernels = {"neon",   dot<F32>, dot<F16>,  dot<I8>,    widen<F16>, widen<I8>,
                                  gemm_f32, nullptr,  peak_madd, sqdist_f64, bound_row,  key_row};

}  // namespace dxt
