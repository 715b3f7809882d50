// SPDX-License-Identifier: Apache-2.0
#include "text/case_shape.hpp"

#include "unicode/case_mapping.hpp"
#include "unicode/utf8.hpp"

namespace dxt {

CaseShape case_shape(std::string_view w) {
  size_t uppers = 0, lowers = 0;
  bool first_cased_upper = false, seen_cased = false, later_upper = false;
  for (size_t i = 0; i < w.size();) {
    const uint32_t c = utf8::decode(w.data(), w.size(), i);
    const bool up = unicode::is_upper(c), low = unicode::is_lower(c);
    if (!up && !low) continue;
    if (!seen_cased) {
      first_cased_upper = up;
      seen_cased = true;
    } else if (up) {
      later_upper = true;
    }
    uppers += up;
    lowers += low;
  }
  if (uppers == 0) return CaseShape::kLower;
  if (lowers == 0 && uppers >= 2) return CaseShape::kUpper;
  if (first_cased_upper && !later_upper) return CaseShape::kTitle;
  return CaseShape::kMixed;
}

std::string apply_case_shape(std::string_view w, CaseShape shape) {
  switch (shape) {
    case CaseShape::kUpper: return unicode::uppercase(w);
    case CaseShape::kTitle: {
      std::string out;
      size_t i = 0;
      bool done = false;
      while (i < w.size()) {
        const uint32_t c = utf8::decode(w.data(), w.size(), i);
        if (!done && (unicode::is_lower(c) || unicode::is_upper(c))) {
          utf8::append(out, unicode::to_upper(c));
          done = true;
        } else {
          utf8::append(out, c);
        }
      }
      return out;
    }
    case CaseShape::kLower:
    case CaseShape::kMixed: break;
  }
  return std::string(w);
}

}  // namespace dxt
