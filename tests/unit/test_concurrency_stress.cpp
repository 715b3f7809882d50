// SPDX-License-Identifier: Apache-2.0
// Concurrency stress: many threads share one model, each with its own
// context, and privatise concurrently (texts, words, bags, every Euclidean
// mechanism, contexts created and destroyed on the fly, the lazily computed
// fingerprint and covariance first touched by all threads at once).
// Checks: every call succeeds, every output is a vocabulary word, and the
// output distribution of one word under laplace is the same as a
// single-thread run (chi-square test of homogeneity at alpha = 1e-6).
//
// Bounded to DXT_STRESS_SECONDS (default 2) of concurrent work, so it runs
// in the unit suite; the ThreadSanitizer job (tools/ci/21-tsan.sh) runs it
// too. Set DXT_STRESS_SECONDS=600 for a long local run.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "dxtext/dxtext.h"
#include "model/model_writer.hpp"
#include "support/release_outputs.hpp"
#include "support/statistics.hpp"
#include "support/toy_models.hpp"
#include "unicode/utf8.hpp"

namespace {

using dxt::test::AlignedBytes;

constexpr uint32_t kThreads = 8;
constexpr uint32_t kProbe = 7;  // the word whose output distribution is compared
constexpr double kProbeEpsilon = 1.0;

// The 20-word grid with a covariance section (for mahalanobis).
std::string model_bytes() {
  const dxt::test::ToyModelSpec s = dxt::test::grid_2d_spec();
  std::stringstream out(std::ios::in | std::ios::out | std::ios::binary);
  dxt::ModelWriterOptions o;
  o.dimension = 2;
  o.lowercase = true;
  o.with_covariance = true;
  dxt::ModelWriter w(out, o);
  for (size_t i = 0; i < s.words.size(); ++i) w.add(s.words[i], s.vectors[i].data(), 0);
  w.finish();
  return out.str();
}

double stress_seconds() {
  const char* env = std::getenv("DXT_STRESS_SECONDS");
  return env != nullptr ? std::strtod(env, nullptr) : 2.0;
}

// Every word of a privatised text must be a vocabulary word (the sentences
// below hold only vocabulary words, spaces and punctuation).
bool words_in_vocabulary(dxt_model* m, const std::string& text) {
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == ',' || text[i] == '.')) ++i;
    size_t j = i;
    while (j < text.size() && text[j] != ' ' && text[j] != ',' && text[j] != '.') ++j;
    if (j > i) {
      uint32_t index = 0;
      if (dxt_model_lookup(m, text.data() + i, j - i, &index) != DXT_OK) return false;
    }
    i = j;
  }
  return true;
}

struct Failures {
  std::mutex mutex;
  std::vector<std::string> messages;
  void add(const std::string& m) {
    std::lock_guard<std::mutex> lock(mutex);
    if (messages.size() < 20) messages.push_back(m);
  }
};

// Draws of the probe word on `ctx` until `stop`, into `counts`.
void probe_draws(dxt_context* ctx, std::vector<uint64_t>& counts, uint32_t draws, Failures& failures) {
  dxt_privatize_options o;
  dxt_privatize_options_init(&o);
  o.epsilon = kProbeEpsilon;
  for (uint32_t k = 0; k < draws; ++k) {
    uint32_t out = 0;
    const dxt_status s = dxt_privatize_index(ctx, &o, kProbe, &out, nullptr, nullptr);
    if (s != DXT_OK || out >= counts.size()) {
      failures.add(std::string("probe draw failed: ") + dxt_last_error_message());
      return;
    }
    ++counts[out];
  }
}

void worker(dxt_model* model, uint32_t id, const std::atomic<bool>& stop, std::vector<uint64_t>& probe_counts,
            std::atomic<uint64_t>& calls, Failures& failures) {
  dxt_context* ctx = nullptr;
  if (dxt_context_create(model, nullptr, &ctx) != DXT_OK) {
    failures.add("context_create failed");
    return;
  }
  static const uint32_t kMechanisms[] = {DXT_MECHANISM_LAPLACE,     DXT_MECHANISM_EXPONENTIAL, DXT_MECHANISM_SYNTF,
                                         DXT_MECHANISM_MAHALANOBIS, DXT_MECHANISM_VICKREY,     DXT_MECHANISM_TEM};
  const std::string text = "W1 w2, w3 w4. w5 w6 w7 w8 w9 w10 w11 w12 w13 w14 w15 w16 w17 w18 w19 w0.";
  const dxt_bag_entry bag[] = {{"w1", 2, 3}, {"w12", 3, 2}, {"w19", 3, 1}};
  uint64_t round = 0;
  while (!stop.load(std::memory_order_relaxed)) {
    ++round;
    dxt_privatize_options o;
    dxt_privatize_options_init(&o);
    o.mechanism = kMechanisms[(round + id) % 6];
    o.epsilon = 0.5 + static_cast<double>((round * 7 + id) % 20);
    dxt::test::Reported report;
    char* out = nullptr;
    size_t len = 0;
    if (dxt_privatize_text(ctx, &o, text.data(), text.size(), &out, &len, &report.rec, &report.diag) != DXT_OK) {
      failures.add(std::string("privatize_text: ") + dxt_last_error_message());
      break;
    }
    const std::string result(out, len);
    dxt_text_free(out);
    if (!dxt::utf8::valid(result.data(), result.size()) || !words_in_vocabulary(model, result) ||
        !report.rec.fingerprint_valid || report.diag.words_privatized != 20)
      failures.add("invalid text output: " + result);

    dxt_bag* b = nullptr;
    if (dxt_privatize_bag(ctx, &o, bag, 3, &b, nullptr, nullptr) != DXT_OK) {
      failures.add(std::string("privatize_bag: ") + dxt_last_error_message());
      break;
    }
    uint64_t released = 0;
    for (size_t i = 0; i < b->size; ++i) released += b->entries[i].count;
    if (released != 6) failures.add("bag released " + std::to_string(released) + " words, not 6");
    dxt_bag_free(b);

    probe_draws(ctx, probe_counts, 200, failures);
    // Now and then a fresh context: creation and destruction race the
    // other threads' use of the shared model.
    if (round % 16 == 0) {
      dxt_context_destroy(ctx);
      ctx = nullptr;
      if (dxt_context_create(model, nullptr, &ctx) != DXT_OK) {
        failures.add("context_create failed");
        return;
      }
    }
    calls.fetch_add(3, std::memory_order_relaxed);
  }
  dxt_context_destroy(ctx);
}

