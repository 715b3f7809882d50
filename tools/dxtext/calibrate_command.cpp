// dxtext calibrate: N_w / S_w statistics at one epsilon, a sweep, or the
// epsilon that reaches a target median N_w (bisection).
#include <cmath>
#include <cstdio>
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
#include "rng/byte_source.hpp"

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
  Args args(argc, argv, 2,
            {"model", "mechanism", "epsilon", "epsilons", "target-keep", "target-stat", "words", "trials", "seed",
             "gamma", "beta", "t", "lambda", "s", "sampler"},
            {});
  MechanismParams p = parse_mechanism_params(args);
  const auto words = static_cast<uint32_t>(args.count("words", 50));
  const auto trials = static_cast<uint32_t>(args.count("trials", 100));
  if (words == 0 || trials == 0) throw UsageError("--words and --trials must be at least 1");

  const std::string path = model_path_for(args, p);
  const auto model = Model::open_file(path, ModelOpenOptions{});
  std::unique_ptr<ByteSource> source;
  if (auto seed = args.get("seed")) {
    std::array<uint8_t, 32> key{};
    parse_seed(*seed, key.data());
    source = make_keyed_stream(key);
  } else {
    source = make_system_byte_source();
  }
  RandomStream rng(std::move(source));
  // One sample of words for every epsilon, so a sweep or a bisection
  // compares like with like.
  const std::vector<uint32_t> sample = sample_words(rng, model->vocabulary_size(), words);
  auto run = [&](double eps) {
    p.epsilon = eps;
    auto m = make_mechanism(*model, p);
    return calibrate(*m, rng, sample, trials);
  };

  if (auto target = args.get("target-keep")) {
    const double want = args.number("target-keep");
    if (!(want > 0 && want < 1)) throw UsageError("--target-keep must be in (0, 1)");
    // Which statistic of N_w to match: the median word, the mean, or the
    // worst case (max), as in Feyisetan et al.'s comparison across models.
    const std::string stat = args.get("target-stat").value_or("median");
    if (stat != "median" && stat != "mean" && stat != "max")
      throw UsageError("--target-stat must be median, mean or max");
    auto keep = [&stat](const CalibrationStats& s) {
      return stat == "max" ? s.keep_max : stat == "mean" ? s.keep_mean : s.keep_median;
    };
    // The smallest admissible epsilon: hyperbolic needs eps > n - 1.
    const double floor = p.id == DXT_MECHANISM_HYPERBOLIC ? model->dimension() - 1.0 : 0.0;
    double lo = floor, hi = std::max(1.0, floor + 1);
    while (keep(run(hi)) < want) {
      lo = hi;
      hi = floor + 2 * (hi - floor);
      if (hi > 1e7) fail(DXT_E_INVALID_ARGUMENT, "no epsilon up to 1e7 reaches that median N_w");
      std::fprintf(stderr, "calibrate: epsilon %.4g is below the target\n", lo);
    }
    for (int i = 0; i < 14; ++i) {
      const double mid = (lo + hi) / 2;
      (keep(run(mid)) < want ? lo : hi) = mid;
      std::fprintf(stderr, "calibrate: bisection %d/14: epsilon in [%.4g, %.4g]\n", i + 1, lo, hi);
    }
    std::cout << "{\"mechanism\":\"" << mechanism_name(p.id) << "\",\"target_keep_" << stat << "\":" << want
              << ",\"result\":" << stats_json(hi, run(hi)) << "}\n";
    return 0;
  }
  if (auto list = args.get("epsilons")) {
    std::cout << "| epsilon | N_w mean | N_w median | N_w max | S_w mean | S_w median | S_w max |\n"
              << "|---:|---:|---:|---:|---:|---:|---:|\n";
    for (double eps : parse_list(*list)) {
      const CalibrationStats s = run(eps);
      char b[256];
      std::snprintf(b, sizeof b, "| %.4g | %.3f | %.3f | %.3f | %.1f | %.1f | %.0f |\n", eps, s.keep_mean,
                    s.keep_median, s.keep_max, s.distinct_mean, s.distinct_median, s.distinct_max);
      std::cout << b << std::flush;
    }
    return 0;
  }
  const double eps = args.number("epsilon");
  std::cout << "{\"mechanism\":\"" << mechanism_name(p.id) << "\",\"result\":" << stats_json(eps, run(eps)) << "}\n";
  return 0;
}

}  // namespace dxt::cli
