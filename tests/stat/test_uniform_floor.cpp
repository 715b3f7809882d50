// SPDX-License-Identifier: Apache-2.0
// Exact-law tests of the uniform floor (mechanisms/uniform_floor.hpp,
// docs/guarantees.md "The uniform floor"), chi-square at alpha = 1e-6 with
// fixed seeds, on the 20-word toy grid with two public orderings:
//
//   Pr[o | w] = (1 - p) Pr_M[o | w] + p / |S|   for o in S, 0 elsewhere,
//
// with M the ordering mechanism over an output vocabulary S and the
// exponential mechanism over the whole vocabulary. The laws are computed
// here from the model's orderings and vectors, independently of the
// library's exact_law(), which must agree with them. Broken variants (the
// floor ignored, the floor drawn over the whole vocabulary instead of S)
// must be rejected by the same test. The worst case per word is checked
// against the exact law for every pair of inputs.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "mechanisms/exact_law.hpp"
#include "mechanisms/mechanism.hpp"
#include "mechanisms/worst_case.hpp"
#include "sampling/samplers.hpp"
#include "support/statistics.hpp"
#include "support/toy_models.hpp"

using namespace dxt;

namespace {

constexpr size_t kTrials = 100000;
constexpr uint32_t kWords = 20;

RandomStream seeded(uint8_t tag) {
  std::array<uint8_t, 32> seed{};
  seed[0] = tag;
  seed[5] = 0xf1;
  return RandomStream(make_keyed_stream(seed));
}

struct Toy {
  test::ToyModelSpec spec;
  test::AlignedBytes bytes;
  std::shared_ptr<const Model> model;
};

Toy make_toy() {
  Toy t;
  t.spec = test::grid_2d_spec();
  t.spec.with_orderings = true;
  t.bytes = test::AlignedBytes(test::build_model_bytes(t.spec));
  t.model = test::open_bytes(t.bytes);
  return t;
}

// S: the words of even index and 1, 5, 9, 13 (12 words, not a run of any
// ordering); empty: the whole vocabulary.
std::shared_ptr<const OutputSet> toy_set() {
  auto set = std::make_shared<OutputSet>();
  set->kind = DXT_OUTPUT_LIST;
  set->member.assign(kWords, 0);
  for (uint32_t w = 0; w < kWords; ++w)
    if (w % 2 == 0 || w % 4 == 1) {
      set->member[w] = 1;
      set->rows.push_back(w);
    }
  return set;
}

// The ordering mechanism's law over S, from the orderings section: each
// ordering restricted to S, a word outside S starting at the next member,
// the two-sided geometric step wrapped on |S| places.
std::vector<double> ordering_law(const Toy& t, double eps, std::optional<uint32_t> w, const OutputSet* s) {
  const OrderingsView& o = *t.model->orderings();
  std::vector<double> p(kWords, 0.0);
  const double a = std::exp(-eps);
  for (uint32_t L = 0; L < o.count; ++L) {
    const uint32_t* cycle = o.words + L * kWords;
    std::vector<uint32_t> members;
    for (uint32_t q = 0; q < kWords; ++q)
      if (s == nullptr || s->contains(cycle[q])) members.push_back(cycle[q]);
    const auto n = static_cast<uint32_t>(members.size());
    uint32_t start = 0;
    if (w) {
      uint32_t before = 0;
      for (uint32_t q = 0; q < o.positions[L * kWords + *w]; ++q) before += s == nullptr || s->contains(cycle[q]);
      start = before == n ? 0 : before;
    }
    for (uint32_t r = 0; r < n; ++r)
      p[members[(start + r) % n]] +=
          (1 - a) / (1 + a) * (std::pow(a, r) + std::pow(a, n - r)) / (1 - std::pow(a, n)) / o.count;
  }
  return p;
}

// The exponential mechanism's softmax over all words, exp(-eps d / 2).
std::vector<double> softmax_law(const Toy& t, double eps, std::optional<uint32_t> w) {
  std::vector<double> p(kWords);
  double z = 0;
  for (uint32_t o = 0; o < kWords; ++o) {
    const double dx = (w ? t.spec.vectors[*w][0] : 0.0) - t.spec.vectors[o][0];
    const double dy = (w ? t.spec.vectors[*w][1] : 0.0) - t.spec.vectors[o][1];
    z += p[o] = std::exp(-eps * std::sqrt(dx * dx + dy * dy) / 2);
  }
  for (double& x : p) x /= z;
  return p;
}

// (1 - p) law + p / |S| on S.
std::vector<double> floored(std::vector<double> law, double p, const OutputSet* s) {
  const double n = s != nullptr ? s->size() : kWords;
  for (uint32_t o = 0; o < kWords; ++o) law[o] = (1 - p) * law[o] + (s == nullptr || s->contains(o) ? p / n : 0);
  return law;
}

std::vector<double> histogram(const std::function<uint32_t()>& draw) {
  std::vector<double> h(kWords, 0.0);
  for (size_t i = 0; i < kTrials; ++i) h[draw()] += 1;
  return h;
}

const std::optional<uint32_t> kInputs[] = {3, 4, 19, std::nullopt};

}  // namespace

