// SPDX-License-Identifier: Apache-2.0
// Named presets (dxt_privatize_options.preset): a mechanism, epsilon, release
// shape, output vocabulary and token policies for a common job. Their values
// are generated into preset_table.inc from tools/options/presets.table, the
// one place to retune them.
//
// resolve_preset() is the one place a preset is applied: the C glue calls it
// on every privatisation call's options (src/abi/abi_support.hpp,
// check_common), and the command line on the options of the commands that
// build a mechanism themselves, so that every entry point sees the same
// resolved options.
#pragma once

#include <cstddef>
#include <cstdint>

#include "dxtext/dxtext.h"
#include "model/model.hpp"

namespace dxt {

// A mechanism parameter a preset fixes: exactly one of `real` and `whole` is
// set, to the member of dxt_privatize_options it is.
struct PresetParameter {
  const char* name;   // the option's name in tools/options/privatize_options.table
  const char* shown;  // the value as the table spells it
  double dxt_privatize_options::*real;
  uint32_t dxt_privatize_options::*whole;
  double value;          // the preset's value (an enum's number)
  double default_value;  // what dxt_privatize_options_init writes
};

struct Preset {
  dxt_preset id;
  const char* name;
  const char* use;
  dxt_mechanism mechanism;
  double epsilon;
  dxt_release_shape release_shape;
  uint32_t output_top;  // 0: the whole vocabulary
  dxt_token_policy policy[DXT_TOKEN_CLASS_COUNT];
  dxt_typed_policy typed[DXT_TYPED_FAMILY_COUNT];
  PresetParameter parameters[8];
  size_t parameter_count;
};

#include "text/preset_table.inc"

// The preset numbered `id`, or nullptr (DXT_PRESET_NONE and unknown numbers).
const Preset* find_preset(uint32_t id);

// The name of a preset ("readable", ...), "none" for DXT_PRESET_NONE,
// "unknown" for other numbers.
const char* preset_name(uint32_t id);

// The options a call runs with: `given` itself without a preset; with one,
// the fields the preset fixes taken from it, epsilon 0 replaced by the
// preset's, and the preset's output_top cut to the model's vocabulary size.
// Throws DXT_E_INVALID_ARGUMENT for an unknown preset or a fixed field the
// caller set to another value than both its default and the preset's (an
// output_set included), DXT_E_UNSUPPORTED when the preset's output
// vocabulary needs a frequencies section the model lacks, and
// DXT_E_INVALID_EPSILON for epsilon 0 without a preset, and what
// require_typed_lists refuses.
dxt_privatize_options resolve_preset(const dxt_privatize_options& given, const Model& model);

// A dxt_typed_policy's name ("replace", ...), and a dxt_typed_family's
// option name ("names", ..., "typed_numbers", ...); "unknown" for others.
const char* typed_policy_name(uint32_t policy);
const char* typed_family_option(uint32_t family);

// Refuses (DXT_E_UNSUPPORTED, naming the option and the class) options that
// set a typed family read from the model's lists (names, places,
// organizations, health) to anything but privatize when the model has no
// typed classes section or its section lists no member of one of the
// family's classes: those words would pass as ordinary words while the
// release record lists their class (docs/guarantees.md, "Typed replacement"). resolve_preset
// calls it on every call's resolved options, preset or not.
void require_typed_lists(const dxt_privatize_options& options, const Model& model);

// resolve_preset's work for the preset `p` (options.preset is left as given).
dxt_privatize_options apply_preset(const Preset& p, const dxt_privatize_options& given, const Model& model);

}  // namespace dxt
