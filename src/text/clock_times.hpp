// SPDX-License-Identifier: Apache-2.0
// Clock times (DXT_TYPED_TIME; docs/guarantees.md, "Typed replacement"):
// the shape a time is written in, and a uniform time of day written in that
// shape, so that "2:08 PM" becomes another afternoon-or-morning time and
// "14:30" another 24-hour time. The pattern that finds a time is in
// text/structured_tokens.cpp.
#pragma once

#include <string>
#include <string_view>

#include "rng/random_stream.hpp"

namespace dxt {

// What a replacement copies of a time: all that is revealed of it.
struct ClockShape {
  bool twelve_hour = false;  // written with am/pm ("2:08 PM", "9am")
  int fields = 1;            // after the hour: 0 none ("9am"), 1 minutes, 2 minutes and seconds
  char separator = ':';      // between hour and minutes: ':' or '.' ("12.30 pm")
  std::string suffix;        // the am/pm as written (" PM", "pm", " a.m"), its a/p at suffix_letter
  size_t suffix_letter = 0;
};

// The shape of `time`, a token the time pattern matched (read folded, so
// full-width digits and U+00A0 count as ASCII ones); an unreadable one is
// 24-hour with minutes.
ClockShape clock_shape(std::string_view time);

// A time of day drawn uniformly with `rng`, written in `shape`: 12-hour, an
// hour 1..12 without a leading zero and am or pm each with probability 1/2,
// the a/p in the case it had; 24-hour, an hour 00..23 in two digits;
// minutes and seconds 00..59 in two digits when the shape has them. Every
// time of the shape's precision is equally likely (1440 with minutes, 86400
// with seconds, 24 for an hour alone), whatever time was written.
std::string clock_time_replacement(const ClockShape& shape, RandomStream& rng);

}  // namespace dxt
