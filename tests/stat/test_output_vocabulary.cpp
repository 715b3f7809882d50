// SPDX-License-Identifier: Apache-2.0
// Exact-law tests of output vocabularies (docs/guarantees.md, "Output
// vocabularies"), chi-square at alpha = 1e-6 with fixed seeds, on the 2-D
// toy vocabularies restricted to a set S of their words:
// - exponential (Gumbel-max, short and default candidate lists, and
//   permute-and-flip's own law): Pr[o|w] ∝ exp(-eps d(w,o)/2) over o in S;
// - tem: exp(-eps min(d, gamma)/2) over S, gamma from |S|;
// - syntf: the reference softmax restricted to S;
// - laplace: the noise integrated numerically over the Voronoi cells of S;
// for inputs in S, outside S and out of vocabulary; and broken variants that
// the same tests must reject (the whole-vocabulary draw snapped to S, tem's
// gamma from |V|, syntf's outside words folded into S).
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <functional>
#include <memory>
#include <vector>

#include "mechanisms/exponential_mechanism.hpp"
#include "mechanisms/laplace_mechanism.hpp"
#include "mechanisms/output_set.hpp"
#include "mechanisms/syntf_mechanism.hpp"
#include "mechanisms/tem_mechanism.hpp"
#include "sampling/samplers.hpp"
#include "support/statistics.hpp"
#include "support/syntf_reference.hpp"
#include "support/toy_models.hpp"

using namespace dxt;

