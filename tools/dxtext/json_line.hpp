// SPDX-License-Identifier: Apache-2.0
// A small, strict JSON (RFC 8259) reader for one line of a JSON Lines file:
// it checks the whole line and finds one string member of the top-level
// object, so `privatize --jsonl` can replace that value and copy every other
// byte of the line unchanged.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace dxt::cli {

// A malformed line; `column` is the 1-based byte column where it was found
// (0 when the problem is not at one place, e.g. a missing member).
struct JsonLineError : std::runtime_error {
  JsonLineError(const std::string& message, size_t at) : std::runtime_error(message), column(at) {}
  size_t column;
};

// The member `key` of the object on the line.
struct JsonStringMember {
  size_t begin = 0;   // byte offset of the value's opening quote
  size_t end = 0;     // one past its closing quote
  std::string value;  // the decoded string (UTF-8; \u escapes and surrogate pairs resolved)
};

// Parses `line` as exactly one JSON object (whitespace around it allowed) and
// returns its member `key`, which must be present once and be a string.
// Throws JsonLineError for anything else: a syntax error, invalid UTF-8, a
// lone surrogate escape, nesting deeper than 512, a duplicate or missing key,
// or a value of another type.
JsonStringMember find_string_member(std::string_view line, std::string_view key);

}  // namespace dxt::cli
