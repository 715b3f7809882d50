// SPDX-License-Identifier: Apache-2.0
// Command-line parsing shared by the dxtext subcommands.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace dxt::cli {

// A usage mistake: printed with a hint, exit code 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class Args {
 public:
  // `flags` take no value; every other --name takes one (--name V or --name=V).
  Args(int argc, char** argv, int first, const std::vector<std::string>& options,
       const std::vector<std::string>& flags);

  std::optional<std::string> get(const std::string& name) const;
  std::string require(const std::string& name) const;
  bool flag(const std::string& name) const { return flags_.count(name) != 0; }
  double number(const std::string& name, std::optional<double> fallback = std::nullopt) const;
  uint64_t count(const std::string& name, std::optional<uint64_t> fallback = std::nullopt) const;
  const std::vector<std::string>& positional() const { return positional_; }

 private:
  std::map<std::string, std::string> values_;
  std::map<std::string, bool> flags_;
  std::vector<std::string> positional_;
};

std::string json_string(const std::string& s);

// Parses 64 hexadecimal digits into a 32-byte seed.
void parse_seed(const std::string& hex, uint8_t out[32]);

}  // namespace dxt::cli
