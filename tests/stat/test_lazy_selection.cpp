// SPDX-License-Identifier: Apache-2.0
// Exact-law tests aimed at the lazy Gumbel race (sampling/gumbel_race.hpp)
// and the candidate lists that feed it (mechanisms/candidate_selector.hpp),
// chi-square at alpha = 1e-6 with fixed seeds:
// - the race alone, on score vectors split into groups with tight bounds
//   (ties at the bound), loose bounds and -infinity scores;
// - exponential and tem with candidate lists far shorter than the
//   vocabulary, so that most draws are decided by the rest of the
//   vocabulary (small epsilon: the far tail carries most of the mass), in
//   every quantisation, Euclidean and Poincare, one word at a time and in
//   batches, with a cache of one entry (rebuilt on every change of word);
// - ties: a word with an exact twin, and equal distances at group ends;
// - syntf with short lists;
// and the broken variants that the same tests must reject: the race without
// its last group (the tail dropped: in the race alone, and in the
// production race of CandidateSelector), and with a bound that is too low.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <functional>
#include <numeric>
#include <vector>

#include "mechanisms/candidate_selector.hpp"
#include "mechanisms/exponential_mechanism.hpp"
#include "mechanisms/syntf_mechanism.hpp"
#include "mechanisms/tem_mechanism.hpp"
#include "sampling/gumbel_race.hpp"
#include "sampling/samplers.hpp"
#include "search/candidate_lists.hpp"
#include "search/exact_scan.hpp"
#include "support/statistics.hpp"
#include "support/syntf_reference.hpp"
#include "support/toy_models.hpp"

using namespace dxt;

namespace {

constexpr size_t kTrials = 100000;
constexpr double kNegInf = -std::numeric_limits<double>::infinity();

RandomStream seeded(uint8_t tag) {
  std::array<uint8_t, 32> seed{};
  seed[0] = tag;
  seed[3] = 0x1a;
  return RandomStream(make_keyed_stream(seed));
}

std::vector<double> histogram(size_t n, const std::function<uint32_t()>& draw, size_t trials = kTrials) {
  std::vector<double> counts(n, 0);
  for (size_t t = 0; t < trials; ++t) ++counts[draw()];
  return counts;
}

std::vector<double> softmax(const std::vector<double>& scores) {
  double top = kNegInf;
  for (double s : scores) top = std::max(top, s);
  std::vector<double> p(scores.size());
  double z = 0;
  for (size_t i = 0; i < p.size(); ++i) z += p[i] = std::exp(scores[i] - top);
  for (double& x : p) x /= z;
  return p;
}

struct Toy {
  test::ToyModelSpec spec;
  test::AlignedBytes bytes;
  std::shared_ptr<const Model> model;
  explicit Toy(test::ToyModelSpec s) : spec(std::move(s)), bytes(test::build_model_bytes(spec)) {
    model = test::open_bytes(bytes);
  }
};

// The rows as the model stores them (dequantised), in double.
std::vector<std::vector<double>> rows_of(const Model& m) {
  std::vector<std::vector<double>> rows(m.vocabulary_size());
  std::vector<float> r(m.dimension());
  for (uint32_t v = 0; v < m.vocabulary_size(); ++v) {
    m.row(v, r.data());
    rows[v].assign(r.begin(), r.end());
  }
  return rows;
}

// The distance between two stored rows, computed here from scratch.
double reference_distance(const Model& m, const std::vector<double>& a, const std::vector<double>& b) {
  double dd = 0, aa = 0, bb = 0;
  for (size_t i = 0; i < a.size(); ++i) dd += (a[i] - b[i]) * (a[i] - b[i]), aa += a[i] * a[i], bb += b[i] * b[i];
  if (m.geometry() == DXT_GEOMETRY_EUCLIDEAN) return std::sqrt(dd);
  return std::acosh(1 + 2 * dd / ((1 - aa) * (1 - bb)));
}

// Pr[o | w] ∝ exp(-eps f(d(w, o)) / 2) over the stored rows.
std::vector<double> selection_law(const Model& m, uint32_t w, double eps, double gamma = INFINITY) {
  const auto rows = rows_of(m);
  std::vector<double> scores(rows.size());
  for (size_t o = 0; o < rows.size(); ++o)
    scores[o] = -eps / 2 * std::min(reference_distance(m, rows[w], rows[o]), gamma);
  return softmax(scores);
}

// The race over explicit groups of a score vector; pick draws members
// without replacement by a partial Fisher-Yates.
struct Group {
  std::vector<uint32_t> members;
  double bound;
};
uint32_t race_groups(RandomStream& rng, const std::vector<Group>& groups, const std::vector<double>& scores) {
  GumbelRace race;
  for (const Group& g : groups) {
    std::vector<uint32_t> pool = g.members;
    uint32_t taken = 0;
    race.offer(
        rng, g.bound, pool.size(),
        [&] {
          std::swap(pool[taken], pool[taken + uniform_index(rng, static_cast<uint32_t>(pool.size()) - taken)]);
          return pool[taken++];
        },
        [&](uint32_t o) { return scores[o]; });
  }
  return race.winner();
}

}  // namespace

