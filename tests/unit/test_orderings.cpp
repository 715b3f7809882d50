// SPDX-License-Identifier: Apache-2.0
// The orderings section (docs/format.md §10.3): the builder (permutations,
// groups kept together, reproducible from its seed), the checks at open and
// on first use, and the ordering mechanism through the C API.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "dxtext/dxtext.h"
#include "errors/error.hpp"
#include "model/format.hpp"
#include "model/ordering_builder.hpp"
#include "model/section_append_writer.hpp"
#include "support/toy_models.hpp"

using namespace dxt;
namespace fmt = dxt::format;

namespace {

std::string base_bytes() { return test::build_model_bytes(test::grid_2d_spec()); }

std::string with_orderings(const std::string& plain, const OrderingBuildOptions& o,
                           std::vector<uint32_t>* words_out = nullptr) {
  test::AlignedBytes b(plain);
  const auto m = Model::open_memory(b.data(), b.size, {});
  const std::vector<uint32_t> words = build_orderings(*m, o, nullptr);
  if (words_out) *words_out = words;
  std::stringstream out(std::ios::in | std::ios::out | std::ios::binary);
  write_model_with_section(*m, static_cast<uint32_t>(fmt::SectionKind::kOrderings), encode_orderings(*m, o, words),
                           fmt::kMinorOrderings, out);
  return out.str();
}

// The byte offset of the orderings section in `b`.
size_t orderings_at(const std::string& b) {
  const auto* p = reinterpret_cast<const uint8_t*>(b.data());
  const uint32_t count = fmt::load_u32(p + fmt::header::kSectionCount);
  for (uint32_t s = 0; s < count; ++s) {
    const uint8_t* e = p + fmt::kHeaderFixedSize + s * fmt::kSectionEntrySize;
    if (fmt::load_u32(e + fmt::entry::kKind) == static_cast<uint32_t>(fmt::SectionKind::kOrderings))
      return static_cast<size_t>(fmt::load_u64(e + fmt::entry::kOffset));
  }
  FAIL("no orderings section");
  return 0;
}

dxt_status open_status(const std::string& bytes, std::string* message = nullptr) {
  test::AlignedBytes b(bytes);
  dxt_model* m = nullptr;
  const dxt_status s = dxt_model_open_memory(b.data(), b.size, nullptr, &m);
  if (message) *message = dxt_last_error_message();
  dxt_model_close(m);
  return s;
}

}  // namespace

TEST_CASE("orderings: each is a permutation, reproducible from the seed, groups toured apart") {
  OrderingBuildOptions o;
  o.count = 4;
  o.neighbours = 5;
  o.seed = 9;
  std::vector<uint32_t> a, b, c;
  const std::string first = with_orderings(base_bytes(), o, &a);
  CHECK(with_orderings(base_bytes(), o, &b) == first);  // bit for bit
  CHECK(a == b);
  o.seed = 10;
  with_orderings(base_bytes(), o, &c);
  CHECK(c != a);
  for (uint32_t L = 0; L < 4; ++L) {
    std::vector<uint32_t> sorted(a.begin() + L * 20, a.begin() + (L + 1) * 20);
    std::sort(sorted.begin(), sorted.end());
    for (uint32_t w = 0; w < 20; ++w) CHECK(sorted[w] == w);
  }
  // Groups: words 0..4 (the grid's first row) in group 0, the rest in 1; in
  // every ordering group 0 fills places 0..4.
  o.groups.assign(20, 1);
  for (uint32_t w = 0; w < 5; ++w) o.groups[w] = 0;
  std::vector<uint32_t> g;
  with_orderings(base_bytes(), o, &g);
  for (uint32_t L = 0; L < 4; ++L)
    for (uint32_t p = 0; p < 5; ++p) CHECK(g[L * 20 + p] < 5);
  // Along a tour of the grid, most steps join grid neighbours (distance ~1).
  test::AlignedBytes bytes(first);
  const auto m = Model::open_memory(bytes.data(), bytes.size, {});
  const OrderingsView* v = m->orderings();
  REQUIRE(v != nullptr);
  CHECK(v->count == 4);
  CHECK(v->neighbours == 5);
  CHECK(v->seed == 9);
  CHECK(m->format_minor() == fmt::kMinorOrderings);
  int short_steps = 0;
  std::vector<float> x(2), y(2);
  for (uint32_t p = 0; p < 20; ++p) {
    m->row(v->words[p], x.data());
    m->row(v->words[(p + 1) % 20], y.data());
    short_steps += std::hypot(x[0] - y[0], x[1] - y[1]) < 1.5;
  }
  CHECK(short_steps >= 16);
}

