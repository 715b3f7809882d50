// SPDX-License-Identifier: Apache-2.0
// SynTF: letter bigrams and Dice, the dxt_syntf call, and the exact
// per-vocabulary loss (src/accounting/syntf_loss.cpp) against a direct
// computation of its definition.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "accounting/syntf_loss.hpp"
#include "dxtext/dxtext.h"
#include "errors/error.hpp"
#include "mechanisms/syntf_mechanism.hpp"
#include "support/release_outputs.hpp"
#include "support/statistics.hpp"
#include "support/syntf_reference.hpp"
#include "support/toy_models.hpp"

using namespace dxt;

namespace {

uint64_t bigram(uint32_t a, uint32_t b) { return uint64_t{a} << 21 | b; }

struct Toy {
  test::ToyModelSpec spec = test::syntf_toy_spec();
  test::AlignedBytes bytes{test::build_model_bytes(spec)};
  dxt_model* model = nullptr;
  dxt_context* ctx = nullptr;
  Toy() {
    REQUIRE(dxt_model_open_memory(bytes.data(), bytes.size, nullptr, &model) == DXT_OK);
    dxt_context_options co;
    dxt_context_options_init(&co);
    co.rng_mode = DXT_RNG_DETERMINISTIC;
    co.seed[0] = 42;
    REQUIRE(dxt_context_create(model, &co, &ctx) == DXT_OK);
  }
  ~Toy() {
    dxt_context_destroy(ctx);
    dxt_model_close(model);
  }
  Toy(const Toy&) = delete;
  Toy& operator=(const Toy&) = delete;
};

dxt_privatize_options syntf_options(double eps, double s = 0.3) {
  dxt_privatize_options o;
  dxt_privatize_options_init(&o);
  o.mechanism = DXT_MECHANISM_LAPLACE;  // dxt_syntf ignores it
  o.epsilon = eps;
  o.syntf_s = s;
  return o;
}

uint64_t total(const dxt_bag* b) {
  uint64_t n = 0;
  for (size_t i = 0; i < b->size; ++i) n += b->entries[i].count;
  return n;
}

}  // namespace

TEST_CASE("letter bigrams are sets of consecutive code points") {
  CHECK(letter_bigrams("hello") ==
        std::vector<uint64_t>{bigram('e', 'l'), bigram('h', 'e'), bigram('l', 'l'), bigram('l', 'o')});
  CHECK(letter_bigrams("aaaa") == std::vector<uint64_t>{bigram('a', 'a')});  // a set: once
  CHECK(letter_bigrams("abab") == std::vector<uint64_t>{bigram('a', 'b'), bigram('b', 'a')});
  CHECK(letter_bigrams("a").empty());
  CHECK(letter_bigrams("").empty());
  CHECK(letter_bigrams("\xC3\xBC").empty());  // one code point, two bytes
  CHECK(letter_bigrams("\xC3\xBC"
                       "ber") == std::vector<uint64_t>{bigram('b', 'e'), bigram('e', 'r'), bigram(0xFC, 'b')});
  CHECK(letter_bigrams("\xF0\x9F\x98\x80x") == std::vector<uint64_t>{bigram(0x1F600, 'x')});
  CHECK_THROWS_AS(letter_bigrams("a\xFF"), Error);
}

TEST_CASE("Dice coefficient of bigram sets") {
  auto d = [](const char* a, const char* b) { return dice(letter_bigrams(a), letter_bigrams(b)); };
  CHECK(d("night", "night") == 1.0);
  CHECK(d("night", "nacht") == doctest::Approx(2.0 * 1 / 8));  // {ht}
  CHECK(d("night", "knight") == doctest::Approx(2.0 * 4 / 9));
  CHECK(d("abab", "baba") == 1.0);  // same sets
  CHECK(d("rat", "tar") == 0.0);
  CHECK(d("a", "a") == 0.0);  // no bigrams: 0, not 0/0
  CHECK(d("a", "ab") == 0.0);
  CHECK(d("aaaa", "aa") == 1.0);
  // Agrees with the independent reference on every pair of the toy words.
  const auto spec = test::syntf_toy_spec();
  for (const auto& a : spec.words)
    for (const auto& b : spec.words) {
      CAPTURE(a);
      CAPTURE(b);
      CHECK(dice(letter_bigrams(a), letter_bigrams(b)) == doctest::Approx(test::reference_dice(a, b)).epsilon(1e-15));
    }
}

