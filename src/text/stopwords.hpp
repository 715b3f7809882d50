// SPDX-License-Identifier: Apache-2.0
// The built-in English stopword list behind DXT_CLASS_STOPWORD.
#pragma once

#include <string_view>

namespace dxt {

// `lower` must already be lowercase.
bool is_stopword(std::string_view lower);

}  // namespace dxt
