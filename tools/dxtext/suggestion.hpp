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

}  // namespace dxt::cli
