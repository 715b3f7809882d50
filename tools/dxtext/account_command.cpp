// SPDX-License-Identifier: Apache-2.0
// dxtext account syntf | syntf
//
//   account syntf: the exact per-draw privacy loss l of the SynTF mechanism
//                  on one model's vocabulary (src/accounting/syntf_loss.hpp).
//   syntf:         a synthetic bag of n_out words from a bag read on standard
//                  input, through the public dxt_syntf call.
#include <charconv>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "accounting/syntf_loss.hpp"
#include "cli_args.hpp"
#include "commands.hpp"
#include "dxtext/dxtext.h"
#include "errors/error.hpp"
#include "model/model.hpp"
#include "progress_bar.hpp"
#include "release_output.hpp"
#include "text/tokenizer.hpp"

namespace dxt::cli {

namespace {

// Shortest text that reads back as the same double.
std::string number(double v) {
  char b[64];
  const auto r = std::to_chars(b, b + sizeof b, v);
  return std::string(b, r.ptr);
}

// "word count" lines; blank lines are skipped. Errors name the line.
std::map<std::string, uint64_t> read_counts(std::istream& in) {
  std::map<std::string, uint64_t> bag;
  std::string line;
  uint64_t line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::vector<std::string> fields;
    size_t i = 0;
    while (i < line.size()) {
      while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
      size_t j = i;
      while (j < line.size() && line[j] != ' ' && line[j] != '\t') ++j;
      if (j > i) fields.push_back(line.substr(i, j - i));
      i = j;
    }
    if (fields.empty()) continue;
    uint64_t count = 0;
    bool ok = fields.size() == 2 && !fields[1].empty();
    for (char c : ok ? fields[1] : std::string())
      if (c < '0' || c > '9' || count > (UINT64_MAX - 9) / 10) {
        ok = false;
      } else {
        count = count * 10 + static_cast<uint64_t>(c - '0');
      }
    if (!ok) fail(DXT_E_PARSE, "line " + std::to_string(line_no) + ": expected 'word count'");
    bag[fields[0]] += count;
  }
  if (in.bad()) fail(DXT_E_IO, "reading standard input failed");
  return bag;
}

// Words and numbers of plain text, counted, as the tokenizer splits them.
std::map<std::string, uint64_t> count_tokens(const std::string& text) {
  std::map<std::string, uint64_t> bag;
  for (const Token& t : tokenize(text))
    if (is_word_or_number(t.kind)) ++bag[text.substr(t.begin, t.end - t.begin)];
  return bag;
}

}  // namespace

int run_account(int argc, char** argv) {
  Args args(argc, argv, 2, {"model", "epsilon", "s", "threads"}, {});
  if (args.positional().size() != 1 || args.positional()[0] != "syntf")
    throw UsageError("account needs a mechanism: 'account syntf --model M --epsilon E [--s S]'");
  const double epsilon = args.number("epsilon");
  const double s = args.number("s", 0.3);
  const auto threads = static_cast<unsigned>(args.count("threads", 0));
  const auto model = Model::open_file(args.require("model"), ModelOpenOptions{});
  ProgressBar bar("accounting", ProgressBar::Unit::kCount);
  const auto start = std::chrono::steady_clock::now();
  const SyntfLoss r = syntf_loss(
      *model, epsilon, s, [&bar](uint64_t done, uint64_t total) { bar.update(done, total); }, threads);
  bar.finish();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::string j = "{\"mechanism\":\"syntf\",\"epsilon\":" + number(r.epsilon) + ",\"s\":" + number(r.s);
  j += ",\"vocabulary_size\":" + std::to_string(r.vocabulary_size);
  j += ",\"loss\":" + number(r.loss) + ",\"ratio\":" + number(r.loss / r.epsilon);
  j += ",\"document\":\"" + number(r.loss) + " * n_out\"";
  // The bound a release record gives without this computation, for comparison.
  j += ",\"vocabulary_bound\":" + number(syntf_vocabulary_bound(r.epsilon, r.vocabulary_size));
  j += ",\"worst_output\":" + json_string(std::string(model->word(r.worst_output)));
  j += ",\"most_likely_from\":" + json_string(std::string(model->word(r.most_likely_input)));
  j += ",\"least_likely_from\":" + json_string(std::string(model->word(r.least_likely_input)));
  j += ",\"seconds\":" + number(seconds) + "}";
  std::cout << j << '\n';
  return 0;
}

int run_syntf(int argc, char** argv) {
  Args args(argc, argv, 2, {"model", "epsilon", "n-out", "s", "seed"},
            {kReportFlag, kDiagnosticsFlag, "text", "verify"});
  if (!args.positional().empty()) throw UsageError("syntf reads its bag from standard input and takes no arguments");
  dxt_privatize_options o;
  dxt_privatize_options_init(&o);
  o.mechanism = DXT_MECHANISM_SYNTF;
  o.epsilon = args.number("epsilon");
  o.syntf_s = args.number("s", o.syntf_s);
  const uint64_t n_out = args.count("n-out");
  if (n_out == 0 || n_out > DXT_MAX_BAG_WORDS)
    throw UsageError("--n-out must be in 1.." + std::to_string(DXT_MAX_BAG_WORDS));

  dxt_model_open_options mo;
  dxt_model_open_options_init(&mo);
  if (args.flag("verify")) mo.flags |= DXT_OPEN_VERIFY_DIGESTS;
  dxt_model* raw_model = nullptr;
  check(dxt_model_open_file(args.require("model").c_str(), &mo, &raw_model));
  const std::unique_ptr<dxt_model, void (*)(dxt_model*)> model(raw_model, dxt_model_close);
  dxt_context_options co;
  dxt_context_options_init(&co);
  if (auto seed = args.get("seed")) {
    parse_seed(*seed, co.seed);
    co.rng_mode = DXT_RNG_DETERMINISTIC;
    std::fputs("dxtext: warning: --seed makes the noise reproducible: the output is NOT private\n", stderr);
  }
  dxt_context* raw_ctx = nullptr;
  check(dxt_context_create(model.get(), &co, &raw_ctx));
  const std::unique_ptr<dxt_context, void (*)(dxt_context*)> ctx(raw_ctx, dxt_context_destroy);

  std::ios::sync_with_stdio(false);
  std::map<std::string, uint64_t> bag;
  if (args.flag("text")) {
    const std::string text(std::istreambuf_iterator<char>(std::cin), {});
    if (std::cin.bad()) fail(DXT_E_IO, "reading standard input failed");
    bag = count_tokens(text);
  } else {
    bag = read_counts(std::cin);
  }
  std::vector<dxt_bag_entry> entries;
  for (const auto& [word, count] : bag) entries.push_back({word.data(), word.size(), count});

  ReleaseOutputs release(args);
  dxt_bag* out = nullptr;
  check(dxt_syntf(ctx.get(), &o, entries.data(), entries.size(), static_cast<uint32_t>(n_out), &out,
                  release.record_ptr(), release.diagnostics_ptr()));
  const std::unique_ptr<dxt_bag, void (*)(dxt_bag*)> owned(out, dxt_bag_free);
  std::string j = "{";
  for (size_t i = 0; i < out->size; ++i)
    j += (i ? "," : "") + json_string(std::string(out->entries[i].word, out->entries[i].length)) + ":" +
         std::to_string(out->entries[i].count);
  std::cout << j << "}\n";
  std::cout.flush();
  if (!std::cout) fail(DXT_E_IO, "writing to standard output failed");
  release.print();
  return 0;
}

}  // namespace dxt::cli
