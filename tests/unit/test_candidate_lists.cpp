// SPDX-License-Identifier: Apache-2.0
// Candidate lists (search/candidate_lists.hpp) and their cache
// (mechanisms/candidate_cache.hpp): every bound holds for every row, in
// every quantisation, both orders, single and batched scans with and without
// the integer product; the lists are tight enough to be useful; the cache
// keeps its memory bound.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <random>
#include <set>
#include <vector>

#include "mechanisms/candidate_cache.hpp"
#include "mechanisms/candidate_selector.hpp"
#include "mechanisms/mechanism.hpp"
#include "rng/byte_source.hpp"
#include "search/candidate_lists.hpp"
#include "search/exact_scan.hpp"
#include "search/kernels.hpp"
#include "support/toy_models.hpp"

using namespace dxt;

namespace {

// Clusters of random vectors with varied norms, exact duplicates, a zero row
// and a row of tiny norm.
test::ToyModelSpec random_spec(dxt_quantization quant, uint32_t V, uint32_t D, uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  test::ToyModelSpec spec;
  spec.quantization = quant;
  for (uint32_t v = 0; v < V; ++v) {
    spec.words.push_back("w" + std::to_string(v));
    std::vector<float> x(D);
    const float centre = static_cast<float>(v % 11) * 0.3f, scale = 0.2f + static_cast<float>(v % 5);
    for (float& c : x) c = centre + scale * normal(gen);
    if (v % 97 == 5) x = spec.vectors[v - 1];  // a twin
    if (v == 7) std::fill(x.begin(), x.end(), 0.0f);
    if (v == 8)
      for (float& c : x) c *= 1e-4f;
    spec.vectors.push_back(x);
  }
  return spec;
}

// The exact value of every row, and the checks of a list against them.
void check_list(CandidateScanner& scanner, const Model& m, const double* x, const CandidateList& list,
                uint32_t list_size) {
  const uint32_t V = m.vocabulary_size();
  const double xx = squared_norm(x, m.dimension());
  const bool distance = scanner.order() == CandidateOrder::kDistance;
  std::vector<double> exact(V);
  for (uint32_t v = 0; v < V; ++v) exact[v] = scanner.exact(x, xx, v);
  auto holds = [distance](double bound, double value) { return distance ? bound <= value : bound >= value; };

  REQUIRE(list.members.size() <= list_size);
  REQUIRE(list.group_bound.size() == list.group_count());
  std::set<uint32_t> seen;
  for (size_t g = 0; g < list.group_count(); ++g) {
    CHECK(list.group_end[g] > list.group_begin(g));
    CHECK(list.group_end[g] - list.group_begin(g) <= (g == 0 ? 1u : 1u << (g - 1)));
    for (size_t i = list.group_begin(g); i < list.group_end[g]; ++i) {
      const uint32_t v = list.members[i];
      REQUIRE(v < V);
      CHECK(seen.insert(v).second);
      CHECK(holds(list.group_bound[g], exact[v]));
    }
  }
  if (!list.members.empty()) CHECK(list.group_end.back() == list.members.size());
  for (uint32_t v = 0; v < V; ++v)
    if (seen.count(v) == 0) CHECK(holds(list.rest_bound, exact[v]));
  // Useful, not only valid: the rest bound is close to the value of the
  // last member (the k-th best by the approximate keys), and the list
  // holds the best row.
  double best = distance ? INFINITY : -INFINITY;
  for (uint32_t v = 0; v < V; ++v) best = distance ? std::min(best, exact[v]) : std::max(best, exact[v]);
  if (!list.members.empty()) {
    const double last = exact[list.members.back()];
    CHECK(std::fabs(last - list.rest_bound) <= 0.05 * std::max(1.0, std::fabs(last)));
    CHECK(exact[list.members[0]] == doctest::Approx(best).epsilon(1e-3));
  }
}

std::vector<ScanKernels> kernel_variants() {
  // The chosen kernels, and the same without the integer product (rows
  // widened to f32 instead).
  std::vector<ScanKernels> out = {scan_kernels()};
  if (out[0].gemm_i8 != nullptr) {
    out.push_back(out[0]);
    out.back().gemm_i8 = nullptr;
  }
  return out;
}

}  // namespace