TEST_CASE("the race alone: any grouping with valid bounds draws the softmax; dropping a group or a low bound fails") {
  // Twelve candidates: ties, a far-behind one, one that can never win.
  const std::vector<double> scores = {0.0, 0.0, -0.3, -1.0, -1.0, -2.5, -0.1, -4.0, -0.7, -0.7, -30.0, kNegInf};
  const std::vector<double> p = softmax(scores);
  auto max_of = [&](const std::vector<uint32_t>& m) {
    double b = kNegInf;
    for (uint32_t o : m) b = std::max(b, scores[o]);
    return b;
  };
  // Tight bounds (the best member: a tie at the bound), then loose ones,
  // then one group holding everything.
  std::vector<Group> tight = {{{0}, 0}, {{1, 2}, 0}, {{3, 4, 5, 6}, 0}, {{7, 8, 9, 10, 11}, 0}};
  for (Group& g : tight) g.bound = max_of(g.members);
  std::vector<Group> loose = tight;
  for (Group& g : loose) g.bound += 1.5;
  std::vector<uint32_t> all(scores.size());
  std::iota(all.begin(), all.end(), 0u);
  std::vector<Group> single = {{all, 0.0}};
  RandomStream rng = seeded(1);
  for (const std::vector<Group>* groups : {&tight, &loose, &single}) {
    const auto counts = histogram(scores.size(), [&] { return race_groups(rng, *groups, scores); });
    CHECK(counts[11] == 0);  // score -infinity
    CHECK(test::chi_square(counts, p).p_value > test::kAlpha);
  }
  // Broken: the last group dropped (as if the tail of the vocabulary were
  // never raced).
  std::vector<Group> dropped(tight.begin(), tight.end() - 1);
  CHECK(test::chi_square(histogram(scores.size(), [&] { return race_groups(rng, dropped, scores); }), p).p_value <
        test::kAlpha);
  // Broken: a bound below its group's best score stops the race too early.
  std::vector<Group> low = tight;
  low[2].bound -= 1.0;
  CHECK(test::chi_square(histogram(scores.size(), [&] { return race_groups(rng, low, scores); }), p).p_value <
        test::kAlpha);
}

