// SPDX-License-Identifier: Apache-2.0
// Sha256 on the portable implementation (DXT_CRYPTO=portable); the OpenSSL
// build uses sha256.cpp instead.
#include "model/sha256.hpp"
#include "model/sha256_portable.hpp"

namespace dxt {

Sha256::Sha256() : ctx_(new PortableSha256) {}

Sha256::~Sha256() { delete static_cast<PortableSha256*>(ctx_); }

void Sha256::update(const void* data, size_t size) {
  if (size > 0) static_cast<PortableSha256*>(ctx_)->update(data, size);
}

Digest Sha256::finish() { return static_cast<PortableSha256*>(ctx_)->finish(); }

}  // namespace dxt