TEST_CASE("uniform floor on ordering over S: the exact mixture law; floor ignored or over all words is rejected") {
  const Toy t = make_toy();
  const auto s = toy_set();
  RandomStream rng = seeded(1);
  for (const double p : {0.05, 0.3}) {
    MechanismParams params;
    params.id = DXT_MECHANISM_ORDERING;
    params.epsilon = 0.7;
    params.output = s;
    params.floor = p;
    const auto m = make_mechanism(*t.model, params);
    params.floor = 0;
    const auto bare = make_mechanism(*t.model, params);
    for (const std::optional<uint32_t> w : kInputs) {
      CAPTURE(p);
      CAPTURE(w.value_or(999));
      const std::vector<double> law = floored(ordering_law(t, 0.7, w, s.get()), p, s.get());
      std::vector<double> library;
      exact_law(*m, *t.model, w, library);
      for (uint32_t o = 0; o < kWords; ++o) CHECK(library[o] == doctest::Approx(law[o]).epsilon(1e-12));
      CHECK(test::chi_square(histogram([&] { return m->privatize(rng, w); }), law).p_value > test::kAlpha);
      // Broken: the floor ignored.
      CHECK(test::chi_square(histogram([&] { return bare->privatize(rng, w); }), law).p_value < test::kAlpha);
      // Broken: the floor's uniform word drawn from the whole vocabulary.
      CHECK(test::chi_square(histogram([&] {
                               const uint32_t word = bare->privatize(rng, w);
                               const bool floor = rng.uniform() < p;
                               const uint32_t any = uniform_index(rng, kWords);
                               return floor ? any : word;
                             }),
                             law)
                .p_value < test::kAlpha);
    }
  }
}

TEST_CASE("uniform floor on exponential over the whole vocabulary: the exact mixture law; floor ignored is rejected") {
  const Toy t = make_toy();
  RandomStream rng = seeded(2);
  MechanismParams params;
  params.id = DXT_MECHANISM_EXPONENTIAL;
  params.epsilon = 3;
  params.floor = 0.2;
  const auto m = make_mechanism(*t.model, params);
  params.floor = 0;
  const auto bare = make_mechanism(*t.model, params);
  for (const std::optional<uint32_t> w : kInputs) {
    CAPTURE(w.value_or(999));
    const std::vector<double> law = floored(softmax_law(t, 3, w), 0.2, nullptr);
    std::vector<double> library;
    exact_law(*m, *t.model, w, library);
    for (uint32_t o = 0; o < kWords; ++o) CHECK(library[o] == doctest::Approx(law[o]).epsilon(1e-9));
    CHECK(test::chi_square(histogram([&] { return m->privatize(rng, w); }), law).p_value > test::kAlpha);
    CHECK(test::chi_square(histogram([&] { return bare->privatize(rng, w); }), law).p_value < test::kAlpha);
  }
  // The batch path draws the same law.
  std::vector<std::optional<uint32_t>> inputs(kTrials, std::optional<uint32_t>(4));
  std::vector<uint32_t> out(kTrials);
  m->privatize_batch(rng, inputs.data(), inputs.size(), out.data());
  std::vector<double> h(kWords, 0.0);
  for (const uint32_t o : out) h[o] += 1;
  CHECK(test::chi_square(h, floored(softmax_law(t, 3, 4), 0.2, nullptr)).p_value > test::kAlpha);
}

