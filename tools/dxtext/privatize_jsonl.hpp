// SPDX-License-Identifier: Apache-2.0
// dxtext privatize --jsonl: privatise one string field of every record of a
// JSON Lines stream.
#pragma once

#include <vector>

#include "cli_args.hpp"
#include "dxtext/dxtext.h"

namespace dxt::cli {

// Option names read by privatize_jsonl, to add to `privatize`'s options.
inline const char* const kJsonlOptions[] = {"field", "on-error", "threads"};

// Reads JSON lines from standard input and writes each one to standard output
// with the string member --field (default "text") privatised and every other
// byte unchanged, in input order. Empty (or all-whitespace) lines are copied
// as they are. A bad record (not one JSON object, no such string member, or
// text the library rejects) stops the run with its line number
// (--on-error stop, the default) or is left out of the output with a warning
// naming the line (--on-error skip). Returns the exit code.
//
// Records are privatised by contexts.size() threads (--threads), context t
// taking the records on lines t, t + n, t + 2n, ... (n = the thread count)
// in a block of lines read ahead; output, warnings and errors still come in
// input order, and nothing after a record that stops the run is written.
int privatize_jsonl(const std::vector<dxt_context*>& contexts, const dxt_privatize_options& options, const Args& args);

}  // namespace dxt::cli