TEST_CASE("candidate lists: every bound holds for every row, single and batched, distances and cosines") {
  std::mt19937_64 gen(11);
  std::normal_distribution<double> normal(0.0, 1.0);
  for (dxt_quantization quant : {DXT_QUANT_F32, DXT_QUANT_F16, DXT_QUANT_INT8}) {
    const uint32_t V = 1500, D = 19;
    const test::ToyModelSpec spec = random_spec(quant, V, D, 5 + quant);
    const test::AlignedBytes bytes(test::build_model_bytes(spec));
    const auto model = test::open_bytes(bytes);
    const Model& m = *model;
    // Queries: rows (the twin, the zero row, the tiny row among them), the
    // origin, and points off the vocabulary.
    std::vector<double> points;
    std::vector<float> row(D);
    for (uint32_t v : {0u, 4u, 5u, 7u, 8u, 200u, 1499u}) {
      m.row(v, row.data());
      points.insert(points.end(), row.begin(), row.end());
    }
    for (int j = 0; j < 3; ++j)
      for (uint32_t i = 0; i < D; ++i) points.push_back(j == 0 ? 0.0 : 3 * j * normal(gen));
    const size_t count = points.size() / D;
    for (const ScanKernels& k : kernel_variants()) {
      for (CandidateOrder order : {CandidateOrder::kDistance, CandidateOrder::kCosine}) {
        for (uint32_t list_size : {1u, 16u, 64u}) {
          CAPTURE(static_cast<int>(quant));
          CAPTURE(k.name);
          CAPTURE(k.gemm_i8 != nullptr);
          CAPTURE(static_cast<int>(order));
          CAPTURE(list_size);
          CandidateScanner scanner(m, order, list_size, &k);
          std::vector<CandidateList> batched(count);
          scanner.build_batch(points.data(), count, batched.data());
          for (size_t j = 0; j < count; ++j) {
            CAPTURE(j);
            CandidateList single;
            scanner.build(points.data() + j * D, single);
            check_list(scanner, m, points.data() + j * D, single, list_size);
            check_list(scanner, m, points.data() + j * D, batched[j], list_size);
          }
        }
      }
    }
  }
}

TEST_CASE("candidate lists: more queries than one pass holds, and Poincare distances") {
  test::ToyModelSpec spec = random_spec(DXT_QUANT_INT8, 700, 8, 3);
  const test::AlignedBytes bytes(test::build_model_bytes(spec));
  const auto model = test::open_bytes(bytes);
  CandidateScanner scanner(*model, CandidateOrder::kDistance, 8);
  std::vector<double> points;
  std::vector<float> row(8);
  for (uint32_t v = 0; v < 300; ++v) {
    model->row(v * 2, row.data());
    points.insert(points.end(), row.begin(), row.end());
  }
  std::vector<CandidateList> lists(300);
  scanner.build_batch(points.data(), 300, lists.data());
  for (size_t j = 0; j < 300; j += 13) check_list(scanner, *model, points.data() + j * 8, lists[j], 8);

  const test::ToyModelSpec ball = test::poincare_2d_spec();
  const test::AlignedBytes ball_bytes(test::build_model_bytes(ball));
  const auto poincare = test::open_bytes(ball_bytes);
  CandidateScanner hyperbolic(*poincare, CandidateOrder::kDistance, 5);
  for (uint32_t w = 0; w < 20; ++w) {
    std::vector<double> x(ball.vectors[w].begin(), ball.vectors[w].end());
    CandidateList list;
    hyperbolic.build(x.data(), list);
    check_list(hyperbolic, *poincare, x.data(), list, 5);
    // Chosen by exact distances: the bounds are the members' own values.
    CHECK(list.group_bound[0] == hyperbolic.exact(x.data(), squared_norm(x.data(), 2), list.members[0]));
  }
}

TEST_CASE("candidate lists: a zero point has no cosine list") {
  const test::ToyModelSpec spec = random_spec(DXT_QUANT_F32, 50, 4, 9);
  const test::AlignedBytes bytes(test::build_model_bytes(spec));
  const auto model = test::open_bytes(bytes);
  CandidateScanner scanner(*model, CandidateOrder::kCosine, 4);
  const std::vector<double> zero(4, 0.0);
  CandidateList list;
  scanner.build(zero.data(), list);
  CHECK(list.members.empty());
  CHECK(list.group_count() == 0);
  CHECK(list.rest_bound == 0);
}

