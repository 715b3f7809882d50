// SPDX-License-Identifier: Apache-2.0
// Overflow-checked size arithmetic for validating untrusted model files.
#pragma once

#include <cstdint>
#include <optional>

namespace dxt {

inline std::optional<uint64_t> checked_add(uint64_t a, uint64_t b) {
  uint64_t r;
  if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
  return r;
}

inline std::optional<uint64_t> checked_mul(uint64_t a, uint64_t b) {
  uint64_t r;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}

}  // namespace dxt
