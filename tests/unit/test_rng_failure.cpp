// SPDX-License-Identifier: Apache-2.0
// Randomness failure and fork, through the public API: a context whose byte
// source fails makes every privatise call that needs noise fail with
// DXT_E_RNG_FAILURE (no fallback, no output); in a child process, made by
// fork(), _Fork() or a raw clone, a context discards the bytes it inherited
// and draws fresh ones; consumed random bytes are wiped from the context's
// buffer.
//
// The failing source is put into a context through the internal struct
// (src/abi/abi_support.hpp): the public header has no such hook.
#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "abi/abi_support.hpp"
#include "dxtext/dxtext.h"
#include "errors/error.hpp"
#include "rng/byte_source.hpp"
#include "rng/random_stream.hpp"
#include "support/child_process.hpp"
#include "support/toy_models.hpp"

namespace {

using dxt::test::AlignedBytes;
using dxt::test::ChildMethod;

// Fails every fill after the first `good_fills`, counting calls.
class FlakySource final : public dxt::ByteSource {
 public:
  explicit FlakySource(int good_fills, std::shared_ptr<int> calls) : good_(good_fills), calls_(std::move(calls)) {}
  void fill(uint8_t* out, size_t n) override {
    ++*calls_;
    if (good_-- <= 0) dxt::fail(DXT_E_RNG_FAILURE, "test byte source failure");
    for (size_t i = 0; i < n; ++i) out[i] = static_cast<uint8_t>(i * 131 + 7);
  }
  dxt_rng_mode mode() const override { return DXT_RNG_SYSTEM; }

 private:
  int good_;
  std::shared_ptr<int> calls_;
};

// Fills with 0xA5 and remembers where the buffer is, so the test can look
// at it afterwards.
class WatchedSource final : public dxt::ByteSource {
 public:
  explicit WatchedSource(uint8_t** where) : where_(where) {}
  void fill(uint8_t* out, size_t n) override {
    *where_ = out;
    std::memset(out, 0xA5, n);
  }
  dxt_rng_mode mode() const override { return DXT_RNG_SYSTEM; }

 private:
  uint8_t** where_;
};

struct Models {
  AlignedBytes euclid{dxt::test::build_model_bytes(dxt::test::grid_2d_spec())};
  AlignedBytes poincare{dxt::test::build_model_bytes(dxt::test::poincare_2d_spec())};
  dxt_model* e = nullptr;
  dxt_model* p = nullptr;
  Models() {
    REQUIRE(dxt_model_open_memory(euclid.data(), euclid.size, nullptr, &e) == DXT_OK);
    REQUIRE(dxt_model_open_memory(poincare.data(), poincare.size, nullptr, &p) == DXT_OK);
  }
  ~Models() {
    dxt_model_close(e);
    dxt_model_close(p);
  }
};

dxt_context* context_with(dxt_model* m, std::unique_ptr<dxt::ByteSource> source) {
  dxt_context* ctx = nullptr;
  REQUIRE(dxt_context_create(m, nullptr, &ctx) == DXT_OK);
  ctx->rng = std::make_unique<dxt::RandomStream>(std::move(source));
  return ctx;
}

dxt_status every_call(dxt_context* ctx, const dxt_privatize_options& o, int which) {
  char* out = reinterpret_cast<char*>(0x1);
  size_t len = 0;
  dxt_bag* bag = reinterpret_cast<dxt_bag*>(0x1);
  const dxt_bag_entry entries[] = {{"w1", 2, 2}, {"w3", 2, 1}};
  dxt_status s = DXT_OK;
  switch (which) {
    case 0: {
      uint32_t index = 99;
      s = dxt_privatize_index(ctx, &o, 1, &index, nullptr, nullptr);
      if (s != DXT_OK) CHECK(index == 99);
      return s;
    }
    case 1: s = dxt_privatize_word(ctx, &o, "w1", 2, &out, &len, nullptr, nullptr); break;
    case 2: s = dxt_privatize_text(ctx, &o, "w1 w2, w3!", 10, &out, &len, nullptr, nullptr); break;
    case 3: s = dxt_privatize_bag(ctx, &o, entries, 2, &bag, nullptr, nullptr); break;
    case 4: s = dxt_syntf(ctx, &o, entries, 2, 3, &bag, nullptr, nullptr); break;
    case 5: {
      dxt_calibration c;
      dxt_calibration_init(&c);
      return dxt_calibrate(ctx, &o, 2, 2, &c);
    }
    default: FAIL("unknown call");
  }
  if (which == 3 || which == 4) {
    if (s == DXT_OK) {
      dxt_bag_free(bag);
    } else {
      CHECK(bag == nullptr);
    }
  } else if (s == DXT_OK) {
    dxt_text_free(out);
  } else {
    CHECK(out == nullptr);
  }
  return s;
}

}  // namespace