TEST_CASE("the candidate cache: four-way sets, least recently used out, memory bounded") {
  CHECK(CandidateCache(1).capacity() == 4);
  CHECK(CandidateCache(10).capacity() == 12);
  CandidateCache cache(4);  // one set: plain LRU over four entries
  auto list_of = [](uint32_t tag) {
    CandidateList l;
    l.members = {tag, tag + 1};
    l.group_end = {1, 2};
    l.group_bound = {0.5, 1.0};
    l.rest_bound = 2.0;
    return l;
  };
  for (uint32_t key = 0; key < 4; ++key) {
    CandidateList l = list_of(key * 10);
    cache.insert(key, l);
  }
  for (uint32_t key = 0; key < 4; ++key) REQUIRE(cache.find(key) != nullptr);
  CHECK(cache.find(2)->members[0] == 20);
  cache.find(0);  // 1 is now the least recently used
  CandidateList l = list_of(90);
  cache.insert(9, l);
  CHECK(cache.find(1) == nullptr);
  CHECK(cache.find(0) != nullptr);
  CHECK(cache.find(9)->members[0] == 90);
  CHECK(cache.find(4) == nullptr);

  // A real workload: lists of 64 members for 5000 keys through a cache of
  // 100 entries stay within 100 entries' worth of memory.
  const test::ToyModelSpec spec = random_spec(DXT_QUANT_INT8, 5000, 6, 2);
  const test::AlignedBytes bytes(test::build_model_bytes(spec));
  const auto model = test::open_bytes(bytes);
  CandidateSelector selector(*model, CandidateOrder::kDistance, 64, 100);
  for (uint32_t w = 0; w < 5000; w += 3) selector.list_for(w);
  CandidateCache big(100);
  CandidateScanner scanner(*model, CandidateOrder::kDistance, 64);
  std::vector<double> x(6);
  for (uint32_t w = 0; w < 2000; ++w) {
    selector.load_point(w, x.data());
    CandidateList built;
    scanner.build(x.data(), built);
    big.insert(w, built);
  }
  // Per entry: 64 members of 4 bytes, at most 7 groups of 12 bytes (their
  // vectors may have doubled once), and the slot itself.
  const size_t bound = big.capacity() * (sizeof(CandidateList) + 16 + 64 * 4 + 2 * 8 * 12);
  MESSAGE("cache of " << big.capacity() << " lists of 64: " << big.heap_bytes() << " bytes (bound " << bound << ")");
  CHECK(big.heap_bytes() <= bound);
}

TEST_CASE("the lazy race through the mechanisms: valid words, singly and in batches, whatever the cache holds") {
  // Not a test of the law (tests/stat/test_lazy_selection.cpp is): it runs
  // every path of the race (groups, the rest of the vocabulary, evictions,
  // batches longer than one build) on a vocabulary large enough to have a
  // rest, so that the sanitizer jobs see them.
  const test::ToyModelSpec spec = random_spec(DXT_QUANT_INT8, 900, 12, 21);
  const test::AlignedBytes bytes(test::build_model_bytes(spec));
  const auto model = test::open_bytes(bytes);
  std::array<uint8_t, 32> seed{};
  seed[0] = 0x33;
  RandomStream rng(make_keyed_stream(seed));
  for (dxt_mechanism id : {DXT_MECHANISM_EXPONENTIAL, DXT_MECHANISM_TEM, DXT_MECHANISM_SYNTF}) {
    for (uint32_t cache : {1u, 0u}) {
      CAPTURE(static_cast<int>(id));
      CAPTURE(cache);
      MechanismParams p;
      p.id = id;
      p.epsilon = 0.7;  // spread out: the rest of the vocabulary wins often
      p.candidate_list_size = 8;
      p.candidate_cache_entries = cache;
      const std::unique_ptr<Mechanism> m = make_mechanism(*model, p);
      std::vector<std::optional<uint32_t>> in(700);
      for (size_t j = 0; j < in.size(); ++j) in[j] = j % 50 == 0 ? std::nullopt : std::optional<uint32_t>(j * 7 % 900);
      std::vector<uint32_t> out(in.size());
      m->privatize_batch(rng, in.data(), in.size(), out.data());
      size_t moved = 0;
      for (size_t j = 0; j < in.size(); ++j) {
        REQUIRE(out[j] < 900);
        moved += !in[j] || out[j] != *in[j];
      }
      CHECK(moved > in.size() / 2);
      for (uint32_t w = 0; w < 900; w += 37) REQUIRE(m->privatize(rng, w) < 900);
      REQUIRE(m->privatize(rng, std::nullopt) < 900);
      CHECK(m->cache_bytes() > 0);
    }
  }
}
