// The mechanism options shared by the commands that build a mechanism
// directly (calibrate, bench): --mechanism and its parameters.
#pragma once

#include <string>

#include "cli_args.hpp"
#include "mechanisms/mechanism.hpp"

namespace dxt::cli {

// The names of the options parse_mechanism_params reads, for Args.
inline const char* const kMechanismOptions[] = {"mechanism", "gamma",   "beta",   "t",     "lambda",
                                                "s",         "sampler", "search", "nprobe"};

// --mechanism (default laplace), --gamma, --beta, --t, --lambda, --s,
// --sampler, --search exact|ivf, --nprobe; epsilon is left to the caller.
MechanismParams parse_mechanism_params(const Args& args);

// The model to use: --model, or the default model for the mechanism's
// geometry.
std::string model_path_for(const Args& args, const MechanismParams& params);

}  // namespace dxt::cli
