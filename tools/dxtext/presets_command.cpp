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
    s += ",\"parameters\":{";
    for (size_t i = 0; i < p.parameter_count; ++i)
      s += (i ? "," : "") + json_string(p.parameters[i].name) + ":" + json_string(p.parameters[i].shown);
    s += "}}";
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
