// SPDX-License-Identifier: Apache-2.0
#include "privatize_option_args.hpp"

#include <sstream>
#include <string_view>

#include "privatize_option_table.hpp"

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
  std::string pair, all;
  while (pairs >> pair) {
    const size_t eq = pair.find('=');
    const std::string name = pair.substr(0, eq);
    if (name == value) return static_cast<uint32_t>(std::stoul(pair.substr(eq + 1)));
    all += (all.empty() ? "" : ", ") + name;
  }
  throw UsageError("--" + used + " must be one of " + all + ", not '" + value + "'");
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
  return o;
}

}  // namespace dxt::cli
