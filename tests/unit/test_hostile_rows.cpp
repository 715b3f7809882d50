// SPDX-License-Identifier: Apache-2.0
// Hostile rows (docs/format.md §9, §12.2): models whose rows hold values
// that overflow binary32 products (±3e38, ±1e38), NaN, infinity, subnormals
// only, or a stored norm that is not the row's, written past the writer by
// patching a valid file (digests fixed, so the file opens and verifies). The
// rows are checked on first use: every mechanism, on any word, gives
// DXT_E_CORRUPT_MODEL with a message, never a crash or a NaN-driven release.
// The converter refuses the same rows with DXT_E_PARSE naming the line.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "dxtext/dxtext.h"
#include "errors/error.hpp"
#include "model/converters.hpp"
#include "model/f16.hpp"
#include "model/format.hpp"
#include "support/corrupt_models.hpp"
#include "support/toy_models.hpp"

using namespace dxt;
using namespace dxt::test::corrupt;
using K = dxt::format::SectionKind;

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr uint32_t kRow = 3;  // the row made hostile (not the word privatised)

std::string model_bytes(dxt_quantization q, dxt_geometry g = DXT_GEOMETRY_EUCLIDEAN) {
  test::ToyModelSpec s = g == DXT_GEOMETRY_POINCARE ? test::poincare_2d_spec() : test::grid_2d_spec();
  s.quantization = q;
  s.with_covariance = g == DXT_GEOMETRY_EUCLIDEAN;
  s.with_orderings = g == DXT_GEOMETRY_EUCLIDEAN;
  return test::build_model_bytes(s);
}

float norm_of(float x, float y) { return static_cast<float>(double{x} * x + double{y} * y); }

// Row kRow of an f32 model set to (x, y), its stored norm to `norm`.
std::string f32_row(float x, float y, float norm) {
  std::string b = model_bytes(DXT_QUANT_F32);
  const uint64_t m = section_offset(b, K::kMatrix), n = section_offset(b, K::kRowNorms);
  std::memcpy(&b[m + 8 * kRow], &x, 4);
  std::memcpy(&b[m + 8 * kRow + 4], &y, 4);
  std::memcpy(&b[n + 4 * kRow], &norm, 4);
  fix_section_digest(b, K::kMatrix);
  fix_section_digest(b, K::kRowNorms);
  return b;
}

// Row kRow of an int8 model given the scale `scale` (elements as written).
std::string int8_scale(float scale) {
  std::string b = model_bytes(DXT_QUANT_INT8);
  const uint64_t s = section_offset(b, K::kRowScales);
  std::memcpy(&b[s + 4 * kRow], &scale, 4);
  fix_section_digest(b, K::kRowScales);
  return b;
}

// Row kRow of an f16 model with its first element the half `h`.
std::string f16_element(uint16_t h) {
  std::string b = model_bytes(DXT_QUANT_F16);
  const uint64_t m = section_offset(b, K::kMatrix);
  format::store_u16(u8(b, m + 4 * kRow), h);
  fix_section_digest(b, K::kMatrix);
  return b;
}

// A Poincare row moved outside the unit ball.
std::string poincare_outside() {
  std::string b = model_bytes(DXT_QUANT_F32, DXT_GEOMETRY_POINCARE);
  const uint64_t m = section_offset(b, K::kMatrix), n = section_offset(b, K::kRowNorms);
  const float x = 0.9f, y = 0.9f, norm = norm_of(x, y);
  std::memcpy(&b[m + 8 * kRow], &x, 4);
  std::memcpy(&b[m + 8 * kRow + 4], &y, 4);
  std::memcpy(&b[n + 4 * kRow], &norm, 4);
  fix_section_digest(b, K::kMatrix);
  fix_section_digest(b, K::kRowNorms);
  return b;
}

struct Hostile {
  const char* name;
  std::string bytes;
  dxt_geometry geometry = DXT_GEOMETRY_EUCLIDEAN;
};

