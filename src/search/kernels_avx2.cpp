// SPDX-License-Identifier: Apache-2.0
// AVX2 + FMA + F16C kernels. Compiled with -mavx2 -mfma -mf16c; used only
// after the CPU says it has them (kernels.cpp). Everything here has internal
// linkage and no standard-library inline function is instantiated (see
// kernels.hpp).
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "search/kernels.hpp"

namespace dxt {

namespace {

#include "search/kernels_prefetch.inc"  // NOLINT(bugprone-suspicious-include)

constexpr uint32_t W = 8;  // floats per register

inline float hsum(__m256 v) {
  __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  s = _mm_add_ps(s, _mm_movehl_ps(s, s));
  s = _mm_add_ss(s, _mm_movehdup_ps(s));
  return _mm_cvtss_f32(s);
}

struct F32 {
  using T = float;
  static __m256 load(const float* p) { return _mm256_loadu_ps(p); }
};
struct F16 {
  using T = uint16_t;
  static __m256 load(const uint16_t* p) {
    return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
  }
};
struct I8 {
  using T = int8_t;
  static __m256 load(const int8_t* p) {
    return _mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p))));
  }
};

// The last m < W elements, zero-padded.
template <class L>
inline __m256 load_tail(const typename L::T* p, uint32_t m) {
  typename L::T buf[W] = {};
  __builtin_memcpy(buf, p, m * sizeof(typename L::T));
  return L::load(buf);
}

template <class L>
void dot(const typename L::T* rows, size_t n, uint32_t D, const float* z, float* out) {
  const uint32_t full = D - D % W, rem = D % W;
  const __m256 ztail = rem != 0 ? load_tail<F32>(z + full, rem) : _mm256_setzero_ps();
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const typename L::T* r0 = rows + i * D;
    const typename L::T *r1 = r0 + D, *r2 = r1 + D, *r3 = r2 + D;
    __m256 a0 = _mm256_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
    for (uint32_t k = 0; k < full; k += W) {
      const __m256 zk = _mm256_loadu_ps(z + k);
      a0 = _mm256_fmadd_ps(L::load(r0 + k), zk, a0);
      a1 = _mm256_fmadd_ps(L::load(r1 + k), zk, a1);
      a2 = _mm256_fmadd_ps(L::load(r2 + k), zk, a2);
      a3 = _mm256_fmadd_ps(L::load(r3 + k), zk, a3);
    }
    if (rem != 0) {
      a0 = _mm256_fmadd_ps(load_tail<L>(r0 + full, rem), ztail, a0);
      a1 = _mm256_fmadd_ps(load_tail<L>(r1 + full, rem), ztail, a1);
      a2 = _mm256_fmadd_ps(load_tail<L>(r2 + full, rem), ztail, a2);
      a3 = _mm256_fmadd_ps(load_tail<L>(r3 + full, rem), ztail, a3);
    }
    out[i] = hsum(a0), out[i + 1] = hsum(a1), out[i + 2] = hsum(a2), out[i + 3] = hsum(a3);
  }
  for (; i < n; ++i) {
    const typename L::T* r = rows + i * D;
    __m256 a = _mm256_setzero_ps();
    for (uint32_t k = 0; k < full; k += W) a = _mm256_fmadd_ps(L::load(r + k), _mm256_loadu_ps(z + k), a);
    if (rem != 0) a = _mm256_fmadd_ps(load_tail<L>(r + full, rem), ztail, a);
    out[i] = hsum(a);
  }
}

template <class L>
void widen(const typename L::T* rows, size_t n, uint32_t D, float* out) {
  const size_t total = n * D, full = total - total % W;
  for (size_t k = 0; k < full; k += W) _mm256_storeu_ps(out + k, L::load(rows + k));
  if (full < total) {
    float buf[W];
    _mm256_storeu_ps(buf, load_tail<L>(rows + full, static_cast<uint32_t>(total - full)));
    __builtin_memcpy(out + full, buf, (total - full) * sizeof(float));
  }
}