TEST_CASE("exponential and tem with short candidate lists match their laws in every quantisation and geometry") {
  struct Config {
    dxt_quantization quantization;
    dxt_geometry geometry;
    std::vector<uint32_t> list_sizes, words;
  };
  // Every list size and word on the f32 grid; one of each elsewhere.
  const Config configs[] = {{DXT_QUANT_F32, DXT_GEOMETRY_EUCLIDEAN, {1, 3, 6}, {0, 12}},
                            {DXT_QUANT_F16, DXT_GEOMETRY_EUCLIDEAN, {2}, {12}},
                            {DXT_QUANT_INT8, DXT_GEOMETRY_EUCLIDEAN, {2}, {12}},
                            {DXT_QUANT_F32, DXT_GEOMETRY_POINCARE, {2}, {12}}};
  uint8_t tag = 10;
  for (const Config& c : configs) {
    test::ToyModelSpec spec = c.geometry == DXT_GEOMETRY_POINCARE ? test::poincare_2d_spec() : test::grid_2d_spec();
    spec.quantization = c.quantization;
    Toy toy(spec);
    for (uint32_t list_size : c.list_sizes) {
      for (uint32_t w : c.words) {
        // eps 0.5: nearly all the mass is outside a short list; 4: inside.
        for (double eps : {0.5, 4.0}) {
          CAPTURE(static_cast<int>(c.quantization));
          CAPTURE(static_cast<int>(c.geometry));
          CAPTURE(list_size);
          CAPTURE(w);
          CAPTURE(eps);
          MechanismParams mp;
          mp.id = DXT_MECHANISM_EXPONENTIAL;
          mp.epsilon = eps;
          mp.candidate_list_size = list_size;
          mp.candidate_cache_entries = 1;
          ExponentialMechanism mech(*toy.model, mp);
          RandomStream rng = seeded(++tag);
          const auto p = selection_law(*toy.model, w, eps);
          // One word at a time, alternating with another word so that the
          // one-entry cache is rebuilt on every call.
          const auto single = histogram(
              p.size(),
              [&] {
                mech.privatize(rng, 19 - w);
                return mech.privatize(rng, w);
              },
              kTrials / 2);
          CHECK(test::chi_square(single, p).p_value > test::kAlpha);
          // In batches, mixed with other words (lists built together).
          std::vector<std::optional<uint32_t>> in(999);
          for (size_t j = 0; j < in.size(); ++j) in[j] = j % 3 == 0 ? w : (j % 2 ? 7u : 19u);
          std::vector<uint32_t> out(in.size());
          std::vector<double> batched(p.size(), 0);
          for (int r = 0; r < 100; ++r) {
            mech.privatize_batch(rng, in.data(), in.size(), out.data());
            for (size_t j = 0; j < in.size(); j += 3) ++batched[out[j]];
          }
          CHECK(test::chi_square(batched, p).p_value > test::kAlpha);
          // tem with gamma inside the vocabulary's range of distances.
          mp.id = DXT_MECHANISM_TEM;
          mp.tem_gamma = c.geometry == DXT_GEOMETRY_EUCLIDEAN ? 1.5 : 2.0;
          TemMechanism tem(*toy.model, mp);
          const auto pt = selection_law(*toy.model, w, eps, mp.tem_gamma);
          CHECK(test::chi_square(histogram(
                                     pt.size(), [&] { return tem.privatize(rng, w); }, kTrials / 2),
                                 pt)
                    .p_value > test::kAlpha);
        }
      }
    }
  }
}

TEST_CASE("ties: a word with an exact twin, lists cut inside runs of equal distances") {
  test::ToyModelSpec spec = test::grid_2d_spec();
  spec.words.push_back("twin12");
  spec.vectors.push_back(spec.vectors[12]);
  // Four points at equal distance 1 from (10, 10), one at the centre.
  for (int i = 0; i < 4; ++i) {
    spec.words.push_back("ring" + std::to_string(i));
    spec.vectors.push_back({10.0f + (i == 0) - (i == 1), 10.0f + (i == 2) - (i == 3)});
  }
  spec.words.push_back("centre");
  spec.vectors.push_back({10.0f, 10.0f});
  Toy toy(spec);
  uint8_t tag = 80;
  for (uint32_t w : {12u, 20u, 25u}) {
    for (uint32_t list_size : {1u, 2u, 3u}) {
      CAPTURE(w);
      CAPTURE(list_size);
      MechanismParams mp;
      mp.id = DXT_MECHANISM_EXPONENTIAL;
      mp.epsilon = 3;
      mp.candidate_list_size = list_size;
      ExponentialMechanism mech(*toy.model, mp);
      RandomStream rng = seeded(++tag);
      const auto p = selection_law(*toy.model, w, mp.epsilon);
      const auto counts = histogram(p.size(), [&] { return mech.privatize(rng, w); });
      CHECK(test::chi_square(counts, p).p_value > test::kAlpha);
      if (w == 12) CHECK(std::fabs(counts[12] - counts[20]) < 6 * std::sqrt(counts[12] + counts[20]));
    }
  }
}

