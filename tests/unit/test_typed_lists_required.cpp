// SPDX-License-Identifier: Apache-2.0
// The typed classes section is required where it is used (docs/guarantees.md,
// "Typed replacement"; docs/evaluation/typed-classes.md): options or a preset that set names, places,
// organizations or health to anything but privatize are refused with
// DXT_E_UNSUPPORTED on a model that has no section, or whose section lists
// no member of one of the family's classes, instead of letting those words
// through as ordinary words while the record lists their class. And a class
// of one member (whose replacement would be the input) is refused when the
// section is written and when it is read.
#include <doctest/doctest.h>

#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "dxtext/dxtext.h"
#include "errors/error.hpp"
#include "model/format.hpp"
#include "model/model.hpp"
#include "model/section_append_writer.hpp"
#include "model/typed_lists.hpp"
#include "support/toy_models.hpp"

using namespace dxt;

namespace {

// The grid toy with frequencies and orderings (what the presets need), and
// `lists` as its typed classes section unless they are empty.
struct ListedToy {
  test::AlignedBytes bytes;
  dxt_model* model = nullptr;
  dxt_context* context = nullptr;
  explicit ListedToy(const TypedLists& lists) {
    test::ToyModelSpec spec = test::grid_2d_spec();
    spec.with_frequencies = true;
    spec.with_orderings = true;
    spec.with_context_prior = true;  // readable weights its words by a context prior
    bytes = test::AlignedBytes(test::build_model_bytes(spec));
    bool any = false;
    for (const auto& members : lists.members) any = any || !members.empty();
    if (any) bytes = test::AlignedBytes(test::with_typed_section(test::build_model_bytes(spec), lists));
    REQUIRE(dxt_model_open_memory(bytes.data(), bytes.size, nullptr, &model) == DXT_OK);
    dxt_context_options o;
    dxt_context_options_init(&o);
    o.rng_mode = DXT_RNG_DETERMINISTIC;
    REQUIRE(dxt_context_create(model, &o, &context) == DXT_OK);
  }
  ~ListedToy() {
    dxt_context_destroy(context);
    dxt_model_close(model);
  }
  ListedToy(const ListedToy&) = delete;
  ListedToy& operator=(const ListedToy&) = delete;
  dxt_status run(const dxt_privatize_options& o, std::string* message = nullptr) {
    char* out = nullptr;
    size_t length = 0;
    const dxt_status s = dxt_privatize_text(context, &o, "w1 w2 w3", 8, &out, &length, nullptr, nullptr);
    if (message != nullptr) *message = dxt_last_error_message();
    dxt_text_free(out);
    return s;
  }
};

TypedLists names_only() {
  TypedLists l;
  l.members[DXT_TYPED_FIRST_NAME] = {{"tom", false}, {"maria", false}};
  l.members[DXT_TYPED_SURNAME] = {{"smith", false}, {"okafor", false}};
  return l;
}

TypedLists every_class() { return test::toy_typed_lists(); }

dxt_privatize_options plain() {
  dxt_privatize_options o;
  dxt_privatize_options_init(&o);
  o.epsilon = 1;
  return o;
}

}  // namespace

TEST_CASE("every preset is refused on a model without the typed classes section, with a message that says why") {
  ListedToy toy{TypedLists{}};
  for (uint32_t preset : {DXT_PRESET_READABLE, DXT_PRESET_FEATURES, DXT_PRESET_STRONGEST}) {
    CAPTURE(preset);
    dxt_privatize_options o;
    dxt_privatize_options_init(&o);
    o.preset = preset;
    std::string message;
    CHECK(toy.run(o, &message) == DXT_E_UNSUPPORTED);
    CAPTURE(message);
    CHECK(message.find("no typed classes section") != std::string::npos);
    CHECK(message.find("preset") != std::string::npos);
    CHECK(message.find("names") != std::string::npos);
  }
}

TEST_CASE("every preset runs on the same model with the section") {
  ListedToy toy{every_class()};
  for (uint32_t preset : {DXT_PRESET_READABLE, DXT_PRESET_FEATURES, DXT_PRESET_STRONGEST}) {
    CAPTURE(preset);
    dxt_privatize_options o;
    dxt_privatize_options_init(&o);
    o.preset = preset;
    std::string message;
    CHECK_MESSAGE(toy.run(o, &message) == DXT_OK, message);
  }
}

TEST_CASE("options without a preset: list families need the lists, pattern families do not") {
  ListedToy bare{TypedLists{}};
  const int list_families[] = {DXT_FAMILY_NAMES, DXT_FAMILY_PLACES, DXT_FAMILY_ORGANIZATIONS, DXT_FAMILY_HEALTH};
  for (int f : list_families)
    for (uint32_t policy : {DXT_TYPED_REPLACE, DXT_TYPED_PLACEHOLDER, DXT_TYPED_KEEP}) {
      CAPTURE(f);
      CAPTURE(policy);
      dxt_privatize_options o = plain();
      o.typed[f] = policy;
      std::string message;
      CHECK(bare.run(o, &message) == DXT_E_UNSUPPORTED);
      CHECK(message.find("privatize") != std::string::npos);
    }
  // Numbers and addresses come from patterns: no lists needed.
  dxt_privatize_options o = plain();
  o.typed[DXT_FAMILY_NUMBERS] = DXT_TYPED_PLACEHOLDER;
  o.typed[DXT_FAMILY_ADDRESSES] = DXT_TYPED_REPLACE;
  o.typed[DXT_FAMILY_NAMES] = DXT_TYPED_PRIVATIZE;
  CHECK(bare.run(o) == DXT_OK);

  // A section that lists names only: names run, places do not (no cities).
  ListedToy named{names_only()};
  o = plain();
  o.typed[DXT_FAMILY_NAMES] = DXT_TYPED_REPLACE;
  CHECK(named.run(o) == DXT_OK);
  o.typed[DXT_FAMILY_PLACES] = DXT_TYPED_PLACEHOLDER;
  std::string message;
  CHECK(named.run(o, &message) == DXT_E_UNSUPPORTED);
  CAPTURE(message);
  CHECK(message.find("lists no cities") != std::string::npos);
}

TEST_CASE("a class of one member is refused when the section is written and when it is read") {
  TypedLists one = every_class();
  one.members[DXT_TYPED_ORGANIZATION] = {{"unicef", false}};
  try {
    (void)encode_typed_lists(one);
    FAIL("a one-member class was encoded");
  } catch (const Error& e) {
    CHECK(e.status() == DXT_E_PARSE);
    CHECK(std::string(e.what()).find("fewer than 2") != std::string::npos);
  }
  // Duplicates count once.
  one.members[DXT_TYPED_ORGANIZATION] = {{"unicef", false}, {"unicef", true}};
  CHECK_THROWS_AS(encode_typed_lists(one), Error);
  // Read: a valid section whose last class record is cut to one member (its
  // other entry then belongs to no class, which is checked later).
  TypedLists two;
  two.members[DXT_TYPED_CITY] = {{"lagos", false}, {"paris", false}};
  std::vector<uint8_t> bytes = encode_typed_lists(two);
  format::store_u32(bytes.data() + typed_format::kHeaderSize + 8, 1);
  try {
    (void)decode_typed_lists(bytes.data(), bytes.size());
    FAIL("a one-member class was decoded");
  } catch (const Error& e) {
    CHECK(e.status() == DXT_E_CORRUPT_MODEL);
    CHECK(std::string(e.what()).find("fewer than 2") != std::string::npos);
  }
}