std::vector<Hostile> hostile_models() {
  return {
      {"f32 rows of +-3e38 (norm infinite)", f32_row(3e38f, -3e38f, norm_of(3e38f, -3e38f))},
      {"f32 rows of +-3e38, stored norm 1", f32_row(3e38f, -3e38f, 1.0f)},
      {"f32 rows of +-1e38", f32_row(1e38f, -1e38f, norm_of(1e38f, -1e38f))},
      {"f32 rows of 1e19 (squared norm 2e38, above 1e30)", f32_row(1e19f, 1e19f, norm_of(1e19f, 1e19f))},
      {"f32 NaN element", f32_row(kNaN, 1.0f, 1.0f)},
      {"f32 infinite element", f32_row(kInf, 1.0f, kInf)},
      {"f32 -infinity element", f32_row(-kInf, 1.0f, kInf)},
      {"f32 subnormal row", f32_row(1e-40f, -1e-40f, 0.0f)},
      {"f32 NaN stored norm", f32_row(1.0f, 1.0f, kNaN)},
      {"f32 negative stored norm", f32_row(1.0f, 1.0f, -2.0f)},
      {"f32 stored norm not the row's", f32_row(1.0f, 1.0f, 50.0f)},
      {"int8 scale of 3e38/127", int8_scale(3e38f / 127)},
      {"int8 NaN scale", int8_scale(kNaN)},
      {"int8 infinite scale", int8_scale(kInf)},
      {"int8 negative scale", int8_scale(-0.01f)},
      {"f16 infinite element", f16_element(0x7C00)},
      {"f16 NaN element", f16_element(0x7E00)},
      {"poincare row outside the ball", poincare_outside(), DXT_GEOMETRY_POINCARE},
  };
}

const uint32_t kMechanisms[] = {DXT_MECHANISM_LAPLACE, DXT_MECHANISM_HYPERBOLIC,  DXT_MECHANISM_EXPONENTIAL,
                                DXT_MECHANISM_SYNTF,   DXT_MECHANISM_MAHALANOBIS, DXT_MECHANISM_VICKREY,
                                DXT_MECHANISM_TEM,     DXT_MECHANISM_ORDERING};

bool applies(uint32_t mechanism, dxt_geometry g) {
  if (mechanism == DXT_MECHANISM_HYPERBOLIC) return g == DXT_GEOMETRY_POINCARE;
  if (mechanism == DXT_MECHANISM_ORDERING) return g == DXT_GEOMETRY_EUCLIDEAN;  // orderings are built for it only
  if (mechanism == DXT_MECHANISM_LAPLACE || mechanism == DXT_MECHANISM_MAHALANOBIS ||
      mechanism == DXT_MECHANISM_VICKREY)
    return g == DXT_GEOMETRY_EUCLIDEAN;
  return true;
}

// Privatises a word other than the hostile row's with `mechanism` (syntf
// through dxt_syntf, the others through dxt_privatize_word).
dxt_status privatize(dxt_model* m, dxt_geometry g, uint32_t mechanism, std::string* message) {
  dxt_context_options co;
  dxt_context_options_init(&co);
  co.rng_mode = DXT_RNG_DETERMINISTIC;
  dxt_context* ctx = nullptr;
  REQUIRE(dxt_context_create(m, &co, &ctx) == DXT_OK);
  dxt_privatize_options o;
  dxt_privatize_options_init(&o);
  o.mechanism = mechanism;
  o.epsilon = 5.0;
  const char* word = g == DXT_GEOMETRY_POINCARE ? "root" : "w0";
  dxt_status s;
  if (mechanism == DXT_MECHANISM_SYNTF) {
    const dxt_bag_entry entries[] = {{word, std::strlen(word), 3}};
    dxt_bag* bag = nullptr;
    s = dxt_syntf(ctx, &o, entries, 1, 4, &bag, nullptr, nullptr);
    dxt_bag_free(bag);
  } else {
    char* out = nullptr;
    size_t length = 0;
    s = dxt_privatize_word(ctx, &o, word, std::strlen(word), &out, &length, nullptr, nullptr);
    dxt_text_free(out);
  }
  *message = dxt_last_error_message();
  dxt_context_destroy(ctx);
  return s;
}

}  // namespace

TEST_CASE("the unpatched models work with every mechanism (the harness can succeed)") {
  for (dxt_geometry g : {DXT_GEOMETRY_EUCLIDEAN, DXT_GEOMETRY_POINCARE})
    for (dxt_quantization q : {DXT_QUANT_F32, DXT_QUANT_F16, DXT_QUANT_INT8}) {
      const test::AlignedBytes bytes(model_bytes(q, g));
      dxt_model* m = nullptr;
      REQUIRE(dxt_model_open_memory(bytes.data(), bytes.size, nullptr, &m) == DXT_OK);
      for (uint32_t mechanism : kMechanisms) {
        if (!applies(mechanism, g)) continue;
        CAPTURE(mechanism);
        std::string message;
        CHECK_MESSAGE(privatize(m, g, mechanism, &message) == DXT_OK, message);
      }
      dxt_model_close(m);
    }
}

