// SPDX-License-Identifier: Apache-2.0
// dxtext privatize | sample | decode — written against the public C API only,
// exactly as an application would use it.
#include <algorithm>
#include <charconv>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "accounting/privacy_report.hpp"
#include "cli_args.hpp"
#include "commands.hpp"
#include "dxtext/dxtext.h"
#include "errors/error.hpp"
#include "ledger_command.hpp"
#include "mechanism_args.hpp"
#include "model/sha256.hpp"
#include "output_format.hpp"
#include "privatize_jsonl.hpp"
#include "privatize_option_args.hpp"
#include "regular_file.hpp"
#include "release_output.hpp"

namespace dxt::cli {

namespace {

struct ModelCloser {
  void operator()(dxt_model* m) const { dxt_model_close(m); }
};
struct ContextDestroyer {
  void operator()(dxt_context* c) const { dxt_context_destroy(c); }
};
struct OutputSetFreer {
  void operator()(dxt_output_set* s) const { dxt_output_set_free(s); }
};
using ModelPtr = std::unique_ptr<dxt_model, ModelCloser>;
using ContextPtr = std::unique_ptr<dxt_context, ContextDestroyer>;
using OutputSetPtr = std::unique_ptr<dxt_output_set, OutputSetFreer>;

// --output-words FILE: the output vocabulary from a word list, one word per
// line (a trailing CR is removed, blank lines are skipped), and o.output_set
// pointed at it. The list must be public and fixed in advance: never made
// from the text being privatised (docs/guarantees.md, "Output vocabularies").
// Far above any vocabulary's words, one a line.
constexpr size_t kMaxWordListBytes = size_t{256} << 20;

OutputSetPtr output_words(const Args& args, dxt_model* model, dxt_privatize_options& o) {
  const auto path = args.get("output-words");
  if (!path) return OutputSetPtr(nullptr);
  // A regular file of bounded size: a FIFO or /dev/zero is refused, not
  // waited on or read without end.
  std::istringstream in(read_regular_file(*path, kMaxWordListBytes, "the output word list"));
  std::vector<std::string> words;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    if (line.find('\0') != std::string::npos) fail(DXT_E_INVALID_ARGUMENT, "the output word list contains a NUL byte");
    words.push_back(line);
  }
  std::vector<const char*> pointers;
  for (const std::string& w : words) pointers.push_back(w.c_str());
  dxt_output_set* set = nullptr;
  check(dxt_output_set_create(model, pointers.data(), pointers.size(), &set));
  o.output_set = set;
  return OutputSetPtr(set);
}

ModelPtr open_model(const Args& args) {
  dxt_model_open_options mo;
  dxt_model_open_options_init(&mo);
  if (args.flag("verify")) mo.flags |= DXT_OPEN_VERIFY_DIGESTS;
  // The default model's geometry: --geometry, else the mechanism's (checked
  // even when --model makes it unused, so a bad --geometry is never ignored).
  const uint32_t geometry = default_model_geometry(args, parse_mechanism_params(args).id);
  std::string path;
  if (auto given = args.get("model")) {
    path = *given;
  } else {
    size_t need = 0;
    const dxt_status probe = dxt_default_model_path(geometry, nullptr, 0, &need);
    if (probe != DXT_E_INPUT_TOO_LARGE) check(probe);
    path.assign(need, '\0');
    check(dxt_default_model_path(geometry, path.data(), path.size(), &need));
    path.resize(need - 1);
  }
  dxt_model* m = nullptr;
  check(dxt_model_open_file(path.c_str(), &mo, &m));
  return ModelPtr(m);
}

// `stream` > 0 gives a further context for a worker thread: with --seed,
// its keyed stream is SHA-256 of the seed and the stream number, so the
// workers draw independent noise that is still reproducible.
ContextPtr make_context(dxt_model* model, const Args& args, uint32_t stream = 0) {
  dxt_context_options co;
  dxt_context_options_init(&co);
  if (auto seed = args.get("seed")) {
    parse_seed(*seed, co.seed);
    co.rng_mode = DXT_RNG_DETERMINISTIC;
    if (stream == 0) {
      std::fputs("dxtext: warning: --seed makes the noise reproducible: the output is NOT private\n", stderr);
    } else {
      Sha256 h;
      h.update("dxtext worker stream", 20);
      h.update(co.seed, sizeof co.seed);
      const uint8_t number[4] = {static_cast<uint8_t>(stream), static_cast<uint8_t>(stream >> 8),
                                 static_cast<uint8_t>(stream >> 16), static_cast<uint8_t>(stream >> 24)};
      h.update(number, sizeof number);
      const Digest key = h.finish();
      std::copy(key.begin(), key.end(), co.seed);
    }
  }
  dxt_context* c = nullptr;
  check(dxt_context_create(model, &co, &c));
  return ContextPtr(c);
}

// The options of tools/options/privatize_options.table, and --epsilon
// (with --preset it may be left out: the library then takes the preset's).
dxt_privatize_options privatize_options(const Args& args) {
  dxt_privatize_options o = parse_privatize_options(args);
  if (args.get("epsilon"))
    o.epsilon = args.number("epsilon");
  else if (o.preset == DXT_PRESET_NONE)
    throw UsageError("--epsilon is required, unless --preset NAME gives one ('dxtext presets' lists them)");
  return o;
}

// The privatisation options (all of them, or the mechanism's), --geometry
// (the default model's) and `more`.
std::vector<std::string> with_privatize_options(bool token_options, std::vector<std::string> more) {
  const std::vector<std::string> flags = privatize_option_flags(token_options);
  more.insert(more.end(), flags.begin(), flags.end());
  more.emplace_back("geometry");
  return more;
}

const std::vector<std::string> kPrivatizeOptions = with_privatize_options(
    true, {"model", "seed", "format", kJsonlOptions[0], kJsonlOptions[1], kJsonlOptions[2], kLedgerOptions[0],
           kLedgerOptions[1], kLedgerOptions[2], kLedgerOptions[3], kLedgerOptions[4]});

}  // namespace

