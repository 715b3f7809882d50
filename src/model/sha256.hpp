// SPDX-License-Identifier: Apache-2.0
// SHA-256: OpenSSL's EVP interface (sha256.cpp) or, with DXT_CRYPTO=portable,
// the plain C++ PortableSha256 (sha256_portable_backend.cpp).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace dxt {

using Digest = std::array<uint8_t, 32>;

class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;
  void update(const void* data, size_t size);
  Digest finish();

 private:
  void* ctx_;  // EVP_MD_CTX* or PortableSha256*, opaque so OpenSSL headers stay private
};

Digest sha256(const void* data, size_t size);
std::string to_hex(const uint8_t* data, size_t size);

}  // namespace dxt
