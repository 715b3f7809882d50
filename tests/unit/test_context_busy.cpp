// SPDX-License-Identifier: Apache-2.0
// Two threads on one context (a documented misuse) are detected: the call
// that finds the context in use returns DXT_E_CONTEXT_BUSY and touches
// nothing, the call already inside completes as if alone, and the context
// works again afterwards. The first thread is held inside its call by a byte
// source that waits (put in through the internal struct, as in
// test_rng_failure.cpp), so the overlap is certain, not a matter of timing.
#include <doctest/doctest.h>

#include <atomic>
#include <condition_variable>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "abi/abi_support.hpp"
#include "dxtext/dxtext.h"
#include "rng/byte_source.hpp"
#include "rng/random_stream.hpp"
#include "support/toy_models.hpp"

namespace {

using dxt::test::AlignedBytes;

// A gate one thread waits at until another opens it.
struct Gate {
  std::mutex mu;
  std::condition_variable cv;
  bool open = false;
  void wait() {
    std::unique_lock<std::mutex> lock(mu);
    cv.wait(lock, [&] { return open; });
  }
  void release() {
    {
      std::lock_guard<std::mutex> lock(mu);
      open = true;
    }
    cv.notify_all();
  }
};

// Deterministic bytes; its first fill announces that a call is inside and
// waits until the test lets it go on.
class HoldingSource final : public dxt::ByteSource {
 public:
  HoldingSource(Gate* inside, Gate* go) : inside_(inside), go_(go) {}
  void fill(uint8_t* out, size_t n) override {
    for (size_t i = 0; i < n; ++i) out[i] = static_cast<uint8_t>(i * 113 + fills_ * 29 + 5);
    if (fills_++ == 0) {
      inside_->release();
      go_->wait();
    }
  }
  dxt_rng_mode mode() const override { return DXT_RNG_SYSTEM; }

 private:
  Gate* inside_;
  Gate* go_;
  int fills_ = 0;
};

struct Toy {
  AlignedBytes bytes{dxt::test::build_model_bytes(dxt::test::grid_2d_spec())};
  dxt_model* model = nullptr;
  Toy() { REQUIRE(dxt_model_open_memory(bytes.data(), bytes.size, nullptr, &model) == DXT_OK); }
  ~Toy() { dxt_model_close(model); }
};

dxt_privatize_options laplace(double epsilon) {
  dxt_privatize_options o;
  dxt_privatize_options_init(&o);
  o.epsilon = epsilon;
  return o;
}

// Every call that takes a context, made on `ctx`; each checks that a failed
// call left its output NULL.
const std::vector<std::pair<const char*, std::function<dxt_status(dxt_context*)>>>& calls() {
  static const std::vector<std::pair<const char*, std::function<dxt_status(dxt_context*)>>> all = {
      {"dxt_privatize_index",
       [](dxt_context* c) {
         const dxt_privatize_options o = laplace(2);
         uint32_t out = 0;
         return dxt_privatize_index(c, &o, 3, &out, nullptr, nullptr);
       }},
      {"dxt_privatize_word",
       [](dxt_context* c) {
         const dxt_privatize_options o = laplace(2);
         char* out = reinterpret_cast<char*>(0x1);
         const dxt_status s = dxt_privatize_word(c, &o, "w3", 2, &out, nullptr, nullptr, nullptr);
         if (s != DXT_OK) CHECK(out == nullptr);
         dxt_text_free(s == DXT_OK ? out : nullptr);
         return s;
       }},
      {"dxt_privatize_text",
       [](dxt_context* c) {
         const dxt_privatize_options o = laplace(2);
         char* out = reinterpret_cast<char*>(0x1);
         const dxt_status s = dxt_privatize_text(c, &o, "w1 w2 w3", 8, &out, nullptr, nullptr, nullptr);
         if (s != DXT_OK) CHECK(out == nullptr);
         dxt_text_free(s == DXT_OK ? out : nullptr);
         return s;
       }},
      {"dxt_privatize_bag",
       [](dxt_context* c) {
         const dxt_privatize_options o = laplace(2);
         const dxt_bag_entry e[] = {{"w1", 2, 3}, {"w7", 2, 2}};
         dxt_bag* out = reinterpret_cast<dxt_bag*>(0x1);
         const dxt_status s = dxt_privatize_bag(c, &o, e, 2, &out, nullptr, nullptr);
         if (s != DXT_OK) CHECK(out == nullptr);
         dxt_bag_free(s == DXT_OK ? out : nullptr);
         return s;
       }},
      {"dxt_syntf",
       [](dxt_context* c) {
         const dxt_privatize_options o = laplace(2);
         const dxt_bag_entry e[] = {{"w1", 2, 3}, {"w7", 2, 2}};
         dxt_bag* out = reinterpret_cast<dxt_bag*>(0x1);
         const dxt_status s = dxt_syntf(c, &o, e, 2, 4, &out, nullptr, nullptr);
         if (s != DXT_OK) CHECK(out == nullptr);
         dxt_bag_free(s == DXT_OK ? out : nullptr);
         return s;
       }},
      {"dxt_calibrate",
       [](dxt_context* c) {
         const dxt_privatize_options o = laplace(2);
         dxt_calibration cal;
         dxt_calibration_init(&cal);
         return dxt_calibrate(c, &o, 3, 4, &cal);
       }},
  };
  return all;
}

}  // namespace

