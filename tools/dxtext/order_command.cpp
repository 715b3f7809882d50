// SPDX-License-Identifier: Apache-2.0
// dxtext order: add the orderings section (docs/format.md §10.3) to a copy
// of a model, for the ordering mechanism; dxtext orderings: print them.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "cli_args.hpp"
#include "commands.hpp"
#include "errors/error.hpp"
#include "model/format.hpp"
#include "model/model.hpp"
#include "model/model_writer.hpp"
#include "model/ordering_builder.hpp"
#include "model/section_append_writer.hpp"
#include "progress_bar.hpp"
#include "text/stopwords.hpp"

namespace dxt::cli {

int run_order(int argc, char** argv) {
  Args args(argc, argv, 2, {"orderings", "neighbours", "seed", "common"}, {"no-groups"});
  if (args.positional().size() != 2) throw UsageError("order needs IN.dxe and OUT.dxe");
  const std::string in_path = args.positional()[0], out_path = args.positional()[1];
  OrderingBuildOptions o;
  const uint64_t count = args.count("orderings", 8);
  if (count < 1 || count > format::orderings::kMaxCount)
    throw UsageError("--orderings must be in 1.." + std::to_string(format::orderings::kMaxCount));
  o.count = static_cast<uint32_t>(count);
  const uint64_t neighbours = args.count("neighbours", 16);
  if (neighbours < 1 || neighbours > 256) throw UsageError("--neighbours must be in 1..256");
  o.neighbours = static_cast<uint32_t>(neighbours);
  o.seed = args.count("seed", 1);

  const auto model = Model::open_file(in_path, ModelOpenOptions{});
  // The stopwords (text/stopwords.hpp, as the tokenizer classifies them)
  // form a group of their own, so they move among themselves; with
  // --common N (and a frequencies section) the N most frequent other words
  // form a second group, so that a common word moves among common words.
  const uint64_t common = args.count("common", 0);
  if (common > 0 && !model->has_frequencies()) throw UsageError("--common needs a model with word frequencies");
  if (common > 0 && args.flag("no-groups")) throw UsageError("--common and --no-groups exclude each other");
  if (!args.flag("no-groups")) {
    const uint32_t V = model->vocabulary_size();
    o.groups.resize(V);
    std::vector<uint32_t> by_frequency;
    for (uint32_t w = 0; w < V; ++w) {
      o.groups[w] = is_stopword(model->word(w)) ? 0 : 2;
      if (o.groups[w] == 2) by_frequency.push_back(w);
    }
    // Ties to the lower index, as output_top orders them.
    std::stable_sort(by_frequency.begin(), by_frequency.end(),
                     [&](uint32_t a, uint32_t b) { return model->frequency(a) > model->frequency(b); });
    for (size_t r = 0; r < by_frequency.size() && r < common; ++r) o.groups[by_frequency[r]] = 1;
  }
  ProgressBar bar("ordering  ", ProgressBar::Unit::kCount);
  o.progress = [&](double share) { bar.update(static_cast<uint64_t>(share * 1000), 1000); };
  OrderingStats stats;
  const std::vector<uint32_t> words = build_orderings(*model, o, &stats);
  bar.finish();
  // A new file, renamed over OUT when complete (OUT == IN is safe).
  {
    AtomicFile out(out_path);
    write_model_with_section(*model, static_cast<uint32_t>(format::SectionKind::kOrderings),
                             encode_orderings(*model, o, words), format::kMinorOrderings, out.stream());
    out.commit();
  }
  auto numbers = [](const std::vector<double>& v) {
    std::ostringstream s;
    s.precision(6);
    s << '[';
    for (size_t i = 0; i < v.size(); ++i) s << (i ? ", " : "") << v[i];
    s << ']';
    return s.str();
  };
  std::ostringstream j;
  j.precision(6);
  j << "{\"output\": " << json_string(out_path) << ", \"orderings\": " << o.count << ", \"groups\": "
    << (o.groups.empty() ? "\"none\""
        : common > 0     ? "\"stopwords, the " + std::to_string(common) + " most frequent other words, the rest\""
                         : "\"stopwords, other words\"")
    << ", \"neighbours\": " << o.neighbours << ", \"seed\": " << o.seed
    << ", \"median_nearest_neighbour\": " << stats.median_nearest << ", \"tour_length\": " << numbers(stats.length)
    << ", \"median_edge\": " << numbers(stats.median_edge)
    << ", \"nearest_10_within_5_places\": " << numbers(stats.neighbours_within_5) << "}";
  std::cout << j.str() << '\n';
  return 0;
}

int run_orderings(int argc, char** argv) {
  Args args(argc, argv, 2, {"model"}, {});
  std::string path;
  if (args.positional().size() == 1 && !args.get("model"))
    path = args.positional()[0];
  else if (args.positional().empty() && args.get("model"))
    path = *args.get("model");
  else
    throw UsageError("orderings needs one MODEL.dxe");
  const auto model = Model::open_file(path, ModelOpenOptions{});
  const OrderingsView* o = model->orderings();
  if (o == nullptr) fail(DXT_E_UNSUPPORTED, "'" + path + "' has no orderings section; add one with `dxtext order`");
  // One line per word, in vocabulary order: its place in each ordering.
  std::string line = "word";
  for (uint32_t L = 0; L < o->count; ++L) line += "\tordering" + std::to_string(L);
  std::printf("%s\n", line.c_str());
  const uint32_t V = model->vocabulary_size();
  for (uint32_t w = 0; w < V; ++w) {
    line.assign(model->word(w));
    for (uint32_t L = 0; L < o->count; ++L) line += '\t' + std::to_string(o->positions[uint64_t{L} * V + w]);
    std::printf("%s\n", line.c_str());
  }
  return std::fflush(stdout) == 0 ? 0 : 1;
}

}  // namespace dxt::cli
