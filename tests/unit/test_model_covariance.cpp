// SPDX-License-Identifier: Apache-2.0
// The covariance section (kind 9, format 1.1; docs/format.md §11): written
// while streaming, read back equal to a direct two-pass computation, checked
// for size at open and for values at first use; files without it stay 1.0.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "errors/error.hpp"
#include "model/converters.hpp"
#include "model/format.hpp"
#include "model/model.hpp"
#include "model/model_writer.hpp"
#include "model/sha256.hpp"
#include "support/toy_models.hpp"

using namespace dxt;

namespace {

// Deterministic rows with an offset mean and correlated columns, so that the
// covariance is not diagonal and the mean is far from 0 (a naive
// sum-of-squares formula would lose digits).
std::vector<std::vector<float>> rows(uint32_t V, uint32_t D) {
  std::vector<std::vector<float>> out(V, std::vector<float>(D));
  uint64_t state = 12345;
  auto next = [&] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<double>(state >> 11) / 9007199254740992.0 - 0.5;
  };
  for (uint32_t v = 0; v < V; ++v) {
    const double common = next();
    for (uint32_t i = 0; i < D; ++i) out[v][i] = static_cast<float>(100.0 + 0.7 * common * (i + 1) + next() * 0.3);
  }
  return out;
}

std::string write(const std::vector<std::vector<float>>& r, dxt_quantization q, bool with_covariance) {
  std::stringstream out(std::ios::in | std::ios::out | std::ios::binary);
  ModelWriterOptions o;
  o.dimension = static_cast<uint32_t>(r[0].size());
  o.quantization = q;
  o.with_covariance = with_covariance;
  ModelWriter w(out, o);
  for (size_t v = 0; v < r.size(); ++v) w.add("w" + std::to_string(v), r[v].data());
  w.finish();
  return out.str();
}

// Two passes in long double over the dequantised rows: mean, then centred
// products, divided by V - 1.
std::vector<double> direct_covariance(const Model& m) {
  const uint32_t V = m.vocabulary_size(), D = m.dimension();
  std::vector<float> row(D);
  std::vector<long double> mean(D, 0), c(uint64_t{D} * D, 0);
  for (uint32_t v = 0; v < V; ++v) {
    m.row(v, row.data());
    for (uint32_t i = 0; i < D; ++i) mean[i] += row[i];
  }
  for (auto& x : mean) x /= V;
  for (uint32_t v = 0; v < V; ++v) {
    m.row(v, row.data());
    for (uint32_t i = 0; i < D; ++i)
      for (uint32_t j = 0; j < D; ++j) c[i * D + j] += (row[i] - mean[i]) * (row[j] - mean[j]);
  }
  std::vector<double> out(c.size());
  for (size_t k = 0; k < c.size(); ++k) out[k] = static_cast<double>(c[k] / (V - 1));
  return out;
}

dxt_status open_status(const std::string& bytes, bool verify = false) {
  test::AlignedBytes b(bytes);
  ModelOpenOptions o;
  o.verify_digests = verify;
  try {
    Model::open_memory(b.data(), b.size, o);
  } catch (const Error& e) {
    return e.status();
  }
  return DXT_OK;
}

// The section-table entry of `kind`, or npos.
size_t entry_of(const std::string& b, uint32_t kind) {
  const uint32_t n = format::load_u32(reinterpret_cast<const uint8_t*>(b.data()) + format::header::kSectionCount);
  for (uint32_t s = 0; s < n; ++s) {
    const size_t e = format::kHeaderFixedSize + s * format::kSectionEntrySize;
    if (format::load_u32(reinterpret_cast<const uint8_t*>(b.data()) + e) == kind) return e;
  }
  return std::string::npos;
}

void rehash_header(std::string& b) {
  const auto* p = reinterpret_cast<const uint8_t*>(b.data());
  const uint32_t header_size = format::load_u32(p + format::header::kHeaderSize);
  std::string copy = b.substr(0, header_size);
  std::memset(&copy[format::header::kHeaderDigest], 0, format::kDigestSize);
  const Digest d = sha256(copy.data(), copy.size());
  std::memcpy(&b[format::header::kHeaderDigest], d.data(), d.size());
}

uint64_t section_offset(const std::string& b, uint32_t kind) {
  return format::load_u64(reinterpret_cast<const uint8_t*>(b.data()) + entry_of(b, kind) + format::entry::kOffset);
}

}  // namespace

TEST_CASE("covariance: writer -> reader round trip equals a direct computation") {
  // 1000 rows: three full blocks of 256 and a partial one.
  const auto r = rows(1000, 6);
  for (dxt_quantization q : {DXT_QUANT_F32, DXT_QUANT_F16, DXT_QUANT_INT8}) {
    CAPTURE(q);
    const test::AlignedBytes b(write(r, q, true));
    const auto m = test::open_bytes(b);
    CHECK(m->format_minor() == 1);
    REQUIRE(m->has_covariance());
    const double* c = m->covariance();
    REQUIRE(c != nullptr);
    const std::vector<double> expected = direct_covariance(*m);
    double largest = 0;
    for (double x : expected) largest = std::max(largest, std::fabs(x));
    for (uint32_t i = 0; i < 6; ++i)
      for (uint32_t j = 0; j < 6; ++j) {
        CAPTURE(i);
        CAPTURE(j);
        CHECK(std::fabs(c[i * 6 + j] - expected[i * 6 + j]) <= 1e-12 * largest);
        CHECK(c[i * 6 + j] == c[j * 6 + i]);  // exactly symmetric
      }
    CHECK(c[0 * 6 + 5] > 0.1 * largest);  // correlated columns: not diagonal
  }
}

