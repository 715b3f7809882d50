// SPDX-License-Identifier: Apache-2.0
// Exact-law tests of the selection mechanisms on toy vocabularies
// (DESIGN.md §10), chi-square at alpha = 1e-6 with fixed seeds:
// - exponential with Gumbel-max: Pr[o|w] ∝ exp(-eps d(w,o)/2), Euclidean and
//   Poincare distances computed here independently;
// - exponential with permute-and-flip: its own exact law (not the softmax),
//   from elementary symmetric polynomials;
// - tem: Pr[o|w] ∝ exp(-eps min(d(w,o), gamma)/2);
// - vickrey: integrated over the laplace noise with the 1st/2nd choice;
// and broken variants of each that the same test must reject.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <functional>
#include <memory>
#include <vector>

#include "errors/error.hpp"
#include "mechanisms/exponential_mechanism.hpp"
#include "mechanisms/tem_mechanism.hpp"
#include "mechanisms/vickrey_mechanism.hpp"
#include "sampling/samplers.hpp"
#include "support/polar_integration.hpp"
#include "support/statistics.hpp"
#include "support/toy_models.hpp"

using namespace dxt;

namespace {

constexpr size_t kTrials = 100000;

RandomStream seeded(uint8_t tag) {
  std::array<uint8_t, 32> seed{};
  seed[0] = tag;
  seed[2] = 0x77;
  return RandomStream(make_keyed_stream(seed));
}

double toy_distance(const test::ToyModelSpec& spec, uint32_t a, uint32_t b) {
  const double ax = spec.vectors[a][0], ay = spec.vectors[a][1];
  const double bx = spec.vectors[b][0], by = spec.vectors[b][1];
  const double dd = (ax - bx) * (ax - bx) + (ay - by) * (ay - by);
  if (spec.geometry == DXT_GEOMETRY_EUCLIDEAN) return std::sqrt(dd);
  return std::acosh(1 + 2 * dd / ((1 - ax * ax - ay * ay) * (1 - bx * bx - by * by)));
}

// Pr[o] ∝ exp(-scale * f(d(w, o))).
std::vector<double> softmax_law(
    const test::ToyModelSpec& spec, uint32_t w, double scale,
    const std::function<double(double)>& f = [](double d) { return d; }) {
  std::vector<double> p(spec.words.size());
  double z = 0;
  for (uint32_t o = 0; o < p.size(); ++o) z += p[o] = std::exp(-scale * f(toy_distance(spec, w, o)));
  for (double& x : p) x /= z;
  return p;
}

// Permute-and-flip's exact law: with acceptance probabilities a_j,
// Pr[o] = a_o * sum_k e_k({1 - a_j : j != o}) / (n * C(n-1, k)).
std::vector<double> permute_and_flip_law(const test::ToyModelSpec& spec, uint32_t w, double eps) {
  const size_t n = spec.words.size();
  std::vector<double> d(n), a(n), p(n);
  double d_min = INFINITY;
  for (uint32_t o = 0; o < n; ++o) d_min = std::min(d_min, d[o] = toy_distance(spec, w, o));
  for (uint32_t o = 0; o < n; ++o) a[o] = std::exp(-eps * (d[o] - d_min) / 2);
  for (uint32_t o = 0; o < n; ++o) {
    std::vector<double> e(n, 0);
    e[0] = 1;
    for (uint32_t j = 0; j < n; ++j) {
      if (j == o) continue;
      for (size_t k = n - 1; k >= 1; --k) e[k] += e[k - 1] * (1 - a[j]);
    }
    double sum = 0, binom = 1;  // C(n-1, k)
    for (size_t k = 0; k < n; ++k) {
      sum += e[k] / (static_cast<double>(n) * binom);
      binom = binom * static_cast<double>(n - 1 - k) / static_cast<double>(k + 1);
    }
    p[o] = a[o] * sum;
  }
  return p;
}

std::vector<double> histogram(size_t n, const std::function<uint32_t()>& draw) {
  std::vector<double> counts(n, 0);
  for (size_t t = 0; t < kTrials; ++t) ++counts[draw()];
  return counts;
}

MechanismParams params(dxt_mechanism id, double eps) {
  MechanismParams p;
  p.id = id;
  p.epsilon = eps;
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

// Gumbel-max over arbitrary scores, for the broken variants.
uint32_t gumbel_argmax(RandomStream& rng, const std::vector<double>& log_weight) {
  uint32_t best = 0;
  double best_score = -INFINITY;
  for (uint32_t o = 0; o < log_weight.size(); ++o) {
    const double s = log_weight[o] + sample_gumbel(rng);
    if (s > best_score) best_score = s, best = o;
  }
  return best;
}

}  // namespace

// On the Poincare toy (n = 2) epsilon 0.25 and 1 lie below the hyperbolic
// mechanism's n - 1 = 1 bound or on it: the exponential mechanism on d_H is
// the route there (docs/guarantees.md, "Poincare models at small epsilon").
TEST_CASE("exponential (Gumbel-max) matches the softmax in both geometries; without the /2 it is rejected") {
  for (const test::ToyModelSpec& spec : {test::grid_2d_spec(), test::poincare_2d_spec()}) {
    Toy toy(spec);
    for (uint32_t w : {0u, 12u}) {
      for (double eps : {0.25, 1.0, 4.0}) {
        CAPTURE(static_cast<int>(spec.geometry));
        CAPTURE(w);
        CAPTURE(eps);
        const auto p = softmax_law(spec, w, eps / 2);
        ExponentialMechanism mech(*toy.model, params(DXT_MECHANISM_EXPONENTIAL, eps));
        RandomStream rng = seeded(static_cast<uint8_t>(w + 10 * eps + spec.geometry));
        CHECK(test::chi_square(histogram(p.size(), [&] { return mech.privatize(rng, w); }), p).p_value > test::kAlpha);
        // Broken: exp(-eps d) (the missing /2 doubles the effective epsilon).
        std::vector<double> lw(p.size());
        for (uint32_t o = 0; o < p.size(); ++o) lw[o] = -eps * toy_distance(spec, w, o);
        CHECK(test::chi_square(histogram(p.size(), [&] { return gumbel_argmax(rng, lw); }), p).p_value < test::kAlpha);
      }
    }
  }
}

TEST_CASE("exponential: out-of-vocabulary words are scored from the origin") {
  Toy toy(test::grid_2d_spec());
  test::ToyModelSpec with_origin = toy.spec;
  with_origin.words.push_back("origin");
  with_origin.vectors.push_back({0.0f, 0.0f});
  // The softmax from the origin over the 20 real words (the added "origin"
  // row only supplies the centre).
  auto p = softmax_law(with_origin, 20, 1.0);
  p.pop_back();
  double z = 0;
  for (double x : p) z += x;
  for (double& x : p) x /= z;
  ExponentialMechanism mech(*toy.model, params(DXT_MECHANISM_EXPONENTIAL, 2.0));
  RandomStream rng = seeded(91);
  CHECK(test::chi_square(histogram(p.size(), [&] { return mech.privatize(rng, std::nullopt); }), p).p_value >
        test::kAlpha);
}

TEST_CASE("exponential (permute-and-flip) matches its exact law, which differs from the softmax") {
  Toy toy(test::grid_2d_spec());
  for (uint32_t w : {0u, 12u}) {
    for (double eps : {1.0, 3.0}) {
      CAPTURE(w);
      CAPTURE(eps);
      const auto pf = permute_and_flip_law(toy.spec, w, eps);
      double total = 0;
      for (double x : pf) total += x;
      CHECK(total == doctest::Approx(1.0).epsilon(1e-9));
      MechanismParams mp = params(DXT_MECHANISM_EXPONENTIAL, eps);
      mp.sampler = DXT_SAMPLER_PERMUTE_AND_FLIP;
      ExponentialMechanism mech(*toy.model, mp);
      RandomStream rng = seeded(static_cast<uint8_t>(40 + w + eps));
      const auto counts = histogram(pf.size(), [&] { return mech.privatize(rng, w); });
      CHECK(test::chi_square(counts, pf).p_value > test::kAlpha);
      // The same draws are not distributed as the softmax: the test can tell
      // the two samplers apart.
      CHECK(test::chi_square(counts, softmax_law(toy.spec, w, eps / 2)).p_value < test::kAlpha);
    }
  }
}

namespace {

// Replays fixed 64-bit words (as next_u64 reads them), then zeros.
class ScriptedBytes final : public ByteSource {
 public:
  explicit ScriptedBytes(std::vector<uint64_t> words) : words_(std::move(words)) {}
  void fill(uint8_t* out, size_t n) override {
    for (size_t i = 0; i < n; ++i, ++at_)
      out[i] = at_ / 8 < words_.size() ? static_cast<uint8_t>(words_[at_ / 8] >> (8 * (at_ % 8))) : 0;
  }
  dxt_rng_mode mode() const override { return DXT_RNG_DETERMINISTIC; }

