// SPDX-License-Identifier: Apache-2.0
// A model whose geometry makes a mechanism a no-op at its epsilon
// (mechanisms/input_keeping_check.hpp; issue 27, case 10): the demo-like
// grid scaled by 1e12 returns every word unchanged at epsilon 1e-6, and the
// release record must say so rather than call it private.
#include <doctest/doctest.h>

#include <cstring>
#include <memory>
#include <string>

#include "dxtext/dxtext.h"
#include "mechanisms/input_keeping_check.hpp"
#include "model/model.hpp"
#include "support/toy_models.hpp"

namespace {

using dxt::test::AlignedBytes;

struct Scaled {
  AlignedBytes bytes;
  dxt_model* model = nullptr;
  explicit Scaled(float scale)
      : bytes([scale] {
          dxt::test::ToyModelSpec spec = dxt::test::grid_2d_spec();
          spec.with_covariance = true;  // for mahalanobis
          for (auto& v : spec.vectors)
            for (float& x : v) x *= scale;
          return dxt::test::build_model_bytes(spec);
        }()) {
    REQUIRE(dxt_model_open_memory(bytes.data(), bytes.size, nullptr, &model) == DXT_OK);
  }
  ~Scaled() { dxt_model_close(model); }
};

struct Release {
  std::string text;
  dxt_release_record record;
  std::string json;
};

Release privatize(dxt_model* model, dxt_mechanism mechanism, double epsilon, const std::string& text,
                  double tem_gamma = 0) {
  dxt_context* ctx = nullptr;
  REQUIRE(dxt_context_create(model, nullptr, &ctx) == DXT_OK);
  dxt_privatize_options o;
  dxt_privatize_options_init(&o);
  o.mechanism = mechanism;
  o.epsilon = epsilon;
  o.tem_gamma = tem_gamma;
  Release r;
  dxt_release_record_init(&r.record);
  char* out = nullptr;
  size_t length = 0;
  REQUIRE_MESSAGE(dxt_privatize_text(ctx, &o, text.data(), text.size(), &out, &length, &r.record, nullptr) == DXT_OK,
                  dxt_last_error_message());
  r.text.assign(out, length);
  dxt_text_free(out);
  size_t need = 0;
  [[maybe_unused]] const dxt_status sized = dxt_release_record_to_json(&r.record, nullptr, 0, &need);
  std::string json(need, '\0');
  REQUIRE(dxt_release_record_to_json(&r.record, json.data(), json.size(), &need) == DXT_OK);
  r.json = json.c_str();
  dxt_context_destroy(ctx);
  return r;
}

}  // namespace

TEST_CASE(
    "input keeping: vectors scaled by 1e12 make laplace, exponential, mahalanobis and tem a no-op; the record says "
    "so") {
  Scaled huge(1e12f);
  const std::string text = "w1 w2 w3 w4 w5 w6 w7 w8";
  for (const dxt_mechanism m :
       {DXT_MECHANISM_LAPLACE, DXT_MECHANISM_EXPONENTIAL, DXT_MECHANISM_MAHALANOBIS, DXT_MECHANISM_TEM}) {
    CAPTURE(m);
    // tem with a truncation radius past the words' distances (a derived one
    // leaves every other word the mass beta: not a no-op, tested below).
    const Release r = privatize(huge.model, m, 1e-6, text, m == DXT_MECHANISM_TEM ? 1e14 : 0);
    CHECK(r.text == text);  // the reported case: the input comes back
    CHECK((r.record.reveals & DXT_REVEALS_INPUT_WORDS) != 0);
    CHECK(!r.record.is_private);
    CHECK(r.json.find("\"private\":false") != std::string::npos);
    CHECK(r.json.find("\"input_words\"") != std::string::npos);
    CHECK(r.json.find("return its input at this epsilon") != std::string::npos);
  }
}

TEST_CASE("input keeping: the grid as it is, at a usual epsilon, is not flagged; at a huge one it is") {
  Scaled grid(1.0f);
  const Release usual = privatize(grid.model, DXT_MECHANISM_LAPLACE, 1.0, "w1 w2");
  CHECK((usual.record.reveals & DXT_REVEALS_INPUT_WORDS) == 0);
  CHECK(usual.record.is_private);
  CHECK(usual.json.find("input_words") == std::string::npos);
  // Grid spacing 1, dimension 2: laplace keeps every word with probability
  // >= 1 - 1e-9 once epsilon / 2 passes about 33 (the Chernoff bound).
  const std::shared_ptr<const dxt::Model> opened = dxt::Model::open_memory(grid.bytes.data(), grid.bytes.size, {});
  const dxt::Model& model = *opened;
  dxt::MechanismParams p;
  p.id = DXT_MECHANISM_LAPLACE;
  p.epsilon = 10;
  CHECK(!dxt::mechanism_keeps_input(model, p));
  p.epsilon = 100;
  CHECK(dxt::mechanism_keeps_input(model, p));
  // mahalanobis: the same bound with distances divided by
  // sqrt(lambda n + 1 - lambda); at lambda 0 it is laplace.
  p.id = DXT_MECHANISM_MAHALANOBIS;
  p.mahalanobis_lambda = 1;
  p.epsilon = 100;
  CHECK(!dxt::mechanism_keeps_input(model, p));  // 100 / sqrt(2): t about 35, short of the bound
  p.epsilon = 200;
  CHECK(dxt::mechanism_keeps_input(model, p));
  p.mahalanobis_lambda = 0;
  p.epsilon = 100;
  CHECK(dxt::mechanism_keeps_input(model, p));
  // tem: distances capped at gamma.
  p.id = DXT_MECHANISM_TEM;
  p.epsilon = 100;
  CHECK(dxt::mechanism_keeps_input(model, p, 10.0));
  CHECK(!dxt::mechanism_keeps_input(model, p, 0.1));
  Scaled huge(1e12f);
  const Release derived = privatize(huge.model, DXT_MECHANISM_TEM, 1e-6, "w1 w2");
  CHECK((derived.record.reveals & DXT_REVEALS_INPUT_WORDS) == 0);
  // Mechanisms the check does not cover are never flagged.
  p.id = DXT_MECHANISM_VICKREY;
  CHECK(!dxt::mechanism_keeps_input(model, p));
}
