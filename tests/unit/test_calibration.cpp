// SPDX-License-Identifier: Apache-2.0
// Calibration statistics and the mechanism parameter plumbing of the ABI.
#include <doctest/doctest.h>

#include <array>
#include <cstdlib>
#include <set>
#include <string>

#include "accounting/calibration.hpp"
#include "dxtext/dxtext.h"
#include "mechanisms/mechanism.hpp"
#include "support/release_outputs.hpp"
#include "support/toy_models.hpp"

using namespace dxt;

namespace {
RandomStream seeded(uint8_t tag) {
  std::array<uint8_t, 32> seed{};
  seed[0] = tag;
  return RandomStream(make_keyed_stream(seed));
}
}  // namespace

TEST_CASE("sample_words: distinct, in range, capped at the vocabulary, roughly uniform") {
  RandomStream rng = seeded(1);
  const auto s = sample_words(rng, 1000, 200);
  CHECK(s.size() == 200);
  CHECK(std::set<uint32_t>(s.begin(), s.end()).size() == 200);
  for (uint32_t w : s) CHECK(w < 1000);
  CHECK(sample_words(rng, 5, 10).size() == 5);
  // Every word of a 10-word vocabulary is drawn first about 1/10 of the time.
  std::array<int, 10> first{};
  for (int i = 0; i < 10000; ++i) ++first[sample_words(rng, 10, 3)[0]];
  for (int c : first) CHECK(std::abs(c - 1000) < 200);  // ~6.6 sigma
}

TEST_CASE("calibrate: a huge epsilon keeps every word; a tiny one keeps few") {
  const test::AlignedBytes bytes(test::build_model_bytes(test::grid_2d_spec()));
  const auto model = test::open_bytes(bytes);
  RandomStream rng = seeded(2);
  MechanismParams p;
  p.epsilon = 1e6;
  const auto words = sample_words(rng, model->vocabulary_size(), 10);
  auto m = make_mechanism(*model, p);
  CalibrationStats s = calibrate(*m, rng, words, 50);
  CHECK(s.keep_mean == 1.0);
  CHECK(s.keep_median == 1.0);
  CHECK(s.distinct_max == 1.0);
  p.epsilon = 0.01;
  m = make_mechanism(*model, p);
  s = calibrate(*m, rng, words, 200);
  CHECK(s.keep_median < 0.3);
  CHECK(s.distinct_mean > 5);
  CHECK_THROWS(calibrate(*m, rng, {}, 10));
}

TEST_CASE("dxt_calibrate through the C ABI, and mechanism parameters are validated") {
  const test::AlignedBytes bytes(test::build_model_bytes(test::grid_2d_spec()));
  dxt_model* model = nullptr;
  REQUIRE(dxt_model_open_memory(bytes.data(), bytes.size, nullptr, &model) == DXT_OK);
  dxt_context* ctx = nullptr;
  REQUIRE(dxt_context_create(model, nullptr, &ctx) == DXT_OK);
  dxt_privatize_options o;
  dxt_privatize_options_init(&o);
  CHECK(o.vickrey_t == 0.75);
  CHECK(o.syntf_s == 0.3);
  o.epsilon = 1e6;
  dxt_calibration c;
  dxt_calibration_init(&c);
  CHECK(dxt_calibrate(ctx, &o, 5, 20, &c) == DXT_OK);
  CHECK(c.words == 5);
  CHECK(c.keep_mean == 1.0);
  CHECK(dxt_calibrate(ctx, &o, 0, 20, &c) == DXT_E_INVALID_ARGUMENT);
  CHECK(dxt_calibrate(ctx, &o, 5, 20, nullptr) == DXT_E_INVALID_ARGUMENT);

  uint32_t out = 0;
  o.epsilon = 2;
  o.mechanism = DXT_MECHANISM_VICKREY;
  o.vickrey_t = 2;
  CHECK(dxt_privatize_index(ctx, &o, 0, &out, nullptr, nullptr) == DXT_E_INVALID_ARGUMENT);
  o.vickrey_t = 0.5;
  CHECK(dxt_privatize_index(ctx, &o, 0, &out, nullptr, nullptr) == DXT_OK);
  o.mechanism = DXT_MECHANISM_TEM;
  o.tem_beta = 0;
  CHECK(dxt_privatize_index(ctx, &o, 0, &out, nullptr, nullptr) == DXT_E_INVALID_ARGUMENT);
  o.tem_gamma = 1.5;  // an explicit gamma makes beta irrelevant
  CHECK(dxt_privatize_index(ctx, &o, 0, &out, nullptr, nullptr) == DXT_OK);
  o.mechanism = DXT_MECHANISM_EXPONENTIAL;
  o.exponential_sampler = 9;
  CHECK(dxt_privatize_index(ctx, &o, 0, &out, nullptr, nullptr) == DXT_E_INVALID_ARGUMENT);
  o.exponential_sampler = DXT_SAMPLER_PERMUTE_AND_FLIP;
  dxt::test::Reported r;
  CHECK(dxt_privatize_index(ctx, &o, 0, &out, &r.rec, &r.diag) == DXT_OK);
  CHECK(r.rec.mechanism == DXT_MECHANISM_EXPONENTIAL);
  CHECK(r.rec.metric == DXT_METRIC_EUCLIDEAN);
  o.mechanism = DXT_MECHANISM_HYPERBOLIC;  // a Euclidean model
  CHECK(dxt_privatize_index(ctx, &o, 0, &out, nullptr, nullptr) == DXT_E_UNSUPPORTED);
  dxt_context_destroy(ctx);
  dxt_model_close(model);
}

