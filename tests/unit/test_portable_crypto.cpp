// SPDX-License-Identifier: Apache-2.0
// The portable cryptography of DXT_CRYPTO=portable (SHA-256, AES-256-CTR, the
// getentropy byte source), checked against published known answers (FIPS
// 180-4, FIPS 197, NIST SP 800-38A) and, in the default OpenSSL build, byte
// for byte against the OpenSSL backend: make_keyed_stream and sha256() are
// OpenSSL there.
#include <doctest/doctest.h>

#include <array>
#include <cstring>
#include <string>
#include <vector>

#include "model/sha256.hpp"
#include "model/sha256_portable.hpp"
#include "rng/aes256_ctr.hpp"
#include "rng/byte_source.hpp"

using namespace dxt;

namespace {

std::vector<uint8_t> from_hex(const std::string& hex) {
  std::vector<uint8_t> out(hex.size() / 2);
  for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<uint8_t>(std::stoul(hex.substr(2 * i, 2), nullptr, 16));
  return out;
}

template <size_t N>
std::array<uint8_t, N> array_from_hex(const std::string& hex) {
  const std::vector<uint8_t> v = from_hex(hex);
  REQUIRE(v.size() == N);
  std::array<uint8_t, N> a{};
  std::memcpy(a.data(), v.data(), N);
  return a;
}

std::string portable_sha256_hex(const std::string& message) {
  PortableSha256 h;
  h.update(message.data(), message.size());
  const Digest d = h.finish();
  return to_hex(d.data(), d.size());
}

// A fixed, cheap pseudo-random byte pattern for test inputs (not for noise).
std::vector<uint8_t> pattern(size_t n, uint32_t state) {
  std::vector<uint8_t> v(n);
  for (uint8_t& b : v) {
    state = state * 1664525u + 1013904223u;
    b = static_cast<uint8_t>(state >> 24);
  }
  return v;
}

}  // namespace