TEST_CASE("the inverted bigram index counts the same intersections as a merge") {
  const auto spec = test::syntf_toy_spec();
  const test::AlignedBytes bytes(test::build_model_bytes(spec));
  const auto model = test::open_bytes(bytes);
  const VocabularyBigrams index(*model);
  std::vector<uint32_t> counts;
  std::vector<uint64_t> scratch;
  for (const std::string q : {"night", "stattion", "q",
                              "\xC3\xBC"
                              "berx"}) {
    const auto set = letter_bigrams(q);
    index.intersections(set, counts);
    REQUIRE(counts.size() == spec.words.size());
    for (uint32_t w = 0; w < spec.words.size(); ++w) {
      const auto& other = index.bigrams_of(w, scratch);
      CHECK(index.size_of(w) == other.size());
      CHECK(other == letter_bigrams(spec.words[w]));
      const double expected = test::reference_dice(q, spec.words[w]);
      const double got = counts[w] == 0 ? 0 : 2.0 * counts[w] / (set.size() + other.size());
      CHECK(got == doctest::Approx(expected).epsilon(1e-15));
    }
  }
}

TEST_CASE("syntf scores are eps * rho / (2 (2 + s)) with the reference rating") {
  const auto spec = test::syntf_toy_spec();
  const test::AlignedBytes bytes(test::build_model_bytes(spec));
  const auto model = test::open_bytes(bytes);
  MechanismParams p;
  p.id = DXT_MECHANISM_SYNTF;
  p.epsilon = 7;
  p.syntf_s = 0.6;
  SyntfMechanism m(*model, p);
  CHECK(m.metric() == DXT_METRIC_DISCRETE);
  CHECK(m.range() == doctest::Approx(2.6));
  for (uint32_t v = 0; v < spec.words.size(); ++v) {
    const std::vector<double> scores = m.scores(v, {});
    for (uint32_t w = 0; w < spec.words.size(); ++w) {
      const double rho = test::reference_cosine(spec.vectors[v], spec.vectors[w]) -
                         0.6 * test::reference_dice(spec.words[v], spec.words[w]);
      CHECK(scores[w] == doctest::Approx(7 * rho / (2 * 2.6)).epsilon(1e-12));
    }
  }
  // The zero row ("o") has cosine 0 with everything, itself included.
  const auto& zero = m.scores(19, {});
  for (double x : zero) CHECK(x == 0.0);

  for (double bad : {-0.1, std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN()}) {
    p.syntf_s = bad;
    CHECK_THROWS_AS(SyntfMechanism(*model, p), Error);
  }
  p.syntf_s = 0;  // s = 0 is allowed: plain cosine, Delta = 2
  CHECK_NOTHROW(SyntfMechanism(*model, p));
}

TEST_CASE("syntf works on Poincare models: the cosine of the ball coordinates") {
  auto spec = test::syntf_toy_spec();
  spec.geometry = DXT_GEOMETRY_POINCARE;
  for (auto& v : spec.vectors)
    for (float& x : v) x *= 0.2f;  // inside the unit ball; cosines unchanged
  const test::AlignedBytes bytes(test::build_model_bytes(spec));
  const auto model = test::open_bytes(bytes);
  MechanismParams p;
  p.id = DXT_MECHANISM_SYNTF;
  p.epsilon = 5;
  p.syntf_s = 0.3;
  SyntfMechanism m(*model, p);
  const std::vector<double> scores = m.scores(2, {});
  const auto expected = test::reference_probabilities(test::syntf_toy_spec(), 2, 5, 0.3);
  double z = 0;
  for (double x : scores) z += std::exp(x);
  for (size_t w = 0; w < scores.size(); ++w)
    CHECK(std::exp(scores[w]) / z == doctest::Approx(expected[w]).epsilon(1e-6));
}