 private:
  std::vector<uint64_t> words_;
  size_t at_ = 0;
};

}  // namespace

TEST_CASE("permute-and-flip accepts a word exp(-800) behind exactly when its exponential draw reaches 800") {
  // Two words 16 apart at eps = 100: from "a" the word "b" is accepted with
  // probability e^-800, below the smallest double. Accepting when
  // uniform() <= exp(-800) = 0 would never release it from "a" (while "b"
  // releases itself), an impossibility no epsilon bounds.
  test::ToyModelSpec spec;
  spec.words = {"a", "b"};
  spec.vectors = {{0, 0}, {16, 0}};
  Toy toy(spec);
  MechanismParams mp = params(DXT_MECHANISM_EXPONENTIAL, 100.0);
  mp.sampler = DXT_SAMPLER_PERMUTE_AND_FLIP;
  ExponentialMechanism mech(*toy.model, mp);
  // One draw: uniform_index(2) picks position 1 ("b") first (an odd word);
  // b's exponential is U = 2^-(j+1), E = (j+1) ln 2; uniform_index(1) reads
  // one word; a's exponential (U >= 1/2) accepts.
  auto draw = [&](uint64_t j) {
    std::vector<uint64_t> words = {1};
    for (uint64_t z = 0; z < j / 64; ++z) words.push_back(0);
    words.push_back(uint64_t{1} << (63 - j % 64));
    words.push_back(0);  // the mantissa's top-up (when the leading one is not the top bit)
    words.push_back(0);  // uniform_index(1)
    words.push_back(uint64_t{1} << 63);
    words.push_back(0);
    RandomStream rng(std::make_unique<ScriptedBytes>(words));
    return mech.privatize(rng, 0u);
  };
  CHECK(draw(1153) == 0u);  // E = 1154 ln 2 = 799.9 < 800: rejected, "a" released
  CHECK(draw(1154) == 1u);  // E = 1155 ln 2 = 800.6: "b" released
}

TEST_CASE("tem matches exp(-eps min(d, gamma)/2); untruncated and unweighted-bottom variants are rejected") {
  Toy toy(test::grid_2d_spec());
  for (uint32_t w : {0u, 12u}) {
    for (double gamma : {0.8, 1.6}) {
      const double eps = 2.0;
      CAPTURE(w);
      CAPTURE(gamma);
      const auto p = softmax_law(toy.spec, w, eps / 2, [gamma](double d) { return std::min(d, gamma); });
      MechanismParams mp = params(DXT_MECHANISM_TEM, eps);
      mp.tem_gamma = gamma;
      TemMechanism mech(*toy.model, mp);
      RandomStream rng = seeded(static_cast<uint8_t>(70 + w + 10 * gamma));
      CHECK(test::chi_square(histogram(p.size(), [&] { return mech.privatize(rng, w); }), p).p_value > test::kAlpha);
      // Broken 1: no truncation (the plain exponential mechanism).
      std::vector<double> lw(p.size());
      for (uint32_t o = 0; o < p.size(); ++o) lw[o] = -eps / 2 * toy_distance(toy.spec, w, o);
      CHECK(test::chi_square(histogram(p.size(), [&] { return gumbel_argmax(rng, lw); }), p).p_value < test::kAlpha);
      // Broken 2: bottom scored -gamma without the ln |V \ L_w| term, i.e. the
      // outside words share one candidate's weight.
      const auto broken = [&]() -> uint32_t {
        std::vector<uint32_t> outside;
        std::vector<double> inside_lw;
        std::vector<uint32_t> inside;
        for (uint32_t o = 0; o < p.size(); ++o) {
          const double d = toy_distance(toy.spec, w, o);
          if (d > gamma) {
            outside.push_back(o);
          } else {
            inside.push_back(o);
            inside_lw.push_back(-eps / 2 * d);
          }
        }
        inside_lw.push_back(-eps / 2 * gamma);
        const uint32_t k = gumbel_argmax(rng, inside_lw);
        if (k < inside.size()) return inside[k];
        return outside[uniform_index(rng, static_cast<uint32_t>(outside.size()))];
      };
      CHECK(test::chi_square(histogram(p.size(), broken), p).p_value < test::kAlpha);
    }
  }
}

TEST_CASE("tem on d_H at an epsilon the hyperbolic mechanism refuses matches exp(-eps min(d_H, gamma)/2)") {
  Toy toy(test::poincare_2d_spec());
  for (uint32_t w : {0u, 7u}) {
    const double eps = 0.5, gamma = 1.5;
    CAPTURE(w);
    const auto p = softmax_law(toy.spec, w, eps / 2, [gamma](double d) { return std::min(d, gamma); });
    MechanismParams mp = params(DXT_MECHANISM_TEM, eps);
    mp.tem_gamma = gamma;
    TemMechanism mech(*toy.model, mp);
    RandomStream rng = seeded(static_cast<uint8_t>(90 + w));
    CHECK(test::chi_square(histogram(p.size(), [&] { return mech.privatize(rng, w); }), p).p_value > test::kAlpha);
  }
}

TEST_CASE("tem: gamma from beta follows the paper's formula") {
  Toy toy(test::grid_2d_spec());
  MechanismParams mp = params(DXT_MECHANISM_TEM, 2.0);
  mp.tem_beta = 0.01;
  TemMechanism mech(*toy.model, mp);
  CHECK(mech.gamma() == doctest::Approx(2.0 / 2.0 * std::log(0.99 * 19 / 0.01)));
  mp.tem_beta = 1.5;
  CHECK_THROWS_AS(TemMechanism(*toy.model, mp), Error);
}

TEST_CASE("vickrey matches the integrated law of laplace noise with the 1st/2nd choice; broken variants fail") {
  Toy toy(test::grid_2d_spec());
  const auto& spec = toy.spec;
  for (double t : {0.5, 0.75}) {
    for (uint32_t w : {0u, 12u}) {
      const double eps = 2.0;
      CAPTURE(t);
      CAPTURE(w);
      // Reference: integrate over the planar laplace noise around phi(w).
      std::vector<double> p(spec.words.size(), 0), swapped(spec.words.size(), 0), plain(spec.words.size(), 0);
      test::for_each_polar_point(test::planar_laplace_radius_cdf(eps), 2000, 2000,
                                 [&](double r, double c, double s, double weight) {
                                   const double x = spec.vectors[w][0] + r * c, y = spec.vectors[w][1] + r * s;
                                   uint32_t b1 = 0, b2 = 0;
                                   double d1 = INFINITY, d2 = INFINITY;
                                   for (uint32_t v = 0; v < spec.words.size(); ++v) {
                                     const double d = std::hypot(x - spec.vectors[v][0], y - spec.vectors[v][1]);
                                     if (d < d1) {
                                       b2 = b1, d2 = d1, b1 = v, d1 = d;
                                     } else if (d < d2) {
                                       b2 = v, d2 = d;
                                     }
                                   }
                                   const double first = (1 - t) * d2 / (t * d1 + (1 - t) * d2);
                                   p[b1] += weight * first;
                                   p[b2] += weight * (1 - first);
                                   swapped[b1] += weight * (1 - first);
                                   swapped[b2] += weight * first;
                                   plain[b1] += weight;
                                 });
      MechanismParams mp = params(DXT_MECHANISM_VICKREY, eps);
      mp.vickrey_t = t;
      VickreyMechanism mech(*toy.model, mp);
      RandomStream rng = seeded(static_cast<uint8_t>(120 + w + 10 * t));
      const auto counts = histogram(p.size(), [&] { return mech.privatize(rng, w); });
      CHECK(test::chi_square(counts, p).p_value > test::kAlpha);
      // The same draws must not fit p read as the probability of the second
      // word, nor plain laplace (t ignored).
      CHECK(test::chi_square(counts, swapped).p_value < test::kAlpha);
      CHECK(test::chi_square(counts, plain).p_value < test::kAlpha);
    }
  }
}

TEST_CASE("vickrey: t outside [0, 1] is rejected; t = 0 is laplace's nearest word") {
  Toy toy(test::grid_2d_spec());
  MechanismParams mp = params(DXT_MECHANISM_VICKREY, 2.0);
  mp.vickrey_t = 1.5;
  CHECK_THROWS_AS(VickreyMechanism(*toy.model, mp), Error);
  CHECK(VickreyMechanism::first_probability(0, 1, 2) == 1);
  CHECK(VickreyMechanism::first_probability(1, 1, 2) == 0);
  CHECK(VickreyMechanism::first_probability(0.5, 1, 3) == doctest::Approx(0.75));
}
