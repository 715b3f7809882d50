// SPDX-License-Identifier: Apache-2.0
// dxtext loss: privacy loss on one scale, in nats, for one set of options or
// for every preset (--presets): the worst case per word (the release
// record's worst_case_per_word), and from the mechanism's exact law the
// median loss between a common word and its nearest neighbour and the median
// loss over a list of word pairs (e.g. antonyms). docs/guarantees.md, "Worst
// case per word", defines the loss; docs/options.md shows these figures for
// the presets.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "accounting/privacy_report.hpp"
#include "cli_args.hpp"
#include "commands.hpp"
#include "errors/error.hpp"
#include "mechanism_args.hpp"
#include "mechanisms/exact_law.hpp"
#include "mechanisms/mechanism.hpp"
#include "model/model.hpp"
#include "model/model_locator.hpp"
#include "output_format.hpp"
#include "privatize_option_args.hpp"
#include "text/negations.hpp"
#include "text/privatize_presets.hpp"

namespace dxt::cli {

namespace {

struct Pair {
  uint32_t a, b;
};

// Word pairs, one a line: the first two fields (tab or space separated);
// lines starting with '#' and blank lines are skipped, and so are pairs with
// a word the model lacks (counted).
std::vector<Pair> read_pairs(const std::string& path, const Model& model, uint64_t& missing) {
  std::ifstream in(path);
  if (!in) throw Error(DXT_E_IO, "cannot read the pairs file " + path);
  std::vector<Pair> pairs;
  std::string line;
  uint64_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string a, b;
    if (!(fields >> a >> b))
      throw Error(DXT_E_INVALID_ARGUMENT, path + ":" + std::to_string(number) + ": needs two words");
    const auto ia = model.lookup(a), ib = model.lookup(b);
    if (!ia || !ib || *ia == *ib) {
      ++missing;
      continue;
    }
    pairs.push_back({*ia, *ib});
  }
  return pairs;
}

double median(std::vector<double> v) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  const size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : (v[h - 1] + v[h]) / 2;
}

// The words the sample is drawn from: the model's `n` most frequent words
// (the words people write), or its first n without frequencies.
std::vector<uint32_t> common_words(const Model& model, uint32_t n) {
  n = std::min(n, model.vocabulary_size());
  if (model.has_frequencies()) return output_top(model, n)->rows;
  std::vector<uint32_t> rows(n);
  for (uint32_t i = 0; i < n; ++i) rows[i] = i;
  return rows;
}

// Each word's nearest other word in the model's geometry.
std::vector<Pair> nearest_neighbours(const Model& model, const std::vector<uint32_t>& words) {
  std::vector<float> row(model.dimension());
  std::vector<double> point(model.dimension()), distances(model.vocabulary_size());
  std::vector<Pair> out;
  for (const uint32_t w : words) {
    word_distances(model, w, row, point, distances);
    distances[w] = INFINITY;
    const auto nearest =
        static_cast<uint32_t>(std::min_element(distances.begin(), distances.end()) - distances.begin());
    out.push_back({w, nearest});
  }
  return out;
}

struct Losses {
  std::string name;  // the preset, or "options"
  const Mechanism* mechanism;
  double worst = 0;
  bool exact = false;
  double nearest = NAN, pairs = NAN;
};

double median_loss(const Mechanism& m, const Model& model, const std::vector<Pair>& pairs) {
  std::vector<double> a, b, losses;
  for (const Pair& p : pairs) {
    exact_log_law(m, model, p.a, a);
    exact_log_law(m, model, p.b, b);
    losses.push_back(log_law_loss(a, b));
  }
  return median(losses);
}

std::string figure(double v) { return std::isfinite(v) ? format_number(v) : "null"; }

std::string text_figure(double v) {
  if (std::isnan(v)) return "-";
  if (std::isinf(v)) return "unbounded";
  char b[32];
  std::snprintf(b, sizeof b, v >= 100 ? "%.0f" : "%.2f", v);
  return b;
}

}  // namespace