TEST_CASE("dxt_syntf: exactly n_out words, sorted, with the record of eps * n_out") {
  Toy toy;
  const dxt_bag_entry in[] = {{"night", 5, 3}, {"Star", 4, 2}, {"nite", 4, 1}, {"o", 1, 0}};
  for (uint32_t n_out : {1u, 7u, 250u}) {
    CAPTURE(n_out);
    dxt_privatize_options o = syntf_options(3.0);
    dxt::test::Reported r;
    dxt_bag* out = nullptr;
    REQUIRE(dxt_syntf(toy.ctx, &o, in, 4, n_out, &out, &r.rec, &r.diag) == DXT_OK);
    REQUIRE(out != nullptr);
    CHECK(total(out) == n_out);
    for (size_t i = 0; i < out->size; ++i) {
      CHECK(out->entries[i].count > 0);
      CHECK(std::strlen(out->entries[i].word) == out->entries[i].length);
      uint32_t idx = 0;
      REQUIRE(dxt_model_lookup(toy.model, out->entries[i].word, out->entries[i].length, &idx) == DXT_OK);
      if (i > 0) {
        uint32_t prev = 0;
        REQUIRE(dxt_model_lookup(toy.model, out->entries[i - 1].word, out->entries[i - 1].length, &prev) == DXT_OK);
        CHECK(prev < idx);  // merged and sorted by vocabulary index
      }
    }
    CHECK(r.rec.mechanism == DXT_MECHANISM_SYNTF);
    CHECK(r.rec.metric == DXT_METRIC_DISCRETE);
    CHECK(r.rec.epsilon == 3.0);
    CHECK(r.rec.release == DXT_RELEASE_SYNTHETIC_BAG);
    CHECK(r.rec.bound == DXT_BOUND_ANY_INPUTS);
    CHECK(r.rec.draws == n_out);
    CHECK(r.rec.epsilon_total == doctest::Approx(3.0 * n_out));
    CHECK(r.rec.epsilon_vocabulary ==
          doctest::Approx(syntf_vocabulary_bound(3.0, test::syntf_toy_spec().words.size())));
    CHECK(r.rec.epsilon_vocabulary < r.rec.epsilon);
    CHECK(r.rec.reveals == 0);
    CHECK(r.diag.words_privatized == n_out);
    CHECK(r.diag.words_leaked == 0);
    CHECK(r.diag.counts[DXT_CLASS_IN_VOCABULARY][DXT_POLICY_PRIVATIZE - 1] +
              r.diag.counts[DXT_CLASS_OUT_OF_VOCABULARY][DXT_POLICY_PRIVATIZE - 1] ==
          n_out);
    CHECK_FALSE(r.rec.is_private);  // deterministic test generator
    char json[2048];
    REQUIRE(dxt_release_record_to_json(&r.rec, json, sizeof json, nullptr) == DXT_OK);
    const std::string j = json;
    CHECK(j.find("\"mechanism\":\"syntf\"") != std::string::npos);
    CHECK(j.find("\"metric\":\"discrete\"") != std::string::npos);
    CHECK(j.find("\"bound\":\"any_inputs\",\"draws\":" + std::to_string(n_out)) != std::string::npos);
    CHECK(j.find("-DP between any two documents (" + std::to_string(n_out) + " draws, each 3-DP)") !=
          std::string::npos);
    CHECK(j.find("\"release_vocabulary\":\"") != std::string::npos);
    CHECK(j.find("\"reveals\":[]") != std::string::npos);
    dxt_bag_free(out);
  }
}

