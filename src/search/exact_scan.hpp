// Exact nearest-neighbour decoding (DESIGN.md §7): for the Euclidean metric,
//   argmin_v ||phi(v)||^2 - 2 <phi(v), z>
// over the whole vocabulary, with the precomputed squared norms. Ties break
// to the lowest index. The result depends on z and the model only.
#pragma once

#include <cstdint>

#include "model/model.hpp"

namespace dxt {

uint32_t nearest_euclidean(const Model& model, const float* z);

}  // namespace dxt
