// SPDX-License-Identifier: Apache-2.0
// The int8 batched product with AVX-512 VNNI (vpdpbusd: 64 multiply-adds of
// unsigned by signed bytes per instruction). Compiled with -mavx512vnni;
// used only after the CPU says it has it (kernels.cpp). Everything but the
// entry point has internal linkage (see kernels.hpp).
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "search/kernels.hpp"

namespace dxt {

namespace {

#include "search/kernels_prefetch.inc"  // NOLINT(bugprone-suspicious-include)

constexpr int kRows = 6;  // rows per tile: 6 x 4 panels = 24 accumulators, 4 query registers, 1 broadcast

inline __mmask64 first_bytes(uint32_t m) { return m >= 64 ? ~__mmask64{0} : (__mmask64{1} << m) - 1; }

// The sum of a row's D signed bytes (vpdpbusd with all-ones as the unsigned
// operand adds four bytes per lane).
inline int32_t row_sum(const int8_t* row, uint32_t D) {
  const __m512i ones = _mm512_set1_epi8(1);
  __m512i acc = _mm512_setzero_si512();
  for (uint32_t k = 0; k < D; k += 64)
    acc = _mm512_dpbusd_epi32(acc, ones, _mm512_maskz_loadu_epi8(first_bytes(D - k), row + k));
  return _mm512_reduce_add_epi32(acc);
}

// Four bytes of a row from element k, zero past D.
inline int32_t four_bytes(const int8_t* row, uint32_t k, uint32_t D) {
  int32_t four = 0;
  __builtin_memcpy(&four, row + k, D - k >= 4 ? 4 : D - k);
  return four;
}

// R rows x C panels of 16 queries: acc[r][c] lane q += 4 products per group,
// then out = (row_scale * query_scale) * float(acc - 128 * row sum).
//
// The unroll pragmas matter: without them GCC 12 unrolls these loops only
// partly and keeps the accumulators in memory (the hot loop then stores and
// reloads every one of them per group). With them the loop over groups is
// one vpdpbusd per accumulator and nothing else but its loads.
template <int R, int C>
inline void tile(const int8_t* rows, uint32_t D, const uint8_t* zu, const int32_t* sums, const float* row_scales,
                 const float* query_scales, uint32_t Q, float* out) {
  const uint32_t groups = (D + 3) / 4, full = D / 4;
  __m512i acc[R][C];
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r)
#pragma GCC unroll 8
    for (int c = 0; c < C; ++c) acc[r][c] = _mm512_setzero_si512();
  for (uint32_t g = 0; g < groups; ++g) {
    __m512i zk[C];
#pragma GCC unroll 8
    for (int c = 0; c < C; ++c) zk[c] = _mm512_loadu_si512(zu + (static_cast<size_t>(c) * groups + g) * 64);
    int32_t fours[R];
    if (g < full) {
#pragma GCC unroll 8
      for (int r = 0; r < R; ++r) __builtin_memcpy(&fours[r], rows + static_cast<size_t>(r) * D + size_t{g} * 4, 4);
    } else {  // the last D % 4 elements
#pragma GCC unroll 8
      for (int r = 0; r < R; ++r) fours[r] = four_bytes(rows + static_cast<size_t>(r) * D, g * 4, D);
    }
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
      const __m512i b = _mm512_set1_epi32(fours[r]);
#pragma GCC unroll 8
      for (int c = 0; c < C; ++c) acc[r][c] = _mm512_dpbusd_epi32(acc[r][c], zk[c], b);
    }
  }
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r) {
    const __m512i offset = _mm512_set1_epi32(128 * sums[r]);
    const __m512 rs = _mm512_set1_ps(row_scales[r]);
#pragma GCC unroll 8
    for (int c = 0; c < C; ++c) {
      const __m512 scale = _mm512_mul_ps(rs, _mm512_loadu_ps(query_scales + c * 16));
      // The masked form: GCC 12 warns about the plain one's undefined source.
      const __m512 dot = _mm512_maskz_cvtepi32_ps(0xFFFF, _mm512_sub_epi32(acc[r][c], offset));
      _mm512_storeu_ps(out + static_cast<size_t>(r) * Q + c * 16, _mm512_mul_ps(scale, dot));
    }
  }
}

// All Q queries for R rows: four panels at a time, then two, then one.
template <int R>
inline void rows_times_queries(const int8_t* rows, uint32_t D, const uint8_t* zu, const int32_t* sums,
                               const float* row_scales, const float* query_scales, uint32_t Q, float* out) {
  const size_t panel = size_t{(D + 3) / 4} * 64;  // bytes per panel of 16 queries
  uint32_t q = 0;
  for (; q + 64 <= Q; q += 64) tile<R, 4>(rows, D, zu + q / 16 * panel, sums, row_scales, query_scales + q, Q, out + q);
  if (q + 32 <= Q) {
    tile<R, 2>(rows, D, zu + q / 16 * panel, sums, row_scales, query_scales + q, Q, out + q);
    q += 32;
  }
  if (q < Q) tile<R, 1>(rows, D, zu + q / 16 * panel, sums, row_scales, query_scales + q, Q, out + q);
}

template <int R>
inline void row_tile(size_t left, const int8_t* rows, uint32_t D, const uint8_t* zu, const int32_t* sums,
                     const float* row_scales, const float* query_scales, uint32_t Q, float* out) {
  if constexpr (R > 1) {
    if (left < static_cast<size_t>(R))
      return row_tile<R - 1>(left, rows, D, zu, sums, row_scales, query_scales, Q, out);
  }
  rows_times_queries<R>(rows, D, zu, sums, row_scales, query_scales, Q, out);
}

}  // namespace

void avx512vnni_gemm_i8(const int8_t* rows, size_t n, uint32_t D, const uint8_t* zu, uint32_t Q,
                        const float* row_scales, const float* query_scales, float* out, const void* next,
                        size_t next_bytes) {
  static_assert(kQueryBlock == 16, "one panel is one register");
  Prefetch prefetch(next, next_bytes, (n + kRows - 1) / kRows);
  // Row tiles outside, queries inside: a tile's rows stay in L1 for every
  // query, and its row sums are computed once.
  for (size_t i = 0; i < n; i += kRows) {
    const size_t m = n - i < static_cast<size_t>(kRows) ? n - i : static_cast<size_t>(kRows);
    prefetch.next();
    int32_t sums[kRows];
    for (size_t r = 0; r < m; ++r) sums[r] = row_sum(rows + (i + r) * D, D);
    row_tile<kRows>(m, rows + i * D, D, zu, sums, row_scales + i, query_scales, Q, out + i * Q);
  }
}

}  // namespace dxt
