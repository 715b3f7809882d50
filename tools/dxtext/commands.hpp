// SPDX-License-Identifier: Apache-2.0
// The dxtext subcommands. Each returns the process exit code and throws
// dxt::Error or cli::UsageError on failure.
#pragma once

#include <string>

#include "dxtext/dxtext.h"
#include "errors/error.hpp"

namespace dxt::cli {

// Throws dxt::Error with the library's message when a C API call failed.
inline void check(dxt_status s) {
  if (s != DXT_OK) {
    const std::string msg = dxt_last_error_message();
    throw Error(s, msg.empty() ? dxt_status_string(s) : msg);
  }
}

int run_convert(int argc, char** argv);
int run_inspect(int argc, char** argv);
int run_export(int argc, char** argv);
int run_privatize(int argc, char** argv);
int run_sample(int argc, char** argv);
int run_decode(int argc, char** argv);
int run_tokenize(int argc, char** argv);
int run_account(int argc, char** argv);
int run_syntf(int argc, char** argv);
int run_calibrate(int argc, char** argv);
int run_bench(int argc, char** argv);
int run_synth(int argc, char** argv);
int run_index(int argc, char** argv);
int run_order(int argc, char** argv);
int run_orderings(int argc, char** argv);
int run_typed_classes(int argc, char** argv);
int run_context_prior(int argc, char** argv);
int run_ledger(int argc, char** argv);
int run_presets(int argc, char** argv);
int run_loss(int argc, char** argv);

}  // namespace dxt::cli