TEST_CASE("orderings: bad build options are refused") {
  test::AlignedBytes b(base_bytes());
  const auto m = Model::open_memory(b.data(), b.size, {});
  OrderingBuildOptions o;
  o.count = 0;
  CHECK_THROWS_AS(build_orderings(*m, o, nullptr), Error);
  o.count = 65;
  CHECK_THROWS_AS(build_orderings(*m, o, nullptr), Error);
  o.count = 2;
  o.groups.assign(3, 0);  // not one per word
  CHECK_THROWS_AS(build_orderings(*m, o, nullptr), Error);
  test::AlignedBytes p(test::build_model_bytes(test::poincare_2d_spec()));
  const auto hyperbolic = Model::open_memory(p.data(), p.size, {});
  o.groups.clear();
  try {
    build_orderings(*hyperbolic, o, nullptr);
    FAIL("a Poincare model was ordered");
  } catch (const Error& e) {
    CHECK(e.status() == DXT_E_UNSUPPORTED);
  }
}

TEST_CASE("orderings: a damaged header or size is refused at open; a damaged permutation at first use") {
  OrderingBuildOptions o;
  o.count = 2;
  o.neighbours = 4;
  const std::string good = with_orderings(base_bytes(), o);
  CHECK(open_status(good) == DXT_OK);
  const size_t at = orderings_at(good);
  struct Case {
    const char* name;
    size_t offset;
    uint32_t value;
    const char* message;
  };
  const Case cases[] = {
      {"method", fmt::orderings::kMethod, 2, "orderings method 2 is unknown"},
      {"count 0", fmt::orderings::kCount, 0, "orderings count 0"},
      {"count 65", fmt::orderings::kCount, 65, "orderings count 65"},
      {"count 3 (size)", fmt::orderings::kCount, 3, "expected"},
      {"vocabulary size", fmt::orderings::kVocabularySize, 21, "vocabulary size differs"},
      {"reserved", fmt::orderings::kReserved + 8, 1, "reserved bytes"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    std::string bad = good;
    fmt::store_u32(reinterpret_cast<uint8_t*>(&bad[at + c.offset]), c.value);
    std::string message;
    CHECK(open_status(bad, &message) == DXT_E_CORRUPT_MODEL);
    CHECK(message.find(c.message) != std::string::npos);
  }
  // A word listed twice, or past V: the file opens (constant work), the
  // first use of the orderings fails, and so does every later one.
  for (const bool past_v : {false, true}) {
    std::string bad = good;
    auto* first_place = reinterpret_cast<uint8_t*>(&bad[at + fmt::orderings::kHeaderSize]);
    fmt::store_u32(first_place, past_v ? 20 : fmt::load_u32(first_place + 4));  // past V, or place 1's word twice
    test::AlignedBytes bytes(bad);
    const auto m = Model::open_memory(bytes.data(), bytes.size, {});
    for (int i = 0; i < 2; ++i) {
      try {
        m->orderings();
        FAIL("a damaged ordering was used");
      } catch (const Error& e) {
        CHECK(e.status() == DXT_E_CORRUPT_MODEL);
      }
    }
  }
}

TEST_CASE("the ordering mechanism through the C API: records, output vocabularies, and models without orderings") {
  OrderingBuildOptions o;
  o.count = 3;
  o.neighbours = 4;
  test::ToyModelSpec spec = test::grid_2d_spec();
  spec.with_frequencies = true;
  test::AlignedBytes bytes(with_orderings(test::build_model_bytes(spec), o));
  dxt_model* model = nullptr;
  REQUIRE(dxt_model_open_memory(bytes.data(), bytes.size, nullptr, &model) == DXT_OK);
  dxt_context* ctx = nullptr;
  REQUIRE(dxt_context_create(model, nullptr, &ctx) == DXT_OK);
  dxt_privatize_options opt;
  dxt_privatize_options_init(&opt);
  opt.mechanism = DXT_MECHANISM_ORDERING;
  opt.epsilon = 0.5;
  char* out = nullptr;
  size_t length = 0;
  dxt_release_record record;
  dxt_release_record_init(&record);
  REQUIRE(dxt_privatize_text(ctx, &opt, "w1 w2 unknownword", 17, &out, &length, &record, nullptr) == DXT_OK);
  CHECK(record.mechanism == DXT_MECHANISM_ORDERING);
  CHECK(record.metric == DXT_METRIC_ORDERING);
  char json[2048];
  REQUIRE(dxt_release_record_to_json(&record, json, sizeof json, nullptr) == DXT_OK);
  CHECK(std::string(json).find("\"mechanism\":\"ordering\"") != std::string::npos);
  CHECK(std::string(json).find("d_ordering(w, w')") != std::string::npos);
  dxt_text_free(out);
  // An output vocabulary of the 5 most frequent words: only they come out.
  opt.output_top = 5;
  for (int i = 0; i < 200; ++i) {
    uint32_t released = 0;
    REQUIRE(dxt_privatize_index(ctx, &opt, static_cast<uint32_t>(i % 20), &released, nullptr, nullptr) == DXT_OK);
    CHECK(released < 5);  // the writer gave word i the frequency 1000 - i
  }
  dxt_context_destroy(ctx);
  dxt_model_close(model);

  // Without the section: refused, naming the way to add one.
  test::AlignedBytes plain(base_bytes());
  REQUIRE(dxt_model_open_memory(plain.data(), plain.size, nullptr, &model) == DXT_OK);
  REQUIRE(dxt_context_create(model, nullptr, &ctx) == DXT_OK);
  opt.output_top = 0;
  uint32_t released = 0;
  CHECK(dxt_privatize_index(ctx, &opt, 0, &released, nullptr, nullptr) == DXT_E_UNSUPPORTED);
  CHECK(std::string(dxt_last_error_message()).find("dxtext order") != std::string::npos);
  dxt_context_destroy(ctx);
  dxt_model_close(model);
}

TEST_CASE("orderings through the C API: the count and each word's place, as the section stores them") {
  OrderingBuildOptions o;
  o.count = 3;
  o.neighbours = 4;
  o.seed = 5;
  std::vector<uint32_t> words;
  test::AlignedBytes bytes(with_orderings(base_bytes(), o, &words));
  dxt_model* model = nullptr;
  REQUIRE(dxt_model_open_memory(bytes.data(), bytes.size, nullptr, &model) == DXT_OK);
  uint32_t count = 99;
  REQUIRE(dxt_model_ordering_count(model, &count) == DXT_OK);
  CHECK(count == 3);
  // words[L * V + p] is the word at place p of ordering L: its place is p.
  for (uint32_t L = 0; L < 3; ++L) {
    for (uint32_t p = 0; p < 20; ++p) {
      uint32_t place = 99, length = 0;
      REQUIRE(dxt_model_ordering_place(model, L, words[L * 20 + p], &place, &length) == DXT_OK);
      CHECK(place == p);
      CHECK(length == 20);
    }
  }
  uint32_t place = 0;
  CHECK(dxt_model_ordering_place(model, 0, 0, &place, nullptr) == DXT_OK);  // cycle_length may be NULL
  CHECK(dxt_model_ordering_place(model, 3, 0, &place, nullptr) == DXT_E_NOT_FOUND);
  CHECK(std::string(dxt_last_error_message()).find("ordering 3 is out of range") != std::string::npos);
  CHECK(dxt_model_ordering_place(model, 0, 20, &place, nullptr) == DXT_E_NOT_FOUND);
  CHECK(dxt_model_ordering_place(model, 0, 0, nullptr, nullptr) == DXT_E_INVALID_ARGUMENT);
  CHECK(dxt_model_ordering_place(nullptr, 0, 0, &place, nullptr) == DXT_E_INVALID_ARGUMENT);
  CHECK(dxt_model_ordering_count(model, nullptr) == DXT_E_INVALID_ARGUMENT);
  CHECK(dxt_model_ordering_count(nullptr, &count) == DXT_E_INVALID_ARGUMENT);
  dxt_model_close(model);

  // Without the section: no orderings, and a place is refused naming the way to add them.
  test::AlignedBytes plain(base_bytes());
  REQUIRE(dxt_model_open_memory(plain.data(), plain.size, nullptr, &model) == DXT_OK);
  REQUIRE(dxt_model_ordering_count(model, &count) == DXT_OK);
  CHECK(count == 0);
  CHECK(dxt_model_ordering_place(model, 0, 0, &place, nullptr) == DXT_E_UNSUPPORTED);
  CHECK(std::string(dxt_last_error_message()).find("dxtext order") != std::string::npos);
  dxt_model_close(model);

  // A damaged permutation: the model opens, both calls report the damage.
  std::string bad = with_orderings(base_bytes(), o);
  auto* first_place = reinterpret_cast<uint8_t*>(&bad[orderings_at(bad) + fmt::orderings::kHeaderSize]);
  fmt::store_u32(first_place, fmt::load_u32(first_place + 4));
  test::AlignedBytes damaged(bad);
  REQUIRE(dxt_model_open_memory(damaged.data(), damaged.size, nullptr, &model) == DXT_OK);
  CHECK(dxt_model_ordering_count(model, &count) == DXT_E_CORRUPT_MODEL);
  CHECK(dxt_model_ordering_place(model, 0, 0, &place, nullptr) == DXT_E_CORRUPT_MODEL);
  dxt_model_close(model);
}