namespace {

constexpr size_t kTrials = 100000;

RandomStream seeded(uint8_t tag) {
  std::array<uint8_t, 32> seed{};
  seed[0] = tag;
  seed[3] = 0x21;
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

// A set of the toy's words by index, through the public constructor.
std::shared_ptr<const OutputSet> subset(const Toy& toy, const std::vector<uint32_t>& rows) {
  std::vector<std::string_view> words;
  for (uint32_t v : rows) words.push_back(toy.spec.words[v]);
  return output_list(*toy.model, words);
}

// The position of the toy's input: a word, or the origin (out of vocabulary).
std::array<double, 2> position(const test::ToyModelSpec& spec, std::optional<uint32_t> w) {
  if (!w) return {0.0, 0.0};
  return {spec.vectors[*w][0], spec.vectors[*w][1]};
}

double toy_distance(const test::ToyModelSpec& spec, std::array<double, 2> a, uint32_t b) {
  const double bx = spec.vectors[b][0], by = spec.vectors[b][1];
  const double dd = (a[0] - bx) * (a[0] - bx) + (a[1] - by) * (a[1] - by);
  if (spec.geometry == DXT_GEOMETRY_EUCLIDEAN) return std::sqrt(dd);
  return std::acosh(1 + 2 * dd / ((1 - a[0] * a[0] - a[1] * a[1]) * (1 - bx * bx - by * by)));
}

// Pr[o] ∝ exp(-scale f(d(w, o))) for o in S, 0 elsewhere (indexed by word).
std::vector<double> law_over(
    const test::ToyModelSpec& spec, const std::vector<uint32_t>& S, std::optional<uint32_t> w, double scale,
    const std::function<double(double)>& f = [](double d) { return d; }) {
  std::vector<double> p(spec.words.size(), 0.0);
  double z = 0;
  for (uint32_t o : S) z += p[o] = std::exp(-scale * f(toy_distance(spec, position(spec, w), o)));
  for (double& x : p) x /= z;
  return p;
}

std::vector<double> histogram(size_t n, const std::function<uint32_t()>& draw) {
  std::vector<double> counts(n, 0);
  for (size_t t = 0; t < kTrials; ++t) ++counts[draw()];
  return counts;
}

// n * sum (q - p)^2 / p over cells with p > 0: the expected chi-square
// excess of a variant q tested against p; above 200 it fails at alpha with
// overwhelming probability.
double noncentrality(const std::vector<double>& p, const std::vector<double>& q) {
  double x = 0;
  for (size_t i = 0; i < p.size(); ++i)
    if (p[i] > 0) x += (q[i] - p[i]) * (q[i] - p[i]) / p[i];
  return x * static_cast<double>(kTrials);
}

uint32_t draw_from(const std::vector<double>& p, RandomStream& rng) {
  const double u = rng.uniform();
  double acc = 0;
  for (uint32_t i = 0; i < p.size(); ++i)
    if (u < (acc += p[i])) return i;
  return static_cast<uint32_t>(p.size() - 1);
}

// The word of S nearest (Euclidean or Poincare) to word v; lowest index on ties.
uint32_t nearest_in(const test::ToyModelSpec& spec, const std::vector<uint32_t>& S, uint32_t v) {
  uint32_t best = S[0];
  double best_d = INFINITY;
  for (uint32_t o : S) {
    const double d = toy_distance(spec, position(spec, v), o);
    if (d < best_d) best_d = d, best = o;
  }
  return best;
}

MechanismParams params(dxt_mechanism id, double eps, std::shared_ptr<const OutputSet> out, uint32_t list = 0) {
  MechanismParams p;
  p.id = id;
  p.epsilon = eps;
  p.output = std::move(out);
  p.candidate_list_size = list;
  return p;
}

// S on the 5 x 4 grid: eight words spread over it, not containing word 12
// (the centre) nor word 0 (the corner next to the origin).
const std::vector<uint32_t> kGridS = {1, 3, 6, 8, 11, 15, 18, 19};
// On the Poincare toy: the root and six points of several radii.
const std::vector<uint32_t> kPoincareS = {0, 2, 5, 7, 9, 14, 17};

}  // namespace

TEST_CASE(
    "exponential over an output vocabulary matches the softmax over S; the snapped whole-vocabulary draw is "
    "rejected") {
  int rejected = 0;
  for (const test::ToyModelSpec& spec : {test::grid_2d_spec(), test::poincare_2d_spec()}) {
    Toy toy(spec);
    const std::vector<uint32_t>& S = spec.geometry == DXT_GEOMETRY_EUCLIDEAN ? kGridS : kPoincareS;
    const auto set = subset(toy, S);
    for (std::optional<uint32_t> w :
         {std::optional<uint32_t>(12), std::optional<uint32_t>(S[2]), std::optional<uint32_t>()}) {
      for (double eps : {1.0, 4.0}) {
        for (uint32_t list : {2u, 0u}) {
          CAPTURE(static_cast<int>(spec.geometry));
          CAPTURE(w ? static_cast<int>(*w) : -1);
          CAPTURE(eps);
          CAPTURE(list);
          const auto p = law_over(spec, S, w, eps / 2);
          ExponentialMechanism mech(*toy.model, params(DXT_MECHANISM_EXPONENTIAL, eps, set, list));
          RandomStream rng = seeded(static_cast<uint8_t>(3 * eps + list + (w ? *w : 40) + 50 * spec.geometry));
          CHECK(test::chi_square(histogram(p.size(), [&] { return mech.privatize(rng, w); }), p).p_value >
                test::kAlpha);
          // Batches draw the same law.
          std::vector<std::optional<uint32_t>> in(kTrials, w);
          std::vector<uint32_t> out(kTrials);
          mech.privatize_batch(rng, in.data(), in.size(), out.data());
          std::vector<double> counts(p.size(), 0);
          for (uint32_t o : out) ++counts[o];
          CHECK(test::chi_square(counts, p).p_value > test::kAlpha);
        }
        // Broken: the mechanism over the whole vocabulary, its word then
        // replaced by the nearest word of S (post-processing, so private,
        // but not the exponential mechanism over S).
        const auto p = law_over(spec, S, w, eps / 2);
        const auto full = law_over(
            spec,
            [&] {
              std::vector<uint32_t> all(spec.words.size());
              for (uint32_t v = 0; v < all.size(); ++v) all[v] = v;
              return all;
            }(),
            w, eps / 2);
        std::vector<double> q(p.size(), 0);
        for (uint32_t v = 0; v < full.size(); ++v) q[nearest_in(spec, S, v)] += full[v];
        if (noncentrality(p, q) < 200) continue;
        ExponentialMechanism whole(*toy.model, params(DXT_MECHANISM_EXPONENTIAL, eps, nullptr));
        RandomStream rng = seeded(static_cast<uint8_t>(200 + eps + (w ? *w : 40)));
        CHECK(test::chi_square(histogram(p.size(), [&] { return nearest_in(spec, S, whole.privatize(rng, w)); }), p)
                  .p_value < test::kAlpha);
        ++rejected;
      }
    }
  }
  CHECK(rejected >= 4);
}

TEST_CASE("exponential permute-and-flip over an output vocabulary never leaves S") {
  Toy toy(test::grid_2d_spec());
  const auto set = subset(toy, kGridS);
  MechanismParams mp = params(DXT_MECHANISM_EXPONENTIAL, 2.0, set);
  mp.sampler = DXT_SAMPLER_PERMUTE_AND_FLIP;
  ExponentialMechanism mech(*toy.model, mp);
  RandomStream rng = seeded(7);
  for (int t = 0; t < 20000; ++t) CHECK(set->contains(mech.privatize(rng, 12)));
  // Ranging over S, permute-and-flip keeps its own law; its winner is a
  // word of S with positive probability for every word of S.
  std::vector<double> counts(20, 0);
  for (int t = 0; t < 20000; ++t) ++counts[mech.privatize(rng, 12)];
  for (uint32_t o : kGridS) CHECK(counts[o] > 0);
}

TEST_CASE("tem over an output vocabulary: gamma from |S|, the truncated law over S; gamma from |V| is rejected") {
  Toy toy(test::grid_2d_spec());
  const auto set = subset(toy, kGridS);
  const double eps = 2.0, beta = 0.3;
  const double gamma_s = 2 / eps * std::log((1 - beta) * (kGridS.size() - 1) / beta);
  const double gamma_v = 2 / eps * std::log((1 - beta) * (toy.spec.words.size() - 1) / beta);
  int rejected = 0;
  for (std::optional<uint32_t> w : {std::optional<uint32_t>(0), std::optional<uint32_t>(19),
                                    std::optional<uint32_t>(12), std::optional<uint32_t>()}) {
    for (uint32_t list : {2u, 0u}) {
      CAPTURE(w ? static_cast<int>(*w) : -1);
      CAPTURE(list);
      MechanismParams mp = params(DXT_MECHANISM_TEM, eps, set, list);
      mp.tem_beta = beta;
      TemMechanism mech(*toy.model, mp);
      CHECK(mech.gamma() == doctest::Approx(gamma_s).epsilon(1e-12));
      const auto p = law_over(toy.spec, kGridS, w, eps / 2, [&](double d) { return std::min(d, gamma_s); });
      RandomStream rng = seeded(static_cast<uint8_t>(90 + list + (w ? *w : 40)));
      CHECK(test::chi_square(histogram(p.size(), [&] { return mech.privatize(rng, w); }), p).p_value > test::kAlpha);
      // Broken: gamma from the whole vocabulary's size, as without S.
      const auto q = law_over(toy.spec, kGridS, w, eps / 2, [&](double d) { return std::min(d, gamma_v); });
      if (noncentrality(p, q) < 200) continue;
      MechanismParams bad = mp;
      bad.tem_gamma = gamma_v;
      TemMechanism broken(*toy.model, bad);
      CHECK(test::chi_square(histogram(p.size(), [&] { return broken.privatize(rng, w); }), p).p_value < test::kAlpha);
      ++rejected;
    }
  }
  MESSAGE("tem gamma from |S| = " << gamma_s << ", from |V| = " << gamma_v << "; broken variant rejected in "
                                  << rejected << " cases");
  CHECK(rejected >= 2);
}

TEST_CASE(
    "syntf over an output vocabulary matches the reference softmax restricted to S; folding the rest into S "
    "is rejected") {
  Toy toy(test::syntf_toy_spec());
  const uint32_t V = static_cast<uint32_t>(toy.spec.words.size());
  std::vector<uint32_t> S;
  for (uint32_t v = 0; v < V; v += 3) S.push_back(v);
  const auto set = subset(toy, S);
  int rejected = 0;
  for (uint32_t w : {0u, 1u, 14u, 17u}) {
    for (double eps : {4.0, 10.0}) {
      CAPTURE(w);
      CAPTURE(eps);
      const double s = 0.3;
      const std::vector<double> full = test::reference_probabilities(toy.spec, w, eps, s);
      std::vector<double> p(V, 0);
      double z = 0;
      for (uint32_t o : S) z += full[o];
      for (uint32_t o : S) p[o] = full[o] / z;
      MechanismParams mp = params(DXT_MECHANISM_SYNTF, eps, set, 2);
      mp.syntf_s = s;
      SyntfMechanism mech(*toy.model, mp);
      RandomStream rng = seeded(static_cast<uint8_t>(150 + w + eps));
      CHECK(test::chi_square(histogram(V, [&] { return mech.privatize(rng, w); }), p).p_value > test::kAlpha);
      // Broken: the whole-vocabulary draw, a word outside S replaced by a
      // uniform word of S.
      std::vector<double> q(V, 0);
      double outside = 0;
      for (uint32_t o = 0; o < V; ++o) (set->contains(o) ? q[o] : outside) += full[o];
      for (uint32_t o : S) q[o] += outside / static_cast<double>(S.size());
      if (noncentrality(p, q) < 200) continue;
      CHECK(test::chi_square(histogram(V, [&] { return draw_from(q, rng); }), p).p_value < test::kAlpha);
      ++rejected;
    }
  }
  CHECK(rejected >= 2);
}

namespace {

// Inverse CDF of Gamma(2, 1) by Newton's method (the laplace radius in 2-D).
double gamma2_quantile(double u) {
  double x = 2;
  for (int i = 0; i < 100; ++i) {
    const double f = 1 - std::exp(-x) * (1 + x) - u;
    const double step = f / (x * std::exp(-x));
    x = std::max(x - step, x / 4);
    if (std::fabs(step) < 1e-14 * x) break;
  }
  return x;
}

// Laplace decoded to S: the noise around w integrated in polar coordinates,
// each point assigned to its nearest word of S (or, for the broken variant,
// to the nearest word of S to its nearest vocabulary word).
std::vector<double> laplace_law(const test::ToyModelSpec& spec, const std::vector<uint32_t>& S,
                                std::optional<uint32_t> w, double eps, bool snapped) {
  constexpr int kRadial = 1500, kAngular = 1500;
  const auto c = position(spec, w);
  std::vector<double> p(spec.words.size(), 0);
  std::vector<uint32_t> all(spec.words.size());
  for (uint32_t v = 0; v < all.size(); ++v) all[v] = v;
  auto nearest = [&](const std::vector<uint32_t>& rows, double x, double y) {
    uint32_t best = rows[0];
    double best_d = INFINITY;
    for (uint32_t v : rows) {
      const double dx = x - spec.vectors[v][0], dy = y - spec.vectors[v][1];
      if (dx * dx + dy * dy < best_d) best_d = dx * dx + dy * dy, best = v;
    }
    return best;
  };
  // The radius by its quantile u = 1 - (1 - s)^4 at equal steps of s, each
  // weighted by du/ds: the far tail, where rare far words win, is covered.
  for (int i = 0; i < kRadial; ++i) {
    const double s = (i + 0.5) / kRadial;
    const double r = gamma2_quantile(1 - std::pow(1 - s, 4)) / eps;
    const double weight = 4 * std::pow(1 - s, 3) / (double{kRadial} * kAngular);
    for (int j = 0; j < kAngular; ++j) {
      const double t = 2 * M_PI * (j + 0.5) / kAngular;
      const double x = c[0] + r * std::cos(t), y = c[1] + r * std::sin(t);
      const uint32_t o = snapped ? nearest_in(spec, S, nearest(all, x, y)) : nearest(S, x, y);
      p[o] += weight;
    }
  }
  return p;
}

}  // namespace

TEST_CASE(
    "laplace decoded to an output vocabulary matches the integrated law over S's cells; snapping the nearest "
    "word to S is rejected") {
  Toy toy(test::grid_2d_spec());
  const auto set = subset(toy, kGridS);
  int rejected = 0;
  for (std::optional<uint32_t> w :
       {std::optional<uint32_t>(12), std::optional<uint32_t>(6), std::optional<uint32_t>()}) {
    for (double eps : {1.5, 4.0}) {
      CAPTURE(w ? static_cast<int>(*w) : -1);
      CAPTURE(eps);
      const auto p = laplace_law(toy.spec, kGridS, w, eps, false);
      LaplaceMechanism mech(*toy.model, params(DXT_MECHANISM_LAPLACE, eps, set));
      RandomStream rng = seeded(static_cast<uint8_t>(170 + eps + (w ? *w : 40)));
      CHECK(test::chi_square(histogram(p.size(), [&] { return mech.privatize(rng, w); }), p).p_value > test::kAlpha);
      std::vector<std::optional<uint32_t>> in(kTrials, w);
      std::vector<uint32_t> out(kTrials);
      mech.privatize_batch(rng, in.data(), in.size(), out.data());
      std::vector<double> counts(p.size(), 0);
      for (uint32_t o : out) ++counts[o];
      CHECK(test::chi_square(counts, p).p_value > test::kAlpha);
      const auto q = laplace_law(toy.spec, kGridS, w, eps, true);
      MESSAGE("laplace to S: noncentrality of the snapped variant " << noncentrality(p, q));
      if (noncentrality(p, q) < 200) continue;
      LaplaceMechanism whole(*toy.model, params(DXT_MECHANISM_LAPLACE, eps, nullptr));
      CHECK(test::chi_square(histogram(p.size(), [&] { return nearest_in(toy.spec, kGridS, whole.privatize(rng, w)); }),
                             p)
                .p_value < test::kAlpha);
      ++rejected;
    }
  }
  CHECK(rejected >= 2);
}