TEST_CASE("dxt_syntf draws inputs in proportion to their counts (chi-square, alpha = 1e-6)") {
  // One call of n_out = 100000 draws from the bag {night: 3, star: 1, nite: 2}
  // is a mixture: (3 Pr[.|night] + Pr[.|star] + 2 Pr[.|nite, OOV]) / 6.
  Toy toy;
  const auto& spec = toy.spec;
  const double eps = 6, s = 0.5;
  dxt_privatize_options o = syntf_options(eps, s);
  const dxt_bag_entry in[] = {{"night", 5, 3}, {"star", 4, 1}, {"nite", 4, 2}};
  dxt_bag* out = nullptr;
  const uint32_t n = 100000;
  REQUIRE(dxt_syntf(toy.ctx, &o, in, 3, n, &out, nullptr, nullptr) == DXT_OK);
  const auto night = test::reference_probabilities(spec, 0, eps, s);
  const auto star = test::reference_probabilities(spec, 14, eps, s);
  const auto nite = test::reference_probabilities(spec, std::vector<float>(3, 0.0f), "nite", eps, s);
  std::vector<double> p(20), counts(20, 0);
  for (size_t w = 0; w < 20; ++w) p[w] = (3 * night[w] + star[w] + 2 * nite[w]) / 6;
  for (size_t i = 0; i < out->size; ++i) {
    uint32_t idx = 0;
    REQUIRE(dxt_model_lookup(toy.model, out->entries[i].word, out->entries[i].length, &idx) == DXT_OK);
    counts[idx] = static_cast<double>(out->entries[i].count);
  }
  dxt_bag_free(out);
  const auto r = test::chi_square(counts, p);
  MESSAGE("dxt_syntf mixture: chi2=" << r.statistic << " df=" << r.degrees_of_freedom << " p=" << r.p_value);
  CHECK(r.p_value > test::kAlpha);
  // The same check rejects a draw that ignores the counts (equal weights).
  std::vector<double> equal(20);
  for (size_t w = 0; w < 20; ++w) equal[w] = (night[w] + star[w] + nite[w]) / 3;
  CHECK(test::chi_square(counts, equal).p_value < test::kAlpha);
}

