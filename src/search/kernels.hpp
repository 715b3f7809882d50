// SPDX-License-Identifier: Apache-2.0
// The inner-product kernels of the decoding scan (DESIGN.md §7), one set per
// instruction set, chosen once at run time.
//
// Each instruction set lives in its own translation unit compiled with its own
// target flags (kernels_avx2.cpp, kernels_avx512.cpp, kernels_neon.cpp). Those
// files define everything they use with internal linkage and include no
// header with inline functions of its own, so no AVX instruction can leak into
// code that runs on a CPU without it (an inline function instantiated in two
// translation units is one symbol, and the linker keeps either copy).
//
// Results differ between instruction sets only by floating-point rounding
// (the order of the additions); the scan then takes the argmin, so two
// kernels can disagree only between words whose scores tie to within a few
// ulps. Decoding stays a deterministic function of the noisy vector on any
// one machine.
#pragma once

#include <cstddef>
#include <cstdint>

namespace dxt {

struct ScanKernels {
  const char* name;  // "scalar", "avx2", "avx512", "neon"

  // out[i] = <row i, z> for i in [0, n). Rows are consecutive, D elements
  // each, in the storage type; int8 rows are unscaled (the caller multiplies
  // by the row's scale).
  void (*dot_f32)(const float* rows, size_t n, uint32_t D, const float* z, float* out);
  void (*dot_f16)(const uint16_t* rows, size_t n, uint32_t D, const float* z, float* out);
  void (*dot_i8)(const int8_t* rows, size_t n, uint32_t D, const float* z, float* out);

  // Rows converted to f32: out[i * D + k] = row i element k (int8 unscaled).
  void (*widen_f16)(const uint16_t* rows, size_t n, uint32_t D, float* out);
  void (*widen_i8)(const int8_t* rows, size_t n, uint32_t D, float* out);

  // Batched product of f32 rows with Q queries (Q a multiple of
  // kQueryBlock), the queries packed in panels of kQueryBlock: element k of
  // query q is zt[(q / kQueryBlock) * D * kQueryBlock + k * kQueryBlock +
  // q % kQueryBlock], so each panel is read contiguously.
  // out[i * Q + q] = <row i, query q> for i in [0, n), q in [0, Q).
  // [next, next + next_bytes) is what the caller reads after this call (the
  // following rows): the product prefetches it while it computes (next may
  // be null; a kernel may ignore it).
  void (*gemm_f32)(const float* rows, size_t n, uint32_t D, const float* zt, uint32_t Q, float* out, const void* next,
                   size_t next_bytes);

  // Integer product of n int8 rows (consecutive, D elements each, any D)
  // with Q int8 queries zq, scaled to float:
  //   out[i * Q + q] = (row_scales[i] * query_scales[q]) * float(sum_k rows[i][k] * zq(q, k)),
  // the sum exact in int32. The queries are given as zu = zq + 128
  // (unsigned), packed in panels of kQueryBlock queries x groups of 4
  // elements over Dp = D rounded up to a multiple of 4: element k of query q
  // is zu[((q / 16) * (Dp / 4) + k / 4) * 64 + (q % 16) * 4 + k % 4]
  // (elements past D are ignored). query_scales has Q entries. next and
  // next_bytes as for gemm_f32.
  // nullptr where the instruction set has no fast way to do it.
  void (*gemm_i8)(const int8_t* rows, size_t n, uint32_t D, const uint8_t* zu, uint32_t Q, const float* row_scales,
                  const float* query_scales, float* out, const void* next, size_t next_bytes);

  // Twelve independent multiply-add chains in registers, `iterations` steps
  // each: the machine's peak multiply-add rate for this instruction set, for
  // the benchmark. Writes a value that depends on every chain to *sink and
  // returns the number of multiply-adds done.
  uint64_t (*peak_madd)(uint64_t iterations, float* sink);

  // In double, for the mechanisms that need every distance rather than the
  // nearest word: with p = row i element k times scales[i] (rounded to f32;
  // scales may be null), diff[i] = sum_k (p - x[k])^2 and norm[i] = sum_k
  // p^2, for n f32 rows of D elements (kernels_sqdist.inc).
  void (*sqdist_f64)(const float* rows, size_t n, uint32_t D, const float* scales, const double* x, double* diff,
                     double* norm);

  // The bound step of the batched scan for one row and Q queries (Q a
  // multiple of kQueryBlock; kernels_bound.inc): updates upper, writes lower,
  // returns whether some query keeps the row as a candidate.
  bool (*bound_row)(const float* dots, uint32_t Q, float nv, float rn, float base, const float* err, float* upper,
                    float* lower);

  // The key step of the candidate scan for one row and Q queries (Q a
  // multiple of kQueryBlock; kernels_bound.inc): keys[j] = p + q dots[j] +
  // w err[j], bit j % 16 of masks[j / 16] set when keys[j] <= threshold[j];
  // returns whether any is.
  bool (*key_row)(const float* dots, uint32_t Q, float p, float q, float w, const float* err, const float* threshold,
                  float* keys, uint16_t* masks);
};

// Queries are processed in blocks whose size is a multiple of this.
inline constexpr uint32_t kQueryBlock = 16;

// The kernels for this CPU: the best available, or the one named by the
// environment variable DXTEXT_KERNEL (scalar, avx2, avx512, avx512vnni, neon)
// when it is set and available. Chosen on the first call; thread-safe.
const ScanKernels& scan_kernels();

// Every kernel set this CPU can run, scalar first (for tests and benchmarks).
// Returns the count; fills at most `capacity` pointers.
size_t available_scan_kernels(const ScanKernels** out, size_t capacity);

// The tables, defined by the per-instruction-set files that the build
// compiles in (DXT_KERNELS_AVX2, DXT_KERNELS_AVX512, DXT_KERNELS_NEON). Use
// them only through the functions above, which check the CPU first.
extern const ScanKernels kScalarKernels;
extern const ScanKernels kAvx2Kernels;
extern const ScanKernels kAvx512Kernels;
extern const ScanKernels kNeonKernels;
void avx512vnni_gemm_i8(const int8_t* rows, size_t n, uint32_t D, const uint8_t* zu, uint32_t Q,
                        const float* row_scales, const float* query_scales, float* out, const void* next,
                        size_t next_bytes);

// The plain-C++ definition of gemm_i8, for tests.
void reference_gemm_i8(const int8_t* rows, size_t n, uint32_t D, const uint8_t* zu, uint32_t Q, const float* row_scales,
                       const float* query_scales, float* out, const void* next, size_t next_bytes);

}  // namespace dxt