TEST_CASE("hostile rows: the model opens and verifies, and every mechanism refuses it") {
  for (const Hostile& h : hostile_models()) {
    const std::string name = h.name;
    CAPTURE(name);
    const test::AlignedBytes bytes(h.bytes);
    dxt_model_open_options oo;
    dxt_model_open_options_init(&oo);
    oo.flags = DXT_OPEN_VERIFY_DIGESTS;
    dxt_model* m = nullptr;
    REQUIRE(dxt_model_open_memory(bytes.data(), bytes.size, &oo, &m) == DXT_OK);
    for (uint32_t mechanism : kMechanisms) {
      if (!applies(mechanism, h.geometry)) continue;
      CAPTURE(mechanism);
      std::string message;
      CHECK(privatize(m, h.geometry, mechanism, &message) == DXT_E_CORRUPT_MODEL);
      CHECK(message.find("row 3") != std::string::npos);
    }
    dxt_model_close(m);
  }
}

TEST_CASE("the converter refuses rows that overflow, are not finite, or are subnormal") {
  struct Bad {
    const char* name;
    std::string input;
    const char* must_mention;
  };
  const std::vector<Bad> table = {
      {"+-3e38", "a 1 2\nb 3e38 -3e38\n", "line 2"},
      {"+-1e38", "a 1e38 -1e38\nb 1 2\n", "line 1"},
      {"1e16 (squared norm 2e32)", "a 1 2\nb 1e16 1e16\n", "squared norm"},
      {"NaN", "a nan 2\n", "line 1"},
      {"infinity", "a 1 2\nb -inf 2\n", "line 2"},
      {"subnormals only", "a 1 2\nb 1e-40 -1e-40\n", "1e-30"},
  };
  for (dxt_quantization q : {DXT_QUANT_F32, DXT_QUANT_F16, DXT_QUANT_INT8})
    for (const Bad& b : table) {
      const std::string name = b.name;
      CAPTURE(name);
      CAPTURE(q);
      ConvertOptions o;
      o.format = EmbeddingFormat::kGlove;
      o.quantization = q;
      std::istringstream in(b.input);
      std::stringstream out(std::ios::in | std::ios::out | std::ios::binary);
      dxt_status status = DXT_OK;
      std::string message;
      try {
        (void)convert_embeddings(in, out, o);
      } catch (const Error& e) {
        status = e.status();
        message = e.what();
      }
      CAPTURE(message);
      if (q == DXT_QUANT_F16 && name == "subnormals only") {
        CHECK(status == DXT_OK);  // f16 rounds them to 0: a zero row
        continue;
      }
      CHECK(status == DXT_E_PARSE);
      // f16 refuses values beyond its range before their norm.
      if (q != DXT_QUANT_F16 || std::string(b.must_mention) != "squared norm")
        CHECK(message.find(b.must_mention) != std::string::npos);
    }
  // Within the bounds: large and small rows convert and work.
  ConvertOptions o;
  o.format = EmbeddingFormat::kGlove;
  std::istringstream in("a 1e14 -1e14\nb 1e-14 2e-14\nc 0 0\n");
  std::stringstream out(std::ios::in | std::ios::out | std::ios::binary);
  (void)convert_embeddings(in, out, o);
  const test::AlignedBytes bytes(out.str());
  dxt_model* m = nullptr;
  REQUIRE(dxt_model_open_memory(bytes.data(), bytes.size, nullptr, &m) == DXT_OK);
  for (uint32_t mechanism : {DXT_MECHANISM_LAPLACE, DXT_MECHANISM_EXPONENTIAL, DXT_MECHANISM_SYNTF,
                             DXT_MECHANISM_VICKREY, DXT_MECHANISM_TEM}) {
    CAPTURE(mechanism);
    std::string message;
    dxt_context_options co;
    dxt_context_options_init(&co);
    co.rng_mode = DXT_RNG_DETERMINISTIC;
    dxt_context* ctx = nullptr;
    REQUIRE(dxt_context_create(m, &co, &ctx) == DXT_OK);
    dxt_privatize_options po;
    dxt_privatize_options_init(&po);
    po.mechanism = mechanism;
    po.epsilon = 5.0;
    char* text = nullptr;
    size_t length = 0;
    dxt_status s = DXT_OK;
    if (mechanism == DXT_MECHANISM_SYNTF) {
      const dxt_bag_entry entries[] = {{"b", 1, 2}};
      dxt_bag* bag = nullptr;
      s = dxt_syntf(ctx, &po, entries, 1, 2, &bag, nullptr, nullptr);
      dxt_bag_free(bag);
    } else {
      s = dxt_privatize_word(ctx, &po, "b", 1, &text, &length, nullptr, nullptr);
      dxt_text_free(text);
    }
    CHECK_MESSAGE(s == DXT_OK, dxt_last_error_message());
    dxt_context_destroy(ctx);
  }
  dxt_model_close(m);
}
