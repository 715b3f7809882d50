// SPDX-License-Identifier: Apache-2.0
// The options by name (dxt_options_*, dxt_option_describe): one generic
// setter per column type of tools/options/privatize_options.table, driven by
// the rows generate.py writes into option_table.inc. Nothing here names an
// option, so a row added to the table is settable by name with no edit.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <locale>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "abi/abi_support.hpp"
#include "dxtext/dxtext.h"
#include "errors/error.hpp"
#include "unicode/utf8.hpp"

namespace {

enum class OptionType { kDouble, kUint32, kString, kEnum, kWords };

struct OptionEnumValue {
  const char* name;
  uint32_t number;
};

struct OptionRow {
  const char* name;
  OptionType type;
  const char* type_name;
  const char* default_value;
  const char* allowed;  // what dxt_option_info.values says
  const char* meaning;
  void* (*field)(dxt_privatize_options&);
  const OptionEnumValue* values;
  size_t value_count;
  // The range of a number, when the table states one.
  bool has_low;
  double low;
  bool low_open;
  bool has_high;
  double high;
  bool high_open;
  const char* range;
};

struct OptionPresetValue {
  uint32_t preset;  // its dxt_preset number
  const char* preset_name;
  const char* option;  // an option the preset fixes
  const char* value;   // its value as the table spells it
};

#include "abi/option_table.inc"

constexpr size_t kOptionCount = sizeof(kOptionRows) / sizeof(kOptionRows[0]);

dxt_option_type public_type(OptionType t) {
  switch (t) {
    case OptionType::kDouble: return DXT_OPTION_TYPE_DOUBLE;
    case OptionType::kUint32: return DXT_OPTION_TYPE_UINT32;
    case OptionType::kString: return DXT_OPTION_TYPE_STRING;
    case OptionType::kEnum: return DXT_OPTION_TYPE_ENUM;
    case OptionType::kWords: return DXT_OPTION_TYPE_WORDS;
  }
  return DXT_OPTION_TYPE_UNKNOWN;
}

// snake_case of a name written in snake_case, camelCase or kebab-case.
std::string snake(std::string_view written) {
  std::string out;
  for (char c : written) {
    if (c >= 'A' && c <= 'Z') {
      out += '_';
      out += static_cast<char>(c - 'A' + 'a');
    } else {
      out += c == '-' ? '_' : c;
    }
  }
  return out;
}

// A name spelt in the case the caller used (for suggestions).
std::string spelt_like(const std::string& name, std::string_view written) {
  const bool camel = std::any_of(written.begin(), written.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
  const bool kebab = written.find('-') != std::string_view::npos;
  std::string out;
  bool upper = false;
  for (char c : name) {
    if (c == '_' && camel) {
      upper = true;
      continue;
    }
    out += c == '_' && kebab ? '-' : upper ? static_cast<char>(c - 'a' + 'A') : c;
    upper = false;
  }
  return out;
}

// An enum's name in any case, '_' for '-' ("TEM", "permute_and_flip").
bool same_name(std::string_view given, std::string_view name) {
  if (given.size() != name.size()) return false;
  for (size_t i = 0; i < given.size(); ++i) {
    char c = given[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c == '_') c = '-';
    if (c != name[i]) return false;
  }
  return true;
}

size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// " (did you mean 'x'?)" for the nearest of `names`, or "" when none is near.
template <typename Names>
std::string suggestion(std::string_view given, const Names& names) {
  std::string best;
  size_t best_distance = std::max<size_t>(2, given.size() / 3) + 1;
  for (const std::string& n : names) {
    const size_t d = edit_distance(given, n);
    if (d < best_distance) {
      best_distance = d;
      best = n;
    }
  }
  return best.empty() ? std::string() : " (did you mean '" + best + "'?)";
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

const OptionRow* find_row(std::string_view written, size_t* index) {
  const std::string name = snake(written);
  for (size_t i = 0; i < kOptionCount; ++i)
    if (name == kOptionRows[i].name) {
      *index = i;
      return &kOptionRows[i];
    }
  std::vector<std::string> names;
  for (const OptionRow& r : kOptionRows) names.push_back(spelt_like(r.name, written));
  const std::string near = suggestion(written, names);
  dxt::fail(DXT_E_INVALID_ARGUMENT, "unknown option '" + std::string(written) + "'" +
                                        (near.empty() ? " (the options are " + joined(names) + ")" : near));
}

[[noreturn]] void refuse(const OptionRow& row, const std::string& written, const std::string& why) {
  dxt::fail(std::strcmp(row.name, "epsilon") == 0 ? DXT_E_INVALID_EPSILON : DXT_E_INVALID_ARGUMENT,
            written + ": " + why);
}

// A number written in full ("0.75", "7.5e-1", "-2"): finite, all of the
// text. The syntax is checked here and the value read in the classic
// locale (std::from_chars for double is missing from some standard
// libraries the bindings build with).
bool read_number(std::string_view text, double* out) {
  size_t i = 0, digits = 0;
  auto run = [&] {
    size_t n = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i, ++n;
    return n;
  };
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
  digits += run();
  if (i < text.size() && text[i] == '.') ++i, digits += run();
  if (digits == 0) return false;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    if (run() == 0) return false;
  }
  if (i != text.size()) return false;
  std::istringstream in{std::string(text)};
  in.imbue(std::locale::classic());
  double x = 0;
  in >> x;
  if (in.fail() || !std::isfinite(x)) return false;
  *out = x;
  return true;
}

void check_range(const OptionRow& row, const std::string& written, std::string_view text, double x) {
  const bool below = row.has_low && (row.low_open ? x <= row.low : x < row.low);
  const bool above = row.has_high && (row.high_open ? x >= row.high : x > row.high);
  if (below || above) refuse(row, written, "'" + std::string(text) + "' is out of range (" + row.range + ")");
}

// Writes `text` into the row's field of `o` (not for strings and words).
void set_value(const OptionRow& row, const std::string& written, std::string_view text, dxt_privatize_options& o) {
  void* field = row.field(o);
  switch (row.type) {
    case OptionType::kDouble: {
      double x = 0;
      if (!read_number(text, &x)) refuse(row, written, "'" + std::string(text) + "' is not a number");
      check_range(row, written, text, x);
      *static_cast<double*>(field) = x;
      return;
    }
    case OptionType::kUint32: {
      double x = 0;
      if (!read_number(text, &x) || x < 0 || x > 4294967295.0 || x != std::floor(x))
        refuse(row, written, "'" + std::string(text) + "' is not a whole number in 0 .. 4294967295");
      check_range(row, written, text, x);
      *static_cast<uint32_t*>(field) = static_cast<uint32_t>(x);
      return;
    }
    case OptionType::kEnum: {
      std::vector<std::string> names;
      for (size_t i = 0; i < row.value_count; ++i) {
        const OptionEnumValue& v = row.values[i];
        if (same_name(text, v.name) || text == std::to_string(v.number)) {
          *static_cast<uint32_t*>(field) = v.number;
          return;
        }
        names.emplace_back(v.name);
      }
      refuse(row, written, "'" + std::string(text) + "' is not one of " + joined(names) + suggestion(text, names));
    }
    case OptionType::kString:
    case OptionType::kWords: break;
  }
  dxt::fail(DXT_E_INTERNAL, "set_value: not a scalar option");
}

bool same_value(const OptionRow& row, dxt_privatize_options& a, dxt_privatize_options& b) {
  if (row.type == OptionType::kDouble)
    return *static_cast<double*>(row.field(a)) == *static_cast<double*>(row.field(b));
  return *static_cast<uint32_t*>(row.field(a)) == *static_cast<uint32_t*>(row.field(b));
}

}  // namespace

struct dxt_options {
  std::shared_ptr<const dxt::Model> model;  // NULL: no word-list options
  dxt_privatize_options options{};
  // Per row of kOptionRows: what the handle owns for the struct's pointers,
  // and, for an option set by name, the name and the value as written.
  std::vector<std::string> strings = std::vector<std::string>(kOptionCount);
  std::vector<std::shared_ptr<dxt_output_set>> sets = std::vector<std::shared_ptr<dxt_output_set>>(kOptionCount);
  std::vector<bool> set = std::vector<bool>(kOptionCount);
  std::vector<std::string> written = std::vector<std::string>(kOptionCount);
  std::vector<std::string> given = std::vector<std::string>(kOptionCount);
};

namespace {

dxt_privatize_options defaults() {
  dxt_privatize_options d;
  dxt_privatize_options_init(&d);
  return d;
}

// Refuses the options the preset of `o` fixes that were set to a value other
// than the preset's, and any word list (see "Options by name" in dxtext.h),
// with the option named as the caller wrote it. Stricter than apply_preset,
// which sees only the struct and so takes a default value for "unset": here
// an option set by name was set, so preset=readable with release_shape=keep
// is refused in every binding, as on the command line, instead of the
// second being silently ignored.
void check_preset(dxt_privatize_options o, const std::vector<bool>& set, const std::vector<std::string>& written,
                  const std::vector<std::string>& given) {
  if (o.preset == DXT_PRESET_NONE) return;
  for (size_t i = 0; i < kOptionCount; ++i) {
    if (!set[i]) continue;
    const OptionRow& row = kOptionRows[i];
    if (row.type == OptionType::kWords) {
      const char* preset = "";
      for (const OptionPresetValue& p : kOptionPresetValues)
        if (p.preset == o.preset) preset = p.preset_name;
      dxt::fail(DXT_E_INVALID_ARGUMENT, written[i] + ": the preset '" + preset +
                                            "' fixes the output vocabulary; use no preset to release from a word list");
    }
    for (const OptionPresetValue& p : kOptionPresetValues) {
      if (p.preset != o.preset || std::strcmp(p.option, row.name) != 0) continue;
      dxt_privatize_options fixed = o;
      set_value(row, row.name, p.value, fixed);
      if (!same_value(row, o, fixed))
        dxt::fail(DXT_E_INVALID_ARGUMENT, written[i] + ": '" + given[i] + "' conflicts with the preset '" +
                                              p.preset_name + "', which sets it to '" + p.value +
                                              "': leave it unset, set '" + p.value + "', or use no preset");
    }
  }
}

// Sets row `i` of `h` by `apply`, which writes the new value into a copy of
// the struct; commits only if the preset rules hold.
template <typename Apply>
void set_option(dxt_options* h, size_t i, std::string_view written, const char* value_text, Apply&& apply) {
  dxt_privatize_options o = h->options;
  std::vector<bool> set = h->set;
  std::vector<std::string> names = h->written;
  std::vector<std::string> given = h->given;
  apply(o);
  set[i] = value_text != nullptr;
  names[i] = set[i] ? std::string(written) : std::string();
  given[i] = set[i] ? std::string(value_text) : std::string();
  check_preset(o, set, names, given);
  h->options = o;
  h->set = std::move(set);
  h->written = std::move(names);
  h->given = std::move(given);
}

}  // namespace

extern "C" {

dxt_status dxt_options_create(const dxt_model* model, dxt_options** out) {
  return dxt::abi::guarded([&] {
    dxt::abi::require(out != nullptr, "out is NULL");
    *out = nullptr;
    auto h = std::make_unique<dxt_options>();
    if (model != nullptr) h->model = model->impl;
    h->options = defaults();
    *out = h.release();
  });
}

void dxt_options_destroy(dxt_options* options) { delete options; }

const dxt_privatize_options* dxt_options_get(const dxt_options* options) {
  return options != nullptr ? &options->options : nullptr;
}

dxt_status dxt_options_set(dxt_options* options, const char* name, const char* value) {
  return dxt::abi::guarded([&] {
    dxt::abi::require(options != nullptr, "options is NULL");
    dxt::abi::require(name != nullptr, "name is NULL");
    size_t i = 0;
    const OptionRow& row = *find_row(name, &i);
    const std::string written = name;
    if (value == nullptr) {  // back to the default
      set_option(options, i, written, nullptr, [&](dxt_privatize_options& o) {
        dxt_privatize_options d = defaults();
        std::memcpy(row.field(o), row.field(d),
                    row.type == OptionType::kDouble                                     ? sizeof(double)
                    : row.type == OptionType::kString || row.type == OptionType::kWords ? sizeof(void*)
                                                                                        : sizeof(uint32_t));
      });
      options->strings[i].clear();
      options->sets[i].reset();
      return;
    }
    const std::string_view text = value;
    if (!dxt::utf8::valid(text.data(), text.size()))
      dxt::fail(DXT_E_INVALID_UTF8, written + ": the value is not valid UTF-8");
    switch (row.type) {
      case OptionType::kWords:
        dxt::fail(DXT_E_INVALID_ARGUMENT, written + ": takes a list of the model's words (dxt_options_set_words)");
      case OptionType::kString: {
        std::string kept(text);
        set_option(options, i, written, value, [&](dxt_privatize_options& o) {
          *static_cast<const char**>(row.field(o)) = nullptr;  // pointed at below, once committed
        });
        options->strings[i] = std::move(kept);
        *static_cast<const char**>(row.field(options->options)) = options->strings[i].c_str();
        return;
      }
      default:
        set_option(options, i, written, value, [&](dxt_privatize_options& o) { set_value(row, written, text, o); });
    }
  });
}

dxt_status dxt_options_set_words(dxt_options* options, const char* name, const char* const* words, size_t count) {
  return dxt::abi::guarded([&] {
    dxt::abi::require(options != nullptr, "options is NULL");
    dxt::abi::require(name != nullptr, "name is NULL");
    size_t i = 0;
    const OptionRow& row = *find_row(name, &i);
    const std::string written = name;
    if (row.type != OptionType::kWords)
      dxt::fail(DXT_E_INVALID_ARGUMENT,
                written + ": takes one " + row.type_name + " value (dxt_options_set), not a list of words");
    if (options->model == nullptr)
      dxt::fail(DXT_E_INVALID_ARGUMENT,
                written + ": these options were created without a model, and a word list needs one");
    dxt_model model{options->model};
    dxt_output_set* made = nullptr;
    const dxt_status status = dxt_output_set_create(&model, words, count, &made);
    if (status != DXT_OK) dxt::fail(status, written + ": " + dxt_last_error_message());
    std::shared_ptr<dxt_output_set> set(made, dxt_output_set_free);
    set_option(options, i, written, "a word list",
               [&](dxt_privatize_options& o) { *static_cast<const dxt_output_set**>(row.field(o)) = set.get(); });
    options->sets[i] = std::move(set);
  });
}

uint32_t dxt_option_count(void) { return static_cast<uint32_t>(kOptionCount); }

dxt_status dxt_option_describe(uint32_t index, dxt_option_info* info) {
  return dxt::abi::guarded([&] {
    dxt::abi::require(info != nullptr, "info is NULL");
    const size_t minimum = offsetof(dxt_option_info, name) + sizeof(const char*);
    if (info->struct_size < minimum)
      dxt::fail(DXT_E_INVALID_ARGUMENT,
                "info.struct_size is " + std::to_string(info->struct_size) + "; set it to sizeof(dxt_option_info)");
    if (index >= kOptionCount)
      dxt::fail(DXT_E_INVALID_ARGUMENT,
                "option " + std::to_string(index) + " does not exist (there are " + std::to_string(kOptionCount) + ")");
    const OptionRow& row = kOptionRows[index];
    dxt_option_info full{};
    full.struct_size = info->struct_size;
    full.kind = public_type(row.type);
    full.name = row.name;
    full.type_name = row.type_name;
    full.default_value = row.default_value;
    full.values = row.allowed;
    full.meaning = row.meaning;
    std::memcpy(info, &full, std::min<size_t>(info->struct_size, sizeof full));
  });
}

}  // extern "C"
