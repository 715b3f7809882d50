// SPDX-License-Identifier: Apache-2.0
// Negations keep (dxt_privatize_options.negations; docs/guarantees.md,
// "Negations") and the normalize shape's post-processing (text/polish.hpp):
// a negator is released as written, no other word is ever released as one,
// the record says so, the refusals, and what polishing writes.
#include <doctest/doctest.h>

#include <cctype>
#include <cstddef>
#include <cstring>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "dxtext/dxtext.h"
#include "support/toy_models.hpp"
#include "text/negations.hpp"
#include "text/polish.hpp"

namespace {

// Ten words on a line, negators among them, so that at a small epsilon every
// word can be released for every other.
const std::vector<std::string> kWords = {"good",  "not", "bad",  "never",   "is",
                                         "don't", "was", "idea", "nothing", "fine"};

struct Toy {
  dxt::test::AlignedBytes bytes;
  dxt_model* model = nullptr;
  dxt_context* ctx = nullptr;
  Toy() : bytes(spec()) {
    REQUIRE(dxt_model_open_memory(bytes.data(), bytes.size, nullptr, &model) == DXT_OK);
    dxt_context_options co;
    dxt_context_options_init(&co);
    co.rng_mode = DXT_RNG_DETERMINISTIC;
    co.seed[0] = 3;
    REQUIRE(dxt_context_create(model, &co, &ctx) == DXT_OK);
  }
  ~Toy() {
    dxt_context_destroy(ctx);
    dxt_model_close(model);
  }
  static std::string spec() {
    dxt::test::ToyModelSpec s;
    s.words = kWords;
    for (size_t i = 0; i < kWords.size(); ++i) s.vectors.push_back({static_cast<float>(i) * 0.1f, 0.0f});
    return dxt::test::build_model_bytes(s);
  }
};

dxt_privatize_options options(uint32_t negations) {
  dxt_privatize_options o;
  dxt_privatize_options_init(&o);
  o.mechanism = DXT_MECHANISM_EXPONENTIAL;
  o.epsilon = 0.5;
  o.release_shape = DXT_SHAPE_NORMALIZE;
  o.negations = negations;
  return o;
}

std::vector<std::string> words(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string w; in >> w;) {
    while (!w.empty() && (w.back() == '.' || w.back() == ',')) w.pop_back();
    for (char& c : w) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    out.push_back(w);
  }
  return out;
}

}  // namespace

TEST_CASE("negators: the list, in any case and with either apostrophe") {
  for (const char* w : {"not",     "NOT",   "Never",   "no",      "nothing",          "nobody", "none",
                        "neither", "nor",   "nowhere", "without", "cannot",           "nope",   "nah",
                        "noone",   "don't", "isn't",   "ain't",   "won\xE2\x80\x99t", "n't"})
    CHECK_MESSAGE(dxt::is_negator(w), w);
  for (const char* w : {"note", "nothingness", "know", "now", "on", "nor'easter", "do", "it's", "tonight", ""})
    CHECK_MESSAGE(!dxt::is_negator(w), w);
}

TEST_CASE("negations keep: negators as written, and no other word released as one") {
  Toy t;
  const std::string input = "Not good, never bad. Nothing is fine and it don't was idea";
  size_t became_negator_without = 0;
  for (uint32_t policy : {uint32_t{DXT_NEGATIONS_KEEP}, uint32_t{DXT_NEGATIONS_PRIVATIZE}}) {
    const dxt_privatize_options o = options(policy);
    for (int trial = 0; trial < 300; ++trial) {
      char* out = nullptr;
      REQUIRE(dxt_privatize_text(t.ctx, &o, input.c_str(), std::strlen(input.c_str()), &out, nullptr, nullptr,
                                 nullptr) == DXT_OK);
      const std::vector<std::string> in_words = words(input), out_words = words(out);
      dxt_text_free(out);
      REQUIRE(in_words.size() == out_words.size());
      for (size_t i = 0; i < in_words.size(); ++i) {
        if (policy == DXT_NEGATIONS_KEEP) {
          if (dxt::is_negator(in_words[i])) {
            CHECK(out_words[i] == in_words[i]);
          } else {
            CHECK_MESSAGE(!dxt::is_negator(out_words[i]), in_words[i] << " was released as " << out_words[i]);
          }
        } else if (!dxt::is_negator(in_words[i]) && dxt::is_negator(out_words[i])) {
          ++became_negator_without;
        }
      }
    }
  }
  // Without the policy negators are ordinary outputs: the check above could fail.
  CHECK(became_negator_without > 100);
}