TEST_CASE("a failing byte source fails every privatise call of every mechanism, with no output") {
  Models m;
  const uint32_t mechanisms[] = {DXT_MECHANISM_LAPLACE, DXT_MECHANISM_HYPERBOLIC, DXT_MECHANISM_EXPONENTIAL,
                                 DXT_MECHANISM_SYNTF,   DXT_MECHANISM_VICKREY,    DXT_MECHANISM_TEM};
  for (uint32_t mech : mechanisms) {
    for (int which = 0; which < 6; ++which) {
      CAPTURE(mech);
      CAPTURE(which);
      auto calls = std::make_shared<int>(0);
      dxt_model* model = mech == DXT_MECHANISM_HYPERBOLIC ? m.p : m.e;
      dxt_context* ctx = context_with(model, std::make_unique<FlakySource>(0, calls));
      dxt_privatize_options o;
      dxt_privatize_options_init(&o);
      o.mechanism = mech;
      o.epsilon = mech == DXT_MECHANISM_HYPERBOLIC ? 5.0 : 2.0;
      // Twice: a failure leaves nothing behind that a second call could use.
      for (int attempt = 0; attempt < 2; ++attempt) {
        const dxt_status s = every_call(ctx, o, which);
        CHECK(s == DXT_E_RNG_FAILURE);
        CHECK(std::string(dxt_last_error_message()) == "test byte source failure");
      }
      CHECK(*calls >= 2);  // asked the source again, never fell back
      dxt_context_destroy(ctx);
    }
  }
}

TEST_CASE("a source that fails after one buffer: calls succeed, then fail, never a weaker fallback") {
  Models m;
  auto calls = std::make_shared<int>(0);
  dxt_context* ctx = context_with(m.e, std::make_unique<FlakySource>(1, calls));
  dxt_privatize_options o;
  dxt_privatize_options_init(&o);
  o.epsilon = 2.0;
  int ok = 0, failed = 0;
  for (int i = 0; i < 400; ++i) {
    const dxt_status s = every_call(ctx, o, 2);
    if (s == DXT_OK) {
      CHECK(failed == 0);  // once failing, it keeps failing
      ++ok;
    } else {
      CHECK(s == DXT_E_RNG_FAILURE);
      ++failed;
    }
  }
  CHECK(ok > 0);
  CHECK(failed > 0);
  dxt_context_destroy(ctx);
}

TEST_CASE("a text that needs no noise does not touch the failing source") {
  Models m;
  auto calls = std::make_shared<int>(0);
  dxt_context* ctx = context_with(m.e, std::make_unique<FlakySource>(0, calls));
  dxt_privatize_options o;
  dxt_privatize_options_init(&o);
  o.epsilon = 2.0;
  char* out = nullptr;
  size_t len = 0;
  REQUIRE(dxt_privatize_text(ctx, &o, " ,.!? ", 6, &out, &len, nullptr, nullptr) == DXT_OK);
  CHECK(std::string(out, len) == " ,.!? ");
  dxt_text_free(out);
  CHECK(*calls == 0);
  dxt_context_destroy(ctx);
}

TEST_CASE("consumed random bytes are wiped from the buffer, all of it on destruction") {
  uint8_t* buffer = nullptr;
  alignas(dxt::RandomStream) unsigned char storage[sizeof(dxt::RandomStream)];
  auto* rng = new (storage) dxt::RandomStream(std::make_unique<WatchedSource>(&buffer));
  const uint64_t v = rng->next_u64();
  (void)rng->next_u64();
  REQUIRE(buffer != nullptr);
  CHECK(v == 0xA5A5A5A5A5A5A5A5ull);
  for (int i = 0; i < 16; ++i) CHECK(buffer[i] == 0);  // the two words drawn
  CHECK(buffer[16] == 0xA5);                           // not yet used
  // The buffer lies inside the object: look at it after the destructor ran.
  REQUIRE(buffer >= storage);
  REQUIRE(buffer + 4096 <= storage + sizeof storage);
  const size_t at = static_cast<size_t>(buffer - storage);
  rng->~RandomStream();
  size_t nonzero = 0;
  for (size_t i = 0; i < 4096; ++i) nonzero += storage[at + i] != 0;
  CHECK(nonzero == 0);
}