TEST_CASE("worst case per word: min(eps * D, ln(1 + (1-p) m |S| / p)) bounds the exact loss of every pair") {
  const Toy t = make_toy();
  const auto s = toy_set();
  for (const dxt_mechanism id : {DXT_MECHANISM_ORDERING, DXT_MECHANISM_EXPONENTIAL})
    for (const double eps : {0.2, 1.0, 6.0})
      for (const double p : {0.0, 0.01, 0.3}) {
        CAPTURE(id);
        CAPTURE(eps);
        CAPTURE(p);
        MechanismParams params;
        params.id = id;
        params.epsilon = eps;
        params.floor = p;
        if (id == DXT_MECHANISM_ORDERING) params.output = s;
        const auto m = make_mechanism(*t.model, params);
        const double n = id == DXT_MECHANISM_ORDERING ? s->size() : kWords;
        // m: the largest probability of one output without the floor, from
        // the laws computed here; the library's value must bound it.
        std::vector<std::vector<double>> bare, law;
        double largest = 0;
        std::vector<std::optional<uint32_t>> inputs(std::begin(kInputs), std::end(kInputs));
        for (uint32_t w = 0; w < kWords; ++w) inputs.emplace_back(w);
        for (const auto& w : inputs) {
          bare.push_back(id == DXT_MECHANISM_ORDERING ? ordering_law(t, eps, w, s.get()) : softmax_law(t, eps, w));
          law.push_back(floored(bare.back(), p, id == DXT_MECHANISM_ORDERING ? s.get() : nullptr));
          largest = std::max(largest, *std::max_element(bare.back().begin(), bare.back().end()));
        }
        const double m_bound = largest_output_probability(*m, *t.model);
        CHECK(m_bound >= largest * (1 - 1e-12));
        const double cap = p > 0 ? std::log1p((1 - p) * m_bound * n / p) : INFINITY;
        CHECK(m->worst_case_per_word() == doctest::Approx(std::min(cap, eps * metric_diameter_bound(*m, *t.model))));
        double worst = 0;
        for (size_t i = 0; i < law.size(); ++i)
          for (size_t j = 0; j < law.size(); ++j) worst = std::max(worst, law_loss(law[i], law[j]));
        CHECK(worst <= m->worst_case_per_word() * (1 + 1e-9));
        // The ordering's m is the law's own largest term (a word of S starts
        // on itself in every ordering), so at a large epsilon, where the law
        // gives far words almost nothing, the exact loss reaches the cap.
        if (p > 0 && id == DXT_MECHANISM_ORDERING && eps == 6.0) CHECK(worst >= cap - 0.01);
      }
}

TEST_CASE("uniform floor: refused out of [0, 1) and with syntf") {
  const Toy t = make_toy();
  MechanismParams params;
  params.id = DXT_MECHANISM_ORDERING;
  params.epsilon = 1;
  for (const double p : {-0.1, 1.0, 2.0, std::nan("")}) {
    params.floor = p;
    CHECK_THROWS(make_mechanism(*t.model, params));
  }
  params.id = DXT_MECHANISM_SYNTF;
  params.floor = 0.1;
  CHECK_THROWS(make_mechanism(*t.model, params));
}

TEST_CASE("exact log law: far places keep their mass at a large epsilon, and the loss meets eps * d_ord") {
  // At eps 100 a step of 8 places has probability about e^-800, below the
  // smallest double: the law in logs must still give it, so that the loss
  // between two words is finite and within the metric bound.
  const Toy t = make_toy();
  const OrderingsView& o = *t.model->orderings();
  MechanismParams params;
  params.id = DXT_MECHANISM_ORDERING;
  params.epsilon = 100;
  const auto m = make_mechanism(*t.model, params);
  std::vector<double> a, b;
  for (uint32_t w = 0; w < kWords; ++w)
    for (uint32_t v = 0; v < kWords; ++v) {
      if (w == v) continue;
      exact_log_law(*m, *t.model, w, a);
      exact_log_law(*m, *t.model, v, b);
      uint32_t d_max = 0, d_min = kWords;
      for (uint32_t L = 0; L < o.count; ++L) {
        const uint32_t pw = o.positions[L * kWords + w], pv = o.positions[L * kWords + v];
        const uint32_t gap = pw > pv ? pw - pv : pv - pw;
        const uint32_t d = std::min(gap, kWords - gap);
        d_max = std::max(d_max, d);
        d_min = std::min(d_min, d);
      }
      const double loss = log_law_loss(a, b);
      CAPTURE(w);
      CAPTURE(v);
      CHECK(std::isfinite(loss));
      CHECK(loss <= 100.0 * d_max * (1 + 1e-12));
      CHECK(loss >= 100.0 * d_min - std::log(2.0) - 1e-9);
    }
}
