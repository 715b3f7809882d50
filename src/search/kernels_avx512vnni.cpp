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

// R rows x C panels of 16 queries: acc[r][c] lane q += 4 products per group.
template <int R, int C>
inline void tile(const int8_t* rows, uint32_t Dp, const uint8_t* zu, uint32_t Q, int32_t* out) {
  const uint32_t groups = Dp / 4;
  __m512i acc[R][C];
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < C; ++c) acc[r][c] = _mm512_setzero_si512();
  for (uint32_t g = 0; g < groups; ++g) {
    __m512i zk[C];
    for (int c = 0; c < C; ++c) zk[c] = _mm512_loadu_si512(zu + (static_cast<size_t>(c) * groups + g) * 64);
    for (int r = 0; r < R; ++r) {
      int32_t four;
      __builtin_memcpy(&four, rows + static_cast<size_t>(r) * Dp + size_t{g} * 4, 4);
      const __m512i b = _mm512_set1_epi32(four);
      for (int c = 0; c < C; ++c) acc[r][c] = _mm512_dpbusd_epi32(acc[r][c], zk[c], b);
    }
  }
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < C; ++c) _mm512_storeu_si512(out + static_cast<size_t>(r) * Q + c * 16, acc[r][c]);
}

template <int R, int C>
inline void tile_rows(size_t left, const int8_t* rows, uint32_t Dp, const uint8_t* zu, uint32_t Q, int32_t* out) {
  if constexpr (R > 1) {
    if (left < static_cast<size_t>(R)) return tile_rows<R - 1, C>(left, rows, Dp, zu, Q, out);
  }
  tile<R, C>(rows, Dp, zu, Q, out);
}

}  // namespace

void avx512vnni_gemm_i8(const int8_t* rows, size_t n, uint32_t Dp, const uint8_t* zu, uint32_t Q, int32_t* out) {
  constexpr size_t kRows = 6;  // 12 accumulators + 2 query registers + 1 broadcast
  static_assert(kQueryBlock == 16, "one panel is one register");
  const size_t panel = size_t{Dp} * kQueryBlock;  // bytes per panel
  uint32_t q = 0;
  for (; q + 32 <= Q; q += 32)
    for (size_t i = 0; i < n; i += kRows)
      tile_rows<kRows, 2>(n - i, rows + i * Dp, Dp, zu + q / kQueryBlock * panel, Q, out + i * Q + q);
  if (q < Q)
    for (size_t i = 0; i < n; i += kRows)
      tile_rows<kRows, 1>(n - i, rows + i * Dp, Dp, zu + q / kQueryBlock * panel, Q, out + i * Q + q);
}

}  // namespace dxt