TEST_CASE("covariance: absent unless asked for; files without it are 1.0") {
  const auto r = rows(10, 3);
  const test::AlignedBytes b(write(r, DXT_QUANT_F32, false));
  const auto m = test::open_bytes(b);
  CHECK(m->format_major() == 1);
  CHECK(m->format_minor() == 0);
  CHECK_FALSE(m->has_covariance());
  CHECK(m->covariance() == nullptr);
  // The committed golden 1.0 file opens and has none either.
  const auto g = Model::open_file(std::string(DXT_TEST_DATA_DIR) + "/golden_v1.dxe", ModelOpenOptions{true});
  CHECK(g->format_minor() == 0);
  CHECK_FALSE(g->has_covariance());
}

TEST_CASE("covariance: one row gives zeros; a single block and exactly one block work") {
  for (uint32_t V : {1u, 5u, 256u, 257u}) {
    CAPTURE(V);
    const auto r = rows(V, 4);
    const test::AlignedBytes b(write(r, DXT_QUANT_F32, true));
    const auto m = test::open_bytes(b);
    const double* c = m->covariance();
    if (V == 1) {
      for (int k = 0; k < 16; ++k) CHECK(c[k] == 0.0);
      continue;
    }
    const auto expected = direct_covariance(*m);
    for (int k = 0; k < 16; ++k) CHECK(c[k] == doctest::Approx(expected[static_cast<size_t>(k)]).epsilon(1e-10));
  }
}

TEST_CASE("covariance: the converter writes it on request") {
  std::istringstream in("a 1 2\nb 3 1\nc 0 0\n");
  std::stringstream out(std::ios::in | std::ios::out | std::ios::binary);
  ConvertOptions o;
  o.with_covariance = true;
  convert_embeddings(in, out, o);
  const test::AlignedBytes b(out.str());
  const auto m = test::open_bytes(b);
  REQUIRE(m->has_covariance());
  // x = (1, 3, 0), y = (2, 1, 0): var x = 7/3, var y = 1, cov = 1/2.
  CHECK(m->covariance()[0] == doctest::Approx(7.0 / 3));
  CHECK(m->covariance()[1] == doctest::Approx(0.5));
  CHECK(m->covariance()[3] == doctest::Approx(1.0));
}

TEST_CASE("covariance: damaged sections give DXT_E_CORRUPT_MODEL or a digest mismatch") {
  const std::string good = write(rows(20, 3), DXT_QUANT_F32, true);
  REQUIRE(open_status(good, true) == DXT_OK);
  const size_t e = entry_of(good, 9);
  REQUIRE(e != std::string::npos);
  const uint64_t offset = section_offset(good, 9);

  SUBCASE("wrong size (checked at open)") {
    std::string b = good;
    format::store_u64(reinterpret_cast<uint8_t*>(&b[e + format::entry::kSize]), 3 * 3 * 8 - 8);
    rehash_header(b);
    CHECK(open_status(b) == DXT_E_CORRUPT_MODEL);
  }
  SUBCASE("a second covariance section") {
    // The row-norms entry relabelled as kind 9: a known kind appears twice.
    std::string b = good;
    const size_t norms = entry_of(b, 7);
    format::store_u32(reinterpret_cast<uint8_t*>(&b[norms]), 9);
    rehash_header(b);
    CHECK(open_status(b) == DXT_E_CORRUPT_MODEL);
  }
  SUBCASE("a byte changed: the digest catches it when verifying") {
    std::string b = good;
    b[offset + 3] ^= 0x10;
    CHECK(open_status(b, true) == DXT_E_DIGEST_MISMATCH);
  }
  SUBCASE("non-finite or asymmetric values: found at first use, not at open") {
    for (const bool nan : {true, false}) {
      CAPTURE(nan);
      std::string b = good;
      double v = nan ? std::numeric_limits<double>::quiet_NaN() : 1234.5;
      std::memcpy(&b[offset + 8 * 1], &v, 8);  // element (0, 1) only
      test::AlignedBytes bytes(b);
      std::shared_ptr<const Model> m;
      REQUIRE_NOTHROW(m = test::open_bytes(bytes));
      for (int attempt = 0; attempt < 2; ++attempt) {  // stays an error
        try {
          m->covariance();
          FAIL("expected DXT_E_CORRUPT_MODEL");
        } catch (const Error& err) {
          CHECK(err.status() == DXT_E_CORRUPT_MODEL);
          CHECK(std::string(err.what()).find(nan ? "not finite" : "not symmetric") != std::string::npos);
        }
      }
    }
  }
}

TEST_CASE("covariance: the writer refuses dimensions above 4096") {
  std::stringstream out(std::ios::in | std::ios::out | std::ios::binary);
  ModelWriterOptions o;
  o.dimension = 4097;
  o.with_covariance = true;
  CHECK_THROWS_AS(ModelWriter(out, o), Error);
}
