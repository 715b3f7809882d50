// SPDX-License-Identifier: Apache-2.0
// Buffered random bytes for one context, and uniform doubles over (0,1).
//
// The buffer holds a few KiB from the ByteSource. Each byte is wiped as soon
// as it is consumed, so noise that was used cannot be read back from memory;
// a copy of it in a child process (fork, _Fork, clone) discards what it
// inherited before its first draw there (it would otherwise reuse the
// parent's noise). A source failure propagates as DXT_E_RNG_FAILURE.
#pragma once

#include <array>
#include <cstdint>
#include <memory>

#include "rng/byte_source.hpp"

namespace dxt {

class RandomStream {
 public:
  explicit RandomStream(std::unique_ptr<ByteSource> source);
  ~RandomStream();
  RandomStream(const RandomStream&) = delete;
  RandomStream& operator=(const RandomStream&) = delete;

  uint64_t next_u64();

  // Uniform on (0,1) over the full floating-point range: 53 random mantissa
  // bits and an exponent drawn geometrically (each binade half as likely as
  // the one above), so values as small as 2^-1074 occur with their true
  // probability and -ln(U) is not capped (DESIGN.md §4). Never 0, never 1.
  double uniform();

  // The same uniform as its parts, without a floor: U = m * 2^-(53 + k),
  // m in [2^52, 2^53) (53 random bits with the top one set), k >= 0 the
  // number of zero bits before the leading one of an infinite random bit
  // string. It reads exactly the bytes uniform() reads whenever uniform()
  // does not stop at its floor (k < 1088), so the two agree draw for draw;
  // past that, uniform() returns 2^-1074 while k keeps counting. More than
  // 1024 zero words in a row (65,536 zero bits, probability 2^-65536) mean a
  // broken generator and throw DXT_E_RNG_FAILURE: k is at most 65,599.
  struct UniformParts {
    uint64_t k;
    uint64_t mantissa;
  };
  UniformParts uniform_parts();

  dxt_rng_mode mode() const { return source_->mode(); }

 private:
  void refill();

  std::unique_ptr<ByteSource> source_;
  std::array<uint8_t, 4096> buffer_{};
  size_t position_ = 4096;
  uint64_t fork_generation_;
};

}  // namespace dxt
