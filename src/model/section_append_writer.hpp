// SPDX-License-Identifier: Apache-2.0
// Writes a copy of a model with one section added, or replaced when the model
// already has a section of that kind: every other section is copied byte for
// byte with its stored digest, the new one appended, and the header gets the
// new section table, minor version max(its own, `minor`) and a new digest.
#pragma once

#include <cstdint>
#include <ostream>
#include <vector>

#include "model/model.hpp"

namespace dxt {

// `out` must be seekable and empty.
void write_model_with_section(const Model& model, uint32_t kind, const std::vector<uint8_t>& section, uint16_t minor,
                              std::ostream& out);

}  // namespace dxt
