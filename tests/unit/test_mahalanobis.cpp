// SPDX-License-Identifier: Apache-2.0
// The mahalanobis mechanism: parameters, the covariance requirement, the
// square root of Sigma_lambda, and lambda = 0 being exactly laplace.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "dxtext/dxtext.h"
#include "errors/error.hpp"
#include "mechanisms/laplace_mechanism.hpp"
#include "mechanisms/mahalanobis_mechanism.hpp"
#include "model/format.hpp"
#include "model/model_writer.hpp"
#include "support/toy_models.hpp"

using namespace dxt;

namespace {

std::string build(const test::ToyModelSpec& spec, bool with_covariance) {
  std::stringstream out(std::ios::in | std::ios::out | std::ios::binary);
  ModelWriterOptions o;
  o.dimension = static_cast<uint32_t>(spec.vectors[0].size());
  o.geometry = spec.geometry;
  o.with_covariance = with_covariance;
  ModelWriter w(out, o);
  for (size_t i = 0; i < spec.words.size(); ++i) w.add(spec.words[i], spec.vectors[i].data());
  w.finish();
  return out.str();
}

MechanismParams params(double eps, double lambda) {
  MechanismParams p;
  p.id = DXT_MECHANISM_MAHALANOBIS;
  p.epsilon = eps;
  p.mahalanobis_lambda = lambda;
  return p;
}

dxt_status status_of(const std::function<void()>& f, std::string* message = nullptr) {
  try {
    f();
  } catch (const Error& e) {
    if (message != nullptr) *message = e.what();
    return e.status();
  }
  return DXT_OK;
}

RandomStream seeded(uint8_t tag) {
  std::array<uint8_t, 32> seed{};
  seed[0] = tag;
  return RandomStream(make_keyed_stream(seed));
}

// n x n product of row-major matrices.
std::vector<double> multiply(const std::vector<double>& a, const std::vector<double>& b, size_t n) {
  std::vector<double> c(n * n, 0);
  for (size_t i = 0; i < n; ++i)
    for (size_t k = 0; k < n; ++k)
      for (size_t j = 0; j < n; ++j) c[i * n + j] += a[i * n + k] * b[k * n + j];
  return c;
}

}  // namespace

TEST_CASE("mahalanobis needs a covariance section, except at lambda = 0") {
  const auto spec = test::grid_2d_spec();
  const test::AlignedBytes without(build(spec, false));
  const auto m = test::open_bytes(without);
  std::string message;
  CHECK(status_of([&] { MahalanobisMechanism(*m, params(1, 0.75)); }, &message) == DXT_E_UNSUPPORTED);
  CHECK(message.find("--covariance") != std::string::npos);
  CHECK(status_of([&] { MahalanobisMechanism(*m, params(1, 0)); }) == DXT_OK);

  // Through the C ABI too.
  dxt_model* model = nullptr;
  REQUIRE(dxt_model_open_memory(without.data(), without.size, nullptr, &model) == DXT_OK);
  dxt_context* ctx = nullptr;
  REQUIRE(dxt_context_create(model, nullptr, &ctx) == DXT_OK);
  dxt_privatize_options o;
  dxt_privatize_options_init(&o);
  o.mechanism = DXT_MECHANISM_MAHALANOBIS;
  o.epsilon = 1;
  CHECK(o.mahalanobis_lambda == 0.75);
  uint32_t out = 0;
  CHECK(dxt_privatize_index(ctx, &o, 3, &out, nullptr, nullptr) == DXT_E_UNSUPPORTED);
  CHECK(std::string(dxt_last_error_message()).find("reconvert") != std::string::npos);
  dxt_context_destroy(ctx);
  dxt_model_close(model);
}

