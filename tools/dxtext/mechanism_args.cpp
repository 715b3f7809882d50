#include "mechanism_args.hpp"

#include "accounting/privacy_report.hpp"
#include "model/model_locator.hpp"

namespace dxt::cli {

MechanismParams parse_mechanism_params(const Args& args) {
  MechanismParams p;
  const std::string name = args.get("mechanism").value_or("laplace");
  p.id = mechanism_from_name(name);
  if (p.id == DXT_MECHANISM_UNKNOWN) {
    std::string known;
    for (int id = DXT_MECHANISM_LAPLACE; id <= DXT_MECHANISM_TEM; ++id)
      known += std::string(known.empty() ? "" : ", ") + mechanism_name(static_cast<dxt_mechanism>(id));
    throw UsageError("unknown mechanism '" + name + "' (" + known + ")");
  }
  p.tem_gamma = args.number("gamma", p.tem_gamma);
  p.tem_beta = args.number("beta", p.tem_beta);
  p.vickrey_t = args.number("t", p.vickrey_t);
  p.mahalanobis_lambda = args.number("lambda", p.mahalanobis_lambda);
  p.syntf_s = args.number("s", p.syntf_s);
  if (auto s = args.get("sampler")) {
    if (*s == "permute-and-flip") {
      p.sampler = DXT_SAMPLER_PERMUTE_AND_FLIP;
    } else if (*s != "gumbel") {
      throw UsageError("--sampler must be gumbel or permute-and-flip");
    }
  }
  const std::string search = args.get("search").value_or("exact");
  if (search == "ivf") {
    p.search = DXT_SEARCH_IVF;
    const uint64_t nprobe = args.count("nprobe", 0);
    if (nprobe > UINT32_MAX) throw UsageError("--nprobe is too large");
    p.ivf_nprobe = static_cast<uint32_t>(nprobe);
  } else if (search != "exact") {
    throw UsageError("--search must be exact or ivf");
  } else if (args.get("nprobe")) {
    throw UsageError("--nprobe needs --search ivf");
  }
  return p;
}

std::string model_path_for(const Args& args, const MechanismParams& params) {
  if (auto m = args.get("model")) return *m;
  return find_default_model(params.id == DXT_MECHANISM_HYPERBOLIC ? DXT_GEOMETRY_POINCARE : DXT_GEOMETRY_EUCLIDEAN);
}

}  // namespace dxt::cli
