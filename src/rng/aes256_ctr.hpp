// SPDX-License-Identifier: Apache-2.0
// AES-256 (FIPS 197) and its CTR-mode keystream (NIST SP 800-38A) in plain
// C++, for builds without OpenSSL (DXT_CRYPTO=portable). The keystream is the
// one OpenSSL's EVP_aes_256_ctr produces (the whole 16-byte counter block is
// one big-endian integer), so seeded runs give the same output on every
// build; tests/unit/test_portable_crypto.cpp checks that and the published
// known answers.
//
// The cipher looks up an S-box with key- and data-dependent indices, so it is
// NOT constant-time. dxtext uses it only for the deterministic, non-private
// mode, whose seed is chosen by the caller and protects nothing.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace dxt {

class Aes256 {
 public:
  explicit Aes256(const std::array<uint8_t, 32>& key);
  ~Aes256();
  Aes256(const Aes256&) = delete;
  Aes256& operator=(const Aes256&) = delete;

  void encrypt_block(const uint8_t in[16], uint8_t out[16]) const;

 private:
  static constexpr int kRounds = 14;
  std::array<uint8_t, 16 * (kRounds + 1)> round_keys_{};
};

class Aes256Ctr {
 public:
  Aes256Ctr(const std::array<uint8_t, 32>& key, const std::array<uint8_t, 16>& initial_counter);
  ~Aes256Ctr();
  Aes256Ctr(const Aes256Ctr&) = delete;
  Aes256Ctr& operator=(const Aes256Ctr&) = delete;

  // The next n keystream bytes (CTR encryption of n zero bytes).
  void keystream(uint8_t* out, size_t n);
  // XORs the next n keystream bytes into data[0..n): CTR encryption.
  void apply(uint8_t* data, size_t n);

 private:
  void next_block();

  Aes256 cipher_;
  std::array<uint8_t, 16> counter_;
  std::array<uint8_t, 16> block_{};
  size_t block_used_ = 16;
};

}  // namespace dxt
