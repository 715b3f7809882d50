// SPDX-License-Identifier: Apache-2.0
// Output vocabularies (docs/guarantees.md, "Output vocabularies"): decoding
// to a set S is the argmin over S's rows (checked against a brute-force
// search here), every mechanism releases only words of S, the C ABI refuses
// the sets it can tell are wrong, and release records name the set.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "dxtext/dxtext.h"
#include "errors/error.hpp"
#include "mechanisms/mechanism.hpp"
#include "mechanisms/output_set.hpp"
#include "model/sha256.hpp"
#include "search/euclidean_decoder.hpp"
#include "search/exact_scan.hpp"
#include "support/toy_models.hpp"

using namespace dxt;

namespace {

RandomStream seeded(uint8_t tag) {
  std::array<uint8_t, 32> seed{};
  seed[0] = tag;
  seed[5] = 0x21;
  return RandomStream(make_keyed_stream(seed));
}

struct Toy {
  test::ToyModelSpec spec;
  test::AlignedBytes bytes;
  std::shared_ptr<const Model> model;
  explicit Toy(test::ToyModelSpec s) : spec(std::move(s)), bytes(test::build_model_bytes(spec)) {
    model = test::open_bytes(bytes);
  }
};

test::ToyModelSpec with_frequencies(test::ToyModelSpec s) {
  s.with_frequencies = true;  // word i has frequency 1000 - i
  return s;
}

}  // namespace

TEST_CASE("decoding to an output vocabulary is the nearest word of S (brute force), in both geometries") {
  Toy toy(test::grid_2d_spec());
  const auto set = output_list(*toy.model, {"w1", "w3", "w6", "w8", "w11", "w15", "w18", "w19"});
  EuclideanDecoder decoder(*toy.model, DXT_SEARCH_EXACT, 0, &set->rows);
  RandomStream rng = seeded(1);
  std::vector<float> batch;
  std::vector<uint32_t> expected;
  for (int t = 0; t < 2000; ++t) {
    const float z[2] = {static_cast<float>(6 * rng.uniform() - 1), static_cast<float>(5 * rng.uniform() - 1)};
    uint32_t best = 0, second = 0;
    double d1 = INFINITY, d2 = INFINITY;
    for (uint32_t v : set->rows) {
      const double dx = z[0] - toy.spec.vectors[v][0], dy = z[1] - toy.spec.vectors[v][1];
      const double d = std::sqrt(dx * dx + dy * dy);
      if (d < d1) {
        second = best, d2 = d1, best = v, d1 = d;
      } else if (d < d2) {
        second = v, d2 = d;
      }
    }
    CHECK(decoder.nearest(z) == best);
    const TwoNearest two = decoder.two_nearest(z);
    CHECK(two.first == best);
    CHECK(two.second == second);
    // From f32 scores (||v||^2 - 2 <v, z>) plus ||z||^2: absolute error ~1e-6 / d.
    CHECK(two.first_distance == doctest::Approx(d1).epsilon(1e-3).scale(1));
    CHECK(two.second_distance == doctest::Approx(d2).epsilon(1e-3).scale(1));
    batch.insert(batch.end(), z, z + 2);
    expected.push_back(best);
  }
  std::vector<uint32_t> out(expected.size());
  decoder.nearest_batch(batch.data(), expected.size(), out.data());
  CHECK(out == expected);

  // With S = the whole vocabulary the restricted scans give the full scans' words.
  std::vector<std::string_view> all;
  for (const std::string& w : toy.spec.words) all.push_back(w);
  const auto everything = output_list(*toy.model, all);
  for (size_t j = 0; j < expected.size(); ++j)
    CHECK(nearest_euclidean_in(*toy.model, &batch[2 * j], everything->rows) ==
          nearest_euclidean(*toy.model, &batch[2 * j]));

  Toy disk(test::poincare_2d_spec());
  const auto dset = output_list(*disk.model, {"root", "p2", "p5", "p7", "p9", "p14", "p17"});
  for (int t = 0; t < 1000; ++t) {
    // A point y of the hyperboloid from a point q of the disk.
    const double r = 0.97 * std::sqrt(rng.uniform()), a = 2 * M_PI * rng.uniform();
    const double q[2] = {r * std::cos(a), r * std::sin(a)};
    const double qq = q[0] * q[0] + q[1] * q[1];
    const double y0 = (1 + qq) / (1 - qq), ys[2] = {2 * q[0] / (1 - qq), 2 * q[1] / (1 - qq)};
    uint32_t best = 0;
    double best_d = INFINITY;
    for (uint32_t v : dset->rows) {
      const double px = disk.spec.vectors[v][0], py = disk.spec.vectors[v][1];
      const double dd = (q[0] - px) * (q[0] - px) + (q[1] - py) * (q[1] - py);
      const double d = std::acosh(1 + 2 * dd / ((1 - qq) * (1 - px * px - py * py)));
      if (d < best_d) best_d = d, best = v;
    }
    CHECK(nearest_hyperbolic_in(*disk.model, y0, ys, dset->rows) == best);
  }
}

