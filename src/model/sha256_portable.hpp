// SPDX-License-Identifier: Apache-2.0
// SHA-256 (FIPS 180-4) in plain C++, for builds without OpenSSL
// (DXT_CRYPTO=portable: WebAssembly, iOS). Model digests and fingerprints
// rest on it, so tests/unit/test_portable_crypto.cpp checks it against the
// FIPS 180-4 examples and against OpenSSL. It is compiled in every build so
// that the native tests can compare the two.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "model/sha256.hpp"

namespace dxt {

class PortableSha256 {
 public:
  PortableSha256();
  ~PortableSha256();
  PortableSha256(const PortableSha256&) = delete;
  PortableSha256& operator=(const PortableSha256&) = delete;

  void update(const void* data, size_t size);
  // Pads, returns the digest and resets to the initial state.
  Digest finish();

 private:
  void reset();
  void compress(const uint8_t* block);

  std::array<uint32_t, 8> state_{};
  std::array<uint8_t, 64> block_{};
  size_t block_used_ = 0;
  uint64_t message_bytes_ = 0;
};

}  // namespace dxt
