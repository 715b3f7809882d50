// SPDX-License-Identifier: Apache-2.0
// The context prior section (kind 13, docs/format.md §10.5): encoding, the
// checks at open and at first use, and the lift codes.
#include <doctest/doctest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "errors/error.hpp"
#include "model/context_prior.hpp"
#include "model/format.hpp"
#include "model/section_append_writer.hpp"
#include "support/toy_models.hpp"

using namespace dxt;
namespace fmt = dxt::format;
namespace pf = dxt::prior_format;

namespace {

constexpr uint32_t kWords = 20;

std::vector<PriorPair> pairs() {
  return {{0, 3, 4}, {0, 7, 2}, {0, 12, 30}, {5, 19, 64}, {5, 0, 8}, {7, 8, 200}, {7, 9, 1.5}};
}

std::string with_prior(const std::vector<uint8_t>& section) {
  test::AlignedBytes base(test::build_model_bytes(test::grid_2d_spec()));
  const auto m = Model::open_memory(base.data(), base.size, {});
  std::stringstream out(std::ios::in | std::ios::out | std::ios::binary);
  write_model_with_section(*m, static_cast<uint32_t>(fmt::SectionKind::kContextPrior), section, fmt::kMinorContextPrior,
                           out);
  return out.str();
}

// The offset of the first section of `kind` in a model's bytes.
size_t section_at(const std::string& bytes, fmt::SectionKind kind) {
  const auto* h = reinterpret_cast<const uint8_t*>(bytes.data());
  const uint32_t count = fmt::load_u32(h + fmt::header::kSectionCount);
  for (uint32_t s = 0; s < count; ++s) {
    const uint8_t* e = h + fmt::kHeaderFixedSize + s * fmt::kSectionEntrySize;
    if (fmt::load_u32(e + fmt::entry::kKind) == static_cast<uint32_t>(kind))
      return static_cast<size_t>(fmt::load_u64(e + fmt::entry::kOffset));
  }
  FAIL("no such section");
  return 0;
}

dxt_status open_status(const std::string& bytes, std::string* message = nullptr) {
  test::AlignedBytes b(bytes);
  try {
    Model::open_memory(b.data(), b.size, {});
    return DXT_OK;
  } catch (const Error& e) {
    if (message != nullptr) *message = e.what();
    return e.status();
  }
}

}  // namespace

TEST_CASE("context prior: lift codes are 2^(code/16), rounded, clamped to 1..255") {
  CHECK(prior_code(1) == 1);  // a lift of 1 still takes the least code
  CHECK(prior_code(2) == 16);
  CHECK(prior_code(64) == 96);
  CHECK(prior_code(1e9) == 255);
  CHECK(prior_lift(16) == doctest::Approx(2.0));
  CHECK(prior_lift(255) == doctest::Approx(std::exp2(255.0 / 16)));
  for (int code = 1; code < 256; ++code) CHECK(prior_code(prior_lift(static_cast<uint8_t>(code))) == code);
}

TEST_CASE("context prior: encoded, opened and decoded; each context keeps its first M pairs, sorted by word") {
  const std::vector<uint8_t> section = encode_context_prior(kWords, pairs(), 2);
  const std::string bytes = with_prior(section);
  test::AlignedBytes b(bytes);
  const auto m = Model::open_memory(b.data(), b.size, {});
  CHECK(m->format_minor() == fmt::kMinorContextPrior);
  REQUIRE(m->has_context_prior());
  const ContextPrior* p = m->context_prior();
  REQUIRE(p != nullptr);
  CHECK(p->max_successors == 2);
  CHECK(p->vocabulary_size() == kWords);
  // Word 0: 3 and 7 kept (the first two given), 12 left out.
  CHECK(std::vector<uint32_t>(p->successors.begin() + p->first[0], p->successors.begin() + p->first[1]) ==
        std::vector<uint32_t>{3, 7});
  CHECK(p->codes[p->first[0]] == prior_code(4));
  // Word 5: 19 then 0 as given, stored in increasing order.
  CHECK(std::vector<uint32_t>(p->successors.begin() + p->first[5], p->successors.begin() + p->first[6]) ==
        std::vector<uint32_t>{0, 19});
  CHECK(p->codes[p->first[5]] == prior_code(8));
  CHECK(p->first[2] == p->first[3]);  // no successors
  CHECK(p->successors.size() == 6);
  // A model without the section has none.
  test::AlignedBytes plain(test::build_model_bytes(test::grid_2d_spec()));
  CHECK(Model::open_memory(plain.data(), plain.size, {})->context_prior() == nullptr);
}

