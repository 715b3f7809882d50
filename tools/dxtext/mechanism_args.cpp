// SPDX-License-Identifier: Apache-2.0
#include "mechanism_args.hpp"

#include "accounting/privacy_report.hpp"
#include "model/model_locator.hpp"

namespace dxt::cli {

MechanismParams parse_mechanism_params(const Args& args) {
  const dxt_privatize_options o = parse_privatize_options(args);
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
  return p;
}

void apply_output_top(const Args& args, const Model& model, MechanismParams& params) {
  const dxt_privatize_options o = parse_privatize_options(args);
  if (o.output_top != 0) params.output = output_top(model, o.output_top);
}

dxt_geometry default_model_geometry(const Args& args, dxt_mechanism mechanism) {
  if (auto g = args.get("geometry")) {
    if (*g == "euclidean") return DXT_GEOMETRY_EUCLIDEAN;
    if (*g == "poincare") return DXT_GEOMETRY_POINCARE;
    throw UsageError("--geometry must be euclidean or poincare");
  }
  return mechanism == DXT_MECHANISM_HYPERBOLIC ? DXT_GEOMETRY_POINCARE : DXT_GEOMETRY_EUCLIDEAN;
}

std::string model_path_for(const Args& args, const MechanismParams& params) {
  const dxt_geometry geometry = default_model_geometry(args, params.id);  // checks --geometry even with --model
  if (auto m = args.get("model")) return *m;
  return find_default_model(geometry);
}

}  // namespace dxt::cli
