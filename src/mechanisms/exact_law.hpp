// SPDX-License-Identifier: Apache-2.0
// The exact output law of a mechanism, where it has a closed form, and the
// privacy loss between two inputs computed from it (docs/guarantees.md,
// "Worst case per word"): what `dxtext loss` reports, so that the figures
// the documentation gives can be recomputed for any model and options.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "mechanisms/mechanism.hpp"

namespace dxt {

// Whether exact_law() knows the law of `m`: ordering, and exponential with
// the Gumbel sampler (the softmax), with or without a uniform floor.
bool has_exact_law(const Mechanism& m);

// log_law[o] = ln Pr[o | index] over the vocabulary (-infinity outside the
// output vocabulary); index nullopt: the out-of-vocabulary point. In logs,
// so that a mass too small for a double (e^-20000 along a long ordering)
// still counts. With `previous`, the law after that released word (a context
// prior's; the same law without one). Throws DXT_E_UNSUPPORTED when
// !has_exact_law(m).
void exact_log_law(const Mechanism& m, const Model& model, std::optional<uint32_t> index, std::vector<double>& log_law,
                   std::optional<uint32_t> previous = std::nullopt);

// The same law as probabilities: law[o] = Pr[o | index].
void exact_law(const Mechanism& m, const Model& model, std::optional<uint32_t> index, std::vector<double>& law,
               std::optional<uint32_t> previous = std::nullopt);

// The privacy loss between the inputs of two laws in logs: max over outputs
// o of |a[o] - b[o]|; infinity when one law gives o mass and the other none.
double log_law_loss(const std::vector<double>& a, const std::vector<double>& b);

// The same for laws as probabilities: max over o of |ln(a[o] / b[o])|.
double law_loss(const std::vector<double>& a, const std::vector<double>& b);

}  // namespace dxt
