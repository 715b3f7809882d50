// SPDX-License-Identifier: Apache-2.0
// The public C API end to end, on toy models built in memory.
#include <doctest/doctest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "dxtext/dxtext.h"
#include "model/sha256.hpp"
#include "support/release_outputs.hpp"
#include "support/toy_models.hpp"

namespace {

using dxt::test::AlignedBytes;
using dxt::test::Reported;
using dxt::test::ToyModelSpec;

// Index:   0      1      2      3     4      5      6        7       8      9       10     11
// Point: (x, y, 0) with x = i % 4, y = i / 4: a grid of spacing 1, "cat" at
// the origin (where out-of-vocabulary words are privatised from).
const char* const kWords[] = {"cat", "the", "sat", "on", "mat", "dog", "house", "tree", "red", "blue", "run", "quick"};
constexpr uint32_t kVocab = 12;
constexpr uint32_t kDim = 3;

ToyModelSpec toy_spec(dxt_quantization q = DXT_QUANT_F32, dxt_geometry g = DXT_GEOMETRY_EUCLIDEAN, float scale = 1.0f) {
  ToyModelSpec s;
  for (uint32_t i = 0; i < kVocab; ++i) {
    s.words.push_back(kWords[i]);
    s.vectors.push_back({scale * static_cast<float>(i % 4), scale * static_cast<float>(i / 4), 0.0f});
  }
  s.quantization = q;
  s.geometry = g;
  return s;
}

// The status and, for failures, a non-empty thread-local message.
#define CHECK_STATUS(expr, expected)                                                                         \
  do {                                                                                                       \
    const dxt_status s_ = (expr);                                                                            \
    CHECK_MESSAGE(s_ == (expected),                                                                          \
                  #expr " -> " << s_ << " (" << dxt_status_string(s_) << "): " << dxt_last_error_message()); \
    if ((expected) != DXT_OK) {                                                                              \
      REQUIRE(dxt_last_error_message() != nullptr);                                                          \
      CHECK(std::strlen(dxt_last_error_message()) > 0);                                                      \
    }                                                                                                        \
  } while (0)

#define REQUIRE_OK(expr)                                                                   \
  do {                                                                                     \
    const dxt_status s_ = (expr);                                                          \
    REQUIRE_MESSAGE(s_ == DXT_OK, #expr " -> " << s_ << ": " << dxt_last_error_message()); \
  } while (0)

struct Toy {
  AlignedBytes bytes;
  dxt_model* model = nullptr;
  explicit Toy(const ToyModelSpec& spec = toy_spec()) : bytes(dxt::test::build_model_bytes(spec)) {
    REQUIRE_OK(dxt_model_open_memory(bytes.data(), bytes.size, nullptr, &model));
    REQUIRE(model != nullptr);
  }
  ~Toy() { dxt_model_close(model); }
  Toy(const Toy&) = delete;
  Toy& operator=(const Toy&) = delete;
};

struct Ctx {
  dxt_context* ctx = nullptr;
  explicit Ctx(dxt_model* m, const dxt_context_options* o = nullptr) {
    REQUIRE_OK(dxt_context_create(m, o, &ctx));
    REQUIRE(ctx != nullptr);
  }
  ~Ctx() { dxt_context_destroy(ctx); }
  Ctx(const Ctx&) = delete;
  Ctx& operator=(const Ctx&) = delete;
};

dxt_context_options seeded(uint8_t first_byte) {
  dxt_context_options o;
  dxt_context_options_init(&o);
  o.rng_mode = DXT_RNG_DETERMINISTIC;
  for (int i = 0; i < 32; ++i) o.seed[i] = static_cast<uint8_t>(i * 7 + 1);
  o.seed[0] = first_byte;
  return o;
}

dxt_privatize_options popts(double epsilon) {
  dxt_privatize_options o;
  dxt_privatize_options_init(&o);
  o.epsilon = epsilon;
  return o;
}

std::string text_call(dxt_context* c, const dxt_privatize_options& o, const std::string& in, Reported* r = nullptr) {
  char* out = nullptr;
  size_t len = 12345;
  const dxt_status s =
      dxt_privatize_text(c, &o, in.data(), in.size(), &out, &len, r ? &r->rec : nullptr, r ? &r->diag : nullptr);
  REQUIRE_MESSAGE(s == DXT_OK, "privatize_text: " << dxt_status_string(s) << ": " << dxt_last_error_message());
  REQUIRE(out != nullptr);
  CHECK(out[len] == '\0');
  std::string result(out, len);
  dxt_text_free(out);
  return result;
}

std::string word_call(dxt_context* c, const dxt_privatize_options& o, const std::string& in, Reported* r = nullptr) {
  char* out = nullptr;
  size_t len = 12345;
  const dxt_status s =
      dxt_privatize_word(c, &o, in.data(), in.size(), &out, &len, r ? &r->rec : nullptr, r ? &r->diag : nullptr);
  REQUIRE_MESSAGE(s == DXT_OK, "privatize_word: " << dxt_status_string(s) << ": " << dxt_last_error_message());
  REQUIRE(out != nullptr);
  CHECK(std::strlen(out) == len);
  std::string result(out, len);
  dxt_text_free(out);
  return result;
}

bool in_vocab(dxt_model* m, const std::string& w) {
  uint32_t idx = 0;
  return dxt_model_lookup(m, w.data(), w.size(), &idx) == DXT_OK;
}

uint64_t count_of(const Reported& r, dxt_token_class c, dxt_token_policy p) { return r.diag.counts[c][p - 1]; }

uint64_t total_counts(const Reported& r) {
  uint64_t t = 0;
  for (auto& row : r.diag.counts)
    for (uint64_t v : row) t += v;
  return t;
}

std::string record_json(const Reported& r) {
  size_t need = 0;
  CHECK(dxt_release_record_to_json(&r.rec, nullptr, 0, &need) == DXT_E_INPUT_TOO_LARGE);
  std::string s(need, 'x');
  REQUIRE_OK(dxt_release_record_to_json(&r.rec, s.data(), s.size(), &need));
  s.resize(need - 1);
  return s;
}

std::string diagnostics_json(const Reported& r) {
  size_t need = 0;
  CHECK(dxt_local_diagnostics_to_json(&r.diag, nullptr, 0, &need) == DXT_E_INPUT_TOO_LARGE);
  std::string s(need, 'x');
  REQUIRE_OK(dxt_local_diagnostics_to_json(&r.diag, s.data(), s.size(), &need));
  s.resize(need - 1);
  return s;
}

}  // namespace

// ---------------------------------------------------------------------------

TEST_CASE("abi: versions and status strings") {
  CHECK(dxt_version_number() == DXT_VERSION_NUMBER);
  CHECK(std::string(dxt_version_string()) == std::to_string(DXT_VERSION_MAJOR) + "." +
                                                 std::to_string(DXT_VERSION_MINOR) + "." +
                                                 std::to_string(DXT_VERSION_PATCH));
  CHECK(dxt_abi_version() == DXT_ABI_VERSION);
  CHECK(dxt_format_version() == DXT_FORMAT_VERSION_MAJOR * 100 + DXT_FORMAT_VERSION_MINOR);
  CHECK(std::string(dxt_status_string(DXT_OK)) == "ok");
  std::map<std::string, int> seen;
  for (int s = DXT_E_INVALID_ARGUMENT; s <= DXT_E_INTERNAL; ++s) {
    const char* str = dxt_status_string(s);
    REQUIRE(str != nullptr);
    CHECK(std::strlen(str) > 0);
    CHECK(seen.emplace(str, s).second);  // distinct
  }
  REQUIRE(dxt_status_string(9999) != nullptr);
  REQUIRE(dxt_status_string(-1) != nullptr);
  REQUIRE(dxt_last_error_message() != nullptr);
}

TEST_CASE("abi: NULL arguments give DXT_E_INVALID_ARGUMENT and never crash") {
  Toy toy;
  Ctx c(toy.model);
  dxt_privatize_options o = popts(1.0);
  dxt_model* m = reinterpret_cast<dxt_model*>(0x1);  // must be reset to NULL
  uint32_t idx = 0;
  const char* w = nullptr;
  size_t len = 0;
  float vec[kDim] = {0, 0, 0};
  uint8_t fp[32];
  char* out = nullptr;
  dxt_bag* bag = nullptr;
  dxt::test::Reported r;
  dxt_model_info info;
  dxt_model_info_init(&info);
  char buf[8];

  // Opening.
  CHECK_STATUS(dxt_model_open_file(nullptr, nullptr, &m), DXT_E_INVALID_ARGUMENT);
  CHECK(m == nullptr);
  CHECK_STATUS(dxt_model_open_file("/nonexistent.dxe", nullptr, nullptr), DXT_E_INVALID_ARGUMENT);
  m = reinterpret_cast<dxt_model*>(0x1);
  CHECK_STATUS(dxt_model_open_memory(nullptr, 4096, nullptr, &m), DXT_E_INVALID_ARGUMENT);
  CHECK(m == nullptr);
  CHECK_STATUS(dxt_model_open_memory(toy.bytes.data(), toy.bytes.size, nullptr, nullptr), DXT_E_INVALID_ARGUMENT);

  // Model queries.
  CHECK_STATUS(dxt_model_get_info(nullptr, &info), DXT_E_INVALID_ARGUMENT);
  CHECK_STATUS(dxt_model_get_info(toy.model, nullptr), DXT_E_INVALID_ARGUMENT);
  CHECK_STATUS(dxt_model_fingerprint(nullptr, fp), DXT_E_INVALID_ARGUMENT);
  CHECK_STATUS(dxt_model_fingerprint(toy.model, nullptr), DXT_E_INVALID_ARGUMENT);
  CHECK_STATUS(dxt_model_lookup(nullptr, "cat", 3, &idx), DXT_E_INVALID_ARGUMENT);
  CHECK_STATUS(dxt_model_lookup(toy.model, nullptr, 3, &idx), DXT_E_INVALID_ARGUMENT);
  CHECK_STATUS(dxt_model_lookup(toy.model, "cat", 3, nullptr), DXT_E_INVALID_ARGUMENT);
  CHECK_STATUS(dxt_model_word(nullptr, 0, &w, &len), DXT_E_INVALID_ARGUMENT);
  CHECK_STATUS(dxt_model_word(toy.model, 0, nullptr, &len), DXT_E_INVALID_ARGUMENT);
  CHECK_STATUS(dxt_model_nearest(nullptr, vec, kDim, &idx), DXT_E_INVALID_ARGUMENT);
  CHECK_STATUS(dxt_model_nearest(toy.model, nullptr, kDim, &idx), DXT_E_INVALID_ARGUMENT);
  CHECK_STATUS(dxt_model_nearest(toy.model, vec, kDim, nullptr), DXT_E_INVALID_ARGUMENT);

  // Contexts.
  dxt_context* ctx = reinterpret_cast<dxt_context*>(0x1);
  CHECK_STATUS(dxt_context_create(nullptr, nullptr, &ctx), DXT_E_INVALID_ARGUMENT);
  CHECK(ctx == nullptr);
  CHECK_STATUS(dxt_context_create(toy.model, nullptr, nullptr), DXT_E_INVALID_ARGUMENT);

  // Release records and diagnostics.
  CHECK_STATUS(dxt_release_record_to_json(nullptr, buf, sizeof buf, &len), DXT_E_INVALID_ARGUMENT);
  CHECK_STATUS(dxt_release_record_to_json(&r.rec, nullptr, 100, &len), DXT_E_INVALID_ARGUMENT);
  CHECK_STATUS(dxt_local_diagnostics_to_json(nullptr, buf, sizeof buf, &len), DXT_E_INVALID_ARGUMENT);
  CHECK_STATUS(dxt_local_diagnostics_to_json(&r.diag, nullptr, 100, &len), DXT_E_INVALID_ARGUMENT);

  // Privatisation.
  CHECK_STATUS(dxt_privatize_index(nullptr, &o, 0, &idx, nullptr, nullptr), DXT_E_INVALID_ARGUMENT);
  CHECK_STATUS(dxt_privatize_index(c.ctx, nullptr, 0, &idx, nullptr, nullptr), DXT_E_INVALID_ARGUMENT);
  CHECK_STATUS(dxt_privatize_index(c.ctx, &o, 0, nullptr, nullptr, nullptr), DXT_E_INVALID_ARGUMENT);

  CHECK_STATUS(dxt_privatize_word(nullptr, &o, "cat", 3, &out, &len, nullptr, nullptr), DXT_E_INVALID_ARGUMENT);
  CHECK_STATUS(dxt_privatize_word(c.ctx, nullptr, "cat", 3, &out, &len, nullptr, nullptr), DXT_E_INVALID_ARGUMENT);
  CHECK_STATUS(dxt_privatize_word(c.ctx, &o, nullptr, 3, &out, &len, nullptr, nullptr), DXT_E_INVALID_ARGUMENT);
  CHECK(out == nullptr);
  CHECK_STATUS(dxt_privatize_word(c.ctx, &o, "cat", 3, nullptr, &len, nullptr, nullptr), DXT_E_INVALID_ARGUMENT);

  CHECK_STATUS(dxt_privatize_text(nullptr, &o, "cat", 3, &out, &len, nullptr, nullptr), DXT_E_INVALID_ARGUMENT);
  CHECK_STATUS(dxt_privatize_text(c.ctx, nullptr, "cat", 3, &out, &len, nullptr, nullptr), DXT_E_INVALID_ARGUMENT);
  CHECK_STATUS(dxt_privatize_text(c.ctx, &o, nullptr, 3, &out, &len, nullptr, nullptr), DXT_E_INVALID_ARGUMENT);
  CHECK(out == nullptr);
  CHECK_STATUS(dxt_privatize_text(c.ctx, &o, "cat", 3, nullptr, &len, nullptr, nullptr), DXT_E_INVALID_ARGUMENT);

  dxt_bag_entry e = {"cat", 3, 1};
  CHECK_STATUS(dxt_privatize_bag(nullptr, &o, &e, 1, &bag, nullptr, nullptr), DXT_E_INVALID_ARGUMENT);
  CHECK_STATUS(dxt_privatize_bag(c.ctx, nullptr, &e, 1, &bag, nullptr, nullptr), DXT_E_INVALID_ARGUMENT);
  CHECK_STATUS(dxt_privatize_bag(c.ctx, &o, nullptr, 1, &bag, nullptr, nullptr), DXT_E_INVALID_ARGUMENT);
  CHECK(bag == nullptr);
  CHECK_STATUS(dxt_privatize_bag(c.ctx, &o, &e, 1, nullptr, nullptr, nullptr), DXT_E_INVALID_ARGUMENT);
  dxt_bag_entry null_word = {nullptr, 3, 1};
  CHECK_STATUS(dxt_privatize_bag(c.ctx, &o, &null_word, 1, &bag, nullptr, nullptr), DXT_E_INVALID_ARGUMENT);
  CHECK(bag == nullptr);

  // NULL-tolerant calls.
  dxt_model_open_options_init(nullptr);
  dxt_model_info_init(nullptr);
  dxt_context_options_init(nullptr);
  dxt_privatize_options_init(nullptr);
  dxt_release_record_init(nullptr);
  dxt_local_diagnostics_init(nullptr);
  dxt_model_close(nullptr);
  dxt_context_destroy(nullptr);
  dxt_text_free(nullptr);
  dxt_bag_free(nullptr);

  // Optional outputs may be NULL.
  CHECK_STATUS(dxt_model_word(toy.model, 0, &w, nullptr), DXT_OK);
  CHECK(std::string(w) == "cat");
  CHECK_STATUS(dxt_privatize_text(c.ctx, &o, nullptr, 0, &out, nullptr, nullptr, nullptr), DXT_OK);
  REQUIRE(out != nullptr);
  CHECK(std::string(out).empty());
  dxt_text_free(out);
  CHECK_STATUS(dxt_privatize_bag(c.ctx, &o, nullptr, 0, &bag, nullptr, nullptr), DXT_OK);
  REQUIRE(bag != nullptr);
  CHECK(bag->size == 0);
  dxt_bag_free(bag);
}

TEST_CASE("abi: the error message describes the failure") {
  Toy toy;
  Ctx c(toy.model);
  uint32_t idx = 0;
  CHECK(dxt_model_lookup(toy.model, "zebra", 5, &idx) == DXT_E_NOT_FOUND);
  CHECK(std::strlen(dxt_last_error_message()) > 0);
  dxt_privatize_options o = popts(-2.0);
  CHECK(dxt_privatize_index(c.ctx, &o, 0, &idx, nullptr, nullptr) == DXT_E_INVALID_EPSILON);
  CHECK(std::string(dxt_last_error_message()).find("epsilon") != std::string::npos);
  o = popts(1.0);
  o.struct_size = 3;
  CHECK(dxt_privatize_index(c.ctx, &o, 0, &idx, nullptr, nullptr) == DXT_E_INVALID_ARGUMENT);
  CHECK(std::string(dxt_last_error_message()).find("struct_size") != std::string::npos);
}

TEST_CASE("abi: struct_size checks") {
  Toy toy;
  Ctx c(toy.model);

  SUBCASE("too small is DXT_E_INVALID_ARGUMENT for every struct") {
    dxt_privatize_options o = popts(1.0);
    uint32_t idx = 0;
    // The smallest accepted size is that of the struct before `search` and
    // `ivf_nprobe` were appended.
    const auto v1 =
        static_cast<uint32_t>((offsetof(dxt_privatize_options, search) + alignof(dxt_privatize_options) - 1) /
                              alignof(dxt_privatize_options) * alignof(dxt_privatize_options));
    for (uint32_t size : {0u, 4u, v1 - 1}) {
      o.struct_size = size;
      CHECK_STATUS(dxt_privatize_index(c.ctx, &o, 0, &idx, nullptr, nullptr), DXT_E_INVALID_ARGUMENT);
    }
    o = popts(1.0);

    // Release records: the first one ended with epsilon_vocabulary (the
    // release shape, then the output vocabulary fields were appended);
    // anything smaller is refused, by the calls and by the JSON functions,
    // and that size is accepted. Diagnostics have had one size so far.
    dxt::test::Reported r;
    char buf[4096];
    const auto record_v1 = static_cast<uint32_t>(offsetof(dxt_release_record, release_shape));
    r.rec.struct_size = record_v1 - 8;
    CHECK_STATUS(dxt_privatize_index(c.ctx, &o, 0, &idx, &r.rec, nullptr), DXT_E_INVALID_ARGUMENT);
    CHECK(std::string(dxt_last_error_message()).find("record.struct_size") != std::string::npos);
    CHECK_STATUS(dxt_release_record_to_json(&r.rec, buf, sizeof buf, nullptr), DXT_E_INVALID_ARGUMENT);
    {
      // An older caller's record: the fields it knows are filled, nothing past them.
      std::vector<unsigned char> older(sizeof(dxt_release_record) + 16, 0xAB);
      auto* rec = reinterpret_cast<dxt_release_record*>(older.data());
      dxt_release_record_init_sized(rec, record_v1);
      CHECK_STATUS(dxt_privatize_index(c.ctx, &o, 0, &idx, rec, nullptr), DXT_OK);
      CHECK(rec->struct_size == record_v1);
      for (size_t i = record_v1; i < older.size(); ++i) CHECK(older[i] == 0xAB);
      CHECK_STATUS(dxt_release_record_to_json(rec, buf, sizeof buf, nullptr), DXT_OK);
    }
    r.diag.struct_size = sizeof r.diag - 8;
    CHECK_STATUS(dxt_privatize_index(c.ctx, &o, 0, &idx, nullptr, &r.diag), DXT_E_INVALID_ARGUMENT);
    CHECK(std::string(dxt_last_error_message()).find("diagnostics.struct_size") != std::string::npos);
    CHECK_STATUS(dxt_local_diagnostics_to_json(&r.diag, buf, sizeof buf, nullptr), DXT_E_INVALID_ARGUMENT);

    dxt_model_info info;
    dxt_model_info_init(&info);
    info.struct_size = 4;
    CHECK_STATUS(dxt_model_get_info(toy.model, &info), DXT_E_INVALID_ARGUMENT);

    dxt_context_options co;
    dxt_context_options_init(&co);
    co.struct_size = 0;
    dxt_context* ctx = nullptr;
    CHECK_STATUS(dxt_context_create(toy.model, &co, &ctx), DXT_E_INVALID_ARGUMENT);
    CHECK(ctx == nullptr);

    dxt_model_open_options mo;
    dxt_model_open_options_init(&mo);
    mo.struct_size = 4;
    dxt_model* m = nullptr;
    CHECK_STATUS(dxt_model_open_memory(toy.bytes.data(), toy.bytes.size, &mo, &m), DXT_E_INVALID_ARGUMENT);
    CHECK(m == nullptr);
  }

  SUBCASE("larger with non-zero extra bytes is DXT_E_UNSUPPORTED, with zero extra bytes OK") {
    struct BigOptions {
      dxt_privatize_options o;
      uint8_t extra[24];
    } big;
    std::memset(&big, 0, sizeof big);
    dxt_privatize_options_init(&big.o);
    big.o.epsilon = 1e6;
    big.o.struct_size = sizeof big;
    uint32_t idx = 99;
    CHECK_STATUS(dxt_privatize_index(c.ctx, &big.o, 2, &idx, nullptr, nullptr), DXT_OK);
    CHECK(idx == 2);
    big.extra[17] = 1;
    CHECK_STATUS(dxt_privatize_index(c.ctx, &big.o, 2, &idx, nullptr, nullptr), DXT_E_UNSUPPORTED);

    struct BigRecord {
      dxt_release_record r;
      uint8_t extra[16];
    } br;
    struct BigDiagnostics {
      dxt_local_diagnostics d;
      uint8_t extra[16];
    } bd;
    std::memset(&br, 0, sizeof br);
    std::memset(&bd, 0, sizeof bd);
    dxt_release_record_init_sized(&br.r, sizeof br);
    dxt_local_diagnostics_init_sized(&bd.d, sizeof bd);
    big.extra[17] = 0;
    CHECK_STATUS(dxt_privatize_index(c.ctx, &big.o, 2, &idx, &br.r, &bd.d), DXT_OK);
    CHECK(br.r.struct_size == sizeof br);
    CHECK(br.r.bound == DXT_BOUND_WORD);
    // An index: no case shape, no token classes. At epsilon 1e6 the toy
    // model's words are far apart enough that laplace keeps its input, which
    // the record says (mechanisms/input_keeping_check.hpp).
    CHECK(br.r.reveals == DXT_REVEALS_INPUT_WORDS);
    CHECK(bd.d.struct_size == sizeof bd);
    CHECK(bd.d.words_privatized == 1);
    for (uint8_t b : br.extra) CHECK(b == 0);  // the library does not write past its own fields
    for (uint8_t b : bd.extra) CHECK(b == 0);
    br.extra[0] = 0xFF;
    CHECK_STATUS(dxt_privatize_index(c.ctx, &big.o, 2, &idx, &br.r, &bd.d), DXT_E_UNSUPPORTED);
    br.extra[0] = 0;
    bd.extra[3] = 0xFF;
    CHECK_STATUS(dxt_privatize_index(c.ctx, &big.o, 2, &idx, &br.r, &bd.d), DXT_E_UNSUPPORTED);

    struct BigInfo {
      dxt_model_info info;
      uint8_t extra[8];
    } bi;
    std::memset(&bi, 0, sizeof bi);
    dxt_model_info_init(&bi.info);
    bi.info.struct_size = sizeof bi;
    CHECK_STATUS(dxt_model_get_info(toy.model, &bi.info), DXT_OK);
    CHECK(bi.info.vocabulary_size == kVocab);
    bi.extra[7] = 3;
    CHECK_STATUS(dxt_model_get_info(toy.model, &bi.info), DXT_E_UNSUPPORTED);

    struct BigContextOptions {
      dxt_context_options o;
      uint8_t extra[8];
    } bc;
    std::memset(&bc, 0, sizeof bc);
    dxt_context_options_init(&bc.o);
    bc.o.struct_size = sizeof bc;
    dxt_context* ctx = nullptr;
    CHECK_STATUS(dxt_context_create(toy.model, &bc.o, &ctx), DXT_OK);
    dxt_context_destroy(ctx);
    ctx = nullptr;
    bc.extra[0] = 1;
    CHECK_STATUS(dxt_context_create(toy.model, &bc.o, &ctx), DXT_E_UNSUPPORTED);
    CHECK(ctx == nullptr);

    struct BigOpen {
      dxt_model_open_options o;
      uint8_t extra[8];
    } bo;
    std::memset(&bo, 0, sizeof bo);
    dxt_model_open_options_init(&bo.o);
    bo.o.struct_size = sizeof bo;
    dxt_model* m = nullptr;
    CHECK_STATUS(dxt_model_open_memory(toy.bytes.data(), toy.bytes.size, &bo.o, &m), DXT_OK);
    dxt_model_close(m);
    m = nullptr;
    bo.extra[3] = 9;
    CHECK_STATUS(dxt_model_open_memory(toy.bytes.data(), toy.bytes.size, &bo.o, &m), DXT_E_UNSUPPORTED);
    CHECK(m == nullptr);
  }
}

// dxt_T_init_sized(p, size) for every size from 0 to sizeof(T) + 24 on a
// buffer of canary bytes: nothing at or after byte `size` may change; a
// caller bigger than the library's struct gets its extra bytes zeroed.
template <typename T>
void check_init_sized(void (*init_sized)(T*, size_t), const char* name) {
  T reference;
  init_sized(&reference, sizeof reference);
  REQUIRE(reference.struct_size == sizeof reference);
  constexpr size_t kExtra = 24;
  for (size_t size = 0; size <= sizeof(T) + kExtra; ++size) {
    CAPTURE(name);
    CAPTURE(size);
    // Over-aligned storage bigger than any tested size, all canaries.
    alignas(16) unsigned char buffer[sizeof(T) + kExtra + 32];
    std::memset(buffer, 0xA5, sizeof buffer);
    init_sized(reinterpret_cast<T*>(buffer), size);
    for (size_t i = size; i < sizeof buffer; ++i) REQUIRE_MESSAGE(buffer[i] == 0xA5, "byte " << i << " written");
    if (size < sizeof(uint32_t)) {
      for (size_t i = 0; i < size; ++i) CHECK(buffer[i] == 0xA5);  // too small even for struct_size
      continue;
    }
    uint32_t struct_size = 0;
    std::memcpy(&struct_size, buffer, sizeof struct_size);
    CHECK(struct_size == size);
    const size_t known = size < sizeof(T) ? size : sizeof(T);
    CHECK(std::memcmp(buffer + 4, reinterpret_cast<const unsigned char*>(&reference) + 4, known - 4) == 0);
    for (size_t i = sizeof(T); i < size; ++i) CHECK(buffer[i] == 0);
  }
  init_sized(nullptr, sizeof(T));  // a no-op
}

TEST_CASE("abi: _init_sized never writes past an older caller's struct") {
  check_init_sized(dxt_model_open_options_init_sized, "model_open_options");
  check_init_sized(dxt_model_info_init_sized, "model_info");
  check_init_sized(dxt_context_options_init_sized, "context_options");
  check_init_sized(dxt_privatize_options_init_sized, "privatize_options");
  check_init_sized(dxt_release_record_init_sized, "release_record");
  check_init_sized(dxt_local_diagnostics_init_sized, "local_diagnostics");
  check_init_sized(dxt_calibration_init_sized, "calibration");

  // The header's inline _init passes the caller's own sizeof.
  dxt_privatize_options o;
  std::memset(&o, 0, sizeof o);
  dxt_privatize_options_init(&o);
  CHECK(o.struct_size == sizeof o);
  CHECK(o.mechanism == DXT_MECHANISM_LAPLACE);
  CHECK(o.vickrey_t == 0.75);
  dxt_context_options co;
  dxt_context_options_init(&co);
  CHECK(co.rng_mode == DXT_RNG_SYSTEM);

  // An "old" caller whose options end before exponential_sampler: the
  // fields it has are filled, the library's struct check then names the size.
  constexpr size_t kOld = offsetof(dxt_privatize_options, exponential_sampler);
  alignas(dxt_privatize_options) unsigned char old[sizeof(dxt_privatize_options)];
  std::memset(old, 0x5A, sizeof old);
  auto* po = reinterpret_cast<dxt_privatize_options*>(old);
  dxt_privatize_options_init_sized(po, kOld);
  CHECK(po->struct_size == kOld);
  CHECK(po->syntf_s == doctest::Approx(0.3));
  for (size_t i = kOld; i < sizeof old; ++i) CHECK(old[i] == 0x5A);

  // A size beyond UINT32_MAX cannot be stored: struct_size becomes 0.
  if (sizeof(size_t) > sizeof(uint32_t)) {
    dxt::test::Reported r;
    dxt_release_record_init_sized(&r.rec, static_cast<size_t>(UINT32_MAX) + 1);
    CHECK(r.rec.struct_size == 0);
  }
}

TEST_CASE("abi: invalid epsilon, mechanism, policy, rng mode and open flags") {
  Toy toy;
  Ctx c(toy.model);
  uint32_t idx = 0;
  char* out = nullptr;
  size_t len = 0;

  for (double eps : {0.0, -0.0, -1.0, -1e-300, std::numeric_limits<double>::quiet_NaN(),
                     std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()}) {
    CAPTURE(eps);
    dxt_privatize_options o = popts(eps);
    CHECK_STATUS(dxt_privatize_index(c.ctx, &o, 0, &idx, nullptr, nullptr), DXT_E_INVALID_EPSILON);
    CHECK_STATUS(dxt_privatize_text(c.ctx, &o, "cat", 3, &out, &len, nullptr, nullptr), DXT_E_INVALID_EPSILON);
    CHECK(out == nullptr);
    CHECK_STATUS(dxt_privatize_word(c.ctx, &o, "cat", 3, &out, &len, nullptr, nullptr), DXT_E_INVALID_EPSILON);
    dxt_bag_entry e = {"cat", 3, 1};
    dxt_bag* bag = nullptr;
    CHECK_STATUS(dxt_privatize_bag(c.ctx, &o, &e, 1, &bag, nullptr, nullptr), DXT_E_INVALID_EPSILON);
    CHECK(bag == nullptr);
  }
  // Both ends of [DXT_EPSILON_MIN, DXT_EPSILON_MAX] are valid, and nothing
  // beyond them (docs/guarantees.md, "The range of epsilon"): epsilon 1e-300
  // once overflowed the noisy point to infinity.
  CHECK(dxt_epsilon_min() == DXT_EPSILON_MIN);
  CHECK(dxt_epsilon_max() == DXT_EPSILON_MAX);
  for (double eps : {DXT_EPSILON_MIN, DXT_EPSILON_MAX}) {
    dxt_privatize_options edge = popts(eps);
    CHECK_STATUS(dxt_privatize_index(c.ctx, &edge, 0, &idx, nullptr, nullptr), DXT_OK);
    CHECK(idx < kVocab);
  }
  for (double eps : {std::nextafter(DXT_EPSILON_MIN, 0.0), std::nextafter(DXT_EPSILON_MAX, HUGE_VAL), 1e-300,
                     std::numeric_limits<double>::max()}) {
    CAPTURE(eps);
    dxt_privatize_options outside = popts(eps);
    CHECK_STATUS(dxt_privatize_index(c.ctx, &outside, 0, &idx, nullptr, nullptr), DXT_E_INVALID_EPSILON);
    CHECK(std::string(dxt_last_error_message()).find("epsilon must be from 1e-06 to 1000000") != std::string::npos);
  }

  dxt_privatize_options o = popts(1.0);
  o.mechanism = 99;
  CHECK_STATUS(dxt_privatize_index(c.ctx, &o, 0, &idx, nullptr, nullptr), DXT_E_UNSUPPORTED);
  CHECK_STATUS(dxt_privatize_text(c.ctx, &o, "cat", 3, &out, &len, nullptr, nullptr), DXT_E_UNSUPPORTED);
  o.mechanism = DXT_MECHANISM_UNKNOWN;  // 0 = the default, laplace
  dxt::test::Reported r;
  CHECK_STATUS(dxt_privatize_index(c.ctx, &o, 0, &idx, &r.rec, &r.diag), DXT_OK);
  CHECK(r.rec.mechanism == DXT_MECHANISM_LAPLACE);

  o = popts(1.0);
  o.policy[DXT_CLASS_OUT_OF_VOCABULARY] = 5;
  CHECK_STATUS(dxt_privatize_text(c.ctx, &o, "cat", 3, &out, &len, nullptr, nullptr), DXT_E_INVALID_ARGUMENT);
  CHECK(out == nullptr);
  o.policy[DXT_CLASS_OUT_OF_VOCABULARY] = 0xFFFFFFFFu;
  CHECK_STATUS(dxt_privatize_word(c.ctx, &o, "cat", 3, &out, &len, nullptr, nullptr), DXT_E_INVALID_ARGUMENT);
  o = popts(1.0);
  o.policy[DXT_CLASS_STOPWORD] = 42;
  dxt_bag_entry e = {"cat", 3, 1};
  dxt_bag* bag = nullptr;
  CHECK_STATUS(dxt_privatize_bag(c.ctx, &o, &e, 1, &bag, nullptr, nullptr), DXT_E_INVALID_ARGUMENT);
  o.policy[DXT_CLASS_STOPWORD] = DXT_POLICY_DEFAULT;  // 0 = privatise
  CHECK_STATUS(dxt_privatize_bag(c.ctx, &o, &e, 1, &bag, nullptr, nullptr), DXT_OK);
  dxt_bag_free(bag);

  dxt_context_options co;
  dxt_context_options_init(&co);
  co.rng_mode = 7;
  dxt_context* ctx = nullptr;
  CHECK_STATUS(dxt_context_create(toy.model, &co, &ctx), DXT_E_INVALID_ARGUMENT);
  CHECK(ctx == nullptr);

  dxt_model_open_options mo;
  dxt_model_open_options_init(&mo);
  mo.flags = 0x80;
  dxt_model* m = nullptr;
  CHECK_STATUS(dxt_model_open_memory(toy.bytes.data(), toy.bytes.size, &mo, &m), DXT_E_INVALID_ARGUMENT);
  mo.flags = DXT_OPEN_VERIFY_DIGESTS;
  CHECK_STATUS(dxt_model_open_memory(toy.bytes.data(), toy.bytes.size, &mo, &m), DXT_OK);
  dxt_model_close(m);
}

TEST_CASE("abi: model buffers: alignment, truncation, garbage") {
  const std::string raw = dxt::test::build_model_bytes(toy_spec());
  // Misaligned by one byte.
  std::vector<uint64_t> storage(raw.size() / 8 + 2);
  uint8_t* base = reinterpret_cast<uint8_t*>(storage.data());
  std::memcpy(base + 1, raw.data(), raw.size());
  dxt_model* m = reinterpret_cast<dxt_model*>(0x1);
  CHECK_STATUS(dxt_model_open_memory(base + 1, raw.size(), nullptr, &m), DXT_E_INVALID_ARGUMENT);
  CHECK(m == nullptr);
  std::memcpy(base + 4, raw.data(), raw.size());
  CHECK_STATUS(dxt_model_open_memory(base + 4, raw.size(), nullptr, &m), DXT_E_INVALID_ARGUMENT);
  // The same bytes 8-byte aligned open.
  std::memcpy(base, raw.data(), raw.size());
  CHECK_STATUS(dxt_model_open_memory(base, raw.size(), nullptr, &m), DXT_OK);
  dxt_model_close(m);

  // Truncated and empty.
  m = nullptr;
  const dxt_status half = dxt_model_open_memory(base, raw.size() / 2, nullptr, &m);
  CHECK(half == DXT_E_TRUNCATED_MODEL);
  CHECK(m == nullptr);
  CHECK_STATUS(dxt_model_open_memory(base, 0, nullptr, &m), DXT_E_NOT_A_MODEL);

  // Garbage.
  std::vector<uint64_t> junk(64, 0x0123456789abcdefULL);
  CHECK_STATUS(dxt_model_open_memory(junk.data(), junk.size() * 8, nullptr, &m), DXT_E_NOT_A_MODEL);
  CHECK(m == nullptr);

  // A missing file.
  CHECK_STATUS(dxt_model_open_file("/nonexistent/dir/model.dxe", nullptr, &m), DXT_E_IO);
  CHECK(m == nullptr);
}

TEST_CASE("abi: model queries: info, lookup, word, nearest, fingerprint") {
  Toy toy;

  dxt_model_info info;
  dxt_model_info_init(&info);
  REQUIRE_OK(dxt_model_get_info(toy.model, &info));
  CHECK(info.struct_size == sizeof info);
  CHECK(info.format_major == DXT_FORMAT_VERSION_MAJOR);
  CHECK(info.format_minor == 0);  // no covariance section: written as a 1.0 file (docs/format.md §11)
  CHECK(info.format_minor <= DXT_FORMAT_VERSION_MINOR);
  CHECK(info.dimension == kDim);
  CHECK(info.vocabulary_size == kVocab);
  CHECK(info.geometry == DXT_GEOMETRY_EUCLIDEAN);
  CHECK(info.quantization == DXT_QUANT_F32);
  CHECK(info.lowercase);
  CHECK_FALSE(info.has_frequencies);

  for (uint32_t i = 0; i < kVocab; ++i) {
    const std::string w = kWords[i];
    CAPTURE(w);
    uint32_t idx = 999;
    REQUIRE_OK(dxt_model_lookup(toy.model, w.data(), w.size(), &idx));
    CHECK(idx == i);
    const char* got = nullptr;
    size_t len = 0;
    REQUIRE_OK(dxt_model_word(toy.model, i, &got, &len));
    CHECK(len == w.size());
    CHECK(std::string(got) == w);  // NUL-terminated
    CHECK(got[len] == '\0');
    // The exact row is nearest to itself.
    const float v[kDim] = {static_cast<float>(i % 4), static_cast<float>(i / 4), 0.0f};
    uint32_t near = 999;
    REQUIRE_OK(dxt_model_nearest(toy.model, v, kDim, &near));
    CHECK(near == i);
    const float v2[kDim] = {static_cast<float>(i % 4) + 0.3f, static_cast<float>(i / 4) - 0.2f, 0.4f};
    REQUIRE_OK(dxt_model_nearest(toy.model, v2, kDim, &near));
    CHECK(near == i);
  }

  uint32_t idx = 999;
  // Case folding on a lowercase vocabulary.
  CHECK_STATUS(dxt_model_lookup(toy.model, "CAT", 3, &idx), DXT_OK);
  CHECK(idx == 0);
  CHECK_STATUS(dxt_model_lookup(toy.model, "Quick", 5, &idx), DXT_OK);
  CHECK(idx == 11);
  // The length is honoured: "catalog"[0..3) is "cat".
  CHECK_STATUS(dxt_model_lookup(toy.model, "catalog", 3, &idx), DXT_OK);
  CHECK(idx == 0);
  CHECK_STATUS(dxt_model_lookup(toy.model, "catalog", 7, &idx), DXT_E_NOT_FOUND);
  CHECK_STATUS(dxt_model_lookup(toy.model, "", 0, &idx), DXT_E_NOT_FOUND);
  CHECK_STATUS(dxt_model_lookup(toy.model, "ca\xFF", 3, &idx), DXT_E_INVALID_UTF8);
  const char* w = nullptr;
  CHECK_STATUS(dxt_model_word(toy.model, kVocab, &w, nullptr), DXT_E_NOT_FOUND);
  CHECK_STATUS(dxt_model_word(toy.model, 0xFFFFFFFFu, &w, nullptr), DXT_E_NOT_FOUND);

  // Ties go to the lowest index: (0.5, 0, 0) is exactly between cat(0) and
  // the(1); (1.5, 0, 0) between the(1) and sat(2).
  const float mid01[kDim] = {0.5f, 0.0f, 0.0f};
  const float mid12[kDim] = {1.5f, 0.0f, 0.0f};
  CHECK_STATUS(dxt_model_nearest(toy.model, mid01, kDim, &idx), DXT_OK);
  CHECK(idx == 0);
  CHECK_STATUS(dxt_model_nearest(toy.model, mid12, kDim, &idx), DXT_OK);
  CHECK(idx == 1);
  CHECK_STATUS(dxt_model_nearest(toy.model, mid01, kDim - 1, &idx), DXT_E_INVALID_ARGUMENT);
  CHECK_STATUS(dxt_model_nearest(toy.model, mid01, kDim + 1, &idx), DXT_E_INVALID_ARGUMENT);

  // The fingerprint is the SHA-256 of the whole buffer.
  uint8_t fp[32] = {};
  REQUIRE_OK(dxt_model_fingerprint(toy.model, fp));
  const dxt::Digest expected = dxt::sha256(toy.bytes.data(), toy.bytes.size);
  CHECK(std::memcmp(fp, expected.data(), 32) == 0);
  uint8_t fp2[32] = {};
  REQUIRE_OK(dxt_model_fingerprint(toy.model, fp2));  // cached, same answer
  CHECK(std::memcmp(fp, fp2, 32) == 0);

  // A different model has a different fingerprint; frequencies and
  // quantisation show in the info.
  ToyModelSpec spec = toy_spec(DXT_QUANT_INT8);
  spec.with_frequencies = true;
  Toy other(spec);
  uint8_t fp3[32] = {};
  REQUIRE_OK(dxt_model_fingerprint(other.model, fp3));
  CHECK(std::memcmp(fp, fp3, 32) != 0);
  const dxt::Digest expected3 = dxt::sha256(other.bytes.data(), other.bytes.size);
  CHECK(std::memcmp(fp3, expected3.data(), 32) == 0);
  dxt_model_info info2;
  dxt_model_info_init(&info2);
  REQUIRE_OK(dxt_model_get_info(other.model, &info2));
  CHECK(info2.quantization == DXT_QUANT_INT8);
  CHECK(info2.has_frequencies);
}

TEST_CASE("abi: a case-sensitive vocabulary looks up exactly, then lowercase") {
  ToyModelSpec spec;
  spec.lowercase = false;
  spec.words = {"Paris", "paris", "apple"};
  spec.vectors = {{0, 0}, {1, 0}, {0, 1}};
  Toy toy(spec);
  dxt_model_info info;
  dxt_model_info_init(&info);
  REQUIRE_OK(dxt_model_get_info(toy.model, &info));
  CHECK_FALSE(info.lowercase);
  uint32_t idx = 99;
  CHECK_STATUS(dxt_model_lookup(toy.model, "Paris", 5, &idx), DXT_OK);
  CHECK(idx == 0);
  CHECK_STATUS(dxt_model_lookup(toy.model, "paris", 5, &idx), DXT_OK);
  CHECK(idx == 1);
  CHECK_STATUS(dxt_model_lookup(toy.model, "APPLE", 5, &idx), DXT_OK);
  CHECK(idx == 2);
}

TEST_CASE("abi: deterministic RNG is reproducible and reported as not private") {
  Toy toy;
  const dxt_context_options seed_a = seeded(0xA5);
  const dxt_context_options seed_b = seeded(0x5A);
  Ctx a1(toy.model, &seed_a), a2(toy.model, &seed_a), b(toy.model, &seed_b);
  const dxt_privatize_options o = popts(0.8);
  const std::string text =
      "The cat sat on the mat while a quick red dog ran around the blue house and the tree. "
      "Zebra 42 quokka.";

  std::vector<uint32_t> ia1, ia2, ib;
  for (int k = 0; k < 200; ++k) {
    uint32_t x = 0, y = 0, z = 0;
    REQUIRE_OK(dxt_privatize_index(a1.ctx, &o, static_cast<uint32_t>(k % kVocab), &x, nullptr, nullptr));
    REQUIRE_OK(dxt_privatize_index(a2.ctx, &o, static_cast<uint32_t>(k % kVocab), &y, nullptr, nullptr));
    REQUIRE_OK(dxt_privatize_index(b.ctx, &o, static_cast<uint32_t>(k % kVocab), &z, nullptr, nullptr));
    ia1.push_back(x);
    ia2.push_back(y);
    ib.push_back(z);
  }
  CHECK(ia1 == ia2);
  CHECK(ia1 != ib);
  // The noise is real: at epsilon 0.8 on a grid of spacing 1, many outputs
  // differ from their inputs.
  int moved = 0;
  for (int k = 0; k < 200; ++k) moved += ia1[k] != static_cast<uint32_t>(k % kVocab);
  CHECK(moved > 50);

  dxt::test::Reported r1, r2;
  const std::string t1 = text_call(a1.ctx, o, text, &r1);
  const std::string t2 = text_call(a2.ctx, o, text, &r2);
  CHECK(t1 == t2);
  CHECK(text_call(b.ctx, o, text) != t1);
  CHECK(r1.rec.rng_mode == DXT_RNG_DETERMINISTIC);
  CHECK_FALSE(r1.rec.is_private);
  CHECK(std::memcmp(r1.diag.counts, r2.diag.counts, sizeof r1.diag.counts) == 0);
  const std::string json = record_json(r1);
  CHECK(json.find("\"private\":false") != std::string::npos);
  CHECK(json.find("deterministic") != std::string::npos);

  // A fresh context with the same seed starts the same stream again.
  Ctx a3(toy.model, &seed_a);
  uint32_t first = 0;
  REQUIRE_OK(dxt_privatize_index(a3.ctx, &o, 0, &first, nullptr, nullptr));
  CHECK(first == ia1[0]);
}

TEST_CASE("abi: system RNG is reported as private") {
  Toy toy;
  Ctx c(toy.model);  // NULL options: system RNG
  dxt_context_options co;
  dxt_context_options_init(&co);
  CHECK(co.rng_mode == DXT_RNG_SYSTEM);
  Ctx c2(toy.model, &co);
  for (dxt_context* ctx : {c.ctx, c2.ctx}) {
    dxt::test::Reported r;
    uint32_t idx = 0;
    const dxt_privatize_options o = popts(2.0);
    REQUIRE_OK(dxt_privatize_index(ctx, &o, 3, &idx, &r.rec, &r.diag));
    CHECK(r.rec.rng_mode == DXT_RNG_SYSTEM);
    CHECK(r.rec.is_private);
    CHECK(r.rec.mechanism == DXT_MECHANISM_LAPLACE);
    CHECK(r.rec.metric == DXT_GEOMETRY_EUCLIDEAN);
    CHECK(r.rec.epsilon == 2.0);
    CHECK(r.diag.words_privatized == 1);
    CHECK(count_of(r, DXT_CLASS_IN_VOCABULARY, DXT_POLICY_PRIVATIZE) == 1);
    CHECK(record_json(r).find("\"private\":true") != std::string::npos);
  }
}

TEST_CASE("abi: at a huge epsilon the text comes back unchanged, case shape restored") {
  for (dxt_quantization q : {DXT_QUANT_F32, DXT_QUANT_F16, DXT_QUANT_INT8}) {
    CAPTURE(static_cast<int>(q));
    Toy toy(toy_spec(q));
    Ctx c(toy.model);
    const dxt_privatize_options o = popts(1e6);
    CHECK(text_call(c.ctx, o, "The Cat SAT") == "The Cat SAT");
    const std::string text = "  The cat, SAT on the MAT!\n\t(dog; house)... Quick-red \"tree\"?  ";
    dxt::test::Reported r;
    CHECK(text_call(c.ctx, o, text, &r) == text);
    CHECK(r.diag.words_privatized == 11);
    CHECK(r.diag.words_leaked == 0);
    CHECK(count_of(r, DXT_CLASS_IN_VOCABULARY, DXT_POLICY_PRIVATIZE) == 8);  // cat SAT MAT dog house Quick red tree
    CHECK(count_of(r, DXT_CLASS_STOPWORD, DXT_POLICY_PRIVATIZE) == 3);       // The on the
    // A NUL byte in the middle is a span and survives.
    const std::string with_nul("cat\0dog", 7);
    CHECK(text_call(c.ctx, o, with_nul) == with_nul);
    // Word-level call restores the shape too.
    CHECK(word_call(c.ctx, o, "DOG") == "DOG");
    CHECK(word_call(c.ctx, o, "House") == "House");
    uint32_t idx = 99;
    REQUIRE_OK(dxt_privatize_index(c.ctx, &o, 7, &idx, nullptr, nullptr));
    CHECK(idx == 7);
  }
}

TEST_CASE("abi: out-of-vocabulary policies") {
  Toy toy;
  Ctx c(toy.model);
  dxt_privatize_options o = popts(1e6);
  const std::string text = "The zebra sat, Quokka!";

  SUBCASE("placeholder: default and custom") {
    o.policy[DXT_CLASS_OUT_OF_VOCABULARY] = DXT_POLICY_PLACEHOLDER;
    dxt::test::Reported r;
    CHECK(text_call(c.ctx, o, text, &r) == "The [redacted] sat, [redacted]!");
    CHECK(count_of(r, DXT_CLASS_OUT_OF_VOCABULARY, DXT_POLICY_PLACEHOLDER) == 2);
    CHECK(r.diag.words_privatized == 2);  // The, sat
    CHECK(r.diag.words_leaked == 0);
    o.placeholder = "\xE2\x96\x88\xE2\x96\x88";  // ██
    CHECK(text_call(c.ctx, o, text) == "The \xE2\x96\x88\xE2\x96\x88 sat, \xE2\x96\x88\xE2\x96\x88!");
    CHECK(word_call(c.ctx, o, "zebra") == "\xE2\x96\x88\xE2\x96\x88");
    o.placeholder = "";
    CHECK(text_call(c.ctx, o, text) == "The  sat, !");
    o.placeholder = "bad\xC3";
    char* out = nullptr;
    size_t len = 0;
    CHECK_STATUS(dxt_privatize_text(c.ctx, &o, text.data(), text.size(), &out, &len, nullptr, nullptr),
                 DXT_E_INVALID_UTF8);
    CHECK(out == nullptr);
  }

  SUBCASE("drop") {
    o.policy[DXT_CLASS_OUT_OF_VOCABULARY] = DXT_POLICY_DROP;
    dxt::test::Reported r;
    CHECK(text_call(c.ctx, o, text, &r) == "The  sat, !");
    CHECK(count_of(r, DXT_CLASS_OUT_OF_VOCABULARY, DXT_POLICY_DROP) == 2);
    CHECK(r.diag.words_privatized == 2);
    char* out = nullptr;
    size_t len = 99;
    REQUIRE_OK(dxt_privatize_word(c.ctx, &o, "zebra", 5, &out, &len, nullptr, nullptr));
    REQUIRE(out != nullptr);
    CHECK(len == 0);
    CHECK(out[0] == '\0');
    dxt_text_free(out);
  }

  SUBCASE("keep is a leak: the record names it, the diagnostics count it") {
    o.policy[DXT_CLASS_OUT_OF_VOCABULARY] = DXT_POLICY_KEEP;
    dxt::test::Reported r;
    CHECK(text_call(c.ctx, o, text, &r) == text);
    CHECK(count_of(r, DXT_CLASS_OUT_OF_VOCABULARY, DXT_POLICY_KEEP) == 2);
    CHECK(r.diag.words_leaked == 2);
    CHECK(r.diag.words_privatized == 2);
    CHECK((r.rec.reveals & DXT_REVEALS_KEPT_WORDS) != 0);
    const std::string record = record_json(r);
    CHECK(record.find("\"kept_words\"") != std::string::npos);
    CHECK(record.find("kept verbatim, unprotected") != std::string::npos);
    const std::string diagnostics = diagnostics_json(r);
    CHECK(diagnostics.find("\"words_leaked\":2") != std::string::npos);
  }

  SUBCASE("privatize (the default): the output is always a vocabulary word") {
    dxt_privatize_options def = popts(1.0);
    CHECK(def.policy[DXT_CLASS_OUT_OF_VOCABULARY] == DXT_POLICY_PRIVATIZE);
    dxt::test::Reported r;
    for (int k = 0; k < 200; ++k) {
      const std::string w = word_call(c.ctx, def, k % 2 ? "zebra" : "Quokka", &r);
      CAPTURE(w);
      CHECK(in_vocab(toy.model, w));
      CHECK(count_of(r, DXT_CLASS_OUT_OF_VOCABULARY, DXT_POLICY_PRIVATIZE) == 1);
    }
    // At a huge epsilon every OOV word maps to the word nearest the fixed
    // point (the origin): "cat", whatever the OOV word.
    CHECK(word_call(c.ctx, o, "zebra") == "cat");
    CHECK(word_call(c.ctx, o, "Quokka") == "Cat");
    CHECK(text_call(c.ctx, o, text) == "The cat sat, Cat!");
  }
}

TEST_CASE("abi: stopword and number classes are counted") {
  Toy toy;
  Ctx c(toy.model);
  dxt_privatize_options o = popts(1e6);
  const std::string text = "The cat sat on the mat at 3.14 or 1,000 with a zebra 42";
  // words: The(stop) cat sat on(stop) the(stop) mat at(stop) 3.14(num) or(stop)
  //        1,000(num) with(stop) a(stop) zebra(oov) 42(num)
  dxt::test::Reported r;
  const std::string out = text_call(c.ctx, o, text, &r);
  CHECK(count_of(r, DXT_CLASS_IN_VOCABULARY, DXT_POLICY_PRIVATIZE) == 3);
  CHECK(count_of(r, DXT_CLASS_STOPWORD, DXT_POLICY_PRIVATIZE) == 7);
  CHECK(count_of(r, DXT_CLASS_NUMBER, DXT_POLICY_PRIVATIZE) == 3);
  CHECK(count_of(r, DXT_CLASS_OUT_OF_VOCABULARY, DXT_POLICY_PRIVATIZE) == 1);
  CHECK(total_counts(r) == 14);
  CHECK(r.diag.words_privatized == 14);
  CHECK(r.rec.epsilon == 1e6);
  CHECK(r.rec.bound == DXT_BOUND_POSITIONWISE);
  CHECK(out.rfind("The cat sat on the mat ", 0) == 0);

  o.policy[DXT_CLASS_NUMBER] = DXT_POLICY_PLACEHOLDER;
  o.policy[DXT_CLASS_STOPWORD] = DXT_POLICY_KEEP;
  o.policy[DXT_CLASS_OUT_OF_VOCABULARY] = DXT_POLICY_DROP;
  r = dxt::test::Reported();
  CHECK(text_call(c.ctx, o, text, &r) == "The cat sat on the mat at [redacted] or [redacted] with a  [redacted]");
  CHECK(count_of(r, DXT_CLASS_NUMBER, DXT_POLICY_PLACEHOLDER) == 3);
  CHECK(count_of(r, DXT_CLASS_STOPWORD, DXT_POLICY_KEEP) == 7);
  CHECK(count_of(r, DXT_CLASS_OUT_OF_VOCABULARY, DXT_POLICY_DROP) == 1);
  CHECK(count_of(r, DXT_CLASS_IN_VOCABULARY, DXT_POLICY_PRIVATIZE) == 3);
  CHECK(r.diag.words_leaked == 7);
  CHECK(r.diag.words_privatized == 3);

  // In-vocabulary words can be replaced too.
  o = popts(1e6);
  o.policy[DXT_CLASS_IN_VOCABULARY] = DXT_POLICY_PLACEHOLDER;
  r = dxt::test::Reported();
  // "and" is a stopword without a vector: privatised from the origin, "cat".
  CHECK(text_call(c.ctx, o, "Cat and dog", &r) == "[redacted] cat [redacted]");
  CHECK(count_of(r, DXT_CLASS_IN_VOCABULARY, DXT_POLICY_PLACEHOLDER) == 2);
  CHECK(count_of(r, DXT_CLASS_STOPWORD, DXT_POLICY_PRIVATIZE) == 1);
}

TEST_CASE("abi: single words and bags classify numbers as a text does") {
  Toy toy;
  Ctx c(toy.model);
  dxt_privatize_options o = popts(1e6);
  o.policy[DXT_CLASS_NUMBER] = DXT_POLICY_PLACEHOLDER;
  dxt::test::Reported r;
  CHECK(word_call(c.ctx, o, "3.14", &r) == "[redacted]");
  CHECK(count_of(r, DXT_CLASS_NUMBER, DXT_POLICY_PLACEHOLDER) == 1);
  CHECK(word_call(c.ctx, o, "cat") == "cat");  // a word is not a number
  const dxt_bag_entry in[] = {{"42", 2, 3}, {"cat", 3, 1}};
  dxt_bag* bag = nullptr;
  r = dxt::test::Reported();
  REQUIRE_OK(dxt_privatize_bag(c.ctx, &o, in, 2, &bag, &r.rec, &r.diag));
  CHECK(count_of(r, DXT_CLASS_NUMBER, DXT_POLICY_PLACEHOLDER) == 3);
  REQUIRE(bag->size == 2);
  CHECK(std::string(bag->entries[0].word) == "cat");
  CHECK(std::string(bag->entries[1].word) == "[redacted]");
  CHECK(bag->entries[1].count == 3);
  dxt_bag_free(bag);
}

TEST_CASE("abi: release record, local diagnostics, and the JSON buffer protocol") {
  Toy toy;
  Ctx c(toy.model);
  const dxt_privatize_options o = popts(3.5);
  dxt::test::Reported r;
  (void)text_call(c.ctx, o, "cat dog tree", &r);
  CHECK(r.rec.struct_size == sizeof r.rec);
  CHECK(r.rec.release == DXT_RELEASE_TEXT);
  CHECK(r.rec.mechanism == DXT_MECHANISM_LAPLACE);
  CHECK(r.rec.epsilon == 3.5);
  CHECK(r.rec.metric == DXT_METRIC_EUCLIDEAN);
  CHECK(r.rec.fingerprint_valid);
  const dxt::Digest expected = dxt::sha256(toy.bytes.data(), toy.bytes.size);
  CHECK(std::memcmp(r.rec.model_fingerprint, expected.data(), 32) == 0);
  CHECK(r.rec.bound == DXT_BOUND_POSITIONWISE);
  CHECK(r.rec.reveals == (DXT_REVEALS_WORD_COUNT | DXT_REVEALS_LAYOUT | DXT_REVEALS_CASE_SHAPE));
  CHECK(r.rec.draws == 0);
  CHECK(r.rec.epsilon_total == 0);
  CHECK(r.rec.epsilon_vocabulary == 0);
  CHECK(r.diag.struct_size == sizeof r.diag);
  CHECK(r.diag.words_privatized == 3);

  size_t required = 0;
  CHECK_STATUS(dxt_release_record_to_json(&r.rec, nullptr, 0, &required), DXT_E_INPUT_TOO_LARGE);
  REQUIRE(required > 10);
  std::vector<char> small(required - 1, '#');
  size_t required2 = 0;
  CHECK_STATUS(dxt_release_record_to_json(&r.rec, small.data(), small.size(), &required2), DXT_E_INPUT_TOO_LARGE);
  CHECK(required2 == required);
  std::vector<char> buf(required, '#');
  size_t required3 = 0;
  CHECK_STATUS(dxt_release_record_to_json(&r.rec, buf.data(), buf.size(), &required3), DXT_OK);
  CHECK(required3 == required);
  CHECK(std::strlen(buf.data()) == required - 1);
  const std::string json(buf.data());
  CHECK(json.front() == '{');
  CHECK(json.back() == '}');
  CHECK(json.find('\n') == std::string::npos);
  CHECK(json.find("\"release\":\"text\"") != std::string::npos);
  CHECK(json.find("\"mechanism\":\"laplace\"") != std::string::npos);
  CHECK(json.find("\"epsilon\":3.5") != std::string::npos);
  CHECK(json.find("\"model_sha256\":\"" + dxt::to_hex(expected.data(), 32) + "\"") != std::string::npos);
  CHECK(json.find("\"private\":true") != std::string::npos);
  CHECK(json.find("\"bound\":\"positionwise\"") != std::string::npos);
  CHECK(json.find("\"reveals\":[\"word_count\",\"layout\",\"case_shape\"]") != std::string::npos);
  CHECK(json.find("3.5 * sum_i d_euclidean(x_i, x'_i)") != std::string::npos);
  // The ordered text's bound is not the bags' EMD bound (issue: "dog fish"
  // and "fish dog" are not indistinguishable).
  CHECK(json.find("EMD(b, b')") == std::string::npos);
  // Nothing that describes the input is in the record.
  for (const char* leak : {"tokens", "words_privatized", "words_leaked", "out_of_vocabulary", "\"3\""})
    CHECK_MESSAGE(json.find(leak) == std::string::npos, leak);
  // required may be NULL; a bigger buffer is fine.
  std::vector<char> big(required + 100, '#');
  CHECK_STATUS(dxt_release_record_to_json(&r.rec, big.data(), big.size(), nullptr), DXT_OK);
  CHECK(std::string(big.data()) == json);

  const std::string diagnostics = diagnostics_json(r);
  CHECK(diagnostics.find("\"local_diagnostics\":\"describes the input") != std::string::npos);
  CHECK(diagnostics.find("\"words_privatized\":3") != std::string::npos);
  CHECK(diagnostics.find("\"in_vocabulary\":{\"privatized\":3,") != std::string::npos);
}

// The record is a function of the options, the model and the generator mode:
// inputs with different token counts and classes give byte-identical records.
TEST_CASE("abi: the release record does not depend on the input") {
  Toy toy;
  Ctx c(toy.model);
  dxt_privatize_options o = popts(2.0);
  o.policy[DXT_CLASS_OUT_OF_VOCABULARY] = DXT_POLICY_PLACEHOLDER;
  dxt::test::Reported a, b;
  (void)text_call(c.ctx, o, "cat", &a);
  (void)text_call(c.ctx, o, "The zebra, 42 quokkas and a dog!\nMore zebras.", &b);
  CHECK(std::memcmp(&a.rec, &b.rec, sizeof a.rec) == 0);
  CHECK(record_json(a) == record_json(b));
  CHECK(std::memcmp(&a.diag, &b.diag, sizeof a.diag) != 0);  // the diagnostics do differ
  CHECK((a.rec.reveals & DXT_REVEALS_TOKEN_CLASSES) != 0);   // placeholders show where OOV words were

  // Bags: the same; and for dxt_syntf the record depends on n_out only.
  const dxt_bag_entry small[] = {{"cat", 3, 1}};
  const dxt_bag_entry large[] = {{"cat", 3, 5}, {"zebra", 5, 7}, {"42", 2, 2}};
  dxt_bag* bag = nullptr;
  a = dxt::test::Reported();
  b = dxt::test::Reported();
  REQUIRE_OK(dxt_privatize_bag(c.ctx, &o, small, 1, &bag, &a.rec, &a.diag));
  dxt_bag_free(bag);
  REQUIRE_OK(dxt_privatize_bag(c.ctx, &o, large, 3, &bag, &b.rec, &b.diag));
  dxt_bag_free(bag);
  CHECK(std::memcmp(&a.rec, &b.rec, sizeof a.rec) == 0);
  CHECK(a.rec.bound == DXT_BOUND_BAG_EMD);
  CHECK(a.rec.reveals == (DXT_REVEALS_WORD_COUNT | DXT_REVEALS_TOKEN_CLASSES));
  CHECK(record_json(a).find("2 * N * EMD(b, b')") != std::string::npos);

  o.policy[DXT_CLASS_OUT_OF_VOCABULARY] = DXT_POLICY_DROP;  // syntf accepts privatize and drop
  a = dxt::test::Reported();
  b = dxt::test::Reported();
  REQUIRE_OK(dxt_syntf(c.ctx, &o, small, 1, 9, &bag, &a.rec, &a.diag));
  dxt_bag_free(bag);
  REQUIRE_OK(dxt_syntf(c.ctx, &o, large, 3, 9, &bag, &b.rec, &b.diag));
  dxt_bag_free(bag);
  CHECK(std::memcmp(&a.rec, &b.rec, sizeof a.rec) == 0);
  CHECK(a.rec.release == DXT_RELEASE_SYNTHETIC_BAG);
  CHECK(a.rec.bound == DXT_BOUND_ANY_INPUTS);
  CHECK(a.rec.draws == 9);
  CHECK(a.rec.epsilon_total == 18);
  CHECK(a.rec.reveals == 0);
  CHECK(b.diag.counts[DXT_CLASS_OUT_OF_VOCABULARY][DXT_POLICY_DROP - 1] == 7);
}

TEST_CASE("abi: bags") {
  Toy toy;
  Ctx c(toy.model);
  dxt_privatize_options o = popts(1e6);

  SUBCASE("duplicates merge, zero counts are ignored, counts are conserved") {
    const dxt_bag_entry in[] = {
        {"cat", 3, 2}, {"Cat", 3, 3}, {"dog", 3, 0}, {"sat", 3, 1}, {"zebraXX", 5, 4}, {"CAT", 3, 1},
    };
    dxt_bag* bag = nullptr;
    dxt::test::Reported r;
    REQUIRE_OK(dxt_privatize_bag(c.ctx, &o, in, 6, &bag, &r.rec, &r.diag));
    REQUIRE(bag != nullptr);
    std::map<std::string, uint64_t> got;
    uint64_t total = 0;
    for (size_t i = 0; i < bag->size; ++i) {
      const dxt_bag_entry& e = bag->entries[i];
      REQUIRE(e.word != nullptr);
      CHECK(std::strlen(e.word) == e.length);
      CHECK(e.count > 0);
      CHECK(got.emplace(std::string(e.word, e.length), e.count).second);  // merged: each word once
      total += e.count;
    }
    // Sorted by vocabulary index.
    uint32_t prev = 0;
    for (size_t i = 0; i < bag->size; ++i) {
      uint32_t idx = 0;
      REQUIRE_OK(dxt_model_lookup(toy.model, bag->entries[i].word, bag->entries[i].length, &idx));
      if (i > 0) CHECK(idx > prev);
      prev = idx;
    }
    dxt_bag_free(bag);
    CHECK(total == 2 + 3 + 1 + 4 + 1);
    CHECK(total == r.diag.words_privatized);
    CHECK(got["cat"] == 2 + 3 + 1 + 4);  // cat x6 and the OOV word x4 (from the origin, nearest "cat")
    CHECK(got["sat"] == 1);
    CHECK(got.count("dog") == 0);
    CHECK(count_of(r, DXT_CLASS_IN_VOCABULARY, DXT_POLICY_PRIVATIZE) == 7);
    CHECK(count_of(r, DXT_CLASS_OUT_OF_VOCABULARY, DXT_POLICY_PRIVATIZE) == 4);
    CHECK(r.rec.release == DXT_RELEASE_BAG);
    CHECK(r.rec.bound == DXT_BOUND_BAG_EMD);
  }

  SUBCASE("counts are conserved at a small epsilon") {
    const dxt_bag_entry in[] = {{"cat", 3, 500}, {"house", 5, 300}, {"zebra", 5, 200}};
    const dxt_privatize_options low = popts(0.5);
    dxt_bag* bag = nullptr;
    dxt::test::Reported r;
    REQUIRE_OK(dxt_privatize_bag(c.ctx, &low, in, 3, &bag, &r.rec, &r.diag));
    uint64_t total = 0;
    std::map<std::string, int> seen;
    for (size_t i = 0; i < bag->size; ++i) {
      total += bag->entries[i].count;
      CHECK(in_vocab(toy.model, bag->entries[i].word));
      CHECK(++seen[bag->entries[i].word] == 1);
    }
    CHECK(bag->size > 3);  // noise spreads the mass over several words
    dxt_bag_free(bag);
    CHECK(total == 1000);
    CHECK(r.diag.words_privatized == 1000);
  }

  SUBCASE("placeholder and kept words come after the vocabulary words") {
    o.policy[DXT_CLASS_OUT_OF_VOCABULARY] = DXT_POLICY_PLACEHOLDER;
    o.policy[DXT_CLASS_STOPWORD] = DXT_POLICY_KEEP;
    const dxt_bag_entry in[] = {{"zebra", 5, 2}, {"quokka", 6, 1}, {"dog", 3, 2}, {"a", 1, 3}, {"cat", 3, 1}};
    dxt_bag* bag = nullptr;
    dxt::test::Reported r;
    REQUIRE_OK(dxt_privatize_bag(c.ctx, &o, in, 5, &bag, &r.rec, &r.diag));
    REQUIRE(bag->size == 4);
    CHECK(std::string(bag->entries[0].word) == "cat");
    CHECK(bag->entries[0].count == 1);
    CHECK(std::string(bag->entries[1].word) == "dog");
    CHECK(bag->entries[1].count == 2);
    std::map<std::string, uint64_t> tail;
    for (size_t i = 2; i < 4; ++i) tail[bag->entries[i].word] = bag->entries[i].count;
    CHECK(tail["[redacted]"] == 3);
    CHECK(tail["a"] == 3);
    dxt_bag_free(bag);
    CHECK(r.diag.words_leaked == 3);
    CHECK(r.diag.words_privatized == 3);
    CHECK(count_of(r, DXT_CLASS_OUT_OF_VOCABULARY, DXT_POLICY_PLACEHOLDER) == 3);
  }

  SUBCASE("a kept word and an equal privatised word are merged into one entry") {
    // Regression: privatised and kept words used to be merged in separate
    // maps, so the same word could appear twice. Here the OOV word is
    // privatised to "cat" (nearest the origin at epsilon 1e6) and the
    // in-vocabulary "cat" is kept: one entry {"cat", 2}.
    o.policy[DXT_CLASS_IN_VOCABULARY] = DXT_POLICY_KEEP;
    const dxt_bag_entry in[] = {{"zebra", 5, 1}, {"cat", 3, 1}};
    dxt_bag* bag = nullptr;
    REQUIRE_OK(dxt_privatize_bag(c.ctx, &o, in, 2, &bag, nullptr, nullptr));
    std::map<std::string, int> occurrences;
    uint64_t total = 0;
    for (size_t i = 0; i < bag->size; ++i) {
      ++occurrences[bag->entries[i].word];
      total += bag->entries[i].count;
    }
    CHECK(total == 2);
    CHECK(occurrences["cat"] == 1);
    CHECK(bag->size == 1);
    dxt_bag_free(bag);
  }

  SUBCASE("totals above DXT_MAX_BAG_WORDS are rejected") {
    dxt_bag* bag = nullptr;
    const dxt_bag_entry one[] = {{"cat", 3, DXT_MAX_BAG_WORDS + 1}};
    CHECK_STATUS(dxt_privatize_bag(c.ctx, &o, one, 1, &bag, nullptr, nullptr), DXT_E_INPUT_TOO_LARGE);
    CHECK(bag == nullptr);
    const dxt_bag_entry two[] = {{"cat", 3, DXT_MAX_BAG_WORDS}, {"dog", 3, 1}};
    CHECK_STATUS(dxt_privatize_bag(c.ctx, &o, two, 2, &bag, nullptr, nullptr), DXT_E_INPUT_TOO_LARGE);
    CHECK(bag == nullptr);
    // No wrap-around of the running total.
    const dxt_bag_entry wrap[] = {{"cat", 3, 10}, {"dog", 3, UINT64_MAX - 5}};
    CHECK_STATUS(dxt_privatize_bag(c.ctx, &o, wrap, 2, &bag, nullptr, nullptr), DXT_E_INPUT_TOO_LARGE);
    const dxt_bag_entry many[] = {{"cat", 3, DXT_MAX_BAG_WORDS / 2}, {"dog", 3, DXT_MAX_BAG_WORDS / 2}, {"sat", 3, 1}};
    CHECK_STATUS(dxt_privatize_bag(c.ctx, &o, many, 3, &bag, nullptr, nullptr), DXT_E_INPUT_TOO_LARGE);
    CHECK(bag == nullptr);
  }

  SUBCASE("invalid UTF-8 in a bag word") {
    dxt_bag* bag = nullptr;
    const dxt_bag_entry in[] = {{"cat", 3, 1}, {"d\xC3", 2, 1}};
    CHECK_STATUS(dxt_privatize_bag(c.ctx, &o, in, 2, &bag, nullptr, nullptr), DXT_E_INVALID_UTF8);
    CHECK(bag == nullptr);
  }
}

TEST_CASE("abi: invalid UTF-8 text gives DXT_E_INVALID_UTF8 and leaves *out NULL") {
  Toy toy;
  Ctx c(toy.model);
  const dxt_privatize_options o = popts(1.0);
  const std::string bad[] = {"cat \xFF dog", "\xC0\x80", "the cat \xED\xA0\x80", "trailing \xE2\x82", "\x80start"};
  for (const std::string& t : bad) {
    char* out = reinterpret_cast<char*>(0x1);
    size_t len = 77;
    dxt::test::Reported r;
    CHECK_STATUS(dxt_privatize_text(c.ctx, &o, t.data(), t.size(), &out, &len, &r.rec, &r.diag), DXT_E_INVALID_UTF8);
    CHECK(out == nullptr);
    out = reinterpret_cast<char*>(0x1);
    CHECK_STATUS(dxt_privatize_word(c.ctx, &o, t.data(), t.size(), &out, &len, &r.rec, &r.diag), DXT_E_INVALID_UTF8);
    CHECK(out == nullptr);
  }
  // The message names the byte offset.
  char* out = nullptr;
  size_t len = 0;
  CHECK_STATUS(dxt_privatize_text(c.ctx, &o, "cat \xFF dog", 9, &out, &len, nullptr, nullptr), DXT_E_INVALID_UTF8);
  CHECK(std::string(dxt_last_error_message()).find("byte 4") != std::string::npos);
}

TEST_CASE("abi: closing the model while a context is alive keeps the context working") {
  AlignedBytes bytes(dxt::test::build_model_bytes(toy_spec()));
  dxt_model* m = nullptr;
  REQUIRE_OK(dxt_model_open_memory(bytes.data(), bytes.size, nullptr, &m));
  dxt_context* ctx = nullptr;
  REQUIRE_OK(dxt_context_create(m, nullptr, &ctx));
  dxt_model_close(m);
  m = nullptr;

  const dxt_privatize_options o = popts(1e6);
  dxt::test::Reported r;
  CHECK(text_call(ctx, o, "The Cat SAT on the mat", &r) == "The Cat SAT on the mat");
  CHECK(r.rec.fingerprint_valid);
  const dxt::Digest expected = dxt::sha256(bytes.data(), bytes.size);
  CHECK(std::memcmp(r.rec.model_fingerprint, expected.data(), 32) == 0);
  uint32_t idx = 0;
  REQUIRE_OK(dxt_privatize_index(ctx, &o, 5, &idx, nullptr, nullptr));
  CHECK(idx == 5);
  const dxt_bag_entry e = {"dog", 3, 4};
  dxt_bag* bag = nullptr;
  REQUIRE_OK(dxt_privatize_bag(ctx, &o, &e, 1, &bag, nullptr, nullptr));
  REQUIRE(bag->size == 1);
  CHECK(std::string(bag->entries[0].word) == "dog");
  dxt_bag_free(bag);
  dxt_context_destroy(ctx);
}

TEST_CASE("abi: several contexts share one model") {
  Toy toy;
  Ctx a(toy.model), b(toy.model);
  const dxt_privatize_options o = popts(1e6);
  CHECK(text_call(a.ctx, o, "red tree") == "red tree");
  CHECK(text_call(b.ctx, o, "blue house") == "blue house");
}

TEST_CASE("abi: a Poincare model with the laplace mechanism is DXT_E_UNSUPPORTED") {
  Toy toy(toy_spec(DXT_QUANT_F32, DXT_GEOMETRY_POINCARE, 0.1f));
  dxt_model_info info;
  dxt_model_info_init(&info);
  REQUIRE_OK(dxt_model_get_info(toy.model, &info));
  CHECK(info.geometry == DXT_GEOMETRY_POINCARE);
  Ctx c(toy.model);
  const dxt_privatize_options o = popts(10.0);
  uint32_t idx = 0;
  CHECK_STATUS(dxt_privatize_index(c.ctx, &o, 0, &idx, nullptr, nullptr), DXT_E_UNSUPPORTED);
  char* out = reinterpret_cast<char*>(0x1);
  size_t len = 0;
  CHECK_STATUS(dxt_privatize_text(c.ctx, &o, "cat", 3, &out, &len, nullptr, nullptr), DXT_E_UNSUPPORTED);
  CHECK(out == nullptr);
  CHECK_STATUS(dxt_privatize_word(c.ctx, &o, "cat", 3, &out, &len, nullptr, nullptr), DXT_E_UNSUPPORTED);
  const dxt_bag_entry e = {"cat", 3, 1};
  dxt_bag* bag = nullptr;
  CHECK_STATUS(dxt_privatize_bag(c.ctx, &o, &e, 1, &bag, nullptr, nullptr), DXT_E_UNSUPPORTED);
  CHECK(bag == nullptr);
  // Lookups still work on it.
  CHECK_STATUS(dxt_model_lookup(toy.model, "dog", 3, &idx), DXT_OK);
  CHECK(idx == 5);
}

TEST_CASE("the last error message is the whole message: never empty after a failure, the status's words once") {
  // Bindings show dxt_last_error_message() as it is (no dxt_status_string()
  // before it), so it must say what went wrong by itself.
  std::vector<char> junk(4096, 'x');
  dxt_model* m = nullptr;
  CHECK(dxt_model_open_memory(junk.data(), junk.size(), nullptr, &m) == DXT_E_NOT_A_MODEL);
  const std::string message = dxt_last_error_message();
  const std::string name = dxt_status_string(DXT_E_NOT_A_MODEL);
  CHECK(message.rfind(name, 0) == 0);
  CHECK(message.find(name + ": " + name) == std::string::npos);
  CHECK(dxt_context_create(nullptr, nullptr, nullptr) == DXT_E_INVALID_ARGUMENT);
  CHECK(std::string(dxt_last_error_message()).size() > 0);
}
