// SPDX-License-Identifier: Apache-2.0
// AVX-512 (F, BW, VL) kernels. Compiled with -mavx512f -mavx512bw -mavx512vl
// -mavx2 -mfma -mf16c; used only after the CPU says it has them
// (kernels.cpp). Everything here has internal linkage and no standard-library
// inline function is instantiated (see kernels.hpp).
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "search/kernels.hpp"

namespace dxt {

namespace {

#include "search/kernels_prefetch.inc"  // NOLINT(bugprone-suspicious-include)

constexpr uint32_t W = 16;  // floats per register

// Masked loads: elements at and past m read as zero and are never touched.
struct F32 {
  using T = float;
  static __m512 load(const float* p) { return _mm512_loadu_ps(p); }
  static __m512 load(const float* p, __mmask16 m) { return _mm512_maskz_loadu_ps(m, p); }
};
struct F16 {
  using T = uint16_t;
  static __m512 load(const uint16_t* p) {
    return _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
  }
  static __m512 load(const uint16_t* p, __mmask16 m) { return _mm512_cvtph_ps(_mm256_maskz_loadu_epi16(m, p)); }
};
struct I8 {
  using T = int8_t;
  static __m512 load(const int8_t* p) {
    return _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))));
  }
  static __m512 load(const int8_t* p, __mmask16 m) {
    return _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(_mm_maskz_loadu_epi8(m, p)));
  }
};

inline __mmask16 first(uint32_t m) { return static_cast<__mmask16>((1u << m) - 1u); }

template <class L>
void dot(const typename L::T* rows, size_t n, uint32_t D, const float* z, float* out) {
  const uint32_t full = D - D % W, rem = D % W;
  const __mmask16 mask = first(rem);
  const __m512 ztail = F32::load(z + full, mask);
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const typename L::T* r0 = rows + i * D;
    const typename L::T *r1 = r0 + D, *r2 = r1 + D, *r3 = r2 + D;
    __m512 a0 = _mm512_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
    for (uint32_t k = 0; k < full; k += W) {
      const __m512 zk = _mm512_loadu_ps(z + k);
      a0 = _mm512_fmadd_ps(L::load(r0 + k), zk, a0);
      a1 = _mm512_fmadd_ps(L::load(r1 + k), zk, a1);
      a2 = _mm512_fmadd_ps(L::load(r2 + k), zk, a2);
      a3 = _mm512_fmadd_ps(L::load(r3 + k), zk, a3);
    }
    if (rem != 0) {
      a0 = _mm512_fmadd_ps(L::load(r0 + full, mask), ztail, a0);
      a1 = _mm512_fmadd_ps(L::load(r1 + full, mask), ztail, a1);
      a2 = _mm512_fmadd_ps(L::load(r2 + full, mask), ztail, a2);
      a3 = _mm512_fmadd_ps(L::load(r3 + full, mask), ztail, a3);
    }
    out[i] = _mm512_reduce_add_ps(a0), out[i + 1] = _mm512_reduce_add_ps(a1);
    out[i + 2] = _mm512_reduce_add_ps(a2), out[i + 3] = _mm512_reduce_add_ps(a3);
  }
  for (; i < n; ++i) {
    const typename L::T* r = rows + i * D;
    __m512 a = _mm512_setzero_ps();
    for (uint32_t k = 0; k < full; k += W) a = _mm512_fmadd_ps(L::load(r + k), _mm512_loadu_ps(z + k), a);
    if (rem != 0) a = _mm512_fmadd_ps(L::load(r + full, mask), ztail, a);
    out[i] = _mm512_reduce_add_ps(a);
  }
}

template <class L>
void widen(const typename L::T* rows, size_t n, uint32_t D, float* out) {
  const size_t total = n * D, full = total - total % W;
  for (size_t k = 0; k < full; k += W) _mm512_storeu_ps(out + k, L::load(rows + k));
  if (full < total) {
    const __mmask16 m = first(static_cast<uint32_t>(total - full));
    _mm512_mask_storeu_ps(out + full, m, L::load(rows + full, m));
  }
}

