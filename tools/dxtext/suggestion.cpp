// SPDX-License-Identifier: Apache-2.0
#include "suggestion.hpp"

#include <algorithm>
#include <cctype>
#include <cstddef>

namespace dxt::cli {

namespace {

std::string lower(const std::string& s) {
  std::string out = s;
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Optimal string alignment distance: insertions, deletions, substitutions
// and swaps of adjacent characters each cost 1.
size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

}  // namespace

std::string closest_name(const std::string& typed, const std::vector<std::string>& candidates) {
  const std::string t = lower(typed);
  if (t.empty()) return {};
  std::string best;
  size_t best_distance = 0;
  for (const std::string& c : candidates) {
    const size_t distance = edit_distance(t, lower(c));
    if (best.empty() || distance < best_distance) {
      best = c;
      best_distance = distance;
    }
  }
  const size_t allowed = t.size() <= 4 ? 1 : 2;
  if (!best.empty() && best_distance <= allowed && best_distance < t.size()) return best;
  std::string prefixed;
  for (const std::string& c : candidates) {
    if (lower(c).compare(0, t.size(), t) != 0) continue;
    if (!prefixed.empty()) return {};  // ambiguous
    prefixed = c;
  }
  return prefixed;
}

std::string did_you_mean(const std::string& typed, const std::vector<std::string>& candidates,
                         const std::string& prefix) {
  const std::string best = closest_name(typed, candidates);
  return best.empty() ? std::string() : " (did you mean '" + prefix + best + "'?)";
}

std::string unknown_value(const std::string& option, const std::string& value,
                          const std::vector<std::string>& allowed) {
  std::string list;
  for (size_t i = 0; i < allowed.size(); ++i)
    list += (i == 0 ? "" : i + 1 == allowed.size() ? " or " : ", ") + allowed[i];
  return "--" + option + " must be " + (allowed.size() > 2 ? "one of " : "") + list + ", not '" + value + "'" +
         did_you_mean(value, allowed);
}

}  // namespace dxt::cli
