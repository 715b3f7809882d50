// SPDX-License-Identifier: Apache-2.0
// The presets as the help text shows them (presets_command.cpp).
#pragma once

#include <string>

namespace dxt::cli {

// The presets and their values as a text table, and the model they were
// chosen on.
std::string presets_text();

// The presets' names, separated by '|' (for a usage line).
std::string preset_names();

}  // namespace dxt::cli
