// SPDX-License-Identifier: Apache-2.0
#include <openssl/crypto.h>
#include <openssl/evp.h>

#include <climits>
#include <vector>

#include "errors/error.hpp"
#include "rng/byte_source.hpp"

namespace dxt {

namespace {

// AES-256 in CTR mode over zero bytes yields the keystream itself.
class KeyedStream final : public ByteSource {
 public:
  explicit KeyedStream(const std::array<uint8_t, 32>& seed) : ctx_(EVP_CIPHER_CTX_new()) {
    const uint8_t iv[16] = {};
    if (ctx_ == nullptr || EVP_EncryptInit_ex(ctx_, EVP_aes_256_ctr(), nullptr, seed.data(), iv) != 1) {
      EVP_CIPHER_CTX_free(ctx_);
      fail(DXT_E_RNG_FAILURE, "cannot initialise the deterministic AES-256-CTR stream");
    }
  }
  ~KeyedStream() override { EVP_CIPHER_CTX_free(ctx_); }
  KeyedStream(const KeyedStream&) = delete;
  KeyedStream& operator=(const KeyedStream&) = delete;

  void fill(uint8_t* out, size_t n) override {
    while (n > 0) {
      const int chunk = n > 4096 ? 4096 : static_cast<int>(n);
      zeros_.assign(static_cast<size_t>(chunk), 0);
      int produced = 0;
      if (EVP_EncryptUpdate(ctx_, out, &produced, zeros_.data(), chunk) != 1 || produced != chunk)
        fail(DXT_E_RNG_FAILURE, "the deterministic AES-256-CTR stream failed");
      out += chunk;
      n -= static_cast<size_t>(chunk);
    }
  }
  dxt_rng_mode mode() const override { return DXT_RNG_DETERMINISTIC; }

 private:
  EVP_CIPHER_CTX* ctx_;
  std::vector<uint8_t> zeros_;
};

}  // namespace

std::unique_ptr<ByteSource> make_keyed_stream(const std::array<uint8_t, 32>& seed) {
  return std::make_unique<KeyedStream>(seed);
}

}  // namespace dxt