TEST_CASE("every mechanism releases only words of the output vocabulary, from inputs in and out of it") {
  test::ToyModelSpec grid = with_frequencies(test::grid_2d_spec());
  grid.with_covariance = true;  // for mahalanobis
  Toy toy(grid);
  Toy disk(with_frequencies(test::poincare_2d_spec()));
  const auto top = output_top(*toy.model, 5);
  CHECK(top->rows == std::vector<uint32_t>{0, 1, 2, 3, 4});
  CHECK(top->kind == DXT_OUTPUT_TOP);
  const auto dtop = output_top(*disk.model, 4);
  RandomStream rng = seeded(2);
  for (dxt_mechanism id : {DXT_MECHANISM_LAPLACE, DXT_MECHANISM_HYPERBOLIC, DXT_MECHANISM_EXPONENTIAL,
                           DXT_MECHANISM_SYNTF, DXT_MECHANISM_MAHALANOBIS, DXT_MECHANISM_VICKREY, DXT_MECHANISM_TEM}) {
    CAPTURE(static_cast<int>(id));
    const bool poincare = id == DXT_MECHANISM_HYPERBOLIC;
    const Toy& t = poincare ? disk : toy;
    MechanismParams p;
    p.id = id;
    p.epsilon = poincare ? 3.0 : 1.0;
    p.output = poincare ? dtop : top;
    p.candidate_list_size = 2;
    auto m = make_mechanism(*t.model, p);
    for (std::optional<uint32_t> w :
         {std::optional<uint32_t>(0), std::optional<uint32_t>(17), std::optional<uint32_t>()})
      for (int k = 0; k < 300; ++k) CHECK(p.output->contains(m->privatize(rng, w)));
    std::vector<std::optional<uint32_t>> in(600, std::optional<uint32_t>(15));
    std::vector<uint32_t> out(in.size());
    m->privatize_batch(rng, in.data(), in.size(), out.data());
    for (uint32_t o : out) CHECK(p.output->contains(o));
  }
}

TEST_CASE("output sets: what the library refuses") {
  Toy toy(test::grid_2d_spec());
  CHECK_THROWS_WITH_AS(output_list(*toy.model, {}), doctest::Contains("at least one word"), Error);
  CHECK_THROWS_WITH_AS(output_list(*toy.model, {"w1", "nope"}), doctest::Contains("\"nope\") is not in"), Error);
  CHECK_THROWS_WITH_AS(output_list(*toy.model, {"w1", "w2", "w1"}), doctest::Contains("give each word once"), Error);
  CHECK_THROWS_WITH_AS(output_list(*toy.model, {"w1", "W1"}), doctest::Contains("repeats"), Error);
  CHECK_THROWS_WITH_AS(output_top(*toy.model, 3), doctest::Contains("no frequencies section"), Error);
  Toy freq(with_frequencies(test::grid_2d_spec()));
  CHECK_THROWS_WITH_AS(output_top(*freq.model, 0), doctest::Contains("1 .. 20"), Error);
  CHECK_THROWS_WITH_AS(output_top(*freq.model, 21), doctest::Contains("1 .. 20"), Error);
  CHECK(output_top(*freq.model, 20)->size() == 20);
  // The search index covers the whole vocabulary: ivf with a set is refused.
  const auto set = output_list(*toy.model, {"w1", "w2"});
  CHECK_THROWS_WITH_AS(EuclideanDecoder(*toy.model, DXT_SEARCH_IVF, 0, &set->rows),
                       doctest::Contains("decoded exactly"), Error);
  // A set of another model (the core sees a vocabulary of another size; the
  // C ABI also checks the model's identity).
  test::ToyModelSpec small = test::poincare_2d_spec();
  small.words.resize(12);
  small.vectors.resize(12);
  Toy disk(small);
  MechanismParams p;
  p.id = DXT_MECHANISM_HYPERBOLIC;
  p.epsilon = 3;
  p.output = set;
  CHECK_THROWS_WITH_AS(make_mechanism(*disk.model, p), doctest::Contains("another model"), Error);
}

