// SPDX-License-Identifier: Apache-2.0
#include "rng/aes256_ctr.hpp"

#include <cstring>

namespace dxt {

namespace {

// Multiplication by x in GF(2^8) modulo x^8 + x^4 + x^3 + x + 1 (FIPS 197 §4.2.1).
constexpr uint8_t xtime(uint8_t a) { return static_cast<uint8_t>((a << 1) ^ ((a & 0x80) != 0 ? 0x1b : 0)); }

constexpr uint8_t rotl8(uint8_t x, int n) { return static_cast<uint8_t>((x << n) | (x >> (8 - n))); }

// The S-box derived as FIPS 197 §5.1.1 defines it, rather than copied: the
// multiplicative inverse in GF(2^8) (0 maps to 0), then the affine map
// b ^ rotl(b,1) ^ rotl(b,2) ^ rotl(b,3) ^ rotl(b,4) ^ 0x63. Inverses come
// from powers of the generator 3: if x = 3^k then 1/x = 3^(255-k).
struct SBox {
  uint8_t table[256];
  constexpr SBox() : table() {
    uint8_t power[255] = {};
    uint8_t log[256] = {};
    uint8_t p = 1;
    for (int k = 0; k < 255; ++k) {
      power[k] = p;
      log[p] = static_cast<uint8_t>(k);
      p = static_cast<uint8_t>(p ^ xtime(p));  // p * 3
    }
    for (int x = 0; x < 256; ++x) {
      const uint8_t inverse = x == 0 ? 0 : power[(255 - log[x]) % 255];
      table[x] = static_cast<uint8_t>(inverse ^ rotl8(inverse, 1) ^ rotl8(inverse, 2) ^ rotl8(inverse, 3) ^
                                      rotl8(inverse, 4) ^ 0x63);
    }
  }
};

constexpr SBox kSBox{};
static_assert(kSBox.table[0x00] == 0x63 && kSBox.table[0x53] == 0xed, "FIPS 197 §5.1.1 example values");

uint8_t sub(uint8_t b) { return kSBox.table[b]; }

}  // namespace

// Key expansion, FIPS 197 §5.2 with Nk = 8, Nr = 14.
Aes256::Aes256(const std::array<uint8_t, 32>& key) {
  std::memcpy(round_keys_.data(), key.data(), 32);
  uint8_t round_constant = 1;
  for (size_t i = 8; i < 4 * (kRounds + 1); ++i) {
    uint8_t temp[4];
    std::memcpy(temp, round_keys_.data() + 4 * (i - 1), 4);
    if (i % 8 == 0) {  // RotWord, SubWord, Rcon
      const uint8_t first = temp[0];
      temp[0] = static_cast<uint8_t>(sub(temp[1]) ^ round_constant);
      temp[1] = sub(temp[2]);
      temp[2] = sub(temp[3]);
      temp[3] = sub(first);
      round_constant = xtime(round_constant);
    } else if (i % 8 == 4) {  // SubWord only (Nk > 6)
      for (uint8_t& b : temp) b = sub(b);
    }
    for (size_t j = 0; j < 4; ++j)
      round_keys_[4 * i + j] = static_cast<uint8_t>(round_keys_[4 * (i - 8) + j] ^ temp[j]);
  }
}

Aes256::~Aes256() {
  volatile uint8_t* p = round_keys_.data();
  for (size_t i = 0; i < round_keys_.size(); ++i) p[i] = 0;
}

// FIPS 197 §5.1. The state is kept column by column as in the standard:
// state[r + 4c] is row r, column c, which is also the input byte order.
void Aes256::encrypt_block(const uint8_t in[16], uint8_t out[16]) const {
  uint8_t s[16];
  for (int i = 0; i < 16; ++i) s[i] = static_cast<uint8_t>(in[i] ^ round_keys_[i]);
  for (int round = 1; round <= kRounds; ++round) {
    // SubBytes and ShiftRows: row r moves r columns to the left.
    uint8_t t[16];
    for (int c = 0; c < 4; ++c)
      for (int r = 0; r < 4; ++r) t[r + 4 * c] = sub(s[r + 4 * ((c + r) % 4)]);
    // MixColumns (skipped in the last round), FIPS 197 §5.1.3.
    if (round != kRounds) {
      for (int c = 0; c < 4; ++c) {
        const uint8_t a0 = t[4 * c], a1 = t[4 * c + 1], a2 = t[4 * c + 2], a3 = t[4 * c + 3];
        s[4 * c] = static_cast<uint8_t>(xtime(a0) ^ (xtime(a1) ^ a1) ^ a2 ^ a3);
        s[4 * c + 1] = static_cast<uint8_t>(a0 ^ xtime(a1) ^ (xtime(a2) ^ a2) ^ a3);
        s[4 * c + 2] = static_cast<uint8_t>(a0 ^ a1 ^ xtime(a2) ^ (xtime(a3) ^ a3));
        s[4 * c + 3] = static_cast<uint8_t>((xtime(a0) ^ a0) ^ a1 ^ a2 ^ xtime(a3));
      }
    } else {
      std::memcpy(s, t, 16);
    }
    // AddRoundKey.
    for (int i = 0; i < 16; ++i) s[i] = static_cast<uint8_t>(s[i] ^ round_keys_[16 * round + i]);
  }
  std::memcpy(out, s, 16);
}

Aes256Ctr::Aes256Ctr(const std::array<uint8_t, 32>& key, const std::array<uint8_t, 16>& initial_counter)
    : cipher_(key), counter_(initial_counter) {}

Aes256Ctr::~Aes256Ctr() {
  volatile uint8_t* p = block_.data();
  for (size_t i = 0; i < block_.size(); ++i) p[i] = 0;
}

// One keystream block, then the counter block plus one as a 128-bit
// big-endian integer (wrapping), as OpenSSL's CRYPTO_ctr128_encrypt does.
void Aes256Ctr::next_block() {
  cipher_.encrypt_block(counter_.data(), block_.data());
  for (int i = 15; i >= 0; --i)
    if (++counter_[i] != 0) break;
  block_used_ = 0;
}

void Aes256Ctr::keystream(uint8_t* out, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (block_used_ == 16) next_block();
    out[i] = block_[block_used_++];
  }
}

void Aes256Ctr::apply(uint8_t* data, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (block_used_ == 16) next_block();
    data[i] = static_cast<uint8_t>(data[i] ^ block_[block_used_++]);
  }
}

}  // namespace dxt
