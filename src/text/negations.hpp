// SPDX-License-Identifier: Apache-2.0
// Negators (dxt_privatize_options.negations; docs/guarantees.md,
// "Negations"): a fixed public list of words that turn a statement into its
// opposite. Under negations keep a negator is released as written and the
// output vocabulary leaves every negator out, so a release has exactly the
// negations of its input, no fewer and no more.
#pragma once

#include <memory>
#include <string_view>

#include "mechanisms/output_set.hpp"
#include "model/model.hpp"

namespace dxt {

// Whether `word` (in any case, with ' or ’) is a negator: "not", "no",
// "never", "nothing", "nobody", "noone", "none", "neither", "nor",
// "nowhere", "without", "cannot", "nope", "nah", or a word that ends in
// "n't" ("don't", "isn't", "ain't", "n't").
bool is_negator(std::string_view word);

// `base` (nullptr: the whole vocabulary) without its negators.
std::shared_ptr<const OutputSet> output_without_negators(const Model& model, const OutputSet* base);

// The output vocabulary of options `o` (its preset applied) that name no
// output_set: the top-N words or the whole vocabulary (nullptr), without
// negators under negations keep. For the tools that build a mechanism
// outside a context (dxtext loss, sample).
std::shared_ptr<const OutputSet> options_output(const Model& model, const dxt_privatize_options& o);

}  // namespace dxt