TEST_CASE("negations keep: the record reveals negations and names the output vocabulary without negators") {
  Toy t;
  const dxt_privatize_options o = options(DXT_NEGATIONS_KEEP);
  dxt_release_record r;
  dxt_release_record_init(&r);
  char* out = nullptr;
  REQUIRE(dxt_privatize_text(t.ctx, &o, "not good", std::strlen("not good"), &out, nullptr, &r, nullptr) == DXT_OK);
  dxt_text_free(out);
  CHECK((r.reveals & DXT_REVEALS_NEGATIONS) != 0);
  CHECK(r.output_kind == DXT_OUTPUT_LIST);
  CHECK(r.output_size == 6);  // ten words, four of them negators
  char json[4096];
  REQUIRE(dxt_release_record_to_json(&r, json, sizeof json, nullptr) == DXT_OK);
  CHECK(std::string(json).find("\"negations\"") != std::string::npos);

  const dxt_privatize_options plain = options(DXT_NEGATIONS_PRIVATIZE);
  dxt_release_record_init(&r);
  REQUIRE(dxt_privatize_text(t.ctx, &plain, "not good", std::strlen("not good"), &out, nullptr, &r, nullptr) == DXT_OK);
  dxt_text_free(out);
  CHECK((r.reveals & DXT_REVEALS_NEGATIONS) == 0);
  CHECK(r.output_kind == DXT_OUTPUT_VOCABULARY);
}

TEST_CASE("negations keep: refused with the strict shape, with syntf, and an unknown policy") {
  Toy t;
  char* out = nullptr;
  dxt_privatize_options o = options(DXT_NEGATIONS_KEEP);
  o.release_shape = DXT_SHAPE_STRICT;
  CHECK(dxt_privatize_text(t.ctx, &o, "not good", std::strlen("not good"), &out, nullptr, nullptr, nullptr) ==
        DXT_E_INVALID_ARGUMENT);
  o = options(3);
  CHECK(dxt_privatize_text(t.ctx, &o, "not good", std::strlen("not good"), &out, nullptr, nullptr, nullptr) ==
        DXT_E_INVALID_ARGUMENT);
  o = options(DXT_NEGATIONS_KEEP);
  const dxt_bag_entry entries[] = {{"good", 4, 2}};
  dxt_bag* bag = nullptr;
  CHECK(dxt_syntf(t.ctx, &o, entries, 1, 3, &bag, nullptr, nullptr) == DXT_E_UNSUPPORTED);
  // An older caller's struct ends before negations: privatize.
  o = options(DXT_NEGATIONS_KEEP);
  o.struct_size = offsetof(dxt_privatize_options, negations);
  dxt_release_record r;
  dxt_release_record_init(&r);
  REQUIRE(dxt_privatize_text(t.ctx, &o, "not good", std::strlen("not good"), &out, nullptr, &r, nullptr) == DXT_OK);
  dxt_text_free(out);
  CHECK((r.reveals & DXT_REVEALS_NEGATIONS) == 0);
}

TEST_CASE("polish: a and an by the next word's sound") {
  for (const char* w : {"idea", "apple", "Hour", "honest", "8", "80", "11", "18", "umbrella", "Egg"})
    CHECK_MESSAGE(dxt::takes_an(w), w);
  for (const char* w : {"car", "university", "user", "one", "European", "7", "house", "12", ""})
    CHECK_MESSAGE(!dxt::takes_an(w), w);
}

TEST_CASE("polish: capitals for I, days and months; a/an; nothing else moves") {
  auto polish = [](std::string s) {
    dxt::polish_normalized(s);
    return s;
  };
  CHECK(polish("i think i'm late on friday, in january.") == "I think I'm late on Friday, in January.");
  CHECK(polish("We may march in may.") == "We may march in may.");
  CHECK(polish("A idea, an car and an university. An apple") == "An idea, a car and a university. An apple");
  // Not across a mark: "a" before a comma has no next word to agree with.
  CHECK(polish("It was a, idea") == "It was a, idea");
  CHECK(polish("") == "");
  CHECK(polish("an") == "an");
  CHECK(polish("Fridays are an [redacted] day") == "Fridays are a [redacted] day");
}

TEST_CASE("polish: a sentence's first pronoun before a verb takes its subject form, and only there") {
  auto polish = [](std::string s) {
    dxt::polish_normalized(s);
    return s;
  };
  CHECK(polish("Me would not recommend it. Yourselves don't like it.") ==
        "I would not recommend it. You don't like it.");
  CHECK(polish("Them are late, and us was too. Her will come.") == "They are late, and us was too. She will come.");
  CHECK(polish("me can go") == "I can go");
  // Not inside a sentence, not before a word that is no verb, not across a mark.
  CHECK(polish("Give it to me. Her car is red. Them, would you") == "Give it to me. Her car is red. Them, would you");
  CHECK(polish("They told me would") == "They told me would");
}
