// SPDX-License-Identifier: Apache-2.0
// dxtext index: build the search index of a model (docs/format.md §10.2) and
// measure its recall against exact decoding.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "cli_args.hpp"
#include "commands.hpp"
#include "errors/error.hpp"
#include "ivf_recall.hpp"
#include "model/model.hpp"
#include "model/model_writer.hpp"
#include "model/search_index_writer.hpp"
#include "output_format.hpp"
#include "progress_bar.hpp"
#include "search/ivf_build.hpp"
#include "search/ivf_search.hpp"

namespace dxt::cli {

namespace {

uint32_t count_u32(const Args& args, const std::string& name, uint32_t fallback, uint32_t min) {
  const uint64_t v = args.count(name, fallback);
  if (v < min || v > UINT32_MAX) throw UsageError("--" + name + " must be in " + std::to_string(min) + "..4294967295");
  return static_cast<uint32_t>(v);
}

}  // namespace

int run_index(int argc, char** argv) {
  Args args(argc, argv, 2, {"cells", "sample", "iterations", "seed", "threads", "epsilon", "queries", "format"}, {});
  // The recall table goes to standard output with --format text, else to
  // standard error beside the JSON.
  const bool json = output_format(args, OutputFormat::kJson) == OutputFormat::kJson;
  FILE* table = json ? stderr : stdout;
  if (args.positional().size() != 2) throw UsageError("index needs IN.dxe and OUT.dxe");
  const std::string in_path = args.positional()[0], out_path = args.positional()[1];
  IvfBuildOptions o;
  o.cells = count_u32(args, "cells", 0, 0);
  o.sample = count_u32(args, "sample", 0, 0);
  o.iterations = count_u32(args, "iterations", 10, 0);
  o.seed = args.count("seed", 1);
  o.threads = count_u32(args, "threads", 0, 0);
  const double epsilon = args.number("epsilon", 10.0);
  if (!std::isfinite(epsilon) || epsilon <= 0) throw UsageError("--epsilon must be finite and > 0");
  const auto queries = static_cast<size_t>(args.count("queries", 1000));

  const auto model = Model::open_file(in_path, ModelOpenOptions{});
  if (model->geometry() != DXT_GEOMETRY_EUCLIDEAN)
    fail(DXT_E_UNSUPPORTED, "'" + in_path +
                                "' is a Poincare model; they are decoded exactly in hyperbolic distance and take no "
                                "search index");
  const uint32_t K = o.cells == 0 ? default_cells(model->vocabulary_size()) : o.cells;
  if (K > model->vocabulary_size())
    throw UsageError("--cells must be at most the vocabulary size, " + std::to_string(model->vocabulary_size()));

  const auto t0 = std::chrono::steady_clock::now();
  ProgressBar train("training  ", ProgressBar::Unit::kCount), assign("assigning ", ProgressBar::Unit::kCount);
  o.progress = [&](const char* stage, uint64_t done, uint64_t total) {
    if (std::string(stage) == "training") {
      train.update(done, total);
    } else {
      train.finish();
      assign.update(done, total);
    }
  };
  const SearchIndexData index = build_ivf_index(*model, o);
  train.finish();
  assign.finish();
  const double build_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  // A new file, renamed over OUT when complete: IN is never written, and
  // OUT == IN replaces the file only once the copy is whole (the mapping of
  // IN stays valid until it is closed).
  {
    AtomicFile out(out_path);
    write_model_with_search_index(*model, index, out.stream());
    out.commit();
  }
  uint32_t largest = 0, empty = 0;
  for (uint32_t c = 0; c < index.cells; ++c) {
    const uint32_t n = index.offsets[c + 1] - index.offsets[c];
    largest = std::max(largest, n);
    empty += n == 0;
  }
  std::fprintf(stderr, "wrote %s: %u cells (largest %u rows, %u empty), sample %u, %u iterations, seed %llu, %.1f s\n",
               out_path.c_str(), index.cells, largest, empty, index.sample, index.iterations,
               static_cast<unsigned long long>(index.seed), build_s);

  // Recall against exact decoding, on the written file.
  if (queries == 0) return 0;
  const auto written = Model::open_file(out_path, ModelOpenOptions{});
  std::vector<uint32_t> probes;
  for (uint32_t p = 1; p < K; p *= 2) probes.push_back(p);
  const uint32_t dflt = IvfSearch::default_nprobe(K);
  if (std::find(probes.begin(), probes.end(), dflt) == probes.end()) probes.push_back(dflt);
  std::sort(probes.begin(), probes.end());
  std::fprintf(stderr, "measuring recall on %zu laplace noisy points (epsilon %g)...\n", queries, epsilon);
  const RecallReport r = measure_ivf_recall(*written, epsilon, queries, o.seed, probes, /*stop_when_slower=*/true);
  std::fprintf(table, "%8s %8s %12s %9s\n", "nprobe", "recall", "ms/point", "speedup");
  std::fprintf(table, "%8s %8s %12.4f %9s\n", "exact", "1", r.exact_ms_per_point, "1");
  for (const RecallPoint& p : r.probes)
    std::fprintf(table, "%8u %8.4f %12.4f %8.1fx%s\n", p.nprobe, p.recall, p.ms_per_point,
                 r.exact_ms_per_point / p.ms_per_point, p.nprobe == dflt ? "  (default)" : "");
  if (json) std::cout << recall_json(r) << '\n';
  return 0;
}

}  // namespace dxt::cli
