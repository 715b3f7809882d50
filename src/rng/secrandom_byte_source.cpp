// SPDX-License-Identifier: Apache-2.0
// Compiled on Apple platforms only (CMakeLists.txt: if(APPLE)); links
// Security.framework.
#include <Security/SecRandom.h>

#include <string>

#include "errors/error.hpp"
#include "rng/byte_source.hpp"

namespace dxt {

namespace {

class SecRandomByteSource final : public ByteSource {
 public:
  void fill(uint8_t* out, size_t n) override {
    while (n > 0) {
      const size_t chunk = n < kChunk ? n : kChunk;
      const int status = SecRandomCopyBytes(kSecRandomDefault, chunk, out);
      if (status != errSecSuccess)
        fail(DXT_E_RNG_FAILURE,
             "the system random generator (SecRandomCopyBytes) failed with OSStatus " + std::to_string(status));
      out += chunk;
      n -= chunk;
    }
  }
  dxt_rng_mode mode() const override { return DXT_RNG_SYSTEM; }

 private:
  static constexpr size_t kChunk = 4096;
};

}  // namespace

std::unique_ptr<ByteSource> make_secrandom_byte_source() { return std::make_unique<SecRandomByteSource>(); }

}  // namespace dxt
