// SPDX-License-Identifier: Apache-2.0
// Ordered text is not a bag: "dog fish" and "fish dog" are the same bag (EMD
// 0), so an eps * N * EMD bound would make their outputs identically
// distributed; released in order they are not. The release record of a text
// therefore states the positionwise bound eps * sum_i d(x_i, x'_i), which
// these draws respect (docs/guarantees.md, "Texts, bags and what the bound
// compares").
//
// Fixed seeds; every test at alpha = 1e-6: a correct implementation fails
// with probability at most 1e-6 per check.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "dxtext/dxtext.h"
#include "support/statistics.hpp"
#include "support/toy_models.hpp"

namespace {

using dxt::test::kAlpha;

// Nine words on a unit grid: "dog" and "fish" are 1 apart.
dxt::test::ToyModelSpec animals() {
  dxt::test::ToyModelSpec s;
  const char* words[] = {"dog", "fish", "cow", "cat", "bird", "ant", "owl", "bee", "elk"};
  for (int i = 0; i < 9; ++i) {
    s.words.push_back(words[i]);
    s.vectors.push_back({static_cast<float>(i % 3), static_cast<float>(i / 3)});
  }
  return s;
}

struct Toy {
  dxt::test::AlignedBytes bytes{dxt::test::build_model_bytes(animals())};
  dxt_model* model = nullptr;
  Toy() { REQUIRE(dxt_model_open_memory(bytes.data(), bytes.size, nullptr, &model) == DXT_OK); }
  ~Toy() { dxt_model_close(model); }
};

dxt_context* seeded(dxt_model* model, uint8_t seed) {
  dxt_context_options o;
  dxt_context_options_init(&o);
  o.rng_mode = DXT_RNG_DETERMINISTIC;
  std::memset(o.seed, seed, sizeof o.seed);
  dxt_context* c = nullptr;
  REQUIRE(dxt_context_create(model, &o, &c) == DXT_OK);
  return c;
}

// The first output word of `n` privatisations of `text`, counted.
std::map<std::string, double> first_words(dxt_model* model, uint8_t seed, const std::string& text, double epsilon,
                                          int n) {
  dxt_context* c = seeded(model, seed);
  dxt_privatize_options o;
  dxt_privatize_options_init(&o);
  o.epsilon = epsilon;
  std::map<std::string, double> counts;
  for (int k = 0; k < n; ++k) {
    char* out = nullptr;
    size_t length = 0;
    REQUIRE(dxt_privatize_text(c, &o, text.data(), text.size(), &out, &length, nullptr, nullptr) == DXT_OK);
    const std::string s(out, length);
    dxt_text_free(out);
    ++counts[s.substr(0, s.find(' '))];
  }
  dxt_context_destroy(c);
  return counts;
}

// Pearson's chi-square test of homogeneity of two samples of categories.
double homogeneity_p_value(const std::map<std::string, double>& a, const std::map<std::string, double>& b) {
  std::map<std::string, std::pair<double, double>> table;
  double na = 0, nb = 0;
  for (const auto& [w, c] : a) table[w].first = c, na += c;
  for (const auto& [w, c] : b) table[w].second = c, nb += c;
  double statistic = 0;
  int cells = 0;
  for (const auto& [w, c] : table) {
    const double total = c.first + c.second;
    const double ea = total * na / (na + nb), eb = total * nb / (na + nb);
    statistic += (c.first - ea) * (c.first - ea) / ea + (c.second - eb) * (c.second - eb) / eb;
    ++cells;
  }
  const int df = std::max(cells - 1, 1);
  return 1 - dxt::test::gamma_p(df / 2.0, statistic / 2);
}

}  // namespace

TEST_CASE("ordered text: two orders of one bag give outputs that can be told apart") {
  Toy toy;
  constexpr int kDraws = 20000;
  constexpr double kEpsilon = 2.0;
  const auto dog_fish = first_words(toy.model, 1, "dog fish", kEpsilon, kDraws);
  const auto fish_dog = first_words(toy.model, 2, "fish dog", kEpsilon, kDraws);

  // An eps * N * EMD bound would make these laws equal (EMD = 0): refuted.
  const double p = homogeneity_p_value(dog_fish, fish_dog);
  CAPTURE(p);
  CHECK(p < kAlpha);

  // The event "the first word is dog": a lower confidence bound on its
  // probability ratio (Hoeffding, alpha/2 on each side) is above 1 = e^0,
  // and below e^(eps * (d(dog, fish) + d(fish, dog))) = e^(2 eps), the
  // positionwise bound.
  const double t = std::sqrt(std::log(4 / kAlpha) / (2.0 * kDraws));
  const double pa = dog_fish.count("dog") ? dog_fish.at("dog") / kDraws : 0;
  const double pb = fish_dog.count("dog") ? fish_dog.at("dog") / kDraws : 0;
  CAPTURE(pa);
  CAPTURE(pb);
  REQUIRE(pb + t > 0);
  const double ratio_low = (pa - t) / (pb + t);
  MESSAGE("homogeneity p = " << p << "; Pr[first word dog]: " << pa << " for \"dog fish\", " << pb
                             << " for \"fish dog\"; ratio >= " << ratio_low << " at 1 - alpha");
  CHECK(ratio_low > 1.0);
  CHECK(ratio_low <= std::exp(kEpsilon * 2.0));
}

TEST_CASE("ordered text: the same text twice is not told apart (the test above can pass)") {
  Toy toy;
  const auto a = first_words(toy.model, 3, "dog fish", 2.0, 20000);
  const auto b = first_words(toy.model, 4, "dog fish", 2.0, 20000);
  CHECK(homogeneity_p_value(a, b) >= kAlpha);
}

TEST_CASE("the release records: positionwise for text, EMD for bags") {
  Toy toy;
  dxt_context* c = seeded(toy.model, 5);
  dxt_privatize_options o;
  dxt_privatize_options_init(&o);
  o.epsilon = 2.0;
  dxt_release_record record;
  dxt_release_record_init(&record);
  char* out = nullptr;
  size_t length = 0;
  REQUIRE(dxt_privatize_text(c, &o, "dog fish", 8, &out, &length, &record, nullptr) == DXT_OK);
  dxt_text_free(out);
  CHECK(record.bound == DXT_BOUND_POSITIONWISE);
  const dxt_bag_entry bag[] = {{"dog", 3, 1}, {"fish", 4, 1}};
  dxt_bag* released = nullptr;
  REQUIRE(dxt_privatize_bag(c, &o, bag, 2, &released, &record, nullptr) == DXT_OK);
  dxt_bag_free(released);
  CHECK(record.bound == DXT_BOUND_BAG_EMD);
  dxt_context_destroy(c);
}
