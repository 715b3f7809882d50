// SPDX-License-Identifier: Apache-2.0
#include "mechanisms/exact_law.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "accounting/privacy_report.hpp"
#include "errors/error.hpp"
#include "mechanisms/ordering_mechanism.hpp"
#include "mechanisms/uniform_floor.hpp"

namespace dxt {

namespace {

const Mechanism& without_floor(const Mechanism& m) {
  const auto* floored = dynamic_cast<const UniformFloor*>(&m);
  return floored != nullptr ? floored->inner() : m;
}

constexpr double kNoMass = -std::numeric_limits<double>::infinity();

// ln(e^a + e^b).
double log_add(double a, double b) {
  const double hi = std::max(a, b), lo = std::min(a, b);
  return lo == kNoMass ? hi : hi + std::log1p(std::exp(lo - hi));
}

// ln Pr[o | w] = -eps d(w, o) / 2 - ln Z over the output vocabulary.
void softmax_log_law(const Mechanism& m, const Model& model, std::optional<uint32_t> index,
                     std::vector<double>& log_law) {
  const uint32_t V = model.vocabulary_size();
  std::vector<float> row(model.dimension());
  std::vector<double> point(model.dimension()), distances(V);
  word_distances(model, index, row, point, distances);
  const std::vector<uint32_t>* rows = output_rows(m.params());
  log_law.assign(V, kNoMass);
  auto each = [&](auto&& f) {
    if (rows == nullptr) {
      for (uint32_t o = 0; o < V; ++o) f(o);
    } else {
      for (const uint32_t o : *rows) f(o);
    }
  };
  double nearest = std::numeric_limits<double>::infinity();
  each([&](uint32_t o) { nearest = std::min(nearest, distances[o]); });
  double z = 0;  // the normaliser relative to the nearest output: at least 1
  each([&](uint32_t o) { z += std::exp(-m.epsilon() * (distances[o] - nearest) / 2); });
  const double log_z = std::log(z);
  each([&](uint32_t o) { log_law[o] = -m.epsilon() * (distances[o] - nearest) / 2 - log_z; });
}

}  // namespace

bool has_exact_law(const Mechanism& m) {
  const Mechanism& inner = without_floor(m);
  return inner.id() == DXT_MECHANISM_ORDERING ||
         (inner.id() == DXT_MECHANISM_EXPONENTIAL && inner.params().sampler == DXT_SAMPLER_GUMBEL);
}

void exact_log_law(const Mechanism& m, const Model& model, std::optional<uint32_t> index, std::vector<double>& log_law,
                   std::optional<uint32_t> previous) {
  if (!has_exact_law(m))
    fail(DXT_E_UNSUPPORTED, std::string("no exact law is known for the ") + mechanism_name(m.id()) +
                                " mechanism; only its bound (epsilon * d, capped by a floor) is");
  const Mechanism& inner = without_floor(m);
  if (inner.id() == DXT_MECHANISM_ORDERING)
    static_cast<const OrderingMechanism&>(inner).log_law(index, log_law, previous);
  else
    softmax_log_law(inner, model, index, log_law);
  // The floor: ln((1 - p) Pr_M[o | w] + p / |S|) on S.
  const double p = m.params().floor;
  if (p > 0) {
    const double keep = std::log1p(-p);
    const double uniform = std::log(p / output_count(model, m.params()));
    const std::vector<uint32_t>* rows = output_rows(m.params());
    auto mix = [&](uint32_t o) { log_law[o] = log_add(keep + log_law[o], uniform); };
    if (rows == nullptr) {
      for (uint32_t o = 0; o < log_law.size(); ++o) mix(o);
    } else {
      for (const uint32_t o : *rows) mix(o);
    }
  }
}

void exact_law(const Mechanism& m, const Model& model, std::optional<uint32_t> index, std::vector<double>& law,
               std::optional<uint32_t> previous) {
  exact_log_law(m, model, index, law, previous);
  for (double& x : law) x = std::exp(x);
}

double log_law_loss(const std::vector<double>& a, const std::vector<double>& b) {
  double worst = 0;
  for (size_t o = 0; o < a.size(); ++o) {
    if (a[o] == kNoMass && b[o] == kNoMass) continue;
    if (a[o] == kNoMass || b[o] == kNoMass) return std::numeric_limits<double>::infinity();
    worst = std::max(worst, std::abs(a[o] - b[o]));
  }
  return worst;
}

double law_loss(const std::vector<double>& a, const std::vector<double>& b) {
  double worst = 0;
  for (size_t o = 0; o < a.size(); ++o) {
    if (a[o] == 0 && b[o] == 0) continue;
    if (a[o] == 0 || b[o] == 0) return std::numeric_limits<double>::infinity();
    worst = std::max(worst, std::abs(std::log(a[o] / b[o])));
  }
  return worst;
}

}  // namespace dxt
