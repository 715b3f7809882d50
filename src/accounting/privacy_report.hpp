// Privacy reports (DESIGN.md §9): what a call did and what it guarantees.
#pragma once

#include <cstdint>
#include <string>

#include "dxtext/dxtext.h"
#include "mechanisms/mechanism.hpp"
#include "model/model.hpp"

namespace dxt {

// What happened to the tokens of one call.
struct TokenTally {
  uint64_t counts[DXT_TOKEN_CLASS_COUNT][DXT_TOKEN_ACTION_COUNT] = {};
  uint64_t privatized = 0;
  uint64_t leaked = 0;
  void add(dxt_token_class cls, dxt_token_policy action) {
    ++counts[cls][action - 1];
    if (action == DXT_POLICY_PRIVATIZE) ++privatized;
    if (action == DXT_POLICY_KEEP) ++leaked;
  }
};

// Fills the fields of `report` that exist at its struct_size. The model
// fingerprint is computed (once per model) only when a report is asked for.
void fill_report(dxt_report& report, const Mechanism& mechanism, const Model& model, dxt_rng_mode rng_mode,
                 const TokenTally& tally);

std::string report_to_json(const dxt_report& report);

const char* mechanism_name(dxt_mechanism id);
const char* geometry_name(dxt_geometry g);
const char* metric_name(dxt_metric m);
// Parses a mechanism name ("laplace", ...); DXT_MECHANISM_UNKNOWN if none.
dxt_mechanism mechanism_from_name(const std::string& name);
const char* quantization_name(dxt_quantization q);

}  // namespace dxt
