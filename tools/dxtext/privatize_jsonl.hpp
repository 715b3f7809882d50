// dxtext privatize --jsonl: privatise one string field of every record of a
// JSON Lines stream.
#pragma once

#include "cli_args.hpp"
#include "dxtext/dxtext.h"

namespace dxt::cli {

// Option names read by privatize_jsonl, to add to `privatize`'s options.
inline const char* const kJsonlOptions[] = {"field", "on-error"};

// Reads JSON lines from standard input and writes each one to standard output
// with the string member --field (default "text") privatised and every other
// byte unchanged, in input order. Empty (or all-whitespace) lines are copied
// as they are. A bad record (not one JSON object, no such string member, or
// text the library rejects) stops the run with its line number
// (--on-error stop, the default) or is left out of the output with a warning
// naming the line (--on-error skip). Returns the exit code.
int privatize_jsonl(dxt_context* ctx, const dxt_privatize_options& options, const Args& args);

}  // namespace dxt::cli
