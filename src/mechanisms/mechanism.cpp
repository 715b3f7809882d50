// SPDX-License-Identifier: Apache-2.0
#include "mechanisms/mechanism.hpp"
#include "mechanisms/input_keeping_check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "accounting/privacy_report.hpp"
#include "errors/error.hpp"
#include "mechanisms/exponential_mechanism.hpp"
#include "mechanisms/hyperbolic_mechanism.hpp"
#include "mechanisms/laplace_mechanism.hpp"
#include "mechanisms/mahalanobis_mechanism.hpp"
#include "mechanisms/ordering_mechanism.hpp"
#include "mechanisms/syntf_mechanism.hpp"
#include "mechanisms/tem_mechanism.hpp"
#include "mechanisms/uniform_floor.hpp"
#include "mechanisms/vickrey_mechanism.hpp"
#include "mechanisms/worst_case.hpp"
#include "search/exact_scan.hpp"

namespace dxt {

std::string format_number(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.10g", v);
  return b;
}

void check_epsilon(double epsilon) {
  // Outside this range some mechanism's arithmetic overflows (a laplace radius
  // beyond binary32 at tiny epsilon; epsilon * d beyond double at huge
  // epsilon): docs/guarantees.md, "The range of epsilon". NaN fails both tests.
  if (!(epsilon >= DXT_EPSILON_MIN && epsilon <= DXT_EPSILON_MAX))
    fail(DXT_E_INVALID_EPSILON, "epsilon must be from " + format_number(DXT_EPSILON_MIN) + " to " +
                                    format_number(DXT_EPSILON_MAX) + ", where dxtext's arithmetic holds (got " +
                                    format_number(epsilon) + ")");
}

dxt_metric geometry_metric(const Model& model) {
  return model.geometry() == DXT_GEOMETRY_POINCARE ? DXT_METRIC_HYPERBOLIC : DXT_METRIC_EUCLIDEAN;
}

void word_distances(const Model& model, std::optional<uint32_t> index, std::vector<float>& row,
                    std::vector<double>& point, std::vector<double>& distances) {
  if (index) {
    model.row(*index, row.data());
    std::copy(row.begin(), row.end(), point.begin());
  } else {
    std::fill(point.begin(), point.end(), 0.0);
  }
  distances_from(model, point.data(), distances.data());
}

void require_geometry(const Model& model, dxt_geometry geometry, const char* mechanism) {
  if (model.geometry() != geometry)
    fail(DXT_E_UNSUPPORTED, std::string("the ") + mechanism + " mechanism needs a " + geometry_name(geometry) +
                                " model; this model is " + geometry_name(model.geometry()));
}

std::unique_ptr<Mechanism> make_mechanism(const Model& model, const MechanismParams& p) {
  check_epsilon(p.epsilon);
  // The search option chooses how a noisy point is decoded; the other
  // mechanisms draw from the whole vocabulary or decode hyperbolically, and
  // silently ignoring the option would hide an unmet request.
  const bool decodes_euclidean =
      p.id == DXT_MECHANISM_LAPLACE || p.id == DXT_MECHANISM_VICKREY || p.id == DXT_MECHANISM_MAHALANOBIS;
  if (p.search != DXT_SEARCH_EXACT && !decodes_euclidean)
    fail(DXT_E_UNSUPPORTED, std::string("the ") + mechanism_name(p.id) +
                                " mechanism always searches exactly; search ivf applies to laplace, vickrey and "
                                "mahalanobis");
  if (p.output && (p.output->rows.empty() || p.output->member.size() != model.vocabulary_size()))
    fail(DXT_E_INVALID_ARGUMENT, "the output vocabulary is empty or was built for another model");
  if (!(p.floor >= 0 && p.floor < 1))
    fail(DXT_E_INVALID_ARGUMENT, "floor must be from 0 to below 1 (got " + format_number(p.floor) + ")");
  if (!(p.context_prior >= 0 && p.context_prior <= DXT_EPSILON_MAX))
    fail(DXT_E_INVALID_ARGUMENT,
         "context_prior must be from 0 to 1e6 (got " + format_number(p.context_prior) + "); 0: none");
  if (p.context_prior > 0 && p.id != DXT_MECHANISM_ORDERING)
    fail(DXT_E_UNSUPPORTED, std::string("context_prior weights the ordering mechanism's law only, not ") +
                                mechanism_name(p.id) + "'s; leave it at 0");
  if (p.floor > 0 && p.id == DXT_MECHANISM_SYNTF)
    fail(DXT_E_UNSUPPORTED,
         "the uniform floor does not apply to syntf: each of its draws is already epsilon-DP between any two "
         "documents; leave floor at 0");
  std::unique_ptr<Mechanism> m;
  switch (p.id) {
    case DXT_MECHANISM_LAPLACE: m = std::make_unique<LaplaceMechanism>(model, p); break;
    case DXT_MECHANISM_HYPERBOLIC: m = std::make_unique<HyperbolicMechanism>(model, p); break;
    case DXT_MECHANISM_EXPONENTIAL: m = std::make_unique<ExponentialMechanism>(model, p); break;
    case DXT_MECHANISM_SYNTF: m = std::make_unique<SyntfMechanism>(model, p); break;
    case DXT_MECHANISM_MAHALANOBIS: m = std::make_unique<MahalanobisMechanism>(model, p); break;
    case DXT_MECHANISM_VICKREY: m = std::make_unique<VickreyMechanism>(model, p); break;
    case DXT_MECHANISM_TEM: m = std::make_unique<TemMechanism>(model, p); break;
    case DXT_MECHANISM_ORDERING: m = std::make_unique<OrderingMechanism>(model, p); break;
    default: fail(DXT_E_UNSUPPORTED, "unknown mechanism " + std::to_string(static_cast<int>(p.id)));
  }
  const double tem_gamma = p.id == DXT_MECHANISM_TEM ? static_cast<const TemMechanism&>(*m).gamma() : 0;
  const bool keeps_input = mechanism_keeps_input(model, p, tem_gamma);
  if (p.floor > 0) m = std::make_unique<UniformFloor>(model, std::move(m));
  // With a floor the input still comes back with probability about 1 - p:
  // the record says so all the same.
  m->set_keeps_input(keeps_input);
  m->set_worst_case_per_word(worst_case_per_word(*m, model));
  return m;
}

}  // namespace dxt