int run_privatize(int argc, char** argv) {
  Args args(argc, argv, 2, kPrivatizeOptions, {kReportFlag, kDiagnosticsFlag, "verify", "jsonl", kFreshFlag});
  const std::optional<std::string> ledger_path = args.get("ledger");
  if (!ledger_path && (args.get("budget") || args.get("scope") || args.get("ledger-key-file") ||
                       args.get("ledger-anchor") || args.flag(kFreshFlag)))
    throw UsageError("--budget, --scope, --ledger-key-file, --ledger-anchor and --fresh apply to --ledger FILE");
  if (ledger_path && args.flag("jsonl")) throw UsageError("--ledger applies to one text, not to --jsonl");
  dxt_privatize_options o = privatize_options(args);
  const std::string placeholder = args.get("placeholder").value_or("");
  if (args.get("placeholder")) o.placeholder = placeholder.c_str();
  ModelPtr model = open_model(args);
  const OutputSetPtr output_set = output_words(args, model.get(), o);
  ContextPtr ctx = make_context(model.get(), args);
  const OutputFormat format = output_format(args, OutputFormat::kText);
  const uint64_t threads = args.get("threads") ? args.count("threads") : 1;
  if (threads == 0 || threads > 256) throw UsageError("--threads must be in 1..256");
  if (args.flag("jsonl")) {
    if (args.get("format") && format != OutputFormat::kJson)
      throw UsageError("--jsonl writes JSON lines: --format text does not apply");
    // One context per thread, all on the one model.
    std::vector<ContextPtr> more;
    std::vector<dxt_context*> contexts = {ctx.get()};
    for (uint32_t t = 1; t < threads; ++t)
      contexts.push_back(more.emplace_back(make_context(model.get(), args, t)).get());
    return privatize_jsonl(contexts, o, args);
  }
  if (threads != 1) throw UsageError("--threads applies to --jsonl");

  std::string text;
  if (!args.positional().empty()) {
    for (size_t i = 0; i < args.positional().size(); ++i) text += (i ? " " : "") + args.positional()[i];
  } else {
    std::ios::sync_with_stdio(false);
    text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    if (std::cin.bad()) fail(DXT_E_IO, "reading standard input failed");
  }
  char* out = nullptr;
  size_t out_len = 0;
  const bool json = format == OutputFormat::kJson;
  // --format json puts the release record beside the text (it is safe to
  // keep with it); the local diagnostics only ever go to standard error.
  // The record is filled for every call: the plain output needs its shape.
  ReleaseOutputs release(args, true);
  bool memoised = false;
  if (ledger_path) {
    OpenLedger ledger = open_ledger(args, *ledger_path, true);
    check(dxt_ledger_privatize_text(ledger.get(), ctx.get(), &o, text.data(), text.size(),
                                    args.flag(kFreshFlag) ? DXT_LEDGER_FRESH : 0u, &out, &out_len, &memoised,
                                    release.record_ptr(), release.diagnostics_ptr()));
    store_ledger_anchor_after_release(ledger);  // before the output is shown; it is shown in any case
  } else {
    check(dxt_privatize_text(ctx.get(), &o, text.data(), text.size(), &out, &out_len, release.record_ptr(),
                             release.diagnostics_ptr()));
  }
  std::unique_ptr<char, void (*)(char*)> owned(out, dxt_text_free);
  if (json) {
    const std::string line = "{\"text\":" + json_string(std::string(out, out_len)) +
                             (ledger_path ? std::string(",\"memoised\":") + (memoised ? "true" : "false") : "") +
                             ",\"record\":" + release.record_json() + "}\n";
    std::fwrite(line.data(), 1, line.size(), stdout);
  } else {
    std::fwrite(out, 1, out_len, stdout);
    // The normalize and strict shapes release no layout, a final line break
    // included: end their output with one (the same for every input), as
    // a terminal expects. keep copies the input's own.
    const bool ends_line = out_len > 0 && out[out_len - 1] == '\n';
    if (!args.positional().empty() || (release.record.release_shape != DXT_SHAPE_KEEP && !ends_line))
      std::fputc('\n', stdout);
  }
  if (std::fflush(stdout) != 0) fail(DXT_E_IO, "writing to standard output failed");
  release.print();
  return 0;
}