TEST_CASE("context prior: bad pairs are refused when encoding") {
  CHECK_THROWS_WITH_AS(encode_context_prior(kWords, {{0, 20, 2}}, 16), doctest::Contains("outside the vocabulary"),
                       Error);
  CHECK_THROWS_WITH_AS(encode_context_prior(kWords, {{0, 1, 0.5}}, 16), doctest::Contains("at least 1"), Error);
  CHECK_THROWS_WITH_AS(encode_context_prior(kWords, {{0, 1, NAN}}, 16), doctest::Contains("finite"), Error);
  CHECK_THROWS_WITH_AS(encode_context_prior(kWords, {{0, 1, 2}, {0, 1, 3}}, 16), doctest::Contains("twice"), Error);
  CHECK_THROWS_WITH_AS(encode_context_prior(kWords, {}, 16), doctest::Contains("at least one pair"), Error);
  CHECK_THROWS_WITH_AS(encode_context_prior(kWords, pairs(), 65), doctest::Contains("1 to 64"), Error);
}

TEST_CASE("context prior: a damaged header or size is refused at open; damaged pairs at first use") {
  const std::string good = with_prior(encode_context_prior(kWords, pairs(), 16));
  CHECK(open_status(good) == DXT_OK);
  const size_t at = section_at(good, fmt::SectionKind::kContextPrior);
  struct Case {
    const char* name;
    size_t offset;
    uint32_t value;
    const char* message;
  };
  const Case header[] = {
      {"method", pf::kMethod, 2, "method is not 1"},
      {"vocabulary size", pf::kVocabularySize, 21, "is not the model's 20"},
      {"pair count 0", pf::kPairCount, 0, "pair count 0"},
      {"pair count (size)", pf::kPairCount, 8, "size is not"},
      {"successors 0", pf::kMaxSuccessors, 0, "successors per word 0"},
      {"successors 65", pf::kMaxSuccessors, 65, "successors per word 65"},
      {"reserved", pf::kReserved + 4, 1, "reserved header bytes"},
  };
  for (const Case& c : header) {
    CAPTURE(c.name);
    std::string bad = good;
    fmt::store_u32(reinterpret_cast<uint8_t*>(&bad[at + c.offset]), c.value);
    std::string message;
    CHECK(open_status(bad, &message) == DXT_E_CORRUPT_MODEL);
    CHECK(message.find(c.message) != std::string::npos);
  }
  // The pairs: they open (constant work) and fail at first use, every time.
  const size_t first = at + pf::kHeaderSize, successors = first + 4 * (kWords + 1), codes = successors + 4 * 7;
  const struct {
    const char* name;
    size_t offset;
    uint32_t value;
    bool byte;
    const char* message;
  } pairs_cases[] = {
      {"successor past V", successors, 20, false, "outside the vocabulary"},
      {"successors out of order", successors, 9, false, "not in increasing order"},
      {"code 0", codes + 1, 0, true, "lift code is 0"},
      {"lists do not span", first, 1, false, "do not span"},
      {"list runs backwards", first + 4 * 3, 0, false, "out of order"},
      {"max successors", at + pf::kMaxSuccessors, 2, false, "more successors than"},
  };
  for (const auto& c : pairs_cases) {
    CAPTURE(c.name);
    std::string bad = good;
    if (c.byte)
      bad[c.offset] = static_cast<char>(c.value);
    else
      fmt::store_u32(reinterpret_cast<uint8_t*>(&bad[c.offset]), c.value);
    test::AlignedBytes b(bad);
    const auto m = Model::open_memory(b.data(), b.size, {});
    for (int i = 0; i < 2; ++i) CHECK_THROWS_WITH_AS(m->context_prior(), doctest::Contains(c.message), Error);
  }
}