TEST_CASE("default model path: DXTEXT_MODEL first; errors name what was searched") {
  char buf[4096];
  size_t need = 0;
  setenv("DXTEXT_MODEL", "/nonexistent/dxtext-model.dxe", 1);
  CHECK(dxt_default_model_path(DXT_GEOMETRY_EUCLIDEAN, buf, sizeof buf, &need) == DXT_E_NOT_FOUND);
  CHECK(std::string(dxt_last_error_message()).find("DXTEXT_MODEL") != std::string::npos);
  setenv("DXTEXT_MODEL", DXT_TEST_DATA_DIR "/golden_v1.dxe", 1);
  REQUIRE(dxt_default_model_path(DXT_GEOMETRY_POINCARE, buf, sizeof buf, &need) == DXT_OK);
  CHECK(std::string(buf) == DXT_TEST_DATA_DIR "/golden_v1.dxe");
  CHECK(need == std::string(buf).size() + 1);
  CHECK(dxt_default_model_path(DXT_GEOMETRY_EUCLIDEAN, buf, 3, &need) == DXT_E_INPUT_TOO_LARGE);
  CHECK(dxt_default_model_path(7, buf, sizeof buf, &need) == DXT_E_INVALID_ARGUMENT);
  unsetenv("DXTEXT_MODEL");
}

TEST_CASE("calibrate_common: the same key gives the same draws at every epsilon; N_w grows with epsilon") {
  const test::AlignedBytes bytes(test::build_model_bytes(test::grid_2d_spec()));
  const auto model = test::open_bytes(bytes);
  RandomStream rng = seeded(4);
  const auto words = sample_words(rng, model->vocabulary_size(), 8);
  std::array<uint8_t, 32> key{};
  key[0] = 42;
  MechanismParams p;
  std::vector<double> previous(words.size(), 0.0);
  for (double eps : {0.5, 1.0, 2.0, 4.0, 8.0}) {
    CAPTURE(eps);
    p.epsilon = eps;
    auto m = make_mechanism(*model, p);
    const CalibrationStats a = calibrate_common(*m, key, words, 200);
    const CalibrationStats b = calibrate_common(*m, key, words, 200);
    CHECK(a.keep_per_word == b.keep_per_word);  // reproducible from the key
    // laplace on common random numbers: each trial's noisy point moves
    // towards phi(w) as epsilon grows, so no word's N_w can fall.
    for (size_t i = 0; i < words.size(); ++i) CHECK(a.keep_per_word[i] >= previous[i]);
    previous = a.keep_per_word;
  }
}

TEST_CASE("search_epsilon: the same question, the same answer; the interval holds it") {
  const test::AlignedBytes bytes(test::build_model_bytes(test::grid_2d_spec()));
  const auto model = test::open_bytes(bytes);
  RandomStream rng = seeded(5);
  const auto words = sample_words(rng, model->vocabulary_size(), 20);
  std::array<uint8_t, 32> key{};
  key[0] = 7;
  MechanismParams p;
  auto run = [&](double eps) {
    p.epsilon = eps;
    auto m = make_mechanism(*model, p);
    return calibrate_common(*m, key, words, 100);
  };
  RandomStream boot1 = seeded(6), boot2 = seeded(6);
  const EpsilonSearch a = search_epsilon(run, 0.5, KeepStatistic::kMedian, 0.0, boot1);
  const EpsilonSearch b = search_epsilon(run, 0.5, KeepStatistic::kMedian, 0.0, boot2);
  CHECK(a.epsilon == b.epsilon);
  CHECK(a.interval_low == b.interval_low);
  CHECK(a.stats.keep_median >= 0.5);
  CHECK(a.bracket_low < a.epsilon);
  CHECK((a.epsilon - a.bracket_low) < 1e-3 * a.epsilon);
  CHECK(a.interval_low <= a.epsilon);
  CHECK(a.epsilon <= a.interval_high);
  CHECK(a.interval_low < a.interval_high);
}

TEST_CASE("dxt_calibrate samples the output vocabulary: the only words the options can keep") {
  const test::AlignedBytes bytes(test::build_model_bytes(test::grid_2d_spec()));
  dxt_model* model = nullptr;
  REQUIRE(dxt_model_open_memory(bytes.data(), bytes.size, nullptr, &model) == DXT_OK);
  dxt_context* ctx = nullptr;
  REQUIRE(dxt_context_create(model, nullptr, &ctx) == DXT_OK);
  const char* words[] = {"w3", "w17"};
  dxt_output_set* set = nullptr;
  REQUIRE(dxt_output_set_create(model, words, 2, &set) == DXT_OK);
  dxt_privatize_options o;
  dxt_privatize_options_init(&o);
  o.mechanism = DXT_MECHANISM_EXPONENTIAL;
  o.epsilon = 1e3;  // each word of the set releases itself
  o.output_set = set;
  dxt_calibration c;
  dxt_calibration_init(&c);
  // 10 words asked for, 2 in the set: both, each kept every time (sampled
  // over the whole vocabulary, 8 of 10 words could never be kept).
  REQUIRE(dxt_calibrate(ctx, &o, 10, 50, &c) == DXT_OK);
  CHECK(c.words == 2);
  CHECK(c.keep_mean == 1.0);
  CHECK(c.keep_median == 1.0);
  dxt_output_set_free(set);
  dxt_context_destroy(ctx);
  dxt_model_close(model);
}
