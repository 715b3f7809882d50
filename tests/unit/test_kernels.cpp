// SPDX-License-Identifier: Apache-2.0
// The decoding kernels of every instruction set this CPU runs, against a
// double-precision reference, and the batched scan against the single one.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "model/f16.hpp"
#include "search/exact_scan.hpp"
#include "search/kernels.hpp"
#include "support/toy_models.hpp"

namespace dxt {
namespace {

std::vector<const ScanKernels*> all_kernels() {
  const ScanKernels* k[8];
  const size_t n = available_scan_kernels(k, 8);
  return {k, k + n};
}

struct Data {
  std::vector<float> f32;
  std::vector<uint16_t> f16;
  std::vector<int8_t> i8;
  std::vector<float> z;
};

Data random_data(std::mt19937_64& gen, size_t n, uint32_t D) {
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::uniform_int_distribution<int> byte(-127, 127);
  Data d;
  for (size_t i = 0; i < n * D; ++i) {
    d.f32.push_back(normal(gen));
    d.f16.push_back(f32_to_f16(normal(gen)));
    d.i8.push_back(static_cast<int8_t>(byte(gen)));
  }
  for (uint32_t i = 0; i < D; ++i) d.z.push_back(normal(gen));
  return d;
}

// |computed - exact| within float rounding of a D-term sum.
template <typename Load>
void check_dots(const float* got, size_t n, uint32_t D, const float* z, Load load) {
  for (size_t i = 0; i < n; ++i) {
    double exact = 0, magnitude = 0;
    for (uint32_t k = 0; k < D; ++k) {
      exact += double{load(i * D + k)} * z[k];
      magnitude += std::fabs(double{load(i * D + k)} * z[k]);
    }
    CHECK(std::fabs(got[i] - exact) <= 1e-6 * D * magnitude + 1e-30);
  }
}

TEST_CASE("every kernel set computes row dot products to float accuracy, for every length") {
  std::mt19937_64 gen(7);
  for (const ScanKernels* k : all_kernels()) {
    CAPTURE(k->name);
    for (uint32_t D : {1u, 2u, 3u, 7u, 8u, 9u, 15u, 16u, 17u, 31u, 33u, 64u, 100u, 300u}) {
      for (size_t n : {size_t{1}, size_t{2}, size_t{3}, size_t{4}, size_t{5}, size_t{13}}) {
        CAPTURE(D);
        CAPTURE(n);
        const Data d = random_data(gen, n, D);
        std::vector<float> out(n);
        k->dot_f32(d.f32.data(), n, D, d.z.data(), out.data());
        check_dots(out.data(), n, D, d.z.data(), [&](size_t i) { return d.f32[i]; });
        k->dot_f16(d.f16.data(), n, D, d.z.data(), out.data());
        check_dots(out.data(), n, D, d.z.data(), [&](size_t i) { return f16_to_f32(d.f16[i]); });
        k->dot_i8(d.i8.data(), n, D, d.z.data(), out.data());
        check_dots(out.data(), n, D, d.z.data(), [&](size_t i) { return static_cast<float>(d.i8[i]); });

        std::vector<float> wide(n * D + 1, -1.0f);  // one guard element
        k->widen_f16(d.f16.data(), n, D, wide.data());
        for (size_t i = 0; i < n * D; ++i) REQUIRE(wide[i] == f16_to_f32(d.f16[i]));
        k->widen_i8(d.i8.data(), n, D, wide.data());
        for (size_t i = 0; i < n * D; ++i) REQUIRE(wide[i] == static_cast<float>(d.i8[i]));
        CHECK(wide[n * D] == -1.0f);
      }
    }
  }
}

TEST_CASE("every kernel set computes squared distances and norms in double") {
  std::mt19937_64 gen(11);
  std::normal_distribution<double> normal(0.0, 1.0);
  for (const ScanKernels* k : all_kernels()) {
    CAPTURE(k->name);
    for (uint32_t D : {1u, 2u, 7u, 8u, 9u, 15u, 16u, 17u, 23u, 24u, 25u, 100u, 300u}) {
      for (bool scaled : {false, true}) {
        CAPTURE(D);
        CAPTURE(scaled);
        const size_t n = 5;
        const Data d = random_data(gen, n, D);
        std::vector<float> scales(n);
        for (float& s : scales) s = static_cast<float>(std::fabs(normal(gen)) + 0.01);
        std::vector<double> x(D);
        for (double& c : x) c = normal(gen);
        std::vector<double> diff(n + 1, -1.0), norm(n + 1, -1.0);  // one guard element each
        k->sqdist_f64(d.f32.data(), n, D, scaled ? scales.data() : nullptr, x.data(), diff.data(), norm.data());
        for (size_t i = 0; i < n; ++i) {
          double want_diff = 0, want_norm = 0;
          for (uint32_t j = 0; j < D; ++j) {
            // The element as the model reads it: scaled and rounded in float.
            const double p = scaled ? double{d.f32[i * D + j] * scales[i]} : double{d.f32[i * D + j]};
            want_diff += (p - x[j]) * (p - x[j]);
            want_norm += p * p;
          }
          CHECK(std::fabs(diff[i] - want_diff) <= 1e-14 * D * want_diff);
          CHECK(std::fabs(norm[i] - want_norm) <= 1e-14 * D * want_norm);
        }
        CHECK(diff[n] == -1.0);
        CHECK(norm[n] == -1.0);
      }
    }
  }
}

TEST_CASE("distances and dot products from a point match the rows the model returns") {
  std::mt19937_64 gen(5);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  for (dxt_quantization quant : {DXT_QUANT_F32, DXT_QUANT_F16, DXT_QUANT_INT8}) {
    for (uint32_t D : {3u, 37u}) {
      CAPTURE(quant);
      CAPTURE(D);
      test::ToyModelSpec spec;
      spec.quantization = quant;
      for (int v = 0; v < 53; ++v) {  // not a multiple of any block size
        spec.words.push_back("w" + std::to_string(v));
        std::vector<float> x(D);
        for (float& c : x) c = normal(gen);
        spec.vectors.push_back(x);
      }
      const test::AlignedBytes bytes(test::build_model_bytes(spec));
      const auto model = Model::open_memory(bytes.data(), bytes.size, {});
      std::vector<double> x(D);
      for (double& c : x) c = normal(gen);
      std::vector<double> dist(53), dots(53);
      distances_from(*model, x.data(), dist.data());
      dots_from(*model, x.data(), dots.data());
      std::vector<float> row(D);
      for (uint32_t v = 0; v < 53; ++v) {
        model->row(v, row.data());
        double d2 = 0, dot = 0, scale = 0;
        for (uint32_t i = 0; i < D; ++i) {
          d2 += (row[i] - x[i]) * (row[i] - x[i]);
          dot += row[i] * x[i];
          scale += std::fabs(row[i] * x[i]) + row[i] * row[i] + x[i] * x[i];
        }
        CHECK(std::fabs(dist[v] - std::sqrt(d2)) <= 1e-12 * std::sqrt(d2));
        CHECK(std::fabs(dots[v] - dot) <= 1e-14 * scale);
      }
    }
  }
}

TEST_CASE("every kernel set multiplies row blocks with query blocks") {
  std::mt19937_64 gen(11);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  for (const ScanKernels* k : all_kernels()) {
    CAPTURE(k->name);
    for (uint32_t D : {1u, 5u, 16u, 37u, 300u}) {
      for (size_t n : {size_t{1}, size_t{5}, size_t{6}, size_t{7}, size_t{48}}) {
        for (uint32_t Q : {16u, 32u, 48u, 64u}) {
          CAPTURE(D);
          CAPTURE(n);
          CAPTURE(Q);
          std::vector<float> rows(n * D), zt(size_t{D} * Q), out(n * Q + 1, -7.0f);
          for (float& x : rows) x = normal(gen);
          for (float& x : zt) x = normal(gen);
          k->gemm_f32(rows.data(), n, D, zt.data(), Q, out.data(), nullptr, 0);
          for (size_t i = 0; i < n; ++i)
            for (uint32_t q = 0; q < Q; ++q) {
              double exact = 0, magnitude = 0;
              for (uint32_t j = 0; j < D; ++j) {
                const float zq = zt[(q / kQueryBlock * D + j) * kQueryBlock + q % kQueryBlock];
                exact += double{rows[i * D + j]} * zq;
                magnitude += std::fabs(double{rows[i * D + j]} * zq);
              }
              REQUIRE(std::fabs(out[i * Q + q] - exact) <= 1e-6 * D * magnitude + 1e-30);
            }
          CHECK(out[n * Q] == -7.0f);
        }
      }
    }
  }
}

// Exact squared distance from the dequantised row v to z, in double.
double distance2(const Model& m, uint32_t v, const float* z) {
  std::vector<float> row(m.dimension());
  m.row(v, row.data());
  double s = 0;
  for (uint32_t i = 0; i < m.dimension(); ++i) s += (double{row[i]} - z[i]) * (double{row[i]} - z[i]);
  return s;
}

TEST_CASE("every kernel set's int8 product is exact") {
  std::mt19937_64 gen(5);
  std::uniform_int_distribution<int> byte(-128, 127), ubyte(0, 255);
  std::uniform_real_distribution<float> scale(0.001f, 2.0f);
  std::vector<const ScanKernels*> kernels = all_kernels();
  for (const ScanKernels* k : kernels) {
    if (k->gemm_i8 == nullptr) continue;
    CAPTURE(k->name);
    for (uint32_t D : {1u, 3u, 4u, 8u, 37u, 63u, 64u, 65u, 100u, 300u, 1024u})
      for (size_t n : {size_t{1}, size_t{5}, size_t{6}, size_t{13}})
        for (uint32_t Q : {16u, 32u, 48u, 64u, 112u}) {
          CAPTURE(D);
          CAPTURE(n);
          CAPTURE(Q);
          const uint32_t Dp = (D + 3) / 4 * 4;
          // One byte past the rows, so that reading past the last row would
          // change the result.
          std::vector<int8_t> rows(n * D + 1);
          std::vector<uint8_t> zu(size_t{Q} * Dp);
          std::vector<float> row_scales(n), query_scales(Q);
          for (auto& x : rows) x = static_cast<int8_t>(byte(gen));
          for (auto& x : zu) x = static_cast<uint8_t>(ubyte(gen));
          for (auto& x : row_scales) x = scale(gen);
          for (auto& x : query_scales) x = scale(gen);
          std::vector<float> got(n * Q), want(n * Q);
          k->gemm_i8(rows.data(), n, D, zu.data(), Q, row_scales.data(), query_scales.data(), got.data(), nullptr, 0);
          reference_gemm_i8(rows.data(), n, D, zu.data(), Q, row_scales.data(), query_scales.data(), want.data(),
                            nullptr, 0);
          REQUIRE(got == want);
        }
  }
}

// Every kernel set, plus the scalar set with the reference integer product so
// that the integer path of the batched scan is tested on every CPU.
std::vector<ScanKernels> batch_variants() {
  std::vector<ScanKernels> out;
  for (const ScanKernels* k : all_kernels()) out.push_back(*k);
  ScanKernels integer = kScalarKernels;
  integer.name = "scalar+reference_gemm_i8";
  integer.gemm_i8 = reference_gemm_i8;
  out.push_back(integer);
  return out;
}

TEST_CASE("every kernel set's key step computes p + q dots + w err and marks the keys under the threshold") {
  std::mt19937_64 gen(4);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  for (const ScanKernels* k : all_kernels()) {
    CAPTURE(k->name);
    for (uint32_t Q : {16u, 48u, 256u}) {
      std::vector<float> dots(Q), err(Q), threshold(Q), keys(Q);
      std::vector<uint16_t> masks(Q / 16);
      for (uint32_t j = 0; j < Q; ++j) {
        dots[j] = normal(gen), err[j] = std::fabs(normal(gen)) * 0.01f;
        threshold[j] = j % 5 == 0 ? -INFINITY : normal(gen);
      }
      const float p = 0.5f, q = -2.0f, w = -1.5f;
      const bool any = k->key_row(dots.data(), Q, p, q, w, err.data(), threshold.data(), keys.data(), masks.data());
      bool expect_any = false;
      for (uint32_t j = 0; j < Q; ++j) {
        const float key = (p + q * dots[j]) + w * err[j];
        CHECK(keys[j] == key);
        const bool under = key <= threshold[j];
        CHECK(((masks[j / 16] >> (j % 16)) & 1) == (under ? 1 : 0));
        expect_any = expect_any || under;
      }
      CHECK(any == expect_any);
    }
  }
}

TEST_CASE("batched decoding returns exactly the words single decoding returns") {
  std::mt19937_64 gen(3);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  const std::vector<ScanKernels> variants = batch_variants();
  for (dxt_quantization quant : {DXT_QUANT_F32, DXT_QUANT_F16, DXT_QUANT_INT8}) {
    for (uint32_t D : {3u, 37u, 100u}) {
      CAPTURE(quant);
      CAPTURE(D);
      test::ToyModelSpec spec;
      spec.quantization = quant;
      for (int v = 0; v < 1000; ++v) {
        spec.words.push_back("w" + std::to_string(v));
        std::vector<float> x(D);
        // Clustered, with exact duplicates (ties) at every tenth word.
        for (float& c : x) c = v % 10 == 9 ? 0.0f : normal(gen) + static_cast<float>(v % 7);
        if (v % 10 == 9) x = spec.vectors[static_cast<size_t>(v) - 1];
        spec.vectors.push_back(x);
      }
      const test::AlignedBytes bytes(test::build_model_bytes(spec));
      const auto model = Model::open_memory(bytes.data(), bytes.size, {});
      for (const ScanKernels& k : variants) {
        CAPTURE(k.name);
        for (size_t count : {size_t{1}, size_t{17}, size_t{300}}) {
          std::vector<float> z(count * D);
          for (size_t j = 0; j < count; ++j) {
            // Near a word, far away, and exactly on a word.
            const auto& base = spec.vectors[static_cast<size_t>(gen() % 1000)];
            const float spread = j % 3 == 0 ? 0.3f : j % 3 == 1 ? 20.0f : 0.0f;
            for (uint32_t i = 0; i < D; ++i) z[j * D + i] = base[i] + spread * normal(gen);
          }
          std::vector<uint32_t> batch(count);
          BatchScratch scratch;
          nearest_euclidean_batch(*model, z.data(), count, batch.data(), scratch, &k);
          for (size_t j = 0; j < count; ++j) REQUIRE(batch[j] == nearest_euclidean(*model, z.data() + j * D, &k));
          // And it is the true nearest word, up to rounding.
          for (size_t j = 0; j < count; j += 7) {
            double best = distance2(*model, 0, z.data() + j * D);
            for (uint32_t v = 1; v < 1000; ++v) best = std::min(best, distance2(*model, v, z.data() + j * D));
            CHECK(distance2(*model, batch[j], z.data() + j * D) <= best * (1 + 1e-5) + 1e-9);
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace dxt
