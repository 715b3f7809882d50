// SPDX-License-Identifier: Apache-2.0
#include "mechanisms/uniform_floor.hpp"

#include <utility>

#include "sampling/samplers.hpp"

namespace dxt {

UniformFloor::UniformFloor(const Model& model, std::unique_ptr<Mechanism> inner)
    : Mechanism(inner->params()),
      inner_(std::move(inner)),
      rows_(output_rows(params())),
      n_(output_count(model, params())) {}

uint32_t UniformFloor::mix(RandomStream& rng, uint32_t word) {
  const bool floor = rng.uniform() < params().floor;
  const uint32_t j = uniform_index(rng, n_);
  const uint32_t uniform_word = rows_ != nullptr ? (*rows_)[j] : j;
  return floor ? uniform_word : word;
}

uint32_t UniformFloor::privatize(RandomStream& rng, std::optional<uint32_t> index) {
  return mix(rng, inner_->privatize(rng, index));
}

void UniformFloor::privatize_batch(RandomStream& rng, const std::optional<uint32_t>* indices, size_t count,
                                   uint32_t* out) {
  inner_->privatize_batch(rng, indices, count, out);
  for (size_t j = 0; j < count; ++j) out[j] = mix(rng, out[j]);
}

}  // namespace dxt