TEST_CASE("portable SHA-256: FIPS 180-4 examples") {
  CHECK(portable_sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(portable_sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(portable_sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  CHECK(portable_sha256_hex("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlm"
                            "nopqrsmnopqrstnopqrstu") ==
        "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

TEST_CASE("portable SHA-256: one million 'a', fed in uneven pieces") {
  const std::string a(1000000, 'a');
  PortableSha256 h;
  size_t at = 0;
  for (size_t piece = 1; at < a.size(); piece = piece * 3 % 1000 + 1) {
    const size_t n = std::min(piece, a.size() - at);
    h.update(a.data() + at, n);
    at += n;
  }
  const Digest d = h.finish();
  CHECK(to_hex(d.data(), d.size()) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  // finish() resets: the object hashes again from scratch.
  h.update("abc", 3);
  const Digest again = h.finish();
  CHECK(to_hex(again.data(), again.size()) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST_CASE("portable SHA-256 equals the build's Sha256 at every length around the block size") {
  const std::vector<uint8_t> data = pattern(1200, 7);
  for (size_t n = 0; n <= data.size(); n += (n < 200 ? 1 : 37)) {
    PortableSha256 portable;
    // Split the message in two to exercise the partial-block path.
    portable.update(data.data(), n / 3);
    portable.update(data.data() + n / 3, n - n / 3);
    CHECK_MESSAGE(portable.finish() == sha256(data.data(), n), "length " << n);
  }
}

TEST_CASE("AES-256: FIPS 197 Appendix C.3 and the zero-key block") {
  const Aes256 aes(array_from_hex<32>("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"));
  const std::vector<uint8_t> plain = from_hex("00112233445566778899aabbccddeeff");
  uint8_t out[16];
  aes.encrypt_block(plain.data(), out);
  CHECK(std::vector<uint8_t>(out, out + 16) == from_hex("8ea2b7ca516745bfeafc49904b496089"));

  const Aes256 zero(std::array<uint8_t, 32>{});
  const uint8_t zeros[16] = {};
  zero.encrypt_block(zeros, out);
  CHECK(std::vector<uint8_t>(out, out + 16) == from_hex("dc95c078a2408989ad48a21492842087"));
}

TEST_CASE("AES-256-CTR: NIST SP 800-38A F.5.5, counter carrying across bytes") {
  Aes256Ctr ctr(array_from_hex<32>("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4"),
                array_from_hex<16>("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff"));
  std::vector<uint8_t> data = from_hex(
      "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51"
      "30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710");
  // Uneven calls: the block position must carry over between them.
  ctr.apply(data.data(), 5);
  ctr.apply(data.data() + 5, 40);
  ctr.apply(data.data() + 45, data.size() - 45);
  CHECK(data == from_hex("601ec313775789a5b7a7f504bbf3d228f443e3ca4d62b59aca84e990cacaf5c5"
                         "2b0930daa23de94ce87017ba2d84988ddfc9c58db67aada613c2dd08457941a6"));
}

TEST_CASE("AES-256-CTR: the 128-bit counter wraps from all ones to zero") {
  const std::array<uint8_t, 32> key = array_from_hex<32>(std::string(64, '7'));
  std::array<uint8_t, 16> all_ones{};
  all_ones.fill(0xff);
  Aes256Ctr ctr(key, all_ones);
  uint8_t stream[32];
  ctr.keystream(stream, sizeof stream);
  const Aes256 aes(key);
  uint8_t expected[16];
  aes.encrypt_block(all_ones.data(), expected);
  CHECK(std::memcmp(stream, expected, 16) == 0);
  const uint8_t zeros[16] = {};
  aes.encrypt_block(zeros, expected);
  CHECK(std::memcmp(stream + 16, expected, 16) == 0);
}

TEST_CASE("portable keyed stream gives the build's keyed stream byte for byte (1 MiB, uneven reads)") {
  for (uint32_t s = 0; s < 3; ++s) {
    std::array<uint8_t, 32> seed{};
    const std::vector<uint8_t> p = pattern(32, s);
    if (s > 0) std::memcpy(seed.data(), p.data(), 32);
    auto portable = make_portable_keyed_stream(seed);
    auto built = make_keyed_stream(seed);
    CHECK(portable->mode() == DXT_RNG_DETERMINISTIC);
    // 1 MiB covers 65536 blocks, so the counter carries into its third byte.
    const size_t total = size_t{1} << 20;
    std::vector<uint8_t> a(total), b(total);
    size_t at = 0;
    for (size_t piece = 1; at < total; piece = piece * 7 % 5000 + 1) {
      const size_t n = std::min(piece, total - at);
      portable->fill(a.data() + at, n);
      at += n;
    }
    built->fill(b.data(), total);
    CHECK_MESSAGE(a == b, "seed " << s);
  }
}

TEST_CASE("getentropy byte source: any length, fresh bytes, system mode") {
  auto source = make_getentropy_byte_source();
  CHECK(source->mode() == DXT_RNG_SYSTEM);
  for (size_t n : {size_t{0}, size_t{1}, size_t{255}, size_t{256}, size_t{257}, size_t{4096}, size_t{10000}}) {
    std::vector<uint8_t> a(n + 2, 0xa5), b(n + 2, 0xa5);
    source->fill(a.data() + 1, n);
    source->fill(b.data() + 1, n);
    // The guard bytes either side are untouched.
    CHECK(a.front() == 0xa5);
    CHECK(a.back() == 0xa5);
    // Two draws of 32 bytes or more are equal with probability 2^-256.
    if (n >= 32) CHECK(a != b);
    // More than 4096 zero bits in 10000 bytes would be absurd (mean 40000 ones).
    if (n == 10000) {
      size_t ones = 0;
      for (size_t i = 1; i <= n; ++i) ones += static_cast<size_t>(__builtin_popcount(a[i]));
      CHECK(ones > 38000);
      CHECK(ones < 42000);
    }
  }
}
