// SPDX-License-Identifier: Apache-2.0
// "Did you mean" for mistyped commands and options.
#pragma once

#include <string>
#include <vector>

namespace dxt::cli {

// The candidate closest to `typed` by edit distance (case-insensitive,
// adjacent swaps count as one edit), if it is close enough to be a likely
// typo: at most 1 edit for short names, 2 for longer ones, or `typed` is a
// prefix of exactly one candidate. Empty when nothing is close.
std::string closest_name(const std::string& typed, const std::vector<std::string>& candidates);

// " (did you mean 'X'?)" with `prefix` before X (e.g. "--"), or "".
std::string did_you_mean(const std::string& typed, const std::vector<std::string>& candidates,
                         const std::string& prefix = "");

// The message for a value an option does not take, naming the values it
// does take and the likely one: "--preset must be one of readable,
// features, strongest or none, not 'readble' (did you mean 'readable'?)".
std::string unknown_value(const std::string& option, const std::string& value, const std::vector<std::string>& allowed);

}  // namespace dxt::cli
