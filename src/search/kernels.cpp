// SPDX-License-Identifier: Apache-2.0
// Portable scalar kernels and the run-time choice between instruction sets.
#include "search/kernels.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include <cstdlib>
#include <cstring>
#include <initializer_list>

#include "model/f16.hpp"

namespace dxt {

namespace {

// Eight partial sums, combined in a fixed order: the same order on every
// platform, and vectorisable without reassociation.
template <typename T, typename Load>
inline float dot8(const T* r, const float* z, uint32_t n, Load load) {
  float acc[8] = {};
  uint32_t i = 0;
  for (; i + 8 <= n; i += 8)
    for (int k = 0; k < 8; ++k) acc[k] += load(r[i + k]) * z[i + k];
  for (; i < n; ++i) acc[0] += load(r[i]) * z[i];
  return ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]));
}

inline float as_float(float x) { return x; }
inline float as_float(int8_t x) { return static_cast<float>(x); }
inline float as_float_h(uint16_t x) { return f16_to_f32(x); }

void dot_f32(const float* rows, size_t n, uint32_t D, const float* z, float* out) {
  for (size_t i = 0; i < n; ++i) out[i] = dot8(rows + i * D, z, D, [](float x) { return as_float(x); });
}
void dot_f16(const uint16_t* rows, size_t n, uint32_t D, const float* z, float* out) {
  for (size_t i = 0; i < n; ++i) out[i] = dot8(rows + i * D, z, D, as_float_h);
}
void dot_i8(const int8_t* rows, size_t n, uint32_t D, const float* z, float* out) {
  for (size_t i = 0; i < n; ++i) out[i] = dot8(rows + i * D, z, D, [](int8_t x) { return as_float(x); });
}
void widen_f16(const uint16_t* rows, size_t n, uint32_t D, float* out) {
  for (size_t i = 0; i < n * D; ++i) out[i] = f16_to_f32(rows[i]);
}
void widen_i8(const int8_t* rows, size_t n, uint32_t D, float* out) {
  for (size_t i = 0; i < n * D; ++i) out[i] = static_cast<float>(rows[i]);
}

// Four rows at a time against one panel of 16 queries: each (row, query)
// sum runs over k in order, and the loop over q is contiguous, so it
// vectorises without reassociation.
void gemm_f32(const float* rows, size_t n, uint32_t D, const float* zt, uint32_t Q, float* out, const void* /*next*/,
              size_t /*next_bytes*/) {
  constexpr uint32_t P = kQueryBlock;
  for (uint32_t q0 = 0; q0 < Q; q0 += P) {
    const float* panel = zt + size_t{q0} * D;
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
      const float *r0 = rows + i * D, *r1 = r0 + D, *r2 = r1 + D, *r3 = r2 + D;
      float acc[4][P] = {};
      for (uint32_t k = 0; k < D; ++k) {
        const float* zk = panel + size_t{k} * P;
        for (uint32_t q = 0; q < P; ++q) {
          acc[0][q] += r0[k] * zk[q];
          acc[1][q] += r1[k] * zk[q];
          acc[2][q] += r2[k] * zk[q];
          acc[3][q] += r3[k] * zk[q];
        }
      }
      for (int r = 0; r < 4; ++r) std::memcpy(out + (i + r) * Q + q0, acc[r], sizeof acc[r]);
    }
    for (; i < n; ++i) {
      const float* r = rows + i * D;
      float acc[P] = {};
      for (uint32_t k = 0; k < D; ++k)
        for (uint32_t q = 0; q < P; ++q) acc[q] += r[k] * panel[size_t{k} * P + q];
      std::memcpy(out + i * Q + q0, acc, sizeof acc);
    }
  }
}

}  // namespace

void reference_gemm_i8(const int8_t* rows, size_t n, uint32_t D, const uint8_t* zu, uint32_t Q, const float* row_scales,
                       const float* query_scales, float* out, const void* /*next*/, size_t /*next_bytes*/) {
  const uint32_t groups = (D + 3) / 4;
  for (size_t i = 0; i < n; ++i)
    for (uint32_t q = 0; q < Q; ++q) {
      int32_t sum = 0;
      for (uint32_t k = 0; k < D; ++k)
        sum += rows[i * D + k] * (zu[((q / kQueryBlock) * groups + k / 4) * 64 + (q % kQueryBlock) * 4 + k % 4] - 128);
      out[i * Q + q] = (row_scales[i] * query_scales[q]) * static_cast<float>(sum);
    }
}