TEST_CASE("dxt_syntf rejects bad arguments") {
  Toy toy;
  const dxt_bag_entry in[] = {{"night", 5, 2}};
  dxt_bag* out = nullptr;
  dxt_privatize_options o = syntf_options(2.0);
  CHECK(dxt_syntf(toy.ctx, &o, in, 1, 0, &out, nullptr, nullptr) == DXT_E_INVALID_ARGUMENT);  // n_out = 0
  CHECK(out == nullptr);
  CHECK(std::strlen(dxt_last_error_message()) > 0);
  CHECK(dxt_syntf(toy.ctx, &o, in, 0, 5, &out, nullptr, nullptr) == DXT_E_INVALID_ARGUMENT);  // empty bag
  const dxt_bag_entry zero[] = {{"night", 5, 0}};
  CHECK(dxt_syntf(toy.ctx, &o, zero, 1, 5, &out, nullptr, nullptr) == DXT_E_INVALID_ARGUMENT);  // only zero counts
  CHECK(dxt_syntf(toy.ctx, &o, nullptr, 1, 5, &out, nullptr, nullptr) == DXT_E_INVALID_ARGUMENT);
  CHECK(dxt_syntf(toy.ctx, &o, in, 1, 5, nullptr, nullptr, nullptr) == DXT_E_INVALID_ARGUMENT);
  CHECK(dxt_syntf(nullptr, &o, in, 1, 5, &out, nullptr, nullptr) == DXT_E_INVALID_ARGUMENT);
  CHECK(dxt_syntf(toy.ctx, nullptr, in, 1, 5, &out, nullptr, nullptr) == DXT_E_INVALID_ARGUMENT);
  CHECK(dxt_syntf(toy.ctx, &o, in, 1, static_cast<uint32_t>(DXT_MAX_BAG_WORDS + 1), &out, nullptr, nullptr) ==
        DXT_E_INPUT_TOO_LARGE);
  const dxt_bag_entry huge[] = {{"night", 5, DXT_MAX_BAG_WORDS}, {"star", 4, 1}};
  CHECK(dxt_syntf(toy.ctx, &o, huge, 2, 5, &out, nullptr, nullptr) == DXT_E_INPUT_TOO_LARGE);
  const dxt_bag_entry overflow[] = {{"night", 5, UINT64_MAX}, {"star", 4, 2}};
  CHECK(dxt_syntf(toy.ctx, &o, overflow, 2, 5, &out, nullptr, nullptr) == DXT_E_INPUT_TOO_LARGE);
  const dxt_bag_entry bad_utf8[] = {{"ni\xFFht", 5, 1}};
  CHECK(dxt_syntf(toy.ctx, &o, bad_utf8, 1, 5, &out, nullptr, nullptr) == DXT_E_INVALID_UTF8);

  for (double s : {-1.0, std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN()}) {
    dxt_privatize_options bad = syntf_options(2.0, s);
    CHECK(dxt_syntf(toy.ctx, &bad, in, 1, 5, &out, nullptr, nullptr) == DXT_E_INVALID_ARGUMENT);
  }
  for (double eps : {0.0, -1.0, std::numeric_limits<double>::infinity()}) {
    dxt_privatize_options bad = syntf_options(eps);
    CHECK(dxt_syntf(toy.ctx, &bad, in, 1, 5, &out, nullptr, nullptr) == DXT_E_INVALID_EPSILON);
  }
  dxt_privatize_options placeholder = syntf_options(2.0);
  placeholder.policy[DXT_CLASS_OUT_OF_VOCABULARY] = DXT_POLICY_PLACEHOLDER;
  CHECK(dxt_syntf(toy.ctx, &placeholder, in, 1, 5, &out, nullptr, nullptr) == DXT_E_UNSUPPORTED);
  dxt_privatize_options keep = syntf_options(2.0);
  keep.policy[DXT_CLASS_STOPWORD] = DXT_POLICY_KEEP;
  CHECK(dxt_syntf(toy.ctx, &keep, in, 1, 5, &out, nullptr, nullptr) == DXT_E_UNSUPPORTED);
  CHECK(out == nullptr);

  // Dropping every word leaves nothing to draw from; dropping some is fine.
  dxt_privatize_options drop = syntf_options(2.0);
  drop.policy[DXT_CLASS_OUT_OF_VOCABULARY] = DXT_POLICY_DROP;
  const dxt_bag_entry oov[] = {{"nite", 4, 3}};
  CHECK(dxt_syntf(toy.ctx, &drop, oov, 1, 5, &out, nullptr, nullptr) == DXT_E_INVALID_ARGUMENT);
  const dxt_bag_entry mixed[] = {{"nite", 4, 3}, {"night", 5, 1}};
  dxt::test::Reported r;
  REQUIRE(dxt_syntf(toy.ctx, &drop, mixed, 2, 5, &out, &r.rec, &r.diag) == DXT_OK);
  CHECK(total(out) == 5);
  CHECK(r.diag.counts[DXT_CLASS_OUT_OF_VOCABULARY][DXT_POLICY_DROP - 1] == 3);
  CHECK(r.diag.counts[DXT_CLASS_IN_VOCABULARY][DXT_POLICY_PRIVATIZE - 1] == 5);
  dxt_bag_free(out);
}

