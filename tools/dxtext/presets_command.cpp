// SPDX-License-Identifier: Apache-2.0
// dxtext presets: the named presets and their values, from the library's
// table (generated from tools/options/presets.table), as JSON or a table.
#include <cstdio>
#include <iostream>
#include <string>

#include "accounting/privacy_report.hpp"
#include "cli_args.hpp"
#include "commands.hpp"
#include "mechanisms/mechanism.hpp"
#include "output_format.hpp"
#include "presets_text.hpp"
#include "text/privatize_presets.hpp"

namespace dxt::cli {

namespace {

const char* shape_of(dxt_release_shape s) {
  return s == DXT_SHAPE_NORMALIZE ? "normalize" : s == DXT_SHAPE_STRICT ? "strict" : "keep";
}

const char* policy_of(dxt_token_policy p) {
  switch (p) {
    case DXT_POLICY_PLACEHOLDER: return "placeholder";
    case DXT_POLICY_DROP: return "drop";
    case DXT_POLICY_KEEP: return "keep";
    default: return "privatize";
  }
}

const char* const kClassNames[DXT_TOKEN_CLASS_COUNT] = {"in_vocabulary", "oov", "numbers", "stopwords"};

// The preset's loss figures (tools/options/preset_losses.json), or nullptr.
const PresetLoss* loss_of(const Preset& p) {
  for (const PresetLoss& l : kPresetLosses)
    if (std::string(l.name) == p.name && l.worst_case_per_word >= 0) return &l;
  return nullptr;
}

std::string nats_json(double v) { return v >= 0 ? format_number(v) : "null"; }

std::string nats_text(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.2f", v);
  return v >= 0 ? b : "-";
}

std::string presets_json() {
  std::string s = "{\"measured_on\":" + json_string(kPresetsMeasuredOn) + ",\"presets\":[";
  bool first = true;
  for (const Preset& p : kPresets) {
    s += first ? "{" : ",{";
    first = false;
    s += "\"name\":" + json_string(p.name) + ",\"number\":" + std::to_string(p.id) + ",\"use\":" + json_string(p.use);
    s += ",\"mechanism\":\"" + std::string(mechanism_name(p.mechanism)) + "\",\"epsilon\":" + format_number(p.epsilon);
    s += ",\"release_shape\":\"" + std::string(shape_of(p.release_shape)) + "\"";
    s += ",\"output_top\":" + std::to_string(p.output_top);
    for (int c = 0; c < DXT_TOKEN_CLASS_COUNT; ++c)
      s += ",\"" + std::string(kClassNames[c]) + "\":\"" + policy_of(p.policy[c]) + "\"";
    for (int f = 0; f < DXT_TYPED_FAMILY_COUNT; ++f)
      s += ",\"" + std::string(typed_family_option(f)) + "\":\"" + typed_policy_name(p.typed[f]) + "\"";
    s += ",\"parameters\":{";
    for (size_t i = 0; i < p.parameter_count; ++i)
      s += (i ? "," : "") + json_string(p.parameters[i].name) + ":" + json_string(p.parameters[i].shown);
    s += "}";
    // On one scale, in nats (dxtext loss --presets on the default model).
    if (const PresetLoss* l = loss_of(p))
      s += ",\"loss_nats\":{\"worst_case_per_word\":" + nats_json(l->worst_case_per_word) +
           ",\"nearest_neighbour_median\":" + nats_json(l->nearest_neighbour) +
           ",\"antonyms_median\":" + nats_json(l->antonyms) + "}";
    s += "}";
  }
  return s + "]}\n";
}

}  // namespace

std::string presets_text() {
  std::string s =
      "| preset | for | mechanism | epsilon | release shape | output vocabulary | in_vocabulary | oov | numbers | "
      "stopwords | parameters |\n|---|---|---|---:|---|---|---|---|---|---|---|\n";
  for (const Preset& p : kPresets) {
    std::string parameters;
    for (size_t i = 0; i < p.parameter_count; ++i)
      parameters += std::string(i ? " " : "") + p.parameters[i].name + "=" + p.parameters[i].shown;
    s += std::string("| ") + p.name + " | " + p.use + " | " + mechanism_name(p.mechanism) + " | " +
         format_number(p.epsilon) + " | " + shape_of(p.release_shape) + " | " +
         (p.output_top != 0 ? "top " + std::to_string(p.output_top) : std::string("all words")) + " | ";
    for (int c = 0; c < DXT_TOKEN_CLASS_COUNT; ++c) s += std::string(policy_of(p.policy[c])) + " | ";
    s += (parameters.empty() ? "-" : parameters) + " |\n";
  }
  s += "\nPrivacy loss in nats on one scale (ln of the largest ratio of output probabilities between two "
       "inputs; 'dxtext loss --presets' computes it from the exact laws):\n\n| preset | worst case per word | nearest "
       "neighbour (median) | antonyms (median) |\n|---|---:|---:|---:|\n";
  for (const Preset& p : kPresets) {
    const PresetLoss* l = loss_of(p);
    s += std::string("| ") + p.name + " | " + (l ? nats_text(l->worst_case_per_word) : "-") + " | " +
         (l ? nats_text(l->nearest_neighbour) : "-") + " | " + (l ? nats_text(l->antonyms) : "-") + " |\n";
  }
  return s + "\nValues chosen on " + kPresetsMeasuredOn +
         " (tools/options/presets.table; docs/options.md, \"Presets\").\n";
}

std::string preset_names() {
  std::string names;
  for (const Preset& p : kPresets) names += std::string(names.empty() ? "" : "|") + p.name;
  return names;
}

int run_presets(int argc, char** argv) {
  Args args(argc, argv, 2, {"format"}, {});
  if (!args.positional().empty()) throw UsageError("presets takes no arguments");
  const bool json = output_format(args, OutputFormat::kJson) == OutputFormat::kJson;
  std::cout << (json ? presets_json() : presets_text());
  return 0;
}

}  // namespace dxt::cli
