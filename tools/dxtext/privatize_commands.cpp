// dxtext privatize | sample | decode — written against the public C API only,
// exactly as an application would use it.
#include <algorithm>
#include <charconv>
#include <cstdio>
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
#include "mechanism_args.hpp"
#include "privatize_jsonl.hpp"

namespace dxt::cli {

namespace {

void check(dxt_status s) {
  if (s != DXT_OK) {
    const std::string msg = dxt_last_error_message();
    throw Error(s, msg.empty() ? dxt_status_string(s) : msg);
  }
}

struct ModelCloser {
  void operator()(dxt_model* m) const { dxt_model_close(m); }
};
struct ContextDestroyer {
  void operator()(dxt_context* c) const { dxt_context_destroy(c); }
};
using ModelPtr = std::unique_ptr<dxt_model, ModelCloser>;
using ContextPtr = std::unique_ptr<dxt_context, ContextDestroyer>;

ModelPtr open_model(const Args& args) {
  dxt_model_open_options mo;
  dxt_model_open_options_init(&mo);
  if (args.flag("verify")) mo.flags |= DXT_OPEN_VERIFY_DIGESTS;
  std::string path;
  if (auto given = args.get("model")) {
    path = *given;
  } else {
    // No --model: the default model for the mechanism's geometry.
    const uint32_t geometry =
        args.get("mechanism").value_or("") == "hyperbolic" ? DXT_GEOMETRY_POINCARE : DXT_GEOMETRY_EUCLIDEAN;
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

ContextPtr make_context(dxt_model* model, const Args& args) {
  dxt_context_options co;
  dxt_context_options_init(&co);
  if (auto seed = args.get("seed")) {
    parse_seed(*seed, co.seed);
    co.rng_mode = DXT_RNG_DETERMINISTIC;
    std::fputs("dxtext: warning: --seed makes the noise reproducible: the output is NOT private\n", stderr);
  }
  dxt_context* c = nullptr;
  check(dxt_context_create(model, &co, &c));
  return ContextPtr(c);
}

uint32_t parse_policy(const Args& args, const std::string& name) {
  const auto v = args.get(name);
  if (!v) return DXT_POLICY_DEFAULT;
  if (*v == "privatize") return DXT_POLICY_PRIVATIZE;
  if (*v == "placeholder") return DXT_POLICY_PLACEHOLDER;
  if (*v == "drop") return DXT_POLICY_DROP;
  if (*v == "keep") return DXT_POLICY_KEEP;
  throw UsageError("--" + name + " must be privatize, placeholder, drop or keep");
}

dxt_privatize_options privatize_options(const Args& args) {
  dxt_privatize_options o;
  dxt_privatize_options_init(&o);
  // The mechanism and its parameters as calibrate and bench read them.
  const MechanismParams p = parse_mechanism_params(args);
  o.mechanism = p.id;
  o.epsilon = args.number("epsilon");
  o.policy[DXT_CLASS_IN_VOCABULARY] = parse_policy(args, "in-vocabulary");
  o.policy[DXT_CLASS_OUT_OF_VOCABULARY] = parse_policy(args, "oov");
  o.policy[DXT_CLASS_NUMBER] = parse_policy(args, "numbers");
  o.policy[DXT_CLASS_STOPWORD] = parse_policy(args, "stopwords");
  o.tem_gamma = p.tem_gamma;
  o.tem_beta = p.tem_beta;
  o.vickrey_t = p.vickrey_t;
  o.mahalanobis_lambda = p.mahalanobis_lambda;
  o.syntf_s = p.syntf_s;
  o.exponential_sampler = p.sampler;
  o.search = p.search;
  o.ivf_nprobe = p.ivf_nprobe;
  return o;
}

std::string report_json(const dxt_report& r) {
  size_t need = 0;
  const dxt_status probe = dxt_report_to_json(&r, nullptr, 0, &need);
  if (probe != DXT_E_INPUT_TOO_LARGE) check(probe);
  std::string s(need, '\0');
  check(dxt_report_to_json(&r, s.data(), s.size(), &need));
  s.resize(need - 1);
  return s;
}

// Mechanism parameters, accepted wherever a mechanism is chosen.
const std::vector<std::string> kMechanismOptions = {"model", "epsilon", "mechanism", "seed",    "gamma",  "beta",
                                                    "t",     "lambda",  "s",         "sampler", "search", "nprobe"};

std::vector<std::string> with_mechanism_options(std::vector<std::string> more) {
  more.insert(more.end(), kMechanismOptions.begin(), kMechanismOptions.end());
  return more;
}

const std::vector<std::string> kPrivatizeOptions = with_mechanism_options(
    {"in-vocabulary", "oov", "numbers", "stopwords", "placeholder", kJsonlOptions[0], kJsonlOptions[1]});

}  // namespace

int run_privatize(int argc, char** argv) {
  Args args(argc, argv, 2, kPrivatizeOptions, {"report", "verify", "jsonl"});
  dxt_privatize_options o = privatize_options(args);
  const std::string placeholder = args.get("placeholder").value_or("");
  if (args.get("placeholder")) o.placeholder = placeholder.c_str();
  ModelPtr model = open_model(args);
  ContextPtr ctx = make_context(model.get(), args);
  if (args.flag("jsonl")) return privatize_jsonl(ctx.get(), o, args);

  std::string text;
  if (!args.positional().empty()) {
    for (size_t i = 0; i < args.positional().size(); ++i) text += (i ? " " : "") + args.positional()[i];
  } else {
    std::ios::sync_with_stdio(false);
    text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    if (std::cin.bad()) fail(DXT_E_IO, "reading standard input failed");
  }
  dxt_report report;
  dxt_report_init(&report);
  char* out = nullptr;
  size_t out_len = 0;
  check(dxt_privatize_text(ctx.get(), &o, text.data(), text.size(), &out, &out_len,
                           args.flag("report") ? &report : nullptr));
  std::unique_ptr<char, void (*)(char*)> owned(out, dxt_text_free);
  std::fwrite(out, 1, out_len, stdout);
  if (!args.positional().empty()) std::fputc('\n', stdout);
  if (std::fflush(stdout) != 0) fail(DXT_E_IO, "writing to standard output failed");
  if (args.flag("report")) std::fprintf(stderr, "%s\n", report_json(report).c_str());
  return 0;
}

int run_sample(int argc, char** argv) {
  Args args(argc, argv, 2, with_mechanism_options({"word", "trials"}), {"verify"});
  const dxt_privatize_options o = privatize_options(args);
  const uint64_t trials = args.count("trials");
  const std::string word = args.require("word");
  ModelPtr model = open_model(args);
  uint32_t index = 0;
  check(dxt_model_lookup(model.get(), word.data(), word.size(), &index));
  ContextPtr ctx = make_context(model.get(), args);
  std::map<uint32_t, uint64_t> counts;
  for (uint64_t t = 0; t < trials; ++t) {
    uint32_t out = 0;
    check(dxt_privatize_index(ctx.get(), &o, index, &out, nullptr));
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
  Args args(argc, argv, 2, {"model"}, {"verify"});
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
    std::cout.write(w, static_cast<std::streamsize>(len)) << '\n';
  }
  return 0;
}

}  // namespace dxt::cli
