// SPDX-License-Identifier: Apache-2.0
// The bad-input matrix of the C ABI: one row per case, each with the status
// and a piece of the message it must give (docs/limitations.md, "Bad input",
// lists the same cases). Every failing call must leave its output pointer
// NULL, set a message, and neither crash nor leak (the ASan job runs this).
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "dxtext/dxtext.h"
#include "support/release_outputs.hpp"
#include "support/toy_models.hpp"
#include "text/tokenizer.hpp"
#include "unicode/utf8.hpp"

namespace {

using dxt::test::AlignedBytes;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// A 12-word Euclidean model (3-D grid) and a 20-word Poincare disk model,
// each with a deterministic context.
struct Fixture {
  AlignedBytes euclid_bytes, poincare_bytes;
  dxt_model* euclid = nullptr;
  dxt_model* poincare = nullptr;
  dxt_context* ctx = nullptr;    // on euclid
  dxt_context* pctx = nullptr;   // on poincare
  dxt_privatize_options opts{};  // laplace, epsilon 5
  Fixture() {
    dxt::test::ToyModelSpec e;
    const char* words[] = {"cat", "the", "sat", "on", "mat", "dog", "house", "tree", "red", "blue", "run", "quick"};
    for (int i = 0; i < 12; ++i) {
      e.words.push_back(words[i]);
      e.vectors.push_back({static_cast<float>(i % 4), static_cast<float>(i / 4), 0.0f});
    }
    euclid_bytes = AlignedBytes(dxt::test::build_model_bytes(e));
    poincare_bytes = AlignedBytes(dxt::test::build_model_bytes(dxt::test::poincare_2d_spec()));
    REQUIRE(dxt_model_open_memory(euclid_bytes.data(), euclid_bytes.size, nullptr, &euclid) == DXT_OK);
    REQUIRE(dxt_model_open_memory(poincare_bytes.data(), poincare_bytes.size, nullptr, &poincare) == DXT_OK);
    dxt_context_options co;
    dxt_context_options_init(&co);
    co.rng_mode = DXT_RNG_DETERMINISTIC;
    REQUIRE(dxt_context_create(euclid, &co, &ctx) == DXT_OK);
    REQUIRE(dxt_context_create(poincare, &co, &pctx) == DXT_OK);
    dxt_privatize_options_init(&opts);
    opts.epsilon = 5.0;
  }
  ~Fixture() {
    dxt_context_destroy(ctx);
    dxt_context_destroy(pctx);
    dxt_model_close(euclid);
    dxt_model_close(poincare);
  }
  Fixture(const Fixture&) = delete;
  Fixture& operator=(const Fixture&) = delete;
  dxt_privatize_options with_epsilon(double e) const {
    dxt_privatize_options o = opts;
    o.epsilon = e;
    return o;
  }
  dxt_privatize_options with_mechanism(uint32_t m, double e) const {
    dxt_privatize_options o = with_epsilon(e);
    o.mechanism = m;
    return o;
  }
};

// Each call wrapper checks the output contract: on failure the output is
// NULL (never partial), on success it is NUL-terminated valid UTF-8 of the
// reported length.
dxt_status text(dxt_context* c, const dxt_privatize_options* o, const char* p, size_t n,
                std::string* result = nullptr) {
  char* out = reinterpret_cast<char*>(0x1);
  size_t len = 12345;
  const dxt_status s = dxt_privatize_text(c, o, p, n, &out, &len, nullptr, nullptr);
  if (s != DXT_OK) {
    CHECK(out == nullptr);
    return s;
  }
  REQUIRE(out != nullptr);
  CHECK(out[len] == '\0');
  CHECK(dxt::utf8::valid(out, len));
  if (result != nullptr) result->assign(out, len);
  dxt_text_free(out);
  return s;
}

dxt_status text(Fixture& f, const std::string& t, std::string* result = nullptr) {
  return text(f.ctx, &f.opts, t.data(), t.size(), result);
}

dxt_status word(dxt_context* c, const dxt_privatize_options* o, const char* p, size_t n) {
  char* out = reinterpret_cast<char*>(0x1);
  size_t len = 12345;
  const dxt_status s = dxt_privatize_word(c, o, p, n, &out, &len, nullptr, nullptr);
  if (s != DXT_OK) {
    CHECK(out == nullptr);
    return s;
  }
  REQUIRE(out != nullptr);
  CHECK(std::strlen(out) == len);
  dxt_text_free(out);
  return s;
}

dxt_status bag(dxt_context* c, const dxt_privatize_options* o, const std::vector<dxt_bag_entry>& entries,
               uint64_t* released = nullptr, const dxt_bag_entry* data_override = nullptr) {
  dxt_bag* out = reinterpret_cast<dxt_bag*>(0x1);
  const dxt_status s = dxt_privatize_bag(c, o, data_override != nullptr ? data_override : entries.data(),
                                         entries.size(), &out, nullptr, nullptr);
  if (s != DXT_OK) {
    CHECK(out == nullptr);
    return s;
  }
  REQUIRE(out != nullptr);
  uint64_t total = 0;
  for (size_t i = 0; i < out->size; ++i) total += out->entries[i].count;
  if (released != nullptr) *released = total;
  dxt_bag_free(out);
  return s;
}

dxt_status syntf(dxt_context* c, const dxt_privatize_options* o, const std::vector<dxt_bag_entry>& entries,
                 uint32_t n_out) {
  dxt_bag* out = reinterpret_cast<dxt_bag*>(0x1);
  const dxt_status s = dxt_syntf(c, o, entries.data(), entries.size(), n_out, &out, nullptr, nullptr);
  if (s != DXT_OK) {
    CHECK(out == nullptr);
    return s;
  }
  dxt_bag_free(out);
  return s;
}

struct Row {
  const char* name;
  std::function<dxt_status(Fixture&)> call;
  dxt_status expected;
  const char* message;  // must occur in dxt_last_error_message() on failure
};

// A struct of the options type followed by extra bytes, as a newer caller
// would pass.
// The size of dxt_privatize_options before `search` and `ivf_nprobe` were
// appended: the smallest a caller may pass.
constexpr size_t kOptionsV1 = (offsetof(dxt_privatize_options, search) + alignof(dxt_privatize_options) - 1) /
                              alignof(dxt_privatize_options) * alignof(dxt_privatize_options);

struct LargerOptions {
  dxt_privatize_options o;
  uint64_t extra;
};

std::string repeat(const std::string& s, size_t n) {
  std::string r;
  r.reserve(s.size() * n);
  for (size_t i = 0; i < n; ++i) r += s;
  return r;
}

const std::vector<Row>& matrix() {
  static const std::vector<Row> rows = {
      // --- NULL pointers -------------------------------------------------
      {"text: context NULL", [](Fixture& f) { return text(nullptr, &f.opts, "cat", 3); }, DXT_E_INVALID_ARGUMENT,
       "context is NULL"},
      {"text: options NULL", [](Fixture& f) { return text(f.ctx, nullptr, "cat", 3); }, DXT_E_INVALID_ARGUMENT,
       "options is NULL"},
      {"text: text NULL with length 3", [](Fixture& f) { return text(f.ctx, &f.opts, nullptr, 3); },
       DXT_E_INVALID_ARGUMENT, "text is NULL"},
      {"text: text NULL with length 0 is the empty text", [](Fixture& f) { return text(f.ctx, &f.opts, nullptr, 0); },
       DXT_OK, ""},
      {"text: out NULL",
       [](Fixture& f) { return dxt_privatize_text(f.ctx, &f.opts, "cat", 3, nullptr, nullptr, nullptr, nullptr); },
       DXT_E_INVALID_ARGUMENT, "out is NULL"},
      {"word: word NULL with length 3", [](Fixture& f) { return word(f.ctx, &f.opts, nullptr, 3); },
       DXT_E_INVALID_ARGUMENT, "word is NULL"},
      {"index: out_index NULL",
       [](Fixture& f) { return dxt_privatize_index(f.ctx, &f.opts, 0, nullptr, nullptr, nullptr); },
       DXT_E_INVALID_ARGUMENT, "out_index is NULL"},
      {"bag: entries NULL with 2 entries",
       [](Fixture& f) {
         dxt_bag* out = nullptr;
         return dxt_privatize_bag(f.ctx, &f.opts, nullptr, 2, &out, nullptr, nullptr);
       },
       DXT_E_INVALID_ARGUMENT, "entries is NULL"},
      {"bag: an entry's word NULL with length 2",
       [](Fixture& f) {
         return bag(f.ctx, &f.opts, {{"cat", 3, 1}, {nullptr, 2, 1}});
       },
       DXT_E_INVALID_ARGUMENT, "word is NULL"},
      {"bag: out NULL",
       [](Fixture& f) {
         const dxt_bag_entry e = {"cat", 3, 1};
         return dxt_privatize_bag(f.ctx, &f.opts, &e, 1, nullptr, nullptr, nullptr);
       },
       DXT_E_INVALID_ARGUMENT, "out is NULL"},
      {"open_memory: data NULL",
       [](Fixture&) {
         dxt_model* m = reinterpret_cast<dxt_model*>(0x1);
         const dxt_status s = dxt_model_open_memory(nullptr, 100, nullptr, &m);
         CHECK(m == nullptr);
         return s;
       },
       DXT_E_INVALID_ARGUMENT, "buffer is NULL"},
      {"open_memory: out NULL",
       [](Fixture& f) { return dxt_model_open_memory(f.euclid_bytes.data(), f.euclid_bytes.size, nullptr, nullptr); },
       DXT_E_INVALID_ARGUMENT, "out is NULL"},
      {"open_file: path NULL",
       [](Fixture&) {
         dxt_model* m = nullptr;
         return dxt_model_open_file(nullptr, nullptr, &m);
       },
       DXT_E_INVALID_ARGUMENT, "path is NULL"},
      {"context_create: model NULL",
       [](Fixture&) {
         dxt_context* c = reinterpret_cast<dxt_context*>(0x1);
         const dxt_status s = dxt_context_create(nullptr, nullptr, &c);
         CHECK(c == nullptr);
         return s;
       },
       DXT_E_INVALID_ARGUMENT, "model is NULL"},
      {"release_record_to_json: record NULL",
       [](Fixture&) { return dxt_release_record_to_json(nullptr, nullptr, 0, nullptr); }, DXT_E_INVALID_ARGUMENT,
       "record is NULL"},
      {"local_diagnostics_to_json: diagnostics NULL",
       [](Fixture&) { return dxt_local_diagnostics_to_json(nullptr, nullptr, 0, nullptr); }, DXT_E_INVALID_ARGUMENT,
       "diagnostics is NULL"},

      // --- epsilon -------------------------------------------------------
      {"epsilon 0",
       [](Fixture& f) {
         const auto o = f.with_epsilon(0.0);
         return text(f.ctx, &o, "cat", 3);
       },
       DXT_E_INVALID_EPSILON, "epsilon is not set: give one from 1e-06 to 1000000"},
      {"epsilon -0",
       [](Fixture& f) {
         const auto o = f.with_epsilon(-0.0);
         return text(f.ctx, &o, "cat", 3);
       },
       DXT_E_INVALID_EPSILON, "epsilon is not set: give one from 1e-06 to 1000000"},
      {"epsilon negative",
       [](Fixture& f) {
         const auto o = f.with_epsilon(-1.0);
         return word(f.ctx, &o, "cat", 3);
       },
       DXT_E_INVALID_EPSILON, "got -1"},
      {"epsilon NaN",
       [](Fixture& f) {
         const auto o = f.with_epsilon(kNaN);
         return bag(f.ctx, &o, {{"cat", 3, 1}});
       },
       DXT_E_INVALID_EPSILON, "epsilon must be from 1e-06 to 1000000"},
      {"epsilon +inf",
       [](Fixture& f) {
         const auto o = f.with_epsilon(kInf);
         return text(f.ctx, &o, "cat", 3);
       },
       DXT_E_INVALID_EPSILON, "epsilon must be from 1e-06 to 1000000"},
      {"epsilon -inf",
       [](Fixture& f) {
         const auto o = f.with_epsilon(-kInf);
         uint32_t i = 0;
         return dxt_privatize_index(f.ctx, &o, 0, &i, nullptr, nullptr);
       },
       DXT_E_INVALID_EPSILON, "epsilon must be from 1e-06 to 1000000"},
      {"epsilon NaN for syntf",
       [](Fixture& f) {
         const auto o = f.with_epsilon(kNaN);
         return syntf(f.ctx, &o, {{"cat", 3, 1}}, 2);
       },
       DXT_E_INVALID_EPSILON, "epsilon must be from 1e-06 to 1000000"},
      {"hyperbolic: epsilon = n - 1 (n = 2)",
       [](Fixture& f) {
         const auto o = f.with_mechanism(DXT_MECHANISM_HYPERBOLIC, 1.0);
         return text(f.pctx, &o, "root", 4);
       },
       DXT_E_INVALID_EPSILON, "epsilon > n - 1 = 1"},
      {"hyperbolic: epsilon below n - 1",
       [](Fixture& f) {
         const auto o = f.with_mechanism(DXT_MECHANISM_HYPERBOLIC, 0.5);
         return text(f.pctx, &o, "root", 4);
       },
       DXT_E_INVALID_EPSILON, "epsilon > n - 1 = 1"},
      {"hyperbolic: epsilon just above n - 1 works",
       [](Fixture& f) {
         const auto o = f.with_mechanism(DXT_MECHANISM_HYPERBOLIC, std::nextafter(1.0, 2.0));
         return text(f.pctx, &o, "root p3", 7);
       },
       DXT_OK, ""},
      {"epsilon 1e-300 (the noisy point overflows binary32) is refused",
       [](Fixture& f) {
         const auto o = f.with_epsilon(1e-300);
         return text(f.ctx, &o, "cat dog", 7);
       },
       DXT_E_INVALID_EPSILON, "epsilon must be from 1e-06 to 1000000"},
      {"epsilon DBL_MAX is refused",
       [](Fixture& f) {
         const auto o = f.with_epsilon(std::numeric_limits<double>::max());
         return text(f.ctx, &o, "cat dog", 7);
       },
       DXT_E_INVALID_EPSILON, "epsilon must be from 1e-06 to 1000000"},
      {"epsilon DXT_EPSILON_MIN gives a vocabulary word",
       [](Fixture& f) {
         const auto o = f.with_epsilon(DXT_EPSILON_MIN);
         return text(f.ctx, &o, "cat dog", 7);
       },
       DXT_OK, ""},
      {"epsilon DXT_EPSILON_MAX gives a vocabulary word",
       [](Fixture& f) {
         const auto o = f.with_epsilon(DXT_EPSILON_MAX);
         return text(f.ctx, &o, "cat dog", 7);
       },
       DXT_OK, ""},

      // --- texts ---------------------------------------------------------
      {"empty text", [](Fixture& f) { return text(f, ""); }, DXT_OK, ""},
      {"UTF-8: overlong '/' (C0 AF)", [](Fixture& f) { return text(f, "cat \xC0\xAF dog"); }, DXT_E_INVALID_UTF8,
       "byte 4"},
      {"UTF-8: overlong 3-byte (E0 80 AF)", [](Fixture& f) { return text(f, "\xE0\x80\xAF"); }, DXT_E_INVALID_UTF8,
       "byte 0"},
      {"UTF-8: surrogate U+D800 (ED A0 80)", [](Fixture& f) { return text(f, "cat \xED\xA0\x80"); }, DXT_E_INVALID_UTF8,
       "byte 4"},
      {"UTF-8: above U+10FFFF (F4 90 80 80)", [](Fixture& f) { return text(f, "\xF4\x90\x80\x80"); },
       DXT_E_INVALID_UTF8, "byte 0"},
      {"UTF-8: truncated at the end (E2 82)", [](Fixture& f) { return text(f, "cat \xE2\x82"); }, DXT_E_INVALID_UTF8,
       "byte 4"},
      {"UTF-8: truncated before a space (F0 9F 98 ' ')", [](Fixture& f) { return text(f, "\xF0\x9F\x98 cat"); },
       DXT_E_INVALID_UTF8, "byte 0"},
      {"UTF-8: lone continuation byte (80)", [](Fixture& f) { return text(f, "cat\x80"); }, DXT_E_INVALID_UTF8,
       "byte 3"},
      {"UTF-8: FF byte", [](Fixture& f) { return text(f, "\xFF"); }, DXT_E_INVALID_UTF8, "byte 0"},
      {"UTF-8: invalid single word", [](Fixture& f) { return word(f.ctx, &f.opts, "ca\xC0\xAFt", 5); },
       DXT_E_INVALID_UTF8, "not valid UTF-8"},
      {"UTF-8: invalid bag word",
       [](Fixture& f) {
         return bag(f.ctx, &f.opts, {{"cat", 3, 1}, {"\xED\xA0\x80", 3, 1}});
       },
       DXT_E_INVALID_UTF8, "not valid UTF-8"},
      {"UTF-8: invalid placeholder",
       [](Fixture& f) {
         dxt_privatize_options o = f.opts;
         o.policy[DXT_CLASS_OUT_OF_VOCABULARY] = DXT_POLICY_PLACEHOLDER;
         o.placeholder = "\xC3\x28";
         return text(f.ctx, &o, "zzz", 3);
       },
       DXT_E_INVALID_UTF8, "placeholder"},
      {"NUL bytes inside the text are kept as separators",
       [](Fixture& f) {
         const std::string in("cat\0dog\0", 8);
         std::string out;
         const dxt_status s = text(f, in, &out);
         CHECK(out.size() >= 4);
         CHECK(std::count(out.begin(), out.end(), '\0') == 2);
         CHECK(out.back() == '\0');
         return s;
       },
       DXT_OK, ""},
      {"NUL inside a single word: kept with its bytes as one word",
       [](Fixture& f) { return word(f.ctx, &f.opts, "c\0t", 3) == DXT_OK ? DXT_OK : DXT_E_INTERNAL; }, DXT_OK, ""},
      {"a 1 MiB word (longer than any buffer) is one out-of-vocabulary word",
       [](Fixture& f) {
         std::string out;
         const dxt_status s = text(f, std::string(1 << 20, 'x'), &out);
         uint32_t i = 0;
         CHECK(dxt_model_lookup(f.euclid, out.data(), out.size(), &i) == DXT_OK);
         return s;
       },
       DXT_OK, ""},
      {"a 1 MiB single word through privatize_word",
       [](Fixture& f) {
         const std::string w(1 << 20, 'y');
         return word(f.ctx, &f.opts, w.data(), w.size());
       },
       DXT_OK, ""},
      {"a 1 MiB run of punctuation is kept",
       [](Fixture& f) {
         std::string out;
         const dxt_status s = text(f, std::string(1 << 20, '.'), &out);
         CHECK(out.size() == (1u << 20));
         return s;
       },
       DXT_OK, ""},
      {"a 1 MiB run of combining marks", [](Fixture& f) { return text(f, repeat("\xCC\x81", 1 << 19)); }, DXT_OK, ""},

      // --- bags ----------------------------------------------------------
      {"bag: no entries (entries NULL, count 0)",
       [](Fixture& f) {
         dxt_bag* out = nullptr;
         const dxt_status s = dxt_privatize_bag(f.ctx, &f.opts, nullptr, 0, &out, nullptr, nullptr);
         if (s == DXT_OK) CHECK(out->size == 0);
         dxt_bag_free(out);
         return s;
       },
       DXT_OK, ""},
      {"bag: every count zero releases nothing",
       [](Fixture& f) {
         uint64_t released = 99;
         const dxt_status s = bag(f.ctx, &f.opts, {{"cat", 3, 0}, {"dog", 3, 0}}, &released);
         CHECK(released == 0);
         return s;
       },
       DXT_OK, ""},
      {"bag: one count above DXT_MAX_BAG_WORDS",
       [](Fixture& f) {
         return bag(f.ctx, &f.opts, {{"cat", 3, DXT_MAX_BAG_WORDS + 1}});
       },
       DXT_E_INPUT_TOO_LARGE, "more than 16777216"},
      {"bag: count UINT64_MAX",
       [](Fixture& f) {
         return bag(f.ctx, &f.opts, {{"cat", 3, UINT64_MAX}});
       },
       DXT_E_INPUT_TOO_LARGE, "more than"},
      {"bag: counts whose sum wraps around 2^64",
       [](Fixture& f) {
         return bag(f.ctx, &f.opts, {{"cat", 3, 1ull << 63}, {"dog", 3, 1ull << 63}, {"on", 2, 1}});
       },
       DXT_E_INPUT_TOO_LARGE, "more than"},
      {"bag: counts each allowed, sum just above the limit",
       [](Fixture& f) {
         return bag(f.ctx, &f.opts, {{"cat", 3, DXT_MAX_BAG_WORDS / 2}, {"dog", 3, DXT_MAX_BAG_WORDS / 2 + 1}});
       },
       DXT_E_INPUT_TOO_LARGE, "more than"},
      {"bag: entry_count SIZE_MAX is refused before any entry is read",
       [](Fixture& f) {
         const dxt_bag_entry one[] = {{"cat", 3, 1}};
         dxt_bag* out = reinterpret_cast<dxt_bag*>(0x1);
         const dxt_status s = dxt_privatize_bag(f.ctx, &f.opts, one, SIZE_MAX, &out, nullptr, nullptr);
         CHECK(out == nullptr);
         return s;
       },
       DXT_E_INPUT_TOO_LARGE, "entries"},
      {"bag: entry_count one above DXT_MAX_BAG_WORDS",
       [](Fixture& f) {
         const dxt_bag_entry one[] = {{"cat", 3, 1}};
         dxt_bag* out = nullptr;
         return dxt_privatize_bag(f.ctx, &f.opts, one, static_cast<size_t>(DXT_MAX_BAG_WORDS) + 1, &out, nullptr,
                                  nullptr);
       },
       DXT_E_INPUT_TOO_LARGE, "entries"},
      {"syntf: entry_count SIZE_MAX is refused before any entry is read",
       [](Fixture& f) {
         const dxt_bag_entry one[] = {{"cat", 3, 1}};
         dxt_bag* out = reinterpret_cast<dxt_bag*>(0x1);
         const dxt_status s = dxt_syntf(f.ctx, &f.opts, one, SIZE_MAX, 2, &out, nullptr, nullptr);
         CHECK(out == nullptr);
         return s;
       },
       DXT_E_INPUT_TOO_LARGE, "entries"},
      {"syntf: n_out 0",
       [](Fixture& f) {
         return syntf(f.ctx, &f.opts, {{"cat", 3, 1}}, 0);
       },
       DXT_E_INVALID_ARGUMENT, "n_out"},
      {"syntf: n_out above the limit",
       [](Fixture& f) {
         return syntf(f.ctx, &f.opts, {{"cat", 3, 1}}, static_cast<uint32_t>(DXT_MAX_BAG_WORDS) + 1);
       },
       DXT_E_INPUT_TOO_LARGE, "n_out"},
      {"syntf: every count zero",
       [](Fixture& f) {
         return syntf(f.ctx, &f.opts, {{"cat", 3, 0}}, 2);
       },
       DXT_E_INVALID_ARGUMENT, "no words"},
      {"syntf: huge count",
       [](Fixture& f) {
         return syntf(f.ctx, &f.opts, {{"cat", 3, UINT64_MAX}}, 2);
       },
       DXT_E_INPUT_TOO_LARGE, "more than"},

      // --- struct_size ---------------------------------------------------
      {"options.struct_size 0",
       [](Fixture& f) {
         dxt_privatize_options o = f.opts;
         o.struct_size = 0;
         return text(f.ctx, &o, "cat", 3);
       },
       DXT_E_INVALID_ARGUMENT, "struct_size is 0"},
      {"options.struct_size one byte short of the first version",
       [](Fixture& f) {
         dxt_privatize_options o = f.opts;
         o.struct_size = kOptionsV1 - 1;
         return text(f.ctx, &o, "cat", 3);
       },
       DXT_E_INVALID_ARGUMENT, "_init"},
      {"options from a newer caller with an unknown field set",
       [](Fixture& f) {
         LargerOptions lo{};
         lo.o = f.opts;
         lo.o.struct_size = sizeof lo;
         lo.extra = 1;
         return text(f.ctx, &lo.o, "cat", 3);
       },
       DXT_E_UNSUPPORTED, "does not know"},
      {"options from a newer caller, unknown fields zero: accepted",
       [](Fixture& f) {
         LargerOptions lo{};
         lo.o = f.opts;
         lo.o.struct_size = sizeof lo;
         return text(f.ctx, &lo.o, "cat", 3);
       },
       DXT_OK, ""},
      {"record.struct_size 0",
       [](Fixture& f) {
         dxt::test::Reported r;
         r.rec.struct_size = 0;
         char* out = nullptr;
         size_t n = 0;
         const dxt_status s = dxt_privatize_text(f.ctx, &f.opts, "cat", 3, &out, &n, &r.rec, &r.diag);
         CHECK(out == nullptr);
         return s;
       },
       DXT_E_INVALID_ARGUMENT, "record.struct_size"},
      {"diagnostics.struct_size 0",
       [](Fixture& f) {
         dxt::test::Reported r;
         r.diag.struct_size = 0;
         char* out = nullptr;
         size_t n = 0;
         const dxt_status s = dxt_privatize_text(f.ctx, &f.opts, "cat", 3, &out, &n, &r.rec, &r.diag);
         CHECK(out == nullptr);
         return s;
       },
       DXT_E_INVALID_ARGUMENT, "diagnostics.struct_size"},
      {"context options struct_size 3",
       [](Fixture& f) {
         dxt_context_options o;
         dxt_context_options_init(&o);
         o.struct_size = 3;
         dxt_context* c = nullptr;
         return dxt_context_create(f.euclid, &o, &c);
       },
       DXT_E_INVALID_ARGUMENT, "struct_size"},
      {"open options struct_size 0",
       [](Fixture& f) {
         dxt_model_open_options o;
         dxt_model_open_options_init(&o);
         o.struct_size = 0;
         dxt_model* m = nullptr;
         return dxt_model_open_memory(f.euclid_bytes.data(), f.euclid_bytes.size, &o, &m);
       },
       DXT_E_INVALID_ARGUMENT, "struct_size"},
      {"model info struct_size 0",
       [](Fixture& f) {
         dxt_model_info i;
         dxt_model_info_init(&i);
         i.struct_size = 0;
         return dxt_model_get_info(f.euclid, &i);
       },
       DXT_E_INVALID_ARGUMENT, "struct_size"},
      {"calibration struct_size 0",
       [](Fixture& f) {
         dxt_calibration c;
         dxt_calibration_init(&c);
         c.struct_size = 0;
         return dxt_calibrate(f.ctx, &f.opts, 2, 2, &c);
       },
       DXT_E_INVALID_ARGUMENT, "struct_size"},

      // --- options and mechanism parameters ---------------------------------
      {"unknown mechanism 99",
       [](Fixture& f) {
         const auto o = f.with_mechanism(99, 5.0);
         return text(f.ctx, &o, "cat", 3);
       },
       DXT_E_UNSUPPORTED, "unknown mechanism 99"},
      {"unknown token policy 9",
       [](Fixture& f) {
         dxt_privatize_options o = f.opts;
         o.policy[DXT_CLASS_NUMBER] = 9;
         return text(f.ctx, &o, "cat", 3);
       },
       DXT_E_INVALID_ARGUMENT, "unknown token policy 9"},
      {"unknown exponential sampler",
       [](Fixture& f) {
         dxt_privatize_options o = f.with_mechanism(DXT_MECHANISM_EXPONENTIAL, 5.0);
         o.exponential_sampler = 7;
         return text(f.ctx, &o, "cat", 3);
       },
       DXT_E_INVALID_ARGUMENT, "sampler"},
      {"vickrey t NaN",
       [](Fixture& f) {
         dxt_privatize_options o = f.with_mechanism(DXT_MECHANISM_VICKREY, 5.0);
         o.vickrey_t = kNaN;
         return text(f.ctx, &o, "cat", 3);
       },
       DXT_E_INVALID_ARGUMENT, "vickrey t"},
      {"vickrey t above 1",
       [](Fixture& f) {
         dxt_privatize_options o = f.with_mechanism(DXT_MECHANISM_VICKREY, 5.0);
         o.vickrey_t = 1.5;
         return text(f.ctx, &o, "cat", 3);
       },
       DXT_E_INVALID_ARGUMENT, "vickrey t"},
      {"tem gamma negative",
       [](Fixture& f) {
         dxt_privatize_options o = f.with_mechanism(DXT_MECHANISM_TEM, 5.0);
         o.tem_gamma = -1;
         return text(f.ctx, &o, "cat", 3);
       },
       DXT_E_INVALID_ARGUMENT, "tem gamma"},
      {"tem beta 1",
       [](Fixture& f) {
         dxt_privatize_options o = f.with_mechanism(DXT_MECHANISM_TEM, 5.0);
         o.tem_beta = 1.0;
         return text(f.ctx, &o, "cat", 3);
       },
       DXT_E_INVALID_ARGUMENT, "tem beta"},
      {"syntf s negative",
       [](Fixture& f) {
         dxt_privatize_options o = f.with_mechanism(DXT_MECHANISM_SYNTF, 5.0);
         o.syntf_s = -1;
         return text(f.ctx, &o, "cat", 3);
       },
       DXT_E_INVALID_ARGUMENT, "s"},

      // --- wrong geometry for the mechanism ----------------------------------
      {"hyperbolic on a Euclidean model",
       [](Fixture& f) {
         const auto o = f.with_mechanism(DXT_MECHANISM_HYPERBOLIC, 50.0);
         return text(f.ctx, &o, "cat", 3);
       },
       DXT_E_UNSUPPORTED, "needs a poincare model"},
      {"laplace on a Poincare model", [](Fixture& f) { return text(f.pctx, &f.opts, "root", 4); }, DXT_E_UNSUPPORTED,
       "needs a euclidean model"},
      {"mahalanobis on a model without a covariance",
       [](Fixture& f) {
         const auto o = f.with_mechanism(DXT_MECHANISM_MAHALANOBIS, 5.0);
         return text(f.ctx, &o, "cat", 3);
       },
       DXT_E_UNSUPPORTED, "covariance"},
      {"vickrey on a Poincare model",
       [](Fixture& f) {
         const auto o = f.with_mechanism(DXT_MECHANISM_VICKREY, 5.0);
         return text(f.pctx, &o, "root", 4);
       },
       DXT_E_UNSUPPORTED, "euclidean"},
      {"index outside the vocabulary",
       [](Fixture& f) {
         uint32_t i = 0;
         return dxt_privatize_index(f.ctx, &f.opts, 12, &i, nullptr, nullptr);
       },
       DXT_E_NOT_FOUND, "outside the vocabulary"},
      {"nearest: vector of the wrong dimension",
       [](Fixture& f) {
         const float v[2] = {0, 0};
         uint32_t i = 0;
         return dxt_model_nearest(f.euclid, v, 2, &i);
       },
       DXT_E_INVALID_ARGUMENT, "dimension"},
      {"nearest: a point outside the Poincare ball",
       [](Fixture& f) {
         const float v[2] = {1.0f, 0.0f};
         uint32_t i = 0;
         return dxt_model_nearest(f.poincare, v, 2, &i);
       },
       DXT_E_INVALID_ARGUMENT, "outside the Poincare ball"},
      {"nearest: a NaN vector",
       [](Fixture& f) {
         const float v[3] = {std::numeric_limits<float>::quiet_NaN(), 0, 0};
         uint32_t i = 0;
         return dxt_model_nearest(f.euclid, v, 3, &i);
       },
       DXT_E_INVALID_ARGUMENT, "finite"},

      // --- lifetimes -------------------------------------------------------
      {"every destroy and free accepts NULL (twice)",
       [](Fixture&) {
         for (int i = 0; i < 2; ++i) {
           dxt_model_close(nullptr);
           dxt_context_destroy(nullptr);
           dxt_text_free(nullptr);
           dxt_bag_free(nullptr);
         }
         return DXT_OK;
       },
       DXT_OK, ""},
      {"close, set to NULL, close again: the documented pattern",
       [](Fixture& f) {
         dxt_model* m = nullptr;
         REQUIRE(dxt_model_open_memory(f.euclid_bytes.data(), f.euclid_bytes.size, nullptr, &m) == DXT_OK);
         dxt_model_close(m);
         m = nullptr;
         dxt_model_close(m);
         return DXT_OK;
       },
       DXT_OK, ""},
      {"a context used after its model was closed keeps working",
       [](Fixture& f) {
         dxt_model* m = nullptr;
         REQUIRE(dxt_model_open_memory(f.euclid_bytes.data(), f.euclid_bytes.size, nullptr, &m) == DXT_OK);
         dxt_context* c = nullptr;
         REQUIRE(dxt_context_create(m, nullptr, &c) == DXT_OK);
         dxt_model_close(m);
         std::string out;
         const dxt_status s = text(c, &f.opts, "cat dog", 7, &out);
         dxt_context_destroy(c);
         return s;
       },
       DXT_OK, ""},
  };
  return rows;
}

}  // namespace

