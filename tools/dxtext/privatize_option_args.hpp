// SPDX-License-Identifier: Apache-2.0
// The privatisation options on the command line, read through the table
// generated from tools/options/privatize_options.table
// (privatize_option_table.hpp): --epsilon, --mechanism, the token policies,
// --placeholder and the mechanism parameters, with their older spellings.
#pragma once

#include <string>
#include <vector>

#include "cli_args.hpp"
#include "dxtext/dxtext.h"

namespace dxt::cli {

// The flags (and older spellings) of the table's options, for Args: all of
// them, or only the mechanism's and --preset (no token policies, no
// placeholder, no release shape, no --output-words).
std::vector<std::string> privatize_option_flags(bool token_options);

// dxt_privatize_options_init(), then every table option given on the
// command line, by name, except the placeholder (the caller points it at a
// string that outlives the call) and --output-words (a file the caller reads
// into an output set). --epsilon is read when given (callers that need it
// check); --preset sets options.preset, which the library resolves.
dxt_privatize_options parse_privatize_options(const Args& args);

}  // namespace dxt::cli