TEST_CASE("dxt_privatize_index with the syntf mechanism, and reproducibility under a seed") {
  Toy toy;
  dxt_privatize_options o = syntf_options(4.0);
  o.mechanism = DXT_MECHANISM_SYNTF;
  uint32_t out = 0;
  dxt::test::Reported r;
  REQUIRE(dxt_privatize_index(toy.ctx, &o, 0, &out, &r.rec, &r.diag) == DXT_OK);
  CHECK(out < 20);
  CHECK(r.rec.metric == DXT_METRIC_DISCRETE);

  auto run = [](uint8_t seed) {
    Toy t;
    dxt_context_destroy(t.ctx);
    dxt_context_options co;
    dxt_context_options_init(&co);
    co.rng_mode = DXT_RNG_DETERMINISTIC;
    co.seed[0] = seed;
    REQUIRE(dxt_context_create(t.model, &co, &t.ctx) == DXT_OK);
    dxt_privatize_options opt = syntf_options(4.0);
    const dxt_bag_entry in[] = {{"night", 5, 3}, {"star", 4, 2}};
    dxt_bag* bag = nullptr;
    REQUIRE(dxt_syntf(t.ctx, &opt, in, 2, 50, &bag, nullptr, nullptr) == DXT_OK);
    std::string s;
    for (size_t i = 0; i < bag->size; ++i)
      s += std::string(bag->entries[i].word) + ":" + std::to_string(bag->entries[i].count) + " ";
    dxt_bag_free(bag);
    return s;
  };
  CHECK(run(9) == run(9));
  CHECK(run(9) != run(10));
}

TEST_CASE("syntf_loss equals the direct computation of max_w [max_v ln p - min_v ln p]") {
  const auto spec = test::syntf_toy_spec();
  const test::AlignedBytes bytes(test::build_model_bytes(spec));
  const auto model = test::open_bytes(bytes);
  for (const auto& [eps, s] : {std::pair{1.0, 0.3}, std::pair{3.0, 0.3}, std::pair{8.0, 1.5}, std::pair{0.2, 0.0}}) {
    CAPTURE(eps);
    CAPTURE(s);
    const double expected = test::reference_loss(spec, eps, s);
    uint64_t last = 0, calls = 0;
    const SyntfLoss one = syntf_loss(
        *model, eps, s,
        [&](uint64_t done, uint64_t all) {
          CHECK(all == 20);
          CHECK(done > last);
          last = done;
          ++calls;
        },
        1);
    const SyntfLoss two = syntf_loss(*model, eps, s, {}, 2);
    CHECK(one.loss == doctest::Approx(expected).epsilon(1e-12));
    CHECK(two.loss == doctest::Approx(expected).epsilon(1e-12));
    CHECK(one.loss <= eps);
    CHECK(one.vocabulary_size == 20);
    CHECK(last == 20);
    CHECK(calls >= 1);
    // The reported witnesses attain the loss.
    const auto p_hi = test::reference_probabilities(spec, one.most_likely_input, eps, s);
    const auto p_lo = test::reference_probabilities(spec, one.least_likely_input, eps, s);
    CHECK(std::log(p_hi[one.worst_output] / p_lo[one.worst_output]) == doctest::Approx(expected).epsilon(1e-12));
  }
  CHECK_THROWS_AS(syntf_loss(*model, 0, 0.3), Error);
  CHECK_THROWS_AS(syntf_loss(*model, 1, -0.3), Error);
}

namespace {

// The exact loss max_w max_{v,v'} ln Pr[w|v] / Pr[w|v'] of the exponential
// mechanism Pr[w|v] ~ exp(c * rho[v][w]), computed directly from a rating
// matrix (inputs x outputs).
double loss_of_ratings(const std::vector<std::vector<double>>& rho, double c) {
  std::vector<std::vector<double>> lp;
  for (const auto& row : rho) {
    double z = 0;
    for (double r : row) z += std::exp(c * r);
    std::vector<double> l;
    for (double r : row) l.push_back(c * r - std::log(z));
    lp.push_back(l);
  }
  double worst = 0;
  for (size_t w = 0; w < rho[0].size(); ++w)
    for (const auto& a : lp)
      for (const auto& b : lp) worst = std::max(worst, a[w] - b[w]);
  return worst;
}

}  // namespace