TEST_CASE("contexts: a call that finds another thread inside the same context gets DXT_E_CONTEXT_BUSY") {
  Toy toy;
  for (const auto& [name, second] : calls()) {
    CAPTURE(std::string(name));
    dxt_context* ctx = nullptr;
    REQUIRE(dxt_context_create(toy.model, nullptr, &ctx) == DXT_OK);
    Gate inside, go;
    ctx->rng = std::make_unique<dxt::RandomStream>(std::make_unique<HoldingSource>(&inside, &go));

    std::string first_out;
    dxt_status first = DXT_E_INTERNAL;
    std::thread holder([&] {
      const dxt_privatize_options o = laplace(2);
      char* out = nullptr;
      first = dxt_privatize_text(ctx, &o, "w1 w2 w3 w4", 11, &out, nullptr, nullptr, nullptr);
      if (first == DXT_OK) first_out = out;
      dxt_text_free(out);
    });
    inside.wait();  // the holder is inside dxt_privatize_text, in the byte source

    const dxt_status s = second(ctx);
    CHECK(s == DXT_E_CONTEXT_BUSY);
    CHECK(std::string(dxt_last_error_message()).find("another thread") != std::string::npos);
    CHECK(std::string(dxt_status_string(DXT_E_CONTEXT_BUSY)) == "context in use by another thread");

    go.release();
    holder.join();
    CHECK(first == DXT_OK);  // the call inside was not disturbed
    CHECK(!first_out.empty());
    CHECK(second(ctx) == DXT_OK);  // and the context is free again
    dxt_context_destroy(ctx);
  }
}

TEST_CASE("contexts: two threads hammering one context get only DXT_OK or DXT_E_CONTEXT_BUSY") {
  // Whether the calls overlap is up to the scheduler; what is checked is that
  // every call either ran alone (OK, valid output) or was refused, and that
  // nothing crashed or raced (the ThreadSanitizer job runs this).
  Toy toy;
  dxt_context* ctx = nullptr;
  REQUIRE(dxt_context_create(toy.model, nullptr, &ctx) == DXT_OK);
  std::atomic<int> bad{0};
  auto hammer = [&] {
    for (int i = 0; i < 300; ++i) {
      const dxt_status s = calls()[static_cast<size_t>(i) % calls().size()].second(ctx);
      if (s != DXT_OK && s != DXT_E_CONTEXT_BUSY) ++bad;
    }
  };
  std::thread a(hammer), b(hammer);
  a.join();
  b.join();
  CHECK(bad == 0);
  dxt_context_destroy(ctx);
}
