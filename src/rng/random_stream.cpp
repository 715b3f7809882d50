// SPDX-License-Identifier: Apache-2.0
#include "rng/random_stream.hpp"

#include <cmath>
#include <cstring>

#include "errors/error.hpp"
#include "rng/secure_wipe.hpp"

namespace dxt {

RandomStream::RandomStream(std::unique_ptr<ByteSource> source)
    : source_(std::move(source)), fork_generation_(fork_generation()) {}

RandomStream::~RandomStream() { secure_wipe(buffer_.data(), buffer_.size()); }

void RandomStream::refill() {
  // On failure the buffer stays empty, so the next call asks the source again
  // and fails again: no stale or partial bytes are ever handed out.
  position_ = buffer_.size();
  source_->fill(buffer_.data(), buffer_.size());
  position_ = 0;
}

uint64_t RandomStream::next_u64() {
  const uint64_t generation = fork_generation();
  if (generation != fork_generation_) {  // we are a forked child
    secure_wipe(buffer_.data(), buffer_.size());
    position_ = buffer_.size();
    fork_generation_ = generation;
  }
  if (buffer_.size() - position_ < sizeof(uint64_t)) refill();
  uint64_t v;
  std::memcpy(&v, buffer_.data() + position_, sizeof v);
  secure_wipe(buffer_.data() + position_, sizeof v);
  position_ += sizeof v;
  return v;
}

double RandomStream::uniform() {
  // Find the leading one bit of an infinite random bit string: its position
  // fixes the binade [2^-(k+1), 2^-k) with probability 2^-(k+1).
  int exponent = -64;
  uint64_t bits = next_u64();
  while (bits == 0) {
    exponent -= 64;
    if (exponent < -1088) return std::ldexp(1.0, -1074);  // probability 2^-1088
    bits = next_u64();
  }
  const int lead = __builtin_clzll(bits);
  exponent -= lead;
  bits <<= lead;
  if (lead > 0) bits |= next_u64() >> (64 - lead);
  // bits has its top bit set; keep 53 of them (truncation: each double d
  // stands for [d, d + ulp), so the result is uniform and below 1).
  const double result = std::ldexp(static_cast<double>(bits >> 11), exponent + 11);
  return result > 0 ? result : std::ldexp(1.0, -1074);
}

RandomStream::UniformParts RandomStream::uniform_parts() {
  constexpr int kMaxZeroWords = 1024;
  uint64_t k = 0;
  uint64_t bits = next_u64();
  for (int zero_words = 0; bits == 0; bits = next_u64()) {
    if (++zero_words > kMaxZeroWords) fail(DXT_E_RNG_FAILURE, "the random generator returned 65536 zero bits in a row");
    k += 64;
  }
  const int lead = __builtin_clzll(bits);
  k += static_cast<uint64_t>(lead);
  bits <<= lead;
  if (lead > 0) bits |= next_u64() >> (64 - lead);  // as uniform(): the same bytes
  return {k, bits >> 11};
}

}  // namespace dxt
