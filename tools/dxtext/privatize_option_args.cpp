// SPDX-License-Identifier: Apache-2.0
#include "privatize_option_args.hpp"

#include <sstream>
#include <string_view>

#include "privatize_option_table.hpp"
#include "suggestion.hpp"
#include "text/privatize_presets.hpp"

namespace dxt::cli {

namespace {

bool is_token_option(const PrivatizeOptionRow& row) {
  const std::string_view flag = row.flag;
  return flag == "in-vocabulary" || flag == "oov" || flag == "numbers" || flag == "stopwords" ||
         flag == "placeholder" || flag == "release-shape" || flag == "output-words";
}

// The value of --flag or its older spelling (not both), and the spelling used.
std::optional<std::string> value_of(const Args& args, const PrivatizeOptionRow& row, std::string& used) {
  auto value = args.get(row.flag);
  used = row.flag;
  if (row.alias != nullptr) {
    if (auto old = args.get(row.alias)) {
      if (value) throw UsageError(std::string("--") + row.flag + " and --" + row.alias + " are the same option");
      value = old;
      used = row.alias;
    }
  }
  return value;
}

// The C number of an enum option's value, from the table's "name=number" list.
uint32_t enum_number(const PrivatizeOptionRow& row, const std::string& used, const std::string& value) {
  std::istringstream pairs(row.values);
  std::string pair;
  std::vector<std::string> names;
  while (pairs >> pair) {
    const size_t eq = pair.find('=');
    const std::string name = pair.substr(0, eq);
    if (name == value) return static_cast<uint32_t>(std::stoul(pair.substr(eq + 1)));
    names.push_back(name);
  }
  throw UsageError(unknown_value(used, value, names));
}

// The name of number `n` in an enum row's "name=number" list.
std::string enum_name(const PrivatizeOptionRow& row, uint32_t n) {
  std::istringstream pairs(row.values);
  std::string pair;
  while (pairs >> pair) {
    const size_t eq = pair.find('=');
    if (std::stoul(pair.substr(eq + 1)) == n) return pair.substr(0, eq);
  }
  return std::to_string(n);
}

// The value a preset gives an enum option it fixes, or -1 when it fixes none.
int64_t preset_value(const Preset& p, std::string_view flag) {
  if (flag == "mechanism") return p.mechanism;
  if (flag == "release-shape") return p.release_shape;
  if (flag == "in-vocabulary") return p.policy[DXT_CLASS_IN_VOCABULARY];
  if (flag == "oov") return p.policy[DXT_CLASS_OUT_OF_VOCABULARY];
  if (flag == "numbers") return p.policy[DXT_CLASS_NUMBER];
  if (flag == "stopwords") return p.policy[DXT_CLASS_STOPWORD];
  return -1;
}

// An option the preset fixes may be left out or given the preset's value.
// The library sees only values other than the C defaults, so the command
// line checks what was typed: `--preset readable --release-shape keep` is
// refused, not silently read as "unset".
void refuse_preset_conflicts(const Args& args, const dxt_privatize_options& o) {
  const Preset* preset = find_preset(o.preset);
  if (preset == nullptr) return;
  for (const PrivatizeOptionRow& row : kPrivatizeOptionRows) {
    if (row.type != OptionType::kEnum) continue;
    const int64_t fixed = preset_value(*preset, row.flag);
    const auto given = args.get(row.flag);
    if (fixed < 0 || !given) continue;
    const std::string fixed_name = enum_name(row, static_cast<uint32_t>(fixed));
    if (*given != fixed_name)
      throw UsageError(std::string("--") + row.flag + " " + *given + " conflicts with --preset " + preset->name +
                       ", which sets " + fixed_name + ": leave it out, give the preset's value, or use no preset");
  }
}

}  // namespace

std::vector<std::string> privatize_option_flags(bool token_options) {
  std::vector<std::string> flags;
  for (const PrivatizeOptionRow& row : kPrivatizeOptionRows) {
    if (!token_options && is_token_option(row)) continue;
    flags.emplace_back(row.flag);
    if (row.alias != nullptr) flags.emplace_back(row.alias);
  }
  return flags;
}

dxt_privatize_options parse_privatize_options(const Args& args) {
  dxt_privatize_options o;
  dxt_privatize_options_init(&o);
  for (const PrivatizeOptionRow& row : kPrivatizeOptionRows) {
    std::string used;
    const auto value = value_of(args, row, used);
    if (!value) continue;
    switch (row.type) {
      case OptionType::kDouble: set_privatize_option(o, row.flag, args.number(used)); break;
      case OptionType::kUint32: {
        const uint64_t n = args.count(used);
        if (n > UINT32_MAX) throw UsageError("--" + used + " is too large");
        set_privatize_option(o, row.flag, static_cast<uint32_t>(n));
        break;
      }
      case OptionType::kEnum: set_privatize_option_enum(o, row.flag, enum_number(row, used, *value)); break;
      case OptionType::kString: break;  // the placeholder: the caller sets it (it must outlive the call)
      case OptionType::kWords: break;   // --output-words FILE: the caller reads it (it needs the model)
    }
  }
  if (o.search == DXT_SEARCH_EXACT && o.ivf_nprobe != 0) throw UsageError("--ivf-nprobe needs --search ivf");
  refuse_preset_conflicts(args, o);
  return o;
}

}  // namespace dxt::cli
