// SPDX-License-Identifier: Apache-2.0
#include "text/clock_times.hpp"

#include "sampling/samplers.hpp"
#include "unicode/fold.hpp"

namespace dxt {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

std::string two_digits(uint32_t v) { return {static_cast<char>('0' + v / 10), static_cast<char>('0' + v % 10)}; }

}  // namespace

ClockShape clock_shape(std::string_view time) {
  const std::string t = unicode::fold_keeping_case(time);
  ClockShape s;
  size_t i = 0;
  while (i < t.size() && is_digit(t[i])) ++i;
  s.fields = 0;
  if (i + 2 < t.size() && (t[i] == ':' || t[i] == '.') && is_digit(t[i + 1]) && is_digit(t[i + 2])) {
    s.separator = t[i];
    s.fields = 1;
    i += 3;
    if (i + 2 < t.size() && t[i] == ':' && is_digit(t[i + 1]) && is_digit(t[i + 2])) {
      s.fields = 2;
      i += 3;
    }
  }
  const std::string rest = t.substr(i);
  const size_t letter = rest.find_first_of("aApP");
  if (letter != std::string::npos && rest.find_first_of("mM", letter) != std::string::npos) {
    s.twelve_hour = true;
    s.suffix = rest;
    s.suffix_letter = letter;
    return s;
  }
  if (s.fields == 0 || s.separator != ':') return ClockShape{};  // not a time's shape: 24-hour HH:MM
  return s;
}

std::string clock_time_replacement(const ClockShape& shape, RandomStream& rng) {
  std::string out = shape.twelve_hour ? std::to_string(1 + uniform_index(rng, 12)) : two_digits(uniform_index(rng, 24));
  if (shape.fields >= 1) out += shape.separator + two_digits(uniform_index(rng, 60));
  if (shape.fields >= 2) out += ':' + two_digits(uniform_index(rng, 60));
  if (shape.twelve_hour) {
    std::string suffix = shape.suffix;
    const bool pm = uniform_index(rng, 2) == 1;
    char& c = suffix[shape.suffix_letter];
    const bool upper = c == 'A' || c == 'P';
    c = pm ? (upper ? 'P' : 'p') : (upper ? 'A' : 'a');
    out += suffix;
  }
  return out;
}

}  // namespace dxt