TEST_CASE("C ABI: output_top and dxt_output_set restrict releases, are refused when wrong, and show in the record") {
  test::ToyModelSpec spec = with_frequencies(test::grid_2d_spec());
  test::AlignedBytes bytes(test::build_model_bytes(spec));
  test::AlignedBytes other_bytes(test::build_model_bytes(test::grid_2d_spec()));
  dxt_model *model = nullptr, *other = nullptr;
  REQUIRE(dxt_model_open_memory(bytes.data(), bytes.size, nullptr, &model) == DXT_OK);
  REQUIRE(dxt_model_open_memory(other_bytes.data(), other_bytes.size, nullptr, &other) == DXT_OK);
  dxt_context_options co;
  dxt_context_options_init(&co);
  co.rng_mode = DXT_RNG_DETERMINISTIC;
  dxt_context* ctx = nullptr;
  REQUIRE(dxt_context_create(model, &co, &ctx) == DXT_OK);

  dxt_output_set* set = reinterpret_cast<dxt_output_set*>(1);
  const char* bad_words[] = {"w1", "zzz"};
  CHECK(dxt_output_set_create(model, bad_words, 2, &set) == DXT_E_INVALID_ARGUMENT);
  CHECK(set == nullptr);
  CHECK(std::string(dxt_last_error_message()).find("zzz") != std::string::npos);
  CHECK(dxt_output_set_create(model, bad_words, 0, &set) == DXT_E_INVALID_ARGUMENT);
  const char* dup[] = {"w1", "w1"};
  CHECK(dxt_output_set_create(model, dup, 2, &set) == DXT_E_INVALID_ARGUMENT);
  const char* with_null[] = {"w1", nullptr};
  CHECK(dxt_output_set_create(model, with_null, 2, &set) == DXT_E_INVALID_ARGUMENT);
  const char* invalid_utf8[] = {"\xff"};
  CHECK(dxt_output_set_create(model, invalid_utf8, 1, &set) == DXT_E_INVALID_UTF8);
  CHECK(dxt_output_set_create(model, nullptr, 3, &set) == DXT_E_INVALID_ARGUMENT);
  CHECK(dxt_output_set_create(nullptr, bad_words, 1, &set) == DXT_E_INVALID_ARGUMENT);
  CHECK(dxt_output_set_create(model, bad_words, 1, nullptr) == DXT_E_INVALID_ARGUMENT);
  CHECK(dxt_output_set_create(model, bad_words, SIZE_MAX, &set) == DXT_E_INVALID_ARGUMENT);
  CHECK(dxt_output_set_size(nullptr) == 0);
  dxt_output_set_free(nullptr);

  const char* words[] = {"w6", "w3", "w18"};
  REQUIRE(dxt_output_set_create(model, words, 3, &set) == DXT_OK);
  CHECK(dxt_output_set_size(set) == 3);
  dxt_output_set* foreign = nullptr;
  REQUIRE(dxt_output_set_create(other, words, 3, &foreign) == DXT_OK);

  dxt_privatize_options o;
  dxt_privatize_options_init(&o);
  CHECK(o.output_top == 0);
  CHECK(o.output_set == nullptr);
  o.epsilon = 1;
  for (uint32_t mech : {DXT_MECHANISM_LAPLACE, DXT_MECHANISM_EXPONENTIAL, DXT_MECHANISM_TEM, DXT_MECHANISM_VICKREY,
                        DXT_MECHANISM_SYNTF}) {
    CAPTURE(mech);
    o.mechanism = mech;
    o.output_set = set;
    dxt_release_record r;
    dxt_release_record_init(&r);
    for (uint32_t w = 0; w < 20; ++w) {
      uint32_t out = 99;
      REQUIRE(dxt_privatize_index(ctx, &o, w, &out, &r, nullptr) == DXT_OK);
      CHECK((out == 3 || out == 6 || out == 18));
    }
    CHECK(r.output_kind == DXT_OUTPUT_LIST);
    CHECK(r.output_size == 3);
    const dxt::Digest d = dxt::sha256("w3\nw6\nw18\n", 10);
    CHECK(std::memcmp(r.output_digest, d.data(), 32) == 0);
    char json[2048];
    REQUIRE(dxt_release_record_to_json(&r, json, sizeof json, nullptr) == DXT_OK);
    CHECK(std::string(json).find("\"output_vocabulary\":{\"kind\":\"list\",\"size\":3,\"sha256\":\"" +
                                 dxt::to_hex(d.data(), 32) + "\"}") != std::string::npos);
    o.output_set = nullptr;
    o.output_top = 4;
    for (uint32_t w = 0; w < 20; ++w) {
      uint32_t out = 99;
      REQUIRE(dxt_privatize_index(ctx, &o, w, &out, &r, nullptr) == DXT_OK);
      CHECK(out < 4);
    }
    CHECK(r.output_kind == DXT_OUTPUT_TOP);
    CHECK(r.output_size == 4);
    o.output_top = 0;
    uint32_t out = 0;
    REQUIRE(dxt_privatize_index(ctx, &o, 0, &out, &r, nullptr) == DXT_OK);
    CHECK(r.output_kind == DXT_OUTPUT_VOCABULARY);
    CHECK(r.output_size == 20);
  }
  // Text: every released word is in the set.
  o.mechanism = DXT_MECHANISM_EXPONENTIAL;
  o.output_set = set;
  char* text = nullptr;
  size_t len = 0;
  const char in[] = "w1 w2 w12 unknownword w19";
  REQUIRE(dxt_privatize_text(ctx, &o, in, sizeof in - 1, &text, &len, nullptr, nullptr) == DXT_OK);
  for (const char* tok = std::strtok(text, " "); tok != nullptr; tok = std::strtok(nullptr, " "))
    CHECK((std::string(tok) == "w3" || std::string(tok) == "w6" || std::string(tok) == "w18"));
  dxt_text_free(text);

  uint32_t out = 0;
  o.output_top = 2;
  CHECK(dxt_privatize_index(ctx, &o, 0, &out, nullptr, nullptr) == DXT_E_INVALID_ARGUMENT);  // both set
  CHECK(std::string(dxt_last_error_message()).find("choose one") != std::string::npos);
  o.output_top = 0;
  o.output_set = foreign;
  CHECK(dxt_privatize_index(ctx, &o, 0, &out, nullptr, nullptr) == DXT_E_INVALID_ARGUMENT);
  CHECK(std::string(dxt_last_error_message()).find("another model") != std::string::npos);
  o.output_set = nullptr;
  o.output_top = 21;
  CHECK(dxt_privatize_index(ctx, &o, 0, &out, nullptr, nullptr) == DXT_E_INVALID_ARGUMENT);
  o.output_top = 3;
  o.mechanism = DXT_MECHANISM_LAPLACE;
  o.search = DXT_SEARCH_IVF;
  CHECK(dxt_privatize_index(ctx, &o, 0, &out, nullptr, nullptr) != DXT_OK);
  o.search = DXT_SEARCH_EXACT;

  // A caller compiled before the output fields (struct_size 96, whose tail
  // padding now holds output_top): the bytes there are never read.
  dxt_privatize_options old = o;
  old.output_top = 0xdeadbeef;
  old.output_set = nullptr;
  old.struct_size = 96;
  REQUIRE(dxt_privatize_index(ctx, &old, 0, &out, nullptr, nullptr) == DXT_OK);

  dxt_output_set_free(set);
  dxt_output_set_free(foreign);
  dxt_context_destroy(ctx);
  dxt_model_close(model);
  dxt_model_close(other);
}
