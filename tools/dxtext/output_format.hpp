// SPDX-License-Identifier: Apache-2.0
// --format text|json: what a command prints on standard output.
#pragma once

#include <string>

#include "cli_args.hpp"
#include "suggestion.hpp"

namespace dxt::cli {

enum class OutputFormat { kText, kJson };

// The value of --format, or `fallback` without one; anything else is a usage error.
inline OutputFormat output_format(const Args& args, OutputFormat fallback) {
  const auto given = args.get("format");
  if (!given) return fallback;
  if (*given == "json") return OutputFormat::kJson;
  if (*given == "text") return OutputFormat::kText;
  throw UsageError(unknown_value("format", *given, {"text", "json"}));
}

}  // namespace dxt::cli