TEST_CASE("bad-input matrix: every row gives its documented status and message") {
  Fixture f;
  for (const Row& row : matrix()) {
    CAPTURE(row.name);
    const dxt_status s = row.call(f);
    const std::string message = dxt_last_error_message();
    CHECK_MESSAGE(s == row.expected, row.name << ": got " << dxt_status_string(s) << " (" << message << ")");
    if (row.expected != DXT_OK) {
      CHECK_MESSAGE(message.find(row.message) != std::string::npos,
                    row.name << ": message '" << message << "' lacks '" << row.message << "'");
    }
  }
}

// A huge text streamed in chunks, as a caller with a 100 MB document would
// pass it; DXT_BAD_INPUT_HUGE_MB changes the total (default 100).
TEST_CASE("bad input: a text of 100 MB streamed in 1 MiB chunks") {
  const char* env = std::getenv("DXT_BAD_INPUT_HUGE_MB");
  const size_t total_mb = env != nullptr ? std::strtoul(env, nullptr, 10) : 100;
  Fixture f;
  dxt_privatize_options o = f.opts;
  // Long unknown words become placeholders (no draws, the lookup and
  // tokenizer paths alone); "cat" is privatised.
  o.policy[DXT_CLASS_OUT_OF_VOCABULARY] = DXT_POLICY_PLACEHOLDER;
  o.placeholder = "_";
  std::string chunk;
  while (chunk.size() < (1u << 20) - 64) chunk += "Supercalifragilisticexpialidocious, cat! 12345 \xC3\xA9t\xC3\xA9 ";
  size_t in_total = 0, out_total = 0;
  const auto start = std::chrono::steady_clock::now();
  while (in_total < total_mb * 1000 * 1000) {
    std::string out;
    REQUIRE(text(f.ctx, &o, chunk.data(), chunk.size(), &out) == DXT_OK);
    in_total += chunk.size();
    out_total += out.size();
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  MESSAGE("streamed " << in_total << " bytes in " << seconds << " s, " << out_total << " bytes out");
  CHECK(in_total >= total_mb * 1000 * 1000);
  CHECK(out_total > 0);
}

// One call with a large text: the library holds it whole (see
// docs/limitations.md); this checks it is processed without trouble.
TEST_CASE("bad input: a 16 MiB text in one call") {
  Fixture f;
  dxt_privatize_options o = f.opts;
  o.mechanism = DXT_MECHANISM_EXPONENTIAL;
  std::string big;
  while (big.size() < (16u << 20)) big += "the cat sat on the mat. ";
  std::string out;
  REQUIRE(text(f.ctx, &o, big.data(), big.size(), &out) == DXT_OK);
  CHECK(out.size() > big.size() / 2);
}

// Long texts are tokenized in pieces of 64 KiB (bounded memory): the pieces
// must end only where no token is cut, so a long text gives exactly the
// tokens of one whole tokenization.
TEST_CASE("bad input: a long text is tokenized in pieces without cutting a token") {
  Fixture f;
  dxt_privatize_options o = f.with_epsilon(DXT_EPSILON_MAX);  // in-vocabulary words come back as they are
  o.policy[DXT_CLASS_OUT_OF_VOCABULARY] = DXT_POLICY_KEEP;
  o.policy[DXT_CLASS_NUMBER] = DXT_POLICY_KEEP;
  const char* pieces[] = {"cat",
                          "The",
                          "SAT",
                          "don't",
                          "l\xE2\x80\x99\xC3\xA9t\xC3\xA9",
                          "3.14",
                          "1,000",
                          "mat.",
                          "dog,",
                          "x'y",
                          "\xE2\x80\x94",
                          "...",
                          "'",
                          ",",
                          ".",
                          "!",
                          "\n",
                          " ",
                          "  ",
                          "tree-house"};
  std::string text;
  uint64_t state = 12345;
  while (text.size() < 600000) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    text += pieces[(state >> 33) % (sizeof pieces / sizeof pieces[0])];
    if ((state >> 20) % 3 == 0) text += ' ';
  }
  size_t words = 0;
  for (const dxt::Token& t : dxt::tokenize(text)) words += dxt::is_word_or_number(t.kind) ? 1 : 0;
  dxt::test::Reported r;
  char* out = nullptr;
  size_t len = 0;
  REQUIRE(dxt_privatize_text(f.ctx, &o, text.data(), text.size(), &out, &len, &r.rec, &r.diag) == DXT_OK);
  const std::string result(out, len);
  dxt_text_free(out);
  uint64_t counted = 0;
  for (const auto& row : r.diag.counts)
    for (uint64_t c : row) counted += c;
  CHECK(counted == words);
  CHECK(result == text);
}
