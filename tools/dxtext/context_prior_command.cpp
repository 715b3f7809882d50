// SPDX-License-Identifier: Apache-2.0
// dxtext context-prior: copy a model with the context prior section (kind 13,
// docs/format.md §10.5) built from a pair file (models/prior/bigram_prior.py
// writes the default model's): one pair a line, context<TAB>successor<TAB>lift.
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "cli_args.hpp"
#include "commands.hpp"
#include "errors/error.hpp"
#include "model/context_prior.hpp"
#include "model/format.hpp"
#include "model/model.hpp"
#include "model/model_writer.hpp"
#include "model/section_append_writer.hpp"

namespace dxt::cli {

namespace {

std::vector<PriorPair> read_pairs(const std::string& path, const Model& model) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(DXT_E_IO, "cannot open '" + path + "'");
  std::vector<PriorPair> pairs;
  std::string line;
  size_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty() || line[0] == '#') continue;
    const std::string where = path + ":" + std::to_string(number) + ": ";
    const size_t a = line.find('\t'), b = a == std::string::npos ? a : line.find('\t', a + 1);
    if (b == std::string::npos) fail(DXT_E_PARSE, where + "expected context<TAB>successor<TAB>lift");
    const std::string context = line.substr(0, a), successor = line.substr(a + 1, b - a - 1);
    const std::string lift_text = line.substr(b + 1);
    const auto c = model.lookup(context), s = model.lookup(successor);
    if (!c) fail(DXT_E_PARSE, where + "'" + context + "' is not a word of the model");
    if (!s) fail(DXT_E_PARSE, where + "'" + successor + "' is not a word of the model");
    size_t used = 0;
    double lift = 0;
    try {
      lift = std::stod(lift_text, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != lift_text.size()) fail(DXT_E_PARSE, where + "'" + lift_text + "' is not a number");
    pairs.push_back({*c, *s, lift});
  }
  return pairs;
}

}  // namespace

int run_context_prior(int argc, char** argv) {
  Args args(argc, argv, 2, {"successors"}, {});
  if (args.positional().size() != 3) throw UsageError("context-prior needs PAIRS.tsv IN.dxe OUT.dxe [--successors M]");
  const std::string pairs_path = args.positional()[0], in_path = args.positional()[1], out_path = args.positional()[2];
  const uint64_t successors = args.count("successors", 16);
  if (successors == 0 || successors > prior_format::kMaxSuccessorsLimit)
    throw UsageError("--successors must be 1 to 64");
  const auto model = Model::open_file(in_path, ModelOpenOptions{});
  const std::vector<PriorPair> pairs = read_pairs(pairs_path, *model);
  const std::vector<uint8_t> section =
      encode_context_prior(model->vocabulary_size(), pairs, static_cast<uint32_t>(successors));
  {
    // A new file renamed over OUT when whole: IN is never written.
    AtomicFile out(out_path);
    write_model_with_section(*model, static_cast<uint32_t>(format::SectionKind::kContextPrior), section,
                             format::kMinorContextPrior, out.stream());
    out.commit();
  }
  // Read back: the section must decode as the library will decode it.
  const auto written = Model::open_file(out_path, ModelOpenOptions{true, false});
  const ContextPrior* back = written->context_prior();
  uint32_t contexts = 0;
  for (uint32_t c = 0; c < back->vocabulary_size(); ++c) contexts += back->first[c + 1] > back->first[c];
  std::fprintf(stderr, "wrote %s: context prior section of %zu bytes: %zu pairs, %u words with successors\n",
               out_path.c_str(), section.size(), back->successors.size(), contexts);
  return 0;
}

}  // namespace dxt::cli
