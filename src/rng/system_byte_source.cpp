// SPDX-License-Identifier: Apache-2.0
#include <openssl/rand.h>

#include <climits>

#include "errors/error.hpp"
#include "rng/byte_source.hpp"

namespace dxt {

namespace {

class SystemByteSource final : public ByteSource {
 public:
  void fill(uint8_t* out, size_t n) override {
    while (n > 0) {
      const size_t chunk = n > static_cast<size_t>(INT_MAX) ? static_cast<size_t>(INT_MAX) : n;
      if (RAND_priv_bytes(out, static_cast<int>(chunk)) != 1)
        fail(DXT_E_RNG_FAILURE, "the system random generator (OpenSSL RAND_priv_bytes) failed");
      out += chunk;
      n -= chunk;
    }
  }
  dxt_rng_mode mode() const override { return DXT_RNG_SYSTEM; }
};

}  // namespace

std::unique_ptr<ByteSource> make_system_byte_source() { return std::make_unique<SystemByteSource>(); }

}  // namespace dxt
