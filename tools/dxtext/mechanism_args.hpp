// SPDX-License-Identifier: Apache-2.0
// The mechanism options shared by the commands that build a mechanism
// directly (calibrate, bench): --mechanism and its parameters.
#pragma once

#include <string>

#include "cli_args.hpp"
#include "mechanisms/mechanism.hpp"
#include "privatize_option_args.hpp"

namespace dxt::cli {

// --mechanism (default laplace; with --preset NAME the preset's) and the
// mechanism parameters of tools/options/privatize_options.table
// (--tem-gamma or --gamma, ..., --search exact|ivf, --ivf-nprobe or
// --nprobe), read by parse_privatize_options; the epsilon is left to the
// caller. Their flags for Args: privatize_option_flags(false).
// Not what needs the model (the output vocabulary, the preset's
// resolution): apply_model_options.
MechanismParams parse_mechanism_params(const Args& args);

// The mechanism parameters of resolved options (no output vocabulary: that
// needs the model).
MechanismParams mechanism_params_of(const dxt_privatize_options& o);

// The options of the command line resolved against `model` as the library
// resolves every call's (text/privatize_presets.hpp: --preset applied,
// refused when it conflicts), into `params`, with the output vocabulary of
// --output-top N (the model's N most frequent words). Returns the epsilon:
// --epsilon when given, else the preset's, else 0.
double apply_model_options(const Args& args, const Model& model, MechanismParams& params);

// The geometry whose default model is used without --model: --geometry
// euclidean|poincare, else Poincare for the hyperbolic mechanism and
// Euclidean for the others. (exponential and tem work in either geometry:
// on a Poincare model they give eps * d_H for any epsilon, the route for
// epsilon <= n - 1, which the hyperbolic mechanism cannot take.)
dxt_geometry default_model_geometry(const Args& args, dxt_mechanism mechanism);

// The model to use: --model, or the default model of
// default_model_geometry().
std::string model_path_for(const Args& args, const MechanismParams& params);

}  // namespace dxt::cli