int run_sample(int argc, char** argv) {
  Args args(argc, argv, 2, with_privatize_options(false, {"model", "seed", "word", "trials", "output-words"}),
            {"verify"});
  dxt_privatize_options o = privatize_options(args);
  const uint64_t trials = args.count("trials");
  const std::string word = args.require("word");
  ModelPtr model = open_model(args);
  const OutputSetPtr output_set = output_words(args, model.get(), o);
  uint32_t index = 0;
  check(dxt_model_lookup(model.get(), word.data(), word.size(), &index));
  ContextPtr ctx = make_context(model.get(), args);
  std::map<uint32_t, uint64_t> counts;
  for (uint64_t t = 0; t < trials; ++t) {
    uint32_t out = 0;
    check(dxt_privatize_index(ctx.get(), &o, index, &out, nullptr, nullptr));
    ++counts[out];
  }
  std::vector<std::pair<uint32_t, uint64_t>> sorted(counts.begin(), counts.end());
  std::stable_sort(sorted.begin(), sorted.end(), [](auto& a, auto& b) { return a.second > b.second; });
  std::string s = "{";
  for (size_t i = 0; i < sorted.size(); ++i) {
    const char* w = nullptr;
    size_t len = 0;
    check(dxt_model_word(model.get(), sorted[i].first, &w, &len));
    s += (i ? "," : "") + json_string(std::string(w, len)) + ":" + std::to_string(sorted[i].second);
  }
  std::cout << s << "}\n";
  return 0;
}

int run_decode(int argc, char** argv) {
  Args args(argc, argv, 2, {"model", "format"}, {"verify"});
  const bool json = output_format(args, OutputFormat::kText) == OutputFormat::kJson;
  ModelPtr model = open_model(args);
  dxt_model_info info;
  dxt_model_info_init(&info);
  check(dxt_model_get_info(model.get(), &info));
  std::vector<float> v;
  std::string line;
  uint64_t line_no = 0;
  while (std::getline(std::cin, line)) {
    ++line_no;
    v.clear();
    std::istringstream fields(line);
    std::string f;
    while (fields >> f) {
      float x = 0;
      const auto r = std::from_chars(f.data(), f.data() + f.size(), x);
      if (r.ec != std::errc() || r.ptr != f.data() + f.size())
        fail(DXT_E_PARSE, "line " + std::to_string(line_no) + ": malformed number '" + f + "'");
      v.push_back(x);
    }
    if (v.empty()) continue;
    if (v.size() != info.dimension)
      fail(DXT_E_PARSE, "line " + std::to_string(line_no) + ": " + std::to_string(v.size()) +
                            " values, the model has dimension " + std::to_string(info.dimension));
    uint32_t index = 0;
    check(dxt_model_nearest(model.get(), v.data(), v.size(), &index));
    const char* w = nullptr;
    size_t len = 0;
    check(dxt_model_word(model.get(), index, &w, &len));
    if (json)
      std::cout << "{\"word\":" << json_string(std::string(w, len)) << ",\"index\":" << index << "}\n";
    else
      std::cout.write(w, static_cast<std::streamsize>(len)) << '\n';
  }
  return 0;
}

}  // namespace dxt::cli