// R rows x C panels of 16 queries (one register each), over kn elements
// from the current one: acc[r][c] += row r element k * panel c element k, k
// in order. The accumulators start at zero for the first block of elements
// and from out after that, so each sum is the same chain of multiply-adds
// as without blocking. Unroll pragmas: see kernels_avx512vnni.cpp.
template <int R, int C>
inline void tile(const float* rows, uint32_t D, uint32_t kn, const float* zt, uint32_t Q, float* out, bool first) {
  __m512 acc[R][C];
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r)
#pragma GCC unroll 8
    for (int c = 0; c < C; ++c)
      acc[r][c] = first ? _mm512_setzero_ps() : _mm512_loadu_ps(out + static_cast<size_t>(r) * Q + c * W);
  for (uint32_t k = 0; k < kn; ++k) {
    __m512 zk[C];
#pragma GCC unroll 8
    for (int c = 0; c < C; ++c) zk[c] = _mm512_loadu_ps(zt + (size_t{k} + static_cast<size_t>(c) * D) * kQueryBlock);
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
      const __m512 b = _mm512_set1_ps(rows[static_cast<size_t>(r) * D + k]);
#pragma GCC unroll 8
      for (int c = 0; c < C; ++c) acc[r][c] = _mm512_fmadd_ps(b, zk[c], acc[r][c]);
    }
  }
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r)
#pragma GCC unroll 8
    for (int c = 0; c < C; ++c) _mm512_storeu_ps(out + static_cast<size_t>(r) * Q + c * W, acc[r][c]);
}

// Every row of the call, R at a time, against C panels.
template <int R, int C>
inline void panels(const float* rows, size_t n, uint32_t D, uint32_t kn, const float* zt, uint32_t Q, float* out,
                   bool first, Prefetch& prefetch) {
  size_t i = 0;
  for (; i + R <= n; i += R) {
    prefetch.next();
    tile<R, C>(rows + i * D, D, kn, zt, Q, out + i * Q, first);
  }
  const float* rest = rows + i * D;
  float* o = out + i * Q;
  switch (n - i) {  // fewer than R rows left
    case 5: return tile<5, C>(rest, D, kn, zt, Q, o, first);
    case 4: return tile<4, C>(rest, D, kn, zt, Q, o, first);
    case 3: return tile<3, C>(rest, D, kn, zt, Q, o, first);
    case 2: return tile<2, C>(rest, D, kn, zt, Q, o, first);
    case 1: return tile<1, C>(rest, D, kn, zt, Q, o, first);
    default: return;
  }
}

// Blocked over the elements (kBlock at a time) so that the panels in use and
// the rows of the call stay in L1 together: at D = 300 whole rows and four
// whole panels would not (57 KB of rows in a block of 48 plus 77 KB of
// panels, against 48 KB of L1).
void gemm_f32(const float* rows, size_t n, uint32_t D, const float* zt, uint32_t Q, float* out, const void* next,
              size_t next_bytes) {
  constexpr uint32_t kBlock = 64;
  static_assert(kQueryBlock == W, "one panel is one register");
  const size_t passes = Q / (4 * W) + (Q % (4 * W) >= 2 * W) + (Q % (2 * W) != 0);
  Prefetch prefetch(next, next_bytes, (D + kBlock - 1) / kBlock * passes * (n / 6));
  for (uint32_t k0 = 0; k0 < D; k0 += kBlock) {
    const uint32_t kn = D - k0 < kBlock ? D - k0 : kBlock;
    const bool first = k0 == 0;
    const float* r = rows + k0;
    uint32_t q = 0;
    for (; q + 4 * W <= Q; q += 4 * W)  // 6 x 4: 24 accumulators, 4 panel registers, 1 broadcast
      panels<6, 4>(r, n, D, kn, zt + size_t{q} * D + size_t{k0} * kQueryBlock, Q, out + q, first, prefetch);
    if (q + 2 * W <= Q) {
      panels<6, 2>(r, n, D, kn, zt + size_t{q} * D + size_t{k0} * kQueryBlock, Q, out + q, first, prefetch);
      q += 2 * W;
    }
    if (q < Q) panels<6, 1>(r, n, D, kn, zt + size_t{q} * D + size_t{k0} * kQueryBlock, Q, out + q, first, prefetch);
  }
}

uint64_t peak_madd(uint64_t iterations, float* sink) {
  __m512 a[12];
  for (int r = 0; r < 12; ++r) a[r] = _mm512_set1_ps(static_cast<float>(r));
  const __m512 m = _mm512_set1_ps(0.999999f), c = _mm512_set1_ps(1e-6f);
  for (uint64_t it = 0; it < iterations; ++it)
    for (int r = 0; r < 12; ++r) a[r] = _mm512_fmadd_ps(a[r], m, c);
  float lanes[16];
  float s = 0;
  for (int r = 0; r < 12; ++r) {
    _mm512_storeu_ps(lanes, a[r]);
    for (float x : lanes) s += x;
  }
  *sink = s;
  return iterations * 12 * 16;
}

#include "search/kernels_bound.inc"   // NOLINT(bugprone-suspicious-include)
#include "search/kernels_sqdist.inc"  // NOLINT(bugprone-suspicious-include)

}  // namespace

const ScanKernels kAvx512Kernels = {"avx512", dot<F32>, dot<F16>,  dot<I8>,    widen<F16>, widen<I8>,
                                    gemm_f32, nullptr,  peak_madd, sqdist_f64, bound_row,  key_row};

}  // namespace dxt
