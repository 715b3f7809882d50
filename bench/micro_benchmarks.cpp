// SPDX-License-Identifier: Apache-2.0
// Google Benchmark micro-benchmarks of the decoding kernels (every kernel set
// this CPU runs) and the samplers. Built when Debian's libbenchmark-dev is
// installed:  ./build/bin/dxtext_micro_benchmarks [--benchmark_filter=REGEX]
// Counters: MAC/s for the kernels (one multiply-add per row element and
// query), items/s for the samplers.
#include <benchmark/benchmark.h>

#include <random>
#include <string>
#include <vector>

#include "rng/byte_source.hpp"
#include "rng/random_stream.hpp"
#include "sampling/samplers.hpp"
#include "search/kernels.hpp"

namespace {

using dxt::ScanKernels;

constexpr size_t kRows = 4096;

template <typename T>
std::vector<T> random_values(size_t n, int lo, int hi) {
  std::mt19937 gen(1);
  std::uniform_int_distribution<int> d(lo, hi);
  std::vector<T> v(n);
  for (auto& x : v) x = static_cast<T>(d(gen));
  return v;
}

void dot_i8(benchmark::State& state, const ScanKernels* k) {
  const auto D = static_cast<uint32_t>(state.range(0));
  const auto rows = random_values<int8_t>(kRows * D, -127, 127);
  const auto z = random_values<float>(D, -3, 3);
  std::vector<float> out(kRows);
  for (auto _ : state) {
    k->dot_i8(rows.data(), kRows, D, z.data(), out.data());
    benchmark::DoNotOptimize(out.data());
  }
  state.counters["MAC/s"] = benchmark::Counter(double(kRows) * D, benchmark::Counter::kIsIterationInvariantRate);
}

void dot_f32(benchmark::State& state, const ScanKernels* k) {
  const auto D = static_cast<uint32_t>(state.range(0));
  const auto rows = random_values<float>(kRows * D, -3, 3);
  const auto z = random_values<float>(D, -3, 3);
  std::vector<float> out(kRows);
  for (auto _ : state) {
    k->dot_f32(rows.data(), kRows, D, z.data(), out.data());
    benchmark::DoNotOptimize(out.data());
  }
  state.counters["MAC/s"] = benchmark::Counter(double(kRows) * D, benchmark::Counter::kIsIterationInvariantRate);
}

void gemm_f32(benchmark::State& state, const ScanKernels* k) {
  const auto D = static_cast<uint32_t>(state.range(0));
  const auto Q = static_cast<uint32_t>(state.range(1));
  const size_t n = 48;
  const auto rows = random_values<float>(n * D, -3, 3);
  const auto zt = random_values<float>(size_t{D} * Q, -3, 3);
  std::vector<float> out(n * Q);
  for (auto _ : state) {
    k->gemm_f32(rows.data(), n, D, zt.data(), Q, out.data(), nullptr, 0);
    benchmark::DoNotOptimize(out.data());
  }
  state.counters["MAC/s"] = benchmark::Counter(double(n) * D * Q, benchmark::Counter::kIsIterationInvariantRate);
}

void gemm_i8(benchmark::State& state, const ScanKernels* k) {
  const auto D = static_cast<uint32_t>(state.range(0));
  const auto Q = static_cast<uint32_t>(state.range(1));
  const size_t n = 48;
  const auto rows = random_values<int8_t>(n * D, -127, 127);
  const auto zu = random_values<uint8_t>(size_t{(D + 3) / 4 * 4} * Q, 0, 255);
  const auto row_scales = random_values<float>(n, 1, 4);
  const auto query_scales = random_values<float>(Q, 1, 4);
  std::vector<float> out(n * Q);
  for (auto _ : state) {
    k->gemm_i8(rows.data(), n, D, zu.data(), Q, row_scales.data(), query_scales.data(), out.data(), nullptr, 0);
    benchmark::DoNotOptimize(out.data());
  }
  state.counters["MAC/s"] = benchmark::Counter(double(n) * D * Q, benchmark::Counter::kIsIterationInvariantRate);
}

void gamma(benchmark::State& state) {
  dxt::RandomStream rng(dxt::make_system_byte_source());
  const auto shape = static_cast<uint32_t>(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(dxt::sample_gamma_integer_shape(rng, shape, 0.1));
  state.SetItemsProcessed(state.iterations());
}

void direction(benchmark::State& state) {
  dxt::RandomStream rng(dxt::make_system_byte_source());
  std::vector<double> out(static_cast<size_t>(state.range(0)));
  for (auto _ : state) {
    dxt::sample_unit_direction(rng, out.data(), out.size());
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations());
}

void uniform(benchmark::State& state) {
  dxt::RandomStream rng(dxt::make_system_byte_source());
  for (auto _ : state) benchmark::DoNotOptimize(rng.uniform());
  state.SetItemsProcessed(state.iterations());
}

}  // namespace

int main(int argc, char** argv) {
  const ScanKernels* sets[8];
  const size_t n = dxt::available_scan_kernels(sets, 8);
  for (size_t i = 0; i < n; ++i) {
    const ScanKernels* k = sets[i];
    const std::string name = k->name;
    benchmark::RegisterBenchmark(("dot_i8/" + name).c_str(), dot_i8, k)->Arg(100)->Arg(300);
    benchmark::RegisterBenchmark(("dot_f32/" + name).c_str(), dot_f32, k)->Arg(100)->Arg(300);
    benchmark::RegisterBenchmark(("gemm_f32/" + name).c_str(), gemm_f32, k)->Args({300, 64})->Args({300, 256});
    if (k->gemm_i8 != nullptr)
      benchmark::RegisterBenchmark(("gemm_i8/" + name).c_str(), gemm_i8, k)->Args({300, 64})->Args({300, 256});
  }
  benchmark::RegisterBenchmark("sample_gamma_integer_shape", gamma)->Arg(100)->Arg(300);
  benchmark::RegisterBenchmark("sample_unit_direction", direction)->Arg(100)->Arg(300);
  benchmark::RegisterBenchmark("uniform", uniform);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
