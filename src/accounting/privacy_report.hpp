// SPDX-License-Identifier: Apache-2.0
// What a privatise call reports (DESIGN.md §9), in two parts kept apart on
// purpose: the release record (what was released and the guarantee it
// carries; a function of the options, the model and the generator mode only,
// so it is safe to send beside the text) and the local diagnostics (what
// happened to the input's tokens; they describe the input and stay local).
#pragma once

#include <cstdint>
#include <string>

#include "dxtext/dxtext.h"
#include "mechanisms/mechanism.hpp"
#include "model/model.hpp"

namespace dxt {

// What happened to the tokens of one call: the local diagnostics.
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

// What a release is, apart from the mechanism: which call made it, the token
// policies in force (resolved: no DXT_POLICY_DEFAULT), and for dxt_syntf the
// number of draws n_out. None of it depends on the input.
struct ReleaseShape {
  dxt_release_kind kind = DXT_RELEASE_WORD;
  dxt_token_policy policy[DXT_TOKEN_CLASS_COUNT] = {DXT_POLICY_PRIVATIZE, DXT_POLICY_PRIVATIZE, DXT_POLICY_PRIVATIZE,
                                                    DXT_POLICY_PRIVATIZE};
  uint64_t draws = 0;
  // False for dxt_privatize_index, which releases an index: no case shape.
  bool case_shape = true;
  // What of a text's form is copied (text/text_shaper.hpp).
  dxt_release_shape text_shape = DXT_SHAPE_KEEP;
  // The preset of the options (DXT_PRESET_NONE: none).
  dxt_preset preset = DXT_PRESET_NONE;
  // Typed classes: a dxt_typed_policy per dxt_typed_family, and the flags.
  dxt_typed_policy typed[DXT_TYPED_FAMILY_COUNT] = {DXT_TYPED_PRIVATIZE, DXT_TYPED_PRIVATIZE, DXT_TYPED_PRIVATIZE,
                                                    DXT_TYPED_PRIVATIZE, DXT_TYPED_PRIVATIZE, DXT_TYPED_PRIVATIZE};
  uint32_t typed_flags = 0;     // DXT_TYPED_FLAG_*
  bool keep_negations = false;  // negations keep: negators released as written
};

// Bit (1u << class) of every typed class whose policy in `shape` is replace
// or placeholder (dxt_release_record.typed_classes).
uint32_t revealed_typed_classes(const ReleaseShape& shape);

// Bit (1u << class) of every typed class whose policy in `shape` is drop
// (dxt_release_record.typed_dropped).
uint32_t dropped_typed_classes(const ReleaseShape& shape);

// The DXT_REVEALS_* bits of a release of this shape.
uint32_t release_reveals(const ReleaseShape& shape);

// Fill the fields of `record` / `diagnostics` that exist at their
// struct_size. The model fingerprint is computed (once per model) only when a
// record is asked for.
void fill_record(dxt_release_record& record, const Mechanism& mechanism, const Model& model, dxt_rng_mode rng_mode,
                 const ReleaseShape& shape);
void fill_diagnostics(dxt_local_diagnostics& diagnostics, const TokenTally& tally);

std::string record_to_json(const dxt_release_record& record);
std::string diagnostics_to_json(const dxt_local_diagnostics& diagnostics);

const char* mechanism_name(dxt_mechanism id);
const char* geometry_name(dxt_geometry g);
const char* metric_name(dxt_metric m);
// Parses a mechanism name ("laplace", ...); DXT_MECHANISM_UNKNOWN if none.
dxt_mechanism mechanism_from_name(const std::string& name);
const char* quantization_name(dxt_quantization q);

}  // namespace dxt
