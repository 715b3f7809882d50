#include "accounting/privacy_report.hpp"

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstring>

#include "accounting/syntf_loss.hpp"
#include "model/sha256.hpp"

namespace dxt {

const char* mechanism_name(dxt_mechanism id) {
  switch (id) {
    case DXT_MECHANISM_LAPLACE: return "laplace";
    case DXT_MECHANISM_HYPERBOLIC: return "hyperbolic";
    case DXT_MECHANISM_EXPONENTIAL: return "exponential";
    case DXT_MECHANISM_SYNTF: return "syntf";
    case DXT_MECHANISM_MAHALANOBIS: return "mahalanobis";
    case DXT_MECHANISM_VICKREY: return "vickrey";
    case DXT_MECHANISM_TEM: return "tem";
    default: return "unknown";
  }
}

dxt_mechanism mechanism_from_name(const std::string& name) {
  for (int id = DXT_MECHANISM_LAPLACE; id <= DXT_MECHANISM_TEM; ++id)
    if (name == mechanism_name(static_cast<dxt_mechanism>(id))) return static_cast<dxt_mechanism>(id);
  return DXT_MECHANISM_UNKNOWN;
}

const char* metric_name(dxt_metric m) {
  switch (m) {
    case DXT_METRIC_EUCLIDEAN: return "euclidean";
    case DXT_METRIC_HYPERBOLIC: return "hyperbolic";
    case DXT_METRIC_MAHALANOBIS: return "mahalanobis";
    case DXT_METRIC_DISCRETE: return "discrete";
    default: return "unknown";
  }
}

const char* geometry_name(dxt_geometry g) {
  switch (g) {
    case DXT_GEOMETRY_EUCLIDEAN: return "euclidean";
    case DXT_GEOMETRY_POINCARE: return "poincare";
    default: return "unknown";
  }
}

const char* quantization_name(dxt_quantization q) {
  switch (q) {
    case DXT_QUANT_F32: return "f32";
    case DXT_QUANT_F16: return "f16";
    case DXT_QUANT_INT8: return "int8";
    default: return "unknown";
  }
}

void fill_report(dxt_report& report, const Mechanism& mechanism, const Model& model, dxt_rng_mode rng_mode,
                 const TokenTally& tally) {
  dxt_report r;
  std::memset(&r, 0, sizeof r);
  r.struct_size = report.struct_size;
  r.mechanism = mechanism.id();
  r.epsilon = mechanism.epsilon();
  r.metric = mechanism.metric();
  r.rng_mode = rng_mode;
  r.is_private = rng_mode == DXT_RNG_SYSTEM;
  const Digest& d = model.fingerprint();
  std::memcpy(r.model_fingerprint, d.data(), d.size());
  r.fingerprint_valid = true;
  std::memcpy(r.counts, tally.counts, sizeof r.counts);
  r.words_privatized = tally.privatized;
  r.words_leaked = tally.leaked;
  r.epsilon_per_unit_distance = mechanism.epsilon();
  r.epsilon_document = mechanism.epsilon() * static_cast<double>(tally.privatized);
  if (mechanism.id() == DXT_MECHANISM_SYNTF)
    r.epsilon_document_vocabulary =
        syntf_vocabulary_bound(mechanism.epsilon(), model.vocabulary_size()) * static_cast<double>(tally.privatized);
  // Copy no more than the caller's struct holds (older callers have less).
  std::memcpy(&report, &r, report.struct_size < sizeof r ? report.struct_size : sizeof r);
}

std::string report_to_json(const dxt_report& r) {
  static const char* kClasses[] = {"in_vocabulary", "out_of_vocabulary", "number", "stopword"};
  static const char* kActions[] = {"privatized", "placeholder", "dropped", "kept"};
  auto num = [](double v) {
    char b[64];
    std::snprintf(b, sizeof b, "%.17g", v);
    return std::string(std::isfinite(v) ? b : "null");
  };
  std::string s = "{\"mechanism\":\"";
  s += mechanism_name(static_cast<dxt_mechanism>(r.mechanism));
  s += "\",\"epsilon\":" + num(r.epsilon);
  s += ",\"metric\":\"";
  s += metric_name(static_cast<dxt_metric>(r.metric));
  s += "\",\"rng\":\"";
  s += r.rng_mode == DXT_RNG_SYSTEM ? "system" : r.rng_mode == DXT_RNG_DETERMINISTIC ? "deterministic" : "unknown";
  s += "\",\"private\":";
  s += r.is_private ? "true" : "false";
  if (!r.is_private) s += ",\"warning\":\"deterministic seeded noise: NOT private, for testing only\"";
  s += ",\"model_sha256\":";
  s += r.fingerprint_valid ? "\"" + to_hex(r.model_fingerprint, 32) + "\"" : "null";
  s += ",\"tokens\":{";
  for (int c = 0; c < DXT_TOKEN_CLASS_COUNT; ++c) {
    if (c) s += ',';
    s += "\"";
    s += kClasses[c];
    s += "\":{";
    for (int a = 0; a < DXT_TOKEN_ACTION_COUNT; ++a) {
      if (a) s += ',';
      s += "\"";
      s += kActions[a];
      s += "\":" + std::to_string(r.counts[c][a]);
    }
    s += '}';
  }
  s += "},\"words_privatized\":" + std::to_string(r.words_privatized);
  s += ",\"words_leaked\":" + std::to_string(r.words_leaked);
  // The metric named in the formula: d_euclidean, d_hyperbolic, ...; the
  // discrete metric is 1 between any two different words.
  const std::string d = std::string("d_") + metric_name(static_cast<dxt_metric>(r.metric)) + "(w, w')";
  s += ",\"guarantee\":{\"per_word\":\"" + num(r.epsilon_per_unit_distance) +
       (r.metric == DXT_METRIC_DISCRETE ? "-DP between any two words\"" : " * " + d + "\"");
  if (r.metric == DXT_METRIC_DISCRETE) {
    // Plain DP (syntf): any two inputs are adjacent; for dxt_syntf the bag
    // size is n_out whatever the input, for per-word calls it is the input's.
    s += ",\"document\":\"" + num(r.epsilon_document) + "-DP between any two documents with " +
         std::to_string(r.words_privatized) + " words drawn\"";
    // Only when the caller's report has the field (older callers' do not).
    const bool has_vocabulary_bound =
        r.struct_size >= offsetof(dxt_report, epsilon_document_vocabulary) + sizeof r.epsilon_document_vocabulary;
    if (r.mechanism == DXT_MECHANISM_SYNTF && has_vocabulary_bound)
      s += ",\"document_vocabulary\":\"" + num(r.epsilon_document_vocabulary) +
           "-DP, the same, by the vocabulary-size bound (epsilon + ln eta) per word drawn\"";
  } else {
    s += ",\"document\":\"" + num(r.epsilon_document) + " * EMD(b, b') for bags of " +
         std::to_string(r.words_privatized) + " words\"";
  }
  if (r.words_leaked > 0)
    s += ",\"caveat\":\"" + std::to_string(r.words_leaked) + " tokens passed through unprotected\"";
  s += "}}";
  return s;
}

}  // namespace dxt