TEST_CASE("the race of the selector without the rest of the vocabulary is rejected; with it, it passes") {
  // The production race (CandidateSelector::race) over a list of 4 of the
  // 20 words, with and without its last group: every word not in the list.
  Toy toy(test::grid_2d_spec());
  const Model& m = *toy.model;
  const double eps = 1.0;
  CandidateSelector selector(m, CandidateOrder::kDistance, 4, 0);
  std::vector<double> x(m.dimension());
  for (uint32_t w : {0u, 12u}) {
    CAPTURE(w);
    const double xx = selector.load_point(w, x.data());
    const CandidateList& list = selector.list_for(w);
    REQUIRE(list.members.size() == 4);
    const auto p = selection_law(m, w, eps);
    RandomStream rng = seeded(static_cast<uint8_t>(120 + w));
    auto draw = [&](bool race_rest) {
      return selector.race(
          rng, list, [eps](double lower) { return -eps / 2 * lower; },
          [&](uint32_t o) { return -eps / 2 * selector.scanner().exact(x.data(), xx, o); }, race_rest);
    };
    CHECK(test::chi_square(histogram(p.size(), [&] { return draw(true); }), p).p_value > test::kAlpha);
    const auto broken = histogram(p.size(), [&] { return draw(false); });
    CHECK(test::chi_square(broken, p).p_value < test::kAlpha);
    // Without the rest, words outside the list are never released.
    double outside = 0;
    for (uint32_t o = 0; o < p.size(); ++o)
      if (std::find(list.members.begin(), list.members.end(), o) == list.members.end()) outside += broken[o];
    CHECK(outside == 0);
  }
}

TEST_CASE("syntf with short candidate lists matches the exact softmax") {
  const test::ToyModelSpec spec = test::syntf_toy_spec();
  const test::AlignedBytes bytes(test::build_model_bytes(spec));
  const auto model = test::open_bytes(bytes);
  uint8_t tag = 140;
  for (uint32_t list_size : {1u, 4u}) {
    for (uint32_t word : {0u, 14u, 19u}) {
      for (double eps : {2.0, 12.0}) {
        CAPTURE(list_size);
        CAPTURE(word);
        CAPTURE(eps);
        MechanismParams mp;
        mp.id = DXT_MECHANISM_SYNTF;
        mp.epsilon = eps;
        mp.syntf_s = 0.5;
        mp.candidate_list_size = list_size;
        SyntfMechanism mech(*model, mp);
        RandomStream rng = seeded(++tag);
        const auto p = test::reference_probabilities(spec, word, eps, 0.5);
        CHECK(test::chi_square(histogram(
                                   p.size(), [&] { return mech.privatize(rng, word); }, kTrials / 2),
                               p)
                  .p_value > test::kAlpha);
        std::vector<std::optional<uint32_t>> in(500, word);
        std::vector<uint32_t> out(in.size());
        std::vector<double> batched(p.size(), 0);
        for (int k = 0; k < 100; ++k) {
          mech.privatize_batch(rng, in.data(), in.size(), out.data());
          for (uint32_t o : out) ++batched[o];
        }
        CHECK(test::chi_square(batched, p).p_value > test::kAlpha);
      }
    }
  }
}
