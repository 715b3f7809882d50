// SPDX-License-Identifier: Apache-2.0
#include "mechanism_args.hpp"

#include "accounting/privacy_report.hpp"
#include "model/model_locator.hpp"
#include "suggestion.hpp"
#include "text/negations.hpp"
#include "text/privatize_presets.hpp"

namespace dxt::cli {

MechanismParams mechanism_params_of(const dxt_privatize_options& o) {
  MechanismParams p;
  p.id = static_cast<dxt_mechanism>(o.mechanism);
  p.tem_gamma = o.tem_gamma;
  p.tem_beta = o.tem_beta;
  p.vickrey_t = o.vickrey_t;
  p.mahalanobis_lambda = o.mahalanobis_lambda;
  p.syntf_s = o.syntf_s;
  p.sampler = static_cast<dxt_exponential_sampler>(o.exponential_sampler);
  p.search = static_cast<dxt_search>(o.search);
  p.ivf_nprobe = o.ivf_nprobe;
  p.floor = o.uniform_floor;
  p.context_prior = o.context_prior;
  return p;
}

MechanismParams parse_mechanism_params(const Args& args) {
  dxt_privatize_options o = parse_privatize_options(args);
  // The preset's mechanism decides the default model's geometry; the
  // preset's other values are applied, and checked, with the model.
  if (const Preset* preset = find_preset(o.preset)) o.mechanism = preset->mechanism;
  return mechanism_params_of(o);
}

double apply_model_options(const Args& args, const Model& model, MechanismParams& params) {
  dxt_privatize_options o = parse_privatize_options(args);
  o.epsilon = args.get("epsilon") ? args.number("epsilon") : 0;
  if (o.preset != DXT_PRESET_NONE) o = resolve_preset(o, model);
  params = mechanism_params_of(o);
  params.epsilon = o.epsilon;
  params.output = options_output(model, o);
  return o.epsilon;
}

dxt_geometry default_model_geometry(const Args& args, dxt_mechanism mechanism) {
  if (auto g = args.get("geometry")) {
    if (*g == "euclidean") return DXT_GEOMETRY_EUCLIDEAN;
    if (*g == "poincare") return DXT_GEOMETRY_POINCARE;
    throw UsageError(unknown_value("geometry", *g, {"euclidean", "poincare"}));
  }
  return mechanism == DXT_MECHANISM_HYPERBOLIC ? DXT_GEOMETRY_POINCARE : DXT_GEOMETRY_EUCLIDEAN;
}

std::string model_path_for(const Args& args, const MechanismParams& params) {
  const dxt_geometry geometry = default_model_geometry(args, params.id);  // checks --geometry even with --model
  if (auto m = args.get("model")) return *m;
  return find_default_model(geometry);
}

}  // namespace dxt::cli
