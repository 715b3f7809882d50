// SPDX-License-Identifier: Apache-2.0
// The help text of every dxtext command: `dxtext help`, `dxtext help
// COMMAND` and `dxtext COMMAND --help` all print from this one table.
#pragma once

#include <string>
#include <vector>

namespace dxt::cli {

struct CommandHelp {
  const char* name;
  const char* usage;     // synopsis and description, as printed
  bool mechanism_notes;  // takes --mechanism / --model: print the notes on them too
};

const std::vector<CommandHelp>& command_help();
std::vector<std::string> command_names();

// Every command's usage and the notes: `dxtext help`.
std::string overall_usage();

// One command's usage (and the notes if it has mechanism options); empty for
// an unknown command.
std::string usage_of(const std::string& command);

}  // namespace dxt::cli
