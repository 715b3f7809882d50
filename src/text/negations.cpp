// SPDX-License-Identifier: Apache-2.0
#include "text/negations.hpp"

#include <algorithm>
#include <string>

#include "text/text_privatizer.hpp"
#include "unicode/fold.hpp"

namespace dxt {

namespace {
// Sorted, lower case.
constexpr std::string_view kNegators[] = {"cannot", "nah",  "neither", "never", "no",      "nobody",  "none",
                                          "noone",  "nope", "nor",     "not",   "nothing", "nowhere", "without"};
}  // namespace

bool is_negator(std::string_view word) {
  const std::string w = unicode::fold(fold_apostrophes(word));
  if (w.size() >= 3 && w.compare(w.size() - 3, 3, "n't") == 0) return true;
  return std::binary_search(std::begin(kNegators), std::end(kNegators), std::string_view(w));
}

std::shared_ptr<const OutputSet> output_without_negators(const Model& model, const OutputSet* base) {
  return output_without(model, base, [](std::string_view w) { return is_negator(w); });
}

std::shared_ptr<const OutputSet> options_output(const Model& model, const dxt_privatize_options& o) {
  std::shared_ptr<const OutputSet> base = o.output_top != 0 ? output_top(model, o.output_top) : nullptr;
  return o.negations == DXT_NEGATIONS_KEEP ? output_without_negators(model, base.get()) : base;
}

}  // namespace dxt
