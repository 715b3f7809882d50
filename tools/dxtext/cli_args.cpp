// SPDX-License-Identifier: Apache-2.0
#include "cli_args.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "suggestion.hpp"

namespace dxt::cli {

namespace {

std::string unknown_option_hint(const std::string& name, const std::vector<std::string>& options,
                                const std::vector<std::string>& flags) {
  std::vector<std::string> all = options;
  all.insert(all.end(), flags.begin(), flags.end());
  return did_you_mean(name, all, "--");
}

}  // namespace

Args::Args(int argc, char** argv, int first, const std::vector<std::string>& options,
           const std::vector<std::string>& flags) {
  auto known = [](const std::vector<std::string>& list, const std::string& n) {
    return std::find(list.begin(), list.end(), n) != list.end();
  };
  bool only_positional = false;
  for (int i = first; i < argc; ++i) {
    std::string a = argv[i];
    if (only_positional || a.size() < 3 || a.compare(0, 2, "--") != 0) {
      positional_.push_back(a);
      continue;
    }
    if (a == "--") {
      only_positional = true;
      continue;
    }
    std::string name = a.substr(2), value;
    const size_t eq = name.find('=');
    const bool inline_value = eq != std::string::npos;
    if (inline_value) {
      value = name.substr(eq + 1);
      name.resize(eq);
    }
    // An option given twice is refused rather than letting the last one win:
    // "--epsilon 5 ... --epsilon 1e9" appended by a wrapper script would
    // otherwise silently release the text almost unchanged.
    auto once = [&](bool seen) {
      if (seen) throw UsageError("--" + name + " is given more than once");
    };
    if (known(flags, name)) {
      if (inline_value) throw UsageError("--" + name + " takes no value");
      once(flags_.count(name) != 0);
      flags_[name] = true;
    } else if (known(options, name)) {
      if (!inline_value) {
        // A next word that is itself an option ("--model --epsilon 5") is
        // a missing value, not a path or number that starts with "--".
        const bool next_is_option = i + 1 < argc && std::string(argv[i + 1]).compare(0, 2, "--") == 0;
        if (i + 1 >= argc || next_is_option)
          throw UsageError(
              "--" + name + " needs a value" +
              (next_is_option ? " (a value that starts with '--' is written --" + name + "=VALUE)" : std::string()));
        value = argv[++i];
      }
      once(values_.count(name) != 0);
      values_[name] = value;
    } else {
      throw UsageError("unknown option --" + name + unknown_option_hint(name, options, flags));
    }
  }
}

std::optional<std::string> Args::get(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

std::string Args::require(const std::string& name) const {
  auto v = get(name);
  if (!v) throw UsageError("--" + name + " is required");
  return *v;
}

double Args::number(const std::string& name, std::optional<double> fallback) const {
  auto v = get(name);
  if (!v) {
    if (fallback) return *fallback;
    throw UsageError("--" + name + " is required");
  }
  double d = 0;
  const auto r = std::from_chars(v->data(), v->data() + v->size(), d);
  if (v->empty() || r.ec != std::errc() || r.ptr != v->data() + v->size())
    throw UsageError("--" + name + " needs a number, not '" + *v + "'");
  return d;
}

uint64_t Args::count(const std::string& name, std::optional<uint64_t> fallback) const {
  auto v = get(name);
  if (!v) {
    if (fallback) return *fallback;
    throw UsageError("--" + name + " is required");
  }
  uint64_t n = 0;
  const auto r = std::from_chars(v->data(), v->data() + v->size(), n);
  if (v->empty() || r.ec != std::errc() || r.ptr != v->data() + v->size())
    throw UsageError("--" + name + " needs a non-negative integer, not '" + *v + "'");
  return n;
}

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char b[8];
          std::snprintf(b, sizeof b, "\\u%04x", c);
          out += b;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

void parse_seed(const std::string& hex, uint8_t out[32]) {
  if (hex.size() != 64) throw UsageError("--seed needs 64 hexadecimal digits (32 bytes)");
  for (size_t i = 0; i < 32; ++i) {
    unsigned v = 0;
    const auto r = std::from_chars(hex.data() + 2 * i, hex.data() + 2 * i + 2, v, 16);
    if (r.ec != std::errc() || r.ptr != hex.data() + 2 * i + 2)
      throw UsageError("--seed needs 64 hexadecimal digits (32 bytes)");
    out[i] = static_cast<uint8_t>(v);
  }
}

}  // namespace dxt::cli
