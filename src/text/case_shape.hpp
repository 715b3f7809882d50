// SPDX-License-Identifier: Apache-2.0
// The case shape of a word, so a replacement can be written the way the
// original was: "Paris" -> "Rome", "NASA" -> "ESA", "dog" -> "cat".
#pragma once

#include <string>
#include <string_view>

namespace dxt {

enum class CaseShape { kLower, kTitle, kUpper, kMixed };

CaseShape case_shape(std::string_view word);
std::string apply_case_shape(std::string_view word, CaseShape shape);

}  // namespace dxt