// R rows x one panel of 16 queries (C = 2 registers), over kn elements from
// the current one; the sums for each (row, query) run over k in order,
// starting at zero for the first block of elements and from out after that
// (kernels_avx512.cpp has the reasons for blocking and for the pragmas).
template <int R, int C>
inline void tile(const float* rows, uint32_t D, uint32_t kn, const float* panel, uint32_t Q, float* out, bool first) {
  __m256 acc[R][C];
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r)
#pragma GCC unroll 8
    for (int c = 0; c < C; ++c)
      acc[r][c] = first ? _mm256_setzero_ps() : _mm256_loadu_ps(out + static_cast<size_t>(r) * Q + c * W);
  for (uint32_t k = 0; k < kn; ++k) {
    __m256 zk[C];
#pragma GCC unroll 8
    for (int c = 0; c < C; ++c) zk[c] = _mm256_loadu_ps(panel + size_t{k} * kQueryBlock + c * W);
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
      const __m256 b = _mm256_broadcast_ss(rows + static_cast<size_t>(r) * D + k);
#pragma GCC unroll 8
      for (int c = 0; c < C; ++c) acc[r][c] = _mm256_fmadd_ps(b, zk[c], acc[r][c]);
    }
  }
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r)
#pragma GCC unroll 8
    for (int c = 0; c < C; ++c) _mm256_storeu_ps(out + static_cast<size_t>(r) * Q + c * W, acc[r][c]);
}

template <int R>
inline void tile_rows(size_t left, const float* rows, uint32_t D, uint32_t kn, const float* panel, uint32_t Q,
                      float* out, bool first) {
  if constexpr (R > 1) {
    if (left < static_cast<size_t>(R)) return tile_rows<R - 1>(left, rows, D, kn, panel, Q, out, first);
  }
  tile<R, 2>(rows, D, kn, panel, Q, out, first);
}

void gemm_f32(const float* rows, size_t n, uint32_t D, const float* zt, uint32_t Q, float* out, const void* next,
              size_t next_bytes) {
  constexpr size_t kRows = 6;       // 12 accumulators + 2 query registers + 1 broadcast
  constexpr uint32_t kBlock = 128;  // elements per block: one panel's part is 8 KB
  static_assert(kQueryBlock == 2 * W, "one panel is two registers");
  Prefetch prefetch(next, next_bytes, (D + kBlock - 1) / kBlock * (Q / kQueryBlock) * ((n + kRows - 1) / kRows));
  for (uint32_t k0 = 0; k0 < D; k0 += kBlock) {
    const uint32_t kn = D - k0 < kBlock ? D - k0 : kBlock;
    for (uint32_t q = 0; q < Q; q += kQueryBlock)
      for (size_t i = 0; i < n; i += kRows, prefetch.next())
        tile_rows<kRows>(n - i, rows + i * D + k0, D, kn, zt + size_t{q} * D + size_t{k0} * kQueryBlock, Q,
                         out + i * Q + q, k0 == 0);
  }
}

uint64_t peak_madd(uint64_t iterations, float* sink) {
  __m256 a[12];
  for (int r = 0; r < 12; ++r) a[r] = _mm256_set1_ps(static_cast<float>(r));
  const __m256 m = _mm256_set1_ps(0.999999f), c = _mm256_set1_ps(1e-6f);
  for (uint64_t it = 0; it < iterations; ++it)
    for (int r = 0; r < 12; ++r) a[r] = _mm256_fmadd_ps(a[r], m, c);
  float lanes[8];
  float s = 0;
  for (int r = 0; r < 12; ++r) {
    _mm256_storeu_ps(lanes, a[r]);
    for (float x : lanes) s += x;
  }
  *sink = s;
  return iterations * 12 * 8;
}

#include "search/kernels_bound.inc"   // NOLINT(bugprone-suspicious-include)
#include "search/kernels_sqdist.inc"  // NOLINT(bugprone-suspicious-include)

}  // namespace

const ScanKernels kAvx2Kernels = {"avx2",   dot<F32>, dot<F16>,  dot<I8>,    widen<F16>, widen<I8>,
                                  gemm_f32, nullptr,  peak_madd, sqdist_f64, bound_row,  key_row};

}  // namespace dxt
