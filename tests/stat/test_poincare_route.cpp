// SPDX-License-Identifier: Apache-2.0
// The small-epsilon route on the shipped WordNet Poincare model
// (docs/guarantees.md, "Poincare models at small epsilon"), through the C
// API: the exponential mechanism and TEM rate every word by d_H itself, so
// words move at a small epsilon and keep their synset at a huge one, and
// calibration runs there. Their exact laws on d_H are test_selection_
// distributions' (on a toy ball); here the real model, which every binding
// ships, with seeded contexts.
#include <dxtext/dxtext.h>

#include <doctest/doctest.h>

#include <cstring>
#include <map>
#include <set>
#include <string>

namespace {

const std::string kModel = std::string(DXT_TEST_DATA_DIR) + "/../../models/dxtext-wordnet-poincare-10d.dxe";

struct Ball {
  dxt_model *model = nullptr;
  dxt_context *context = nullptr;
  explicit Ball(uint8_t seed) {
    REQUIRE(dxt_model_open_file(kModel.c_str(), nullptr, &model) == DXT_OK);
    dxt_context_options options;
    dxt_context_options_init(&options);
    options.rng_mode = DXT_RNG_DETERMINISTIC;
    options.seed[31] = seed;
    REQUIRE(dxt_context_create(model, &options, &context) == DXT_OK);
  }
  ~Ball() {
    dxt_context_destroy(context);
    dxt_model_close(model);
  }
  Ball(const Ball &) = delete;
  Ball &operator=(const Ball &) = delete;

  // How often each word comes back from `draws` privatisations of `word`.
  std::map<std::string, int> spread(const char *word, int draws, double epsilon, uint32_t mechanism) {
    dxt_privatize_options options;
    dxt_privatize_options_init(&options);
    options.epsilon = epsilon;
    options.mechanism = mechanism;
    std::map<std::string, int> out;
    for (int i = 0; i < draws; ++i) {
      char *text = nullptr;
      size_t length = 0;
      REQUIRE(dxt_privatize_word(context, &options, word, std::strlen(word), &text, &length, nullptr, nullptr) ==
              DXT_OK);
      ++out[std::string(text, length)];
      dxt_text_free(text);
    }
    return out;
  }
};

int count(const std::map<std::string, int> &spread, const std::string &word) {
  const auto it = spread.find(word);
  return it == spread.end() ? 0 : it->second;
}

}  // namespace

TEST_CASE("poincare: exponential and tem move words at a small epsilon and keep the synset at a huge one") {
  // At epsilon 0.5 the law exp(-eps d_H / 2) is spread over the 117 798
  // lemmas: "dog" keeps itself in a small share of 300 draws, with many
  // different replacements. At epsilon 1e6 every word at a positive distance
  // is more than 1e5 behind in exponent, so only the lemmas of dog's synset
  // remain, which share its point (d_H = 0) and so its score: each is
  // released with probability 1/3 (all three in 60 draws but with
  // probability 3 (2/3)^60 < 1e-10). tem is the exception by design: its
  // truncation gives the words beyond gamma a total mass of about
  // beta / (1 - beta) = 0.001 at any epsilon, so one of 60 draws lands there
  // with probability about 0.06; more than 5 of them, below 1e-12.
  const std::set<std::string> synset = {"dog", "domestic dog", "canis familiaris"};  // spaces, not WordNet's '_'
  for (uint32_t mechanism : {DXT_MECHANISM_EXPONENTIAL, DXT_MECHANISM_TEM}) {
    CAPTURE(mechanism);
    Ball ball(7);
    const auto spread = ball.spread("dog", 300, 0.5, mechanism);
    CHECK(count(spread, "dog") < 30);
    CHECK(spread.size() > 100);
    const auto kept = ball.spread("dog", 60, 1e6, mechanism);
    int in_synset = 0;
    for (const std::string &word : synset) {
      CHECK(count(kept, word) > 0);
      in_synset += count(kept, word);
    }
    if (mechanism == DXT_MECHANISM_EXPONENTIAL) {
      CHECK(kept.size() == synset.size());
    } else {
      CHECK(in_synset >= 55);
    }
  }
}

TEST_CASE("poincare: calibration of the exponential mechanism runs below n - 1") {
  Ball ball(7);
  dxt_privatize_options options;
  dxt_privatize_options_init(&options);
  options.mechanism = DXT_MECHANISM_EXPONENTIAL;
  dxt_calibration low, high;
  dxt_calibration_init(&low);
  dxt_calibration_init(&high);
  options.epsilon = 0.5;
  REQUIRE(dxt_calibrate(ball.context, &options, 20, 20, &low) == DXT_OK);
  options.epsilon = 50;
  REQUIRE(dxt_calibrate(ball.context, &options, 20, 20, &high) == DXT_OK);
  CHECK(low.words == 20);
  CHECK(low.trials == 20);
  CHECK(low.keep_median < 0.2);
  CHECK(low.distinct_mean > 10);
  CHECK(high.keep_mean > low.keep_mean);
}
