// SPDX-License-Identifier: Apache-2.0
// HMAC-SHA-256 (RFC 2104, FIPS 198-1) over dxt::Sha256, so it builds with
// OpenSSL and with DXT_CRYPTO=portable alike. Used by the privacy ledger for
// its memo keys and its file MAC; tests/unit/test_ledger.cpp checks it
// against RFC 4231.
#pragma once

#include <cstddef>
#include <cstdint>

#include "model/sha256.hpp"

namespace dxt {

class HmacSha256 {
 public:
  HmacSha256(const void* key, size_t key_size) {
    uint8_t block[64] = {};
    if (key_size > sizeof block) {
      const Digest d = sha256(key, key_size);
      for (size_t i = 0; i < d.size(); ++i) block[i] = d[i];
    } else {
      const auto* k = static_cast<const uint8_t*>(key);
      for (size_t i = 0; i < key_size; ++i) block[i] = k[i];
    }
    for (size_t i = 0; i < sizeof block; ++i) {
      inner_pad_[i] = static_cast<uint8_t>(block[i] ^ 0x36);
      outer_pad_[i] = static_cast<uint8_t>(block[i] ^ 0x5c);
    }
    inner_.update(inner_pad_, sizeof inner_pad_);
  }
  void update(const void* data, size_t size) { inner_.update(data, size); }
  Digest finish() {
    const Digest inner = inner_.finish();
    Sha256 outer;
    outer.update(outer_pad_, sizeof outer_pad_);
    outer.update(inner.data(), inner.size());
    return outer.finish();
  }

 private:
  Sha256 inner_;
  uint8_t inner_pad_[64];
  uint8_t outer_pad_[64];
};

inline Digest hmac_sha256(const void* key, size_t key_size, const void* data, size_t size) {
  HmacSha256 h(key, key_size);
  h.update(data, size);
  return h.finish();
}

}  // namespace dxt