namespace {

uint64_t peak_madd(uint64_t iterations, float* sink) {
  float a[12];
  for (int r = 0; r < 12; ++r) a[r] = static_cast<float>(r);
  const float m = 0.999999f, c = 1e-6f;
  for (uint64_t it = 0; it < iterations; ++it)
    for (int r = 0; r < 12; ++r) a[r] = a[r] * m + c;
  float s = 0;
  for (int r = 0; r < 12; ++r) s += a[r];
  *sink = s;
  return iterations * 12;
}

[[maybe_unused]] bool cpu_has_avx2() {
#if defined(DXT_KERNELS_AVX2) && (defined(__x86_64__) || defined(__i386__))
  __builtin_cpu_init();
  // F16C is CPUID leaf 1, ECX bit 29 (not every compiler's
  // __builtin_cpu_supports knows its name).
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  const bool f16c = __get_cpuid(1, &eax, &ebx, &ecx, &edx) != 0 && (ecx & (1u << 29)) != 0;
  return f16c && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
  return false;
#endif
}

[[maybe_unused]] bool cpu_has_avx512();

[[maybe_unused]] bool cpu_has_avx512vnni() {
#if defined(DXT_KERNELS_AVX512) && (defined(__x86_64__) || defined(__i386__))
  return cpu_has_avx512() && __builtin_cpu_supports("avx512vnni");
#else
  return false;
#endif
}

[[maybe_unused]] bool cpu_has_avx512() {
#if defined(DXT_KERNELS_AVX512) && (defined(__x86_64__) || defined(__i386__))
  __builtin_cpu_init();
  return cpu_has_avx2() && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512vl");
#else
  return false;
#endif
}

const ScanKernels* if_available(const char* name) {
  if (std::strcmp(name, "scalar") == 0) return &kScalarKernels;
#if defined(DXT_KERNELS_AVX2)
  if (std::strcmp(name, "avx2") == 0) return cpu_has_avx2() ? &kAvx2Kernels : nullptr;
#endif
#if defined(DXT_KERNELS_AVX512)
  if (std::strcmp(name, "avx512") == 0) return cpu_has_avx512() ? &kAvx512Kernels : nullptr;
  if (std::strcmp(name, "avx512vnni") == 0) {
    if (!cpu_has_avx512vnni()) return nullptr;
    static const ScanKernels vnni = [] {
      ScanKernels k = kAvx512Kernels;
      k.name = "avx512vnni";
      k.gemm_i8 = avx512vnni_gemm_i8;
      return k;
    }();
    return &vnni;
  }
#endif
#if defined(DXT_KERNELS_NEON)
  if (std::strcmp(name, "neon") == 0) return &kNeonKernels;  // baseline on AArch64
#endif
  return nullptr;
}

const ScanKernels* choose() {
  if (const char* forced = std::getenv("DXTEXT_KERNEL"); forced != nullptr && *forced != '\0')
    if (const ScanKernels* k = if_available(forced)) return k;
  for (const char* name : {"avx512vnni", "avx512", "avx2", "neon"})
    if (const ScanKernels* k = if_available(name)) return k;
  return &kScalarKernels;
}

#include "search/kernels_bound.inc"   // NOLINT(bugprone-suspicious-include)
#include "search/kernels_sqdist.inc"  // NOLINT(bugprone-suspicious-include)

}  // namespace

const ScanKernels kScalarKernels = {"scalar", dot_f32, dot_f16,   dot_i8,     widen_f16, widen_i8,
                                    gemm_f32, nullptr, peak_madd, sqdist_f64, bound_row, key_row};

const ScanKernels& scan_kernels() {
  static const ScanKernels* const chosen = choose();  // thread-safe initialisation
  return *chosen;
}

size_t available_scan_kernels(const ScanKernels** out, size_t capacity) {
  size_t n = 0;
  for (const char* name : {"scalar", "avx2", "avx512", "avx512vnni", "neon"})
    if (const ScanKernels* k = if_available(name)) {
      if (n < capacity) out[n] = k;
      ++n;
    }
  return n;
}

}  // namespace dxt