TEST_CASE("mahalanobis parameters and geometry are validated") {
  const auto spec = test::grid_2d_spec();
  const test::AlignedBytes with(build(spec, true));
  const auto m = test::open_bytes(with);
  for (double lambda :
       {-0.01, 1.01, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    CAPTURE(lambda);
    CHECK(status_of([&] { MahalanobisMechanism(*m, params(1, lambda)); }) == DXT_E_INVALID_ARGUMENT);
  }
  CHECK(status_of([&] { make_mechanism(*m, params(0, 0.5)); }) == DXT_E_INVALID_EPSILON);
  for (double lambda : {0.0, 0.3, 1.0})
    CHECK(status_of([&] { MahalanobisMechanism(*m, params(1, lambda)); }) == DXT_OK);

  auto poincare = test::grid_2d_spec();
  poincare.geometry = DXT_GEOMETRY_POINCARE;
  for (auto& v : poincare.vectors) v = {v[0] / 10, v[1] / 10};
  const test::AlignedBytes ball(build(poincare, true));
  const auto pm = test::open_bytes(ball);
  CHECK(status_of([&] { MahalanobisMechanism(*pm, params(1, 0.5)); }) == DXT_E_UNSUPPORTED);
}

TEST_CASE("Sigma_lambda^(1/2): symmetric, squares to the regularised matrix, trace normalised") {
  // A 3x3 covariance with correlation and unequal variances.
  const std::vector<double> sigma = {0.4, 0.1, 0.05, 0.1, 0.2, -0.03, 0.05, -0.03, 0.1};
  const double trace = 0.7;
  for (double lambda : {0.0, 0.5, 0.75, 1.0}) {
    CAPTURE(lambda);
    const std::vector<double> s = MahalanobisMechanism::regularised_sqrt(sigma.data(), 3, lambda);
    const std::vector<double> sq = multiply(s, s, 3);
    for (size_t i = 0; i < 3; ++i)
      for (size_t j = 0; j < 3; ++j) {
        const double expected = lambda * sigma[i * 3 + j] * 3 / trace + (i == j ? 1 - lambda : 0);
        CHECK(sq[i * 3 + j] == doctest::Approx(expected).epsilon(1e-12));
        CHECK(s[i * 3 + j] == doctest::Approx(s[j * 3 + i]).epsilon(1e-12));
      }
  }
  // A multiple of the identity normalises to the identity for every lambda.
  const std::vector<double> scaled = {0.3, 0, 0, 0.3};
  const auto id = MahalanobisMechanism::regularised_sqrt(scaled.data(), 2, 0.8);
  CHECK(id[0] == doctest::Approx(1.0));
  CHECK(id[1] == doctest::Approx(0.0));
  CHECK(id[3] == doctest::Approx(1.0));
  // Singular at lambda = 1 (rank one), fine below it; a zero matrix has no trace.
  const std::vector<double> rank_one = {1, 1, 1, 1};
  CHECK(status_of([&] { MahalanobisMechanism::regularised_sqrt(rank_one.data(), 2, 1.0); }) == DXT_E_UNSUPPORTED);
  CHECK(status_of([&] { MahalanobisMechanism::regularised_sqrt(rank_one.data(), 2, 0.9); }) == DXT_OK);
  const std::vector<double> zero = {0, 0, 0, 0};
  CHECK(status_of([&] { MahalanobisMechanism::regularised_sqrt(zero.data(), 2, 0.5); }) == DXT_E_UNSUPPORTED);
}

TEST_CASE("mahalanobis at lambda = 0 is exactly the laplace mechanism") {
  const auto spec = test::grid_2d_spec();
  const test::AlignedBytes with(build(spec, true));
  const auto m = test::open_bytes(with);
  MahalanobisMechanism mahalanobis(*m, params(1.5, 0));
  MechanismParams lp = params(1.5, 0);
  lp.id = DXT_MECHANISM_LAPLACE;
  LaplaceMechanism laplace(*m, lp);
  RandomStream a = seeded(5), b = seeded(5);
  for (int t = 0; t < 2000; ++t) {
    const std::optional<uint32_t> w = t % 7 == 0 ? std::nullopt : std::optional<uint32_t>(t % 20);
    REQUIRE(mahalanobis.privatize(a, w) == laplace.privatize(b, w));
  }
}

TEST_CASE("mahalanobis reports its metric; a corrupt covariance is refused") {
  const auto spec = test::grid_2d_spec();
  std::string bytes = build(spec, true);
  {
    const test::AlignedBytes with(bytes);
    const auto m = test::open_bytes(with);
    MahalanobisMechanism mech(*m, params(2, 0.75));
    CHECK(mech.metric() == DXT_METRIC_MAHALANOBIS);
    CHECK(mech.sqrt_sigma().size() == 4);
    RandomStream rng = seeded(1);
    for (int t = 0; t < 100; ++t) CHECK(mech.privatize(rng, 4) < 20);
  }
  // An asymmetric covariance (element (0, 1) changed; digests not verified
  // at open): the mechanism refuses it when it is built.
  const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
  const uint32_t sections = format::load_u32(p + format::header::kSectionCount);
  uint64_t offset = 0;
  for (uint32_t k = 0; k < sections; ++k) {
    const uint8_t* e = p + format::kHeaderFixedSize + k * format::kSectionEntrySize;
    if (format::load_u32(e + format::entry::kKind) == 9) offset = format::load_u64(e + format::entry::kOffset);
  }
  REQUIRE(offset != 0);
  const double changed = 42;
  std::memcpy(&bytes[offset + 8], &changed, 8);
  const test::AlignedBytes damaged(bytes);
  const auto m = test::open_bytes(damaged);
  CHECK(status_of([&] { MahalanobisMechanism(*m, params(2, 0.75)); }) == DXT_E_CORRUPT_MODEL);
}
