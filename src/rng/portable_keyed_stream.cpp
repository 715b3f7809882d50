// SPDX-License-Identifier: Apache-2.0
#include <array>

#include "rng/aes256_ctr.hpp"
#include "rng/byte_source.hpp"

namespace dxt {

namespace {

// The deterministic stream without OpenSSL: AES-256-CTR keyed by the seed,
// counter block zero, exactly the bytes keyed_stream.cpp gets from OpenSSL.
class PortableKeyedStream final : public ByteSource {
 public:
  explicit PortableKeyedStream(const std::array<uint8_t, 32>& seed) : ctr_(seed, std::array<uint8_t, 16>{}) {}
  void fill(uint8_t* out, size_t n) override { ctr_.keystream(out, n); }
  dxt_rng_mode mode() const override { return DXT_RNG_DETERMINISTIC; }

 private:
  Aes256Ctr ctr_;
};

}  // namespace

std::unique_ptr<ByteSource> make_portable_keyed_stream(const std::array<uint8_t, 32>& seed) {
  return std::make_unique<PortableKeyedStream>(seed);
}

}  // namespace dxt