// Chi-square test of homogeneity of two count vectors over the same cells;
// cells where both expected counts are below 5 are pooled.
dxt::test::ChiSquare homogeneity(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b) {
  double na = 0, nb = 0;
  for (size_t i = 0; i < a.size(); ++i) na += static_cast<double>(a[i]), nb += static_cast<double>(b[i]);
  const double n = na + nb;
  dxt::test::ChiSquare r;
  double pool_a = 0, pool_b = 0;
  int cells = 0;
  auto add = [&](double oa, double ob) {
    const double col = oa + ob;
    const double ea = col * na / n, eb = col * nb / n;
    r.statistic += (oa - ea) * (oa - ea) / ea + (ob - eb) * (ob - eb) / eb;
    ++cells;
  };
  for (size_t i = 0; i < a.size(); ++i) {
    const double col = static_cast<double>(a[i] + b[i]);
    if (col * std::min(na, nb) / n < 5) {
      pool_a += static_cast<double>(a[i]);
      pool_b += static_cast<double>(b[i]);
    } else {
      add(static_cast<double>(a[i]), static_cast<double>(b[i]));
    }
  }
  if (pool_a + pool_b > 0) add(pool_a, pool_b);
  r.degrees_of_freedom = std::max(cells - 1, 1);
  r.p_value = 1 - dxt::test::gamma_p(r.degrees_of_freedom / 2.0, r.statistic / 2);
  return r;
}

}  // namespace

TEST_CASE("concurrency stress: threads share one model, each with its own context") {
  const AlignedBytes bytes(model_bytes());
  dxt_model* model = nullptr;
  REQUIRE(dxt_model_open_memory(bytes.data(), bytes.size, nullptr, &model) == DXT_OK);
  dxt_model_info info;
  dxt_model_info_init(&info);
  REQUIRE(dxt_model_get_info(model, &info) == DXT_OK);

  std::atomic<bool> stop{false};
  std::atomic<uint64_t> calls{0};
  Failures failures;
  std::vector<std::vector<uint64_t>> per_thread(kThreads, std::vector<uint64_t>(info.vocabulary_size, 0));
  std::vector<std::thread> threads;
  for (uint32_t t = 0; t < kThreads; ++t)
    threads.emplace_back(worker, model, t, std::cref(stop), std::ref(per_thread[t]), std::ref(calls),
                         std::ref(failures));
  std::this_thread::sleep_for(std::chrono::duration<double>(stress_seconds()));
  stop = true;
  for (auto& t : threads) t.join();
  dxt_model_close(model);
  const double seconds = stress_seconds();

  for (const auto& m : failures.messages) FAIL_CHECK(m);
  REQUIRE(failures.messages.empty());

  std::vector<uint64_t> concurrent(info.vocabulary_size, 0);
  uint64_t draws = 0;
  for (const auto& c : per_thread)
    for (size_t i = 0; i < c.size(); ++i) concurrent[i] += c[i], draws += c[i];
  MESSAGE(kThreads << " threads, " << seconds << " s: " << calls.load() << " privatise calls, " << draws
                   << " probe draws");
  REQUIRE(draws >= 2000);

  // The same number of draws of the probe word on one thread, one context.
  const AlignedBytes bytes2(model_bytes());
  REQUIRE(dxt_model_open_memory(bytes2.data(), bytes2.size, nullptr, &model) == DXT_OK);
  dxt_context* ctx = nullptr;
  REQUIRE(dxt_context_create(model, nullptr, &ctx) == DXT_OK);
  std::vector<uint64_t> single(info.vocabulary_size, 0);
  probe_draws(ctx, single, static_cast<uint32_t>(std::min<uint64_t>(draws, 1000000)), failures);
  dxt_context_destroy(ctx);
  dxt_model_close(model);
  REQUIRE(failures.messages.empty());

  const dxt::test::ChiSquare chi = homogeneity(concurrent, single);
  MESSAGE("chi-square homogeneity: " << chi.statistic << " on " << chi.degrees_of_freedom
                                     << " degrees of freedom, p = " << chi.p_value);
  CHECK(chi.p_value > dxt::test::kAlpha);
}