TEST_CASE("in a child process (fork, _Fork, raw clone), a context draws fresh bytes, not the parent's buffer") {
  Models m;
  // Each fill is counted; the child must call the source again although the
  // parent's buffer still had bytes left. _Fork and clone run no
  // pthread_atfork handler: the context sees the new process on its own.
  struct CountingSource final : dxt::ByteSource {
    std::atomic<int>* fills;
    explicit CountingSource(std::atomic<int>* f) : fills(f) {}
    void fill(uint8_t* out, size_t n) override {
      const int k = ++*fills;
      for (size_t i = 0; i < n; ++i) out[i] = static_cast<uint8_t>(i * 37 + k * 101);
    }
    dxt_rng_mode mode() const override { return DXT_RNG_SYSTEM; }
  };
  for (const ChildMethod method : dxt::test::child_methods()) {
    const std::string how = dxt::test::child_method_name(method);
    CAPTURE(how);
    std::atomic<int> fills{0};
    dxt_context* ctx = context_with(m.e, std::make_unique<CountingSource>(&fills));
    dxt_privatize_options o;
    dxt_privatize_options_init(&o);
    o.epsilon = 2.0;
    REQUIRE(every_call(ctx, o, 0) == DXT_OK);
    REQUIRE(fills == 1);
    int fds[2];
    REQUIRE(pipe(fds) == 0);
    const pid_t pid = dxt::test::make_child(method);
    REQUIRE(pid >= 0);
    if (pid == 0) {
      const int ok = every_call(ctx, o, 0) == DXT_OK ? 1 : 0;
      const int report[2] = {ok, fills.load()};
      const ssize_t w = write(fds[1], report, sizeof report);
      _exit(w == sizeof report ? 0 : 1);
    }
    REQUIRE(every_call(ctx, o, 0) == DXT_OK);
    CHECK(fills == 1);  // the parent goes on with its buffer
    int child[2] = {0, 0};
    REQUIRE(read(fds[0], child, sizeof child) == static_cast<ssize_t>(sizeof child));
    int status = 0;
    waitpid(pid, &status, 0);
    close(fds[0]);
    close(fds[1]);
    CHECK(WIFEXITED(status));
    CHECK(child[0] == 1);
    CHECK(child[1] == 2);  // the child refilled instead of reusing inherited bytes
    dxt_context_destroy(ctx);
  }
}

namespace {

// What parent and child release first, for a context on the system
// generator that has drawn before (`warm`: its buffer still holds most of
// a refill, enough for the whole text, when the child is made) or not (the
// first bytes of both come from OpenSSL after the split).
void first_releases_differ(dxt_model* model, ChildMethod method, bool warm) {
  dxt_context* ctx = nullptr;
  REQUIRE(dxt_context_create(model, nullptr, &ctx) == DXT_OK);
  // Laplace noise of mean radius 4 on the 5 x 4 grid spreads each release
  // over several words: 30 releases from independent noise all agree with
  // negligible probability, and from the same bytes always. 30 words take
  // about 2 KiB of the 4 KiB buffer.
  dxt_privatize_options o;
  dxt_privatize_options_init(&o);
  o.epsilon = 0.5;
  std::string text;
  for (int i = 0; i < 30; ++i) text += "w" + std::to_string(i % 20) + " ";
  auto run = [&](const std::string& t) {
    char* out = nullptr;
    size_t len = 0;
    REQUIRE(dxt_privatize_text(ctx, &o, t.data(), t.size(), &out, &len, nullptr, nullptr) == DXT_OK);
    std::string r(out, len);
    dxt_text_free(out);
    return r;
  };
  if (warm) (void)run("w1");
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  const pid_t pid = dxt::test::make_child(method);
  REQUIRE(pid >= 0);
  if (pid == 0) {
    char* out = nullptr;
    size_t len = 0;
    const bool ok = dxt_privatize_text(ctx, &o, text.data(), text.size(), &out, &len, nullptr, nullptr) == DXT_OK;
    const ssize_t w = ok ? write(fds[1], out, len) : 0;
    _exit(ok && w == static_cast<ssize_t>(len) ? 0 : 1);
  }
  const std::string parent = run(text);
  close(fds[1]);
  std::string child;
  char buf[4096];
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;) child.append(buf, static_cast<size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(child.size() > 30);
  CHECK(parent != child);
  dxt_context_destroy(ctx);
}

}  // namespace

TEST_CASE("in a child process (fork, _Fork, raw clone), the first words released differ from the parent's") {
  Models m;
  for (const ChildMethod method : dxt::test::child_methods()) {
    for (const bool warm : {true, false}) {
      const std::string how = dxt::test::child_method_name(method);
      CAPTURE(how);
      CAPTURE(warm);
      first_releases_differ(m.e, method, warm);
    }
  }
}

TEST_CASE("in a child process (fork, _Fork, raw clone), a context on the system generator draws different bytes") {
  Models m;
  for (const ChildMethod method : dxt::test::child_methods()) {
    const std::string how = dxt::test::child_method_name(method);
    CAPTURE(how);
    dxt_context* ctx = nullptr;
    REQUIRE(dxt_context_create(m.e, nullptr, &ctx) == DXT_OK);
    (void)ctx->rng->next_u64();  // the buffer is full when we fork
    int fds[2];
    REQUIRE(pipe(fds) == 0);
    const pid_t pid = dxt::test::make_child(method);
    REQUIRE(pid >= 0);
    if (pid == 0) {
      uint64_t v[4];
      for (auto& x : v) x = ctx->rng->next_u64();
      const ssize_t w = write(fds[1], v, sizeof v);
      _exit(w == sizeof v ? 0 : 1);
    }
    uint64_t parent[4], child[4];
    for (auto& x : parent) x = ctx->rng->next_u64();
    REQUIRE(read(fds[0], child, sizeof child) == static_cast<ssize_t>(sizeof child));
    int status = 0;
    waitpid(pid, &status, 0);
    close(fds[0]);
    close(fds[1]);
    CHECK(WIFEXITED(status));
    CHECK(std::memcmp(parent, child, sizeof parent) != 0);
    dxt_context_destroy(ctx);
  }
}
