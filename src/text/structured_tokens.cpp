// SPDX-License-Identifier: Apache-2.0
#include "text/structured_tokens.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <string>

namespace dxt {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_alnum(char c) { return is_digit(c) || is_alpha(c); }
char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool starts_with_ci(std::string_view text, size_t at, std::string_view prefix) {
  if (text.size() - at < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i)
    if (lower(text[at + i]) != prefix[i]) return false;
  return true;
}

// A non-ASCII byte after a match may start a letter or a digit: the match is
// refused, and the word rules take the text as they did before.
bool runs_on(std::string_view text, size_t end) {
  if (end >= text.size()) return false;
  const char c = text[end];
  return is_alnum(c) || static_cast<unsigned char>(c) >= 0x80 || c == '_';
}

bool url_char(char c) {
  if (is_alnum(c)) return true;
  return std::strchr("-._~:/?#[]@!$&'()*+,;=%", c) != nullptr && c != '\0';
}

std::optional<StructuredMatch> match_url(std::string_view text, size_t at) {
  size_t i = at;
  if (starts_with_ci(text, at, "https://")) {
    i += 8;
  } else if (starts_with_ci(text, at, "http://")) {
    i += 7;
  } else if (starts_with_ci(text, at, "www.")) {
    i += 4;
  } else {
    return std::nullopt;
  }
  if (i >= text.size() || !is_alnum(text[i])) return std::nullopt;
  const size_t limit = std::min(text.size(), at + 4 * kMaxStructuredBytes);
  while (i < limit && url_char(text[i])) ++i;
  while (i > at && std::strchr(".,;:!?'\")]}", text[i - 1]) != nullptr) --i;
  if (runs_on(text, i)) return std::nullopt;
  return StructuredMatch{i, DXT_TYPED_URL};
}

constexpr std::array<std::string_view, 16> kSpacedTopLevel = {"com", "org", "net",  "edu", "gov", "io", "co", "uk",
                                                              "de",  "fr",  "info", "biz", "us",  "ca", "au", "me"};

bool is_spaced_top_level(std::string_view label) {
  std::string l;
  for (char c : label) l += lower(c);
  return std::find(kSpacedTopLevel.begin(), kSpacedTopLevel.end(), l) != kSpacedTopLevel.end();
}

// Skips one space at i, if there is one.
size_t one_space(std::string_view text, size_t i) { return i < text.size() && text[i] == ' ' ? i + 1 : i; }

std::optional<StructuredMatch> match_email(std::string_view text, size_t at) {
  auto local_char = [](char c) { return is_alnum(c) || c == '.' || c == '_' || c == '%' || c == '+' || c == '-'; };
  if (!is_alnum(text[at])) return std::nullopt;
  size_t i = at;
  while (i < text.size() && i - at < 64 && local_char(text[i])) ++i;
  if (text[i - 1] == '.') return std::nullopt;
  size_t j = one_space(text, i);
  if (j >= text.size() || text[j] != '@') return std::nullopt;
  j = one_space(text, j + 1);
  // Labels separated by '.', a space allowed around a '.' only before a
  // common top-level domain ("example . com").
  size_t labels = 0, end = 0;
  std::string_view last;
  const size_t limit = std::min(text.size(), at + kMaxStructuredBytes);
  while (j < limit) {
    const size_t label_start = j;
    while (j < limit && (is_alnum(text[j]) || text[j] == '-')) ++j;
    if (j == label_start) break;
    ++labels;
    last = text.substr(label_start, j - label_start);
    end = j;
    size_t k = j;
    const bool space_before = k < text.size() && text[k] == ' ';
    k = one_space(text, k);
    if (k >= text.size() || text[k] != '.') break;
    const size_t after_dot = k + 1;
    const size_t next = one_space(text, after_dot);
    const bool spaced = space_before || next != after_dot;
    size_t probe = next;
    while (probe < limit && is_alnum(text[probe])) ++probe;
    if (probe == next) break;
    if (spaced && !is_spaced_top_level(text.substr(next, probe - next))) break;
    j = next;
  }
  if (labels < 2 || last.size() < 2) return std::nullopt;
  for (char c : last)
    if (!is_alpha(c)) return std::nullopt;
  if (runs_on(text, end)) return std::nullopt;
  return StructuredMatch{end, DXT_TYPED_EMAIL};
}

std::optional<StructuredMatch> match_handle(std::string_view text, size_t at) {
  if (text[at] != '@') return std::nullopt;
  size_t i = at + 1;
  while (i < text.size() && i - at <= 30 && (is_alnum(text[i]) || text[i] == '_')) ++i;
  if (i == at + 1 || runs_on(text, i)) return std::nullopt;
  return StructuredMatch{i, DXT_TYPED_HANDLE};
}

std::optional<StructuredMatch> match_phone(std::string_view text, size_t at) {
  size_t i = at;
  const bool plus = text[i] == '+';
  if (plus) ++i;
  const bool paren = i < text.size() && text[i] == '(';
  size_t groups[16];
  size_t group_count = 0, digits = 0, end = 0;
  char separator = 0;
  bool mixed = false;
  const size_t limit = std::min(text.size(), at + 32);
  while (i < limit) {
    if (text[i] == '(') ++i;
    const size_t start = i;
    while (i < limit && is_digit(text[i])) ++i;
    if (i == start) break;
    if (group_count == 16) return std::nullopt;
    groups[group_count++] = i - start;
    digits += i - start;
    end = i;
    if (i < limit && text[i] == ')') ++i;
    if (i >= limit) break;
    const char c = text[i];
    if (c != '-' && c != '.' && c != ' ') {
      if (text[i - 1] == ')' && is_digit(c)) continue;
      break;
    }
    size_t next = i + 1;
    if (next < limit && text[next] == ' ' && c != ' ') ++next;  // "(555) - 123"
    if (next >= limit || !(is_digit(text[next]) || text[next] == '(')) break;
    // A separator counts only between two groups.
    if (separator != 0 && c != separator) mixed = true;
    separator = c;
    i = next;
  }
  if (digits < 7 || digits > 15 || group_count < 2 || runs_on(text, end)) return std::nullopt;
  if (!plus && !paren) {
    if (groups[group_count - 1] < 3) return std::nullopt;
    for (size_t g = 0; g < group_count; ++g)
      if (groups[g] < 2 || groups[g] > 4) return std::nullopt;
    // Two groups only as 3-4 (555-1234): 1990-2000 is a range of years.
    if (group_count == 2 && !(groups[0] == 3 && groups[1] == 4)) return std::nullopt;
    if (separator == '.' && !(group_count == 3 && groups[0] == 3 && groups[1] == 3 && groups[2] == 4 && !mixed))
      return std::nullopt;
  }
  return StructuredMatch{end, DXT_TYPED_PHONE};
}

std::optional<StructuredMatch> match_number(std::string_view text, size_t at) {
  if (!is_digit(text[at])) return std::nullopt;
  size_t i = at;
  const size_t limit = std::min(text.size(), at + kMaxStructuredBytes);
  while (i < limit) {
    while (i < limit && is_digit(text[i])) ++i;
    if (i + 1 < limit && std::strchr(".,:/-", text[i]) != nullptr && text[i] != '\0' && is_digit(text[i + 1])) {
      ++i;
      continue;
    }
    break;
  }
  for (std::string_view suffix : {"st", "nd", "rd", "th", "am", "pm"})
    if (starts_with_ci(text, i, suffix) && !runs_on(text, i + 2)) return StructuredMatch{i + 2, DXT_TYPED_NUMBER};
  if (runs_on(text, i)) return std::nullopt;
  return StructuredMatch{i, DXT_TYPED_NUMBER};
}

}  // namespace

std::optional<StructuredMatch> match_structured(std::string_view text, size_t at) {
  if (at >= text.size() || (at > 0 && (is_alnum(text[at - 1]) || text[at - 1] == '_'))) return std::nullopt;
  const char c = text[at];
  if (static_cast<unsigned char>(c) >= 0x80) return std::nullopt;
  if (c == '@') return match_handle(text, at);
  if (is_alpha(c)) {
    if (auto m = match_url(text, at)) return m;
    return match_email(text, at);
  }
  if (c == '+' || c == '(') return match_phone(text, at);
  if (is_digit(c)) {
    if (auto m = match_email(text, at)) return m;
    if (auto m = match_phone(text, at)) return m;
    return match_number(text, at);
  }
  return std::nullopt;
}

}  // namespace dxt
