// SPDX-License-Identifier: Apache-2.0
#include <unistd.h>
#if defined(__APPLE__)
#include <sys/random.h>
#endif

#include <cerrno>
#include <cstring>
#include <string>

#include "errors/error.hpp"
#include "rng/byte_source.hpp"

namespace dxt {

namespace {

class GetentropyByteSource final : public ByteSource {
 public:
  void fill(uint8_t* out, size_t n) override {
    while (n > 0) {
      const size_t chunk = n < kMaxChunk ? n : kMaxChunk;
      if (getentropy(out, chunk) != 0) {
        const int error = errno;
        fail(DXT_E_RNG_FAILURE,
             std::string("the system random generator (getentropy) failed: ") + std::strerror(error));
      }
      out += chunk;
      n -= chunk;
    }
  }
  dxt_rng_mode mode() const override { return DXT_RNG_SYSTEM; }

 private:
  static constexpr size_t kMaxChunk = 256;  // POSIX: larger requests fail with EIO
};

}  // namespace

std::unique_ptr<ByteSource> make_getentropy_byte_source() { return std::make_unique<GetentropyByteSource>(); }

}  // namespace dxt
