// SPDX-License-Identifier: Apache-2.0
// dxtext calibrate: N_w / S_w statistics at one epsilon, a sweep, or the
// epsilon that reaches a target median N_w (bisection).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "accounting/calibration.hpp"
#include "accounting/privacy_report.hpp"
#include "cli_args.hpp"
#include "commands.hpp"
#include "errors/error.hpp"
#include "mechanism_args.hpp"
#include "mechanisms/mechanism.hpp"
#include "model/model.hpp"
#include "model/model_locator.hpp"
#include "output_format.hpp"
#include "progress_bar.hpp"
#include "rng/byte_source.hpp"
#include "suggestion.hpp"

namespace dxt::cli {

namespace {

std::string stats_json(double eps, const CalibrationStats& s) {
  char b[512];
  std::snprintf(b, sizeof b,
                "{\"epsilon\":%.6g,\"words\":%u,\"trials\":%u,\"keep\":{\"mean\":%.6g,\"median\":%.6g,\"max\":%.6g},"
                "\"distinct\":{\"mean\":%.6g,\"median\":%.6g,\"max\":%.6g}}",
                eps, s.words, s.trials, s.keep_mean, s.keep_median, s.keep_max, s.distinct_mean, s.distinct_median,
                s.distinct_max);
  return b;
}

const char kTableHeader[] =
    "| epsilon | N_w mean | N_w median | N_w max | S_w mean | S_w median | S_w max |\n"
    "|---:|---:|---:|---:|---:|---:|---:|\n";

std::string table_row(double eps, const CalibrationStats& s) {
  char b[256];
  std::snprintf(b, sizeof b, "| %.4g | %.3f | %.3f | %.3f | %.1f | %.1f | %.0f |\n", eps, s.keep_mean, s.keep_median,
                s.keep_max, s.distinct_mean, s.distinct_median, s.distinct_max);
  return b;
}

std::vector<double> parse_list(const std::string& s) {
  std::vector<double> out;
  std::stringstream in(s);
  std::string item;
  while (std::getline(in, item, ',')) {
    try {
      size_t used = 0;
      out.push_back(std::stod(item, &used));
      if (used != item.size()) throw std::invalid_argument(item);
    } catch (const std::exception&) {
      throw UsageError("--epsilons needs comma-separated numbers, not '" + item + "'");
    }
  }
  if (out.empty()) throw UsageError("--epsilons is empty");
  return out;
}

}  // namespace

int run_calibrate(int argc, char** argv) {
  std::vector<std::string> options = {"model", "geometry", "epsilons", "target-keep", "target-stat",
                                      "words", "trials",   "seed",     "format"};
  const std::vector<std::string> mechanism_options = privatize_option_flags(false);
  options.insert(options.end(), mechanism_options.begin(), mechanism_options.end());
  Args args(argc, argv, 2, options, {});
  const bool json = output_format(args, OutputFormat::kJson) == OutputFormat::kJson;
  MechanismParams p = parse_mechanism_params(args);
  // The target search compares medians across epsilons: it needs more words
  // than one reading does for the same spread (docs/calibration.md).
  const bool search = args.get("target-keep").has_value();
  const auto words = static_cast<uint32_t>(args.count("words", search ? 400 : 50));
  const auto trials = static_cast<uint32_t>(args.count("trials", 100));
  if (words == 0 || trials == 0) throw UsageError("--words and --trials must be at least 1");

  const std::string path = model_path_for(args, p);
  const auto model = Model::open_file(path, ModelOpenOptions{});
  // --epsilon, else the preset's (--preset), else 0.
  const double given_epsilon = apply_model_options(args, *model, p);
  std::unique_ptr<ByteSource> source;
  if (auto seed = args.get("seed")) {
    std::array<uint8_t, 32> key{};
    parse_seed(*seed, key.data());
    source = make_keyed_stream(key);
  } else {
    source = make_system_byte_source();
  }
  RandomStream rng(std::move(source));
  // One sample of words and one key for every epsilon: common random
  // numbers, so a sweep or a bisection compares like with like (the same
  // words, each with the same draws) and a search sees one monotone curve.
  // Words of the output vocabulary: the only ones the mechanism can keep.
  const std::vector<uint32_t> sample = sample_output_words(rng, p.output.get(), model->vocabulary_size(), words);
  std::array<uint8_t, 32> key{};
  for (size_t i = 0; i < key.size(); i += 8) {
    const uint64_t v = rng.next_u64();
    std::memcpy(key.data() + i, &v, 8);
  }
  // Every run privatises each sampled word `trials` times: the progress bar
  // counts runs (of a sweep, or of the bisection's 14 steps and its bracket).
  ProgressBar bar("calibrate", ProgressBar::Unit::kCount);
  uint64_t runs_done = 0, runs_total = 1;
  auto run = [&](double eps) {
    p.epsilon = eps;
    auto m = make_mechanism(*model, p);
    CalibrationStats s = calibrate_common(*m, key, sample, trials);
    bar.update(++runs_done, std::max(runs_total, runs_done));
    return s;
  };

  if (auto target = args.get("target-keep")) {
    const double want = args.number("target-keep");
    if (!(want > 0 && want < 1)) throw UsageError("--target-keep must be in (0, 1)");
    // Which statistic of N_w to match: the median word, the mean, or the
    // worst case (max), as in Feyisetan et al.'s comparison across models.
    const std::string stat = args.get("target-stat").value_or("median");
    if (stat != "median" && stat != "mean" && stat != "max")
      throw UsageError(unknown_value("target-stat", stat, {"median", "mean", "max"}));
    const KeepStatistic which = stat == "max"    ? KeepStatistic::kMax
                                : stat == "mean" ? KeepStatistic::kMean
                                                 : KeepStatistic::kMedian;
    // The smallest admissible epsilon: hyperbolic needs eps > n - 1.
    const double floor = p.id == DXT_MECHANISM_HYPERBOLIC ? model->dimension() - 1.0 : 0.0;
    runs_total = 20;  // a guess: the bracket, 14 bisection steps, a few for the interval
    const EpsilonSearch found = search_epsilon(run, want, which, floor, rng);
    bar.finish();
    char extra[256];
    std::snprintf(extra, sizeof extra, ",\"bracket\":[%.6g,%.6g],\"interval_95\":[%.6g,%.6g],\"runs\":%u",
                  found.bracket_low, found.epsilon, found.interval_low, found.interval_high, found.runs);
    if (json) {
      std::cout << "{\"mechanism\":\"" << mechanism_name(p.id) << "\",\"target_keep_" << stat << "\":" << want
                << ",\"result\":" << stats_json(found.epsilon, found.stats) << extra
                << ",\"interval_method\":\"percentile bootstrap over the sampled words (1000 resamples), common "
                   "random numbers\"}\n";
    } else {
      char line[256];
      std::snprintf(line, sizeof line,
                    "\nepsilon %.4g; 95%% interval over the word sample [%.4g, %.4g] (%u words, %u trials each)\n",
                    found.epsilon, found.interval_low, found.interval_high, found.stats.words, found.stats.trials);
      std::cout << kTableHeader << table_row(found.epsilon, found.stats) << line;
    }
    return 0;
  }
  if (!args.get("epsilons")) {
    const double eps = given_epsilon != 0 ? given_epsilon : args.number("epsilon");
    const CalibrationStats result = run(eps);
    bar.finish();
    if (json)
      std::cout << "{\"mechanism\":\"" << mechanism_name(p.id) << "\",\"result\":" << stats_json(eps, result) << "}\n";
    else
      std::cout << kTableHeader << table_row(eps, result);
    return 0;
  }
  const std::vector<double> epsilons = parse_list(*args.get("epsilons"));
  runs_total = epsilons.size();
  // A sweep prints as it goes: a table row, or a JSON array of results.
  std::cout << (json ? "{\"mechanism\":\"" + std::string(mechanism_name(p.id)) + "\",\"results\":[" : kTableHeader);
  for (size_t i = 0; i < epsilons.size(); ++i) {
    const CalibrationStats s = run(epsilons[i]);
    std::cout << (json ? (i ? "," : "") + stats_json(epsilons[i], s) : table_row(epsilons[i], s)) << std::flush;
  }
  bar.finish();
  if (json) std::cout << "]}\n";
  return 0;
}

}  // namespace dxt::cli