TEST_CASE("the vocabulary-size bound: closed forms, limits and no overflow") {
  CHECK(syntf_vocabulary_bound(3.0, 1) == 0.0);
  // L = 2: eta = (1 + q) / (q (q + 1)) = 1/q, so the bound is eps / 2.
  for (double eps : {0.01, 1.0, 7.0, 300.0}) CHECK(syntf_vocabulary_bound(eps, 2) == doctest::Approx(eps / 2));
  for (double eps : {0.1, 2.0, 20.0}) {
    double last = 0;
    for (uint64_t L : {2ull, 3ull, 10ull, 1000ull, 1000000ull, 1000000000000ull}) {
      const double b = syntf_vocabulary_bound(eps, L);
      CHECK(b > last);  // grows with the vocabulary
      CHECK(b <= eps);
      CHECK(b <= eps / 2 + std::log(static_cast<double>(L)) + 1e-12);
      last = b;
    }
    CHECK(syntf_vocabulary_bound(eps, 1000000000000ull) == doctest::Approx(eps).epsilon(1e-3));
  }
  // Direct formula where it does not overflow.
  for (double eps : {0.5, 4.0, 30.0})
    for (uint64_t L : {3ull, 50ull, 123ull}) {
      const double q = std::exp(eps / 2), l = static_cast<double>(L);
      CHECK(syntf_vocabulary_bound(eps, L) ==
            doctest::Approx(eps + std::log((1 + (l - 1) * q) / (q * (q + l - 1)))).epsilon(1e-12));
    }
  const double huge = syntf_vocabulary_bound(1e6, 50000);
  CHECK(std::isfinite(huge));
  CHECK(huge <= 1e6);
  CHECK_THROWS_AS(syntf_vocabulary_bound(0, 10), Error);
  CHECK_THROWS_AS(syntf_vocabulary_bound(std::numeric_limits<double>::infinity(), 10), Error);
}

TEST_CASE("the vocabulary-size bound is attained by the extreme ratings and never exceeded") {
  std::mt19937_64 gen(17);
  for (double s : {0.0, 0.3, 1.5}) {
    const double lo = -1 - s, hi = 1, delta = 2 + s;
    for (double eps : {0.5, 3.0, 12.0}) {
      const double c = eps / (2 * delta);
      for (size_t L : {2u, 3u, 6u}) {
        CAPTURE(s);
        CAPTURE(eps);
        CAPTURE(L);
        const double bound = syntf_vocabulary_bound(eps, L);
        // Two inputs: v rates output 0 highest and every other output
        // lowest; v' the opposite. This is where the proof's inequalities
        // are equalities.
        std::vector<std::vector<double>> extreme(2, std::vector<double>(L));
        for (size_t w = 0; w < L; ++w) {
          extreme[0][w] = w == 0 ? hi : lo;
          extreme[1][w] = w == 0 ? lo : hi;
        }
        CHECK(loss_of_ratings(extreme, c) == doctest::Approx(bound).epsilon(1e-12));
        // Random ratings in the range, some at its ends, for several inputs.
        std::uniform_real_distribution<double> u(lo, hi);
        for (int trial = 0; trial < 300; ++trial) {
          std::vector<std::vector<double>> rho(4, std::vector<double>(L));
          for (auto& row : rho)
            for (double& r : row) r = gen() % 4 == 0 ? (gen() % 2 ? lo : hi) : u(gen);
          CHECK(loss_of_ratings(rho, c) <= bound + 1e-12);
        }
      }
    }
  }
}

TEST_CASE("on a vocabulary, the exact loss <= the vocabulary-size bound <= eps") {
  const auto spec = test::syntf_toy_spec();
  const test::AlignedBytes bytes(test::build_model_bytes(spec));
  const auto model = test::open_bytes(bytes);
  for (const auto& [eps, s] : {std::pair{1.0, 0.3}, std::pair{8.0, 1.5}, std::pair{40.0, 0.3}}) {
    CAPTURE(eps);
    const double bound = syntf_vocabulary_bound(eps, model->vocabulary_size());
    CHECK(syntf_loss(*model, eps, s).loss <= bound);
    CHECK(bound < eps);
  }
}
