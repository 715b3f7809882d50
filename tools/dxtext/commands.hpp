// The dxtext subcommands. Each returns the process exit code and throws
// dxt::Error or cli::UsageError on failure.
#pragma once

namespace dxt::cli {

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

}  // namespace dxt::cli