int run_loss(int argc, char** argv) {
  std::vector<std::string> options = {"model", "geometry", "epsilon", "pairs", "words", "format"};
  const std::vector<std::string> mechanism_options = privatize_option_flags(false);
  options.insert(options.end(), mechanism_options.begin(), mechanism_options.end());
  Args args(argc, argv, 2, options, {"presets"});
  if (!args.positional().empty()) throw UsageError("loss takes no arguments (the words come from the model)");
  const bool json = output_format(args, OutputFormat::kJson) == OutputFormat::kJson;
  const bool all_presets = args.flag("presets");
  MechanismParams p = parse_mechanism_params(args);
  if (all_presets && (args.get("preset") || args.get("mechanism") || args.get("epsilon")))
    throw UsageError("--presets measures every preset: give no --preset, --mechanism or --epsilon beside it");
  const auto model = Model::open_file(model_path_for(args, p), ModelOpenOptions{});
  const auto words = static_cast<uint32_t>(args.count("words", 200));
  if (words == 0) throw UsageError("--words must be at least 1");

  // The mechanisms: every preset's, or the one of the options.
  std::vector<std::pair<std::string, std::unique_ptr<Mechanism>>> mechanisms;
  if (all_presets) {
    for (const Preset& preset : kPresets) {
      dxt_privatize_options o;
      dxt_privatize_options_init(&o);
      o.preset = preset.id;
      o = resolve_preset(o, *model);
      MechanismParams q = mechanism_params_of(o);
      q.epsilon = o.epsilon;
      q.output = options_output(*model, o);
      mechanisms.emplace_back(preset.name, make_mechanism(*model, q));
    }
  } else {
    if (apply_model_options(args, *model, p) == 0) throw UsageError("--epsilon is required (or --preset)");
    mechanisms.emplace_back(args.get("preset").value_or("options"), make_mechanism(*model, p));
  }

  const std::vector<Pair> neighbours = nearest_neighbours(*model, common_words(*model, words));
  uint64_t missing = 0;
  std::optional<std::vector<Pair>> pairs;
  if (auto path = args.get("pairs")) pairs = read_pairs(*path, *model, missing);

  std::vector<Losses> rows;
  for (const auto& [name, m] : mechanisms) {
    Losses l{name, m.get(), m->worst_case_per_word()};
    l.exact = has_exact_law(*m);
    if (l.exact) {
      l.nearest = median_loss(*m, *model, neighbours);
      if (pairs) l.pairs = median_loss(*m, *model, *pairs);
    }
    rows.push_back(l);
  }

  if (json) {
    std::string s = "{\"model_sha256\":\"" + to_hex(model->fingerprint().data(), 32) + "\"";
    s += ",\"nearest_neighbour_words\":" + std::to_string(neighbours.size());
    if (pairs) s += ",\"pairs\":" + std::to_string(pairs->size()) + ",\"pairs_missing\":" + std::to_string(missing);
    s += ",\"unit\":\"nats: ln of the largest ratio of output probabilities between two inputs\",\"rows\":[";
    for (size_t i = 0; i < rows.size(); ++i) {
      const Losses& l = rows[i];
      const Mechanism& m = *l.mechanism;
      s += (i ? ",{" : "{") + std::string("\"name\":") + json_string(l.name);
      s += ",\"mechanism\":\"" + std::string(mechanism_name(m.id())) + "\",\"epsilon\":" + format_number(m.epsilon());
      s += ",\"floor\":" + format_number(m.params().floor);
      s += ",\"output_size\":" + std::to_string(output_count(*model, m.params()));
      s += ",\"worst_case_per_word\":" + figure(l.worst);
      s += ",\"exact_law\":" + std::string(l.exact ? "true" : "false");
      s += ",\"nearest_neighbour_median\":" + figure(l.nearest);
      if (pairs) s += ",\"pairs_median\":" + figure(l.pairs);
      s += "}";
    }
    std::cout << s << "]}\n";
    return 0;
  }
  std::cout << "| " << (all_presets ? "preset" : "options") << " | mechanism | epsilon | floor | worst case per word"
            << " | nearest neighbour (median) |" << (pairs ? " pairs (median) |" : "")
            << "\n|---|---|---:|---:|---:|---:|" << (pairs ? "---:|" : "") << "\n";
  for (const Losses& l : rows) {
    std::cout << "| " << l.name << " | " << mechanism_name(l.mechanism->id()) << " | "
              << format_number(l.mechanism->epsilon()) << " | " << format_number(l.mechanism->params().floor) << " | "
              << text_figure(l.worst) << " | " << text_figure(l.nearest) << " |"
              << (pairs ? " " + text_figure(l.pairs) + " |" : "") << "\n";
  }
  std::cout << "\nIn nats (ln of the largest ratio of output probabilities between two inputs); medians over the "
            << neighbours.size() << " most frequent words and their nearest neighbours"
            << (pairs ? " and over " + std::to_string(pairs->size()) + " pairs" : "")
            << ", from the exact laws ('-': no exact law known for the mechanism).\n";
  return 0;
}

}  // namespace dxt::cli
