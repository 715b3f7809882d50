// SPDX-License-Identifier: Apache-2.0
// Byte sources and RandomStream: the keyed stream's known answer, fail-closed
// behaviour, the full-range uniform, and fork safety.
#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cmath>
#include <cstring>
#include <vector>

#include "errors/error.hpp"
#include "rng/byte_source.hpp"
#include "rng/random_stream.hpp"

using namespace dxt;

namespace {

// Replays a fixed byte pattern, then zeros.
class ScriptedSource final : public ByteSource {
 public:
  explicit ScriptedSource(std::vector<uint8_t> bytes) : bytes_(std::move(bytes)) {}
  void fill(uint8_t* out, size_t n) override {
    for (size_t i = 0; i < n; ++i) out[i] = at_ < bytes_.size() ? bytes_[at_++] : 0;
  }
  dxt_rng_mode mode() const override { return DXT_RNG_DETERMINISTIC; }

 private:
  std::vector<uint8_t> bytes_;
  size_t at_ = 0;
};

class FailingSource final : public ByteSource {
 public:
  int calls = 0;
  void fill(uint8_t*, size_t) override {
    ++calls;
    fail(DXT_E_RNG_FAILURE, "test source failure");
  }
  dxt_rng_mode mode() const override { return DXT_RNG_SYSTEM; }
};

}  // namespace

TEST_CASE("keyed stream is AES-256-CTR: known answer for the zero key") {
  // AES-256(key = 0^32) of the zero block, i.e. the first CTR keystream block.
  const uint8_t expected[16] = {0xdc, 0x95, 0xc0, 0x78, 0xa2, 0x40, 0x89, 0x89,
                                0xad, 0x48, 0xa2, 0x14, 0x92, 0x84, 0x20, 0x87};
  auto s = make_keyed_stream(std::array<uint8_t, 32>{});
  uint8_t out[16];
  s->fill(out, sizeof out);
  CHECK(std::memcmp(out, expected, 16) == 0);
  CHECK(s->mode() == DXT_RNG_DETERMINISTIC);
}

TEST_CASE("keyed stream: same seed same bytes, other seed other bytes, chunking irrelevant") {
  std::array<uint8_t, 32> seed{};
  seed[5] = 9;
  auto a = make_keyed_stream(seed), b = make_keyed_stream(seed);
  seed[5] = 10;
  auto c = make_keyed_stream(seed);
  std::vector<uint8_t> x(10000), y(10000), z(10000);
  a->fill(x.data(), x.size());
  b->fill(y.data(), 1);
  b->fill(y.data() + 1, 4999);
  b->fill(y.data() + 5000, 5000);
  c->fill(z.data(), z.size());
  CHECK(x == y);
  CHECK(x != z);
}

TEST_CASE("a failing source fails every draw; nothing is handed out") {
  auto source = std::make_unique<FailingSource>();
  FailingSource* raw = source.get();
  RandomStream rng(std::move(source));
  for (int i = 0; i < 3; ++i) {
    try {
      (void)rng.uniform();
      FAIL("uniform() returned despite a failing source");
    } catch (const Error& e) {
      CHECK(e.status() == DXT_E_RNG_FAILURE);
    }
  }
  CHECK(raw->calls == 3);
}

TEST_CASE("uniform reaches below 2^-64: -ln U is not capped") {
  // 8 zero bytes, then a word with only its top bit set: U = 2^-65 exactly
  // in the binade [2^-65, 2^-64).
  std::vector<uint8_t> script(8, 0);
  const uint64_t top = 1ull << 63;
  script.resize(16);
  std::memcpy(script.data() + 8, &top, 8);
  RandomStream rng(std::make_unique<ScriptedSource>(script));
  const double u = rng.uniform();
  CHECK(u == std::ldexp(1.0, -65));
  CHECK(-std::log(u) > 45.0);  // a 64-bit-capped uniform stops at 44.4
}

TEST_CASE("uniform is never 0 or 1, even for all-ones and all-zero words") {
  RandomStream ones(std::make_unique<ScriptedSource>(std::vector<uint8_t>(4096, 0xFF)));
  const double hi = ones.uniform();
  CHECK(hi < 1.0);
  CHECK(hi == 1.0 - std::ldexp(1.0, -53));
  RandomStream zeros(std::make_unique<ScriptedSource>(std::vector<uint8_t>{}));
  const double lo = zeros.uniform();
  CHECK(lo > 0.0);
}

TEST_CASE("system source: distinct draws, and a forked child does not replay the parent's bytes") {
  RandomStream rng(make_system_byte_source());
  CHECK(rng.mode() == DXT_RNG_SYSTEM);
  (void)rng.next_u64();  // fill the buffer before forking
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    const uint64_t v = rng.next_u64();
    const ssize_t w = write(fds[1], &v, sizeof v);
    _exit(w == sizeof v ? 0 : 1);
  }
  const uint64_t parent = rng.next_u64();
  uint64_t child = 0;
  REQUIRE(read(fds[0], &child, sizeof child) == static_cast<ssize_t>(sizeof child));
  int status = 0;
  waitpid(pid, &status, 0);
  close(fds[0]);
  close(fds[1]);
  CHECK(WIFEXITED(status));
  CHECK(parent != child);
}
