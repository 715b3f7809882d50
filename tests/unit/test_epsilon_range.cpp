// SPDX-License-Identifier: Apache-2.0
// The range of epsilon (docs/guarantees.md, "The range of epsilon"): at both
// ends of [DXT_EPSILON_MIN, DXT_EPSILON_MAX] the worst-case draw keeps every
// intermediate finite on a model with rows of norm 1e12 (the bound the
// argument assumes), while beyond the ends the same arithmetic overflows:
// which is why such epsilon is refused.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dxtext/dxtext.h"
#include "errors/error.hpp"
#include "mechanisms/exponential_mechanism.hpp"
#include "mechanisms/laplace_mechanism.hpp"
#include "mechanisms/mechanism.hpp"
#include "rng/byte_source.hpp"
#include "rng/random_stream.hpp"
#include "search/exact_scan.hpp"
#include "search/kernels.hpp"
#include "support/toy_models.hpp"

namespace {

using namespace dxt;

// The largest Exp(1) draw there is: 1024 zero words (65,536 zero bits, the
// most a generator may return before it is declared broken), then a word
// whose leading one is its last bit, then a zero word for the mantissa:
// U = 2^-65600, E = 65600 ln 2 = 45 470.3 (RandomStream::uniform_parts). The
// pattern repeats, so every Exp(1) draw of a radius, which come first and
// aligned, is that largest value, and every radius is the largest the
// sampler can return for the epsilon.
class LargestExponentials final : public ByteSource {
 public:
  void fill(uint8_t* out, size_t n) override {
    for (size_t i = 0; i < n; ++i, ++at_) {
      const size_t word = at_ / 8 % kPeriodWords, byte = at_ % 8;
      out[i] = word == 1024 && byte == 0 ? 1 : 0;  // little-endian: the value 1
    }
  }
  dxt_rng_mode mode() const override { return DXT_RNG_DETERMINISTIC; }

 private:
  static constexpr size_t kPeriodWords = 1026;
  size_t at_ = 0;
};

constexpr double kLargestExponential = 65600 * 0.69314718055994530942;

// Four-dimensional rows of norm up to 1e12; "e" (index 4) is nearest the
// origin, so an argmax that collapses to index 0 is told apart.
test::ToyModelSpec large_rows() {
  test::ToyModelSpec s;
  s.words = {"a", "b", "c", "d", "e"};
  s.vectors = {{1e12f, 0, 0, 0}, {0, 1e12f, 0, 0}, {-1e12f, 0, 0, 0}, {0, 0, 1e12f, 0}, {0, 0, 0, 5e11f}};
  return s;
}

struct Toy {
  test::AlignedBytes bytes{test::build_model_bytes(large_rows())};
  std::shared_ptr<const Model> model = test::open_bytes(bytes);
};

MechanismParams params(dxt_mechanism id, double epsilon) {
  MechanismParams p;
  p.id = id;
  p.epsilon = epsilon;
  return p;
}

bool all_finite(const std::vector<float>& v) {
  for (float x : v)
    if (!std::isfinite(x)) return false;
  return true;
}

}  // namespace

TEST_CASE("laplace at DXT_EPSILON_MIN: the largest possible radius keeps the point and every score finite") {
  Toy toy;
  const uint32_t n = toy.model->dimension();
  std::vector<float> point(n);
  std::vector<double> direction(n);
  for (uint32_t w = 0; w < toy.model->vocabulary_size(); ++w) {
    CAPTURE(w);
    RandomStream rng(std::make_unique<LargestExponentials>());
    LaplaceMechanism::noisy_point(*toy.model, DXT_EPSILON_MIN, rng, w, point.data(), direction.data());
    REQUIRE(all_finite(point));
    // The draw was the extreme one: the point lies n * 45 470 / eps from phi(w).
    std::vector<float> row(n);
    toy.model->row(w, row.data());
    double moved = 0;
    for (uint32_t i = 0; i < n; ++i) moved += (double{point[i]} - row[i]) * (double{point[i]} - row[i]);
    CHECK(std::sqrt(moved) == doctest::Approx(kLargestExponential * n / DXT_EPSILON_MIN).epsilon(1e-6));
    for (uint32_t v = 0; v < toy.model->vocabulary_size(); ++v)
      CHECK(std::isfinite(euclidean_score(*toy.model, scan_kernels(), v, point.data())));
  }
  // Beyond the end the same draw overflows binary32.
  RandomStream rng(std::make_unique<LargestExponentials>());
  LaplaceMechanism::noisy_point(*toy.model, 1e-300, rng, 0u, point.data(), direction.data());
  CHECK_FALSE(all_finite(point));
}

TEST_CASE("exponential at DXT_EPSILON_MAX: scores stay finite, so the nearest word to the origin wins") {
  Toy toy;
  // At eps = 1e6 the score gaps -eps * d / 2 between the words are ~1e5 and
  // more, so the word of the highest score ("e", nearest the origin) wins
  // every draw (another word would need a Gumbel gap of 1e5: probability
  // below e^-100000).
  std::array<uint8_t, 32> seed{};
  seed[0] = 0xE5;
  RandomStream rng(make_keyed_stream(seed));
  ExponentialMechanism at_max(*toy.model, params(DXT_MECHANISM_EXPONENTIAL, DXT_EPSILON_MAX));
  for (int k = 0; k < 20; ++k) CHECK(at_max.privatize(rng, std::nullopt) == 4u);
  // Beyond any sane range eps * d overflows to -infinity for every word: the
  // law is gone, which is why make_mechanism refuses such an epsilon (next
  // test). Built directly, the mechanism neither crashes nor draws: with no
  // finite score the race has no winner and the nearest candidate stands for
  // the limit (docs/guarantees.md, "The range of epsilon").
  ExponentialMechanism beyond(*toy.model, params(DXT_MECHANISM_EXPONENTIAL, 1e300));
  for (int k = 0; k < 20; ++k) CHECK(beyond.privatize(rng, std::nullopt) == 4u);
}

TEST_CASE("make_mechanism refuses epsilon just outside the range, for every mechanism") {
  Toy toy;
  for (int id = DXT_MECHANISM_LAPLACE; id <= DXT_MECHANISM_TEM; ++id) {
    for (double eps : {std::nextafter(DXT_EPSILON_MIN, 0.0), std::nextafter(DXT_EPSILON_MAX, HUGE_VAL)}) {
      CAPTURE(id);
      CAPTURE(eps);
      try {
        (void)make_mechanism(*toy.model, params(static_cast<dxt_mechanism>(id), eps));
        FAIL("accepted");
      } catch (const Error& e) {
        CHECK(e.status() == DXT_E_INVALID_EPSILON);
        CHECK(std::string(e.what()).find("epsilon must be from 1e-06 to 1000000") != std::string::npos);
        CHECK(std::string(e.what()).find("DXT_") == std::string::npos);
      }
    }
  }
}
