// SPDX-License-Identifier: Apache-2.0
// The privacy ledger (include/dxtext/dxtext.h, "Privacy ledger"): budgets
// and refusal before any draw, memoisation and its eviction, the file's MAC
// against corrupted bytes, kill -9 at every step of a commit, and processes
// that share one ledger file.
#include <doctest/doctest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "abi/abi_support.hpp"
#include "accounting/ledger_file.hpp"
#include "accounting/privacy_ledger.hpp"
#include "dxtext/dxtext.h"
#include "model/hmac_sha256.hpp"
#include "rng/byte_source.hpp"
#include "rng/random_stream.hpp"
#include "support/toy_models.hpp"

namespace {

using dxt::test::AlignedBytes;

struct Toy {
  AlignedBytes bytes{dxt::test::build_model_bytes(dxt::test::grid_2d_spec())};
  dxt_model* model = nullptr;
  Toy() { REQUIRE(dxt_model_open_memory(bytes.data(), bytes.size, nullptr, &model) == DXT_OK); }
  ~Toy() { dxt_model_close(model); }
};

// A fresh directory for one test's ledger files, removed afterwards.
struct TempDir {
  std::string path;
  TempDir() {
    char tmpl[] = "/tmp/dxt-ledger-XXXXXX";
    REQUIRE(mkdtemp(tmpl) != nullptr);
    path = tmpl;
  }
  ~TempDir() {
    const std::string cmd = "rm -rf '" + path + "'";
    (void)std::system(cmd.c_str());
  }
  std::string file(const char* name) const { return path + "/" + name; }
};

std::vector<uint8_t> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

void write_bytes(const std::string& path, const std::vector<uint8_t>& b) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
}

dxt_context* seeded_context(dxt_model* model, uint8_t seed_byte = 7) {
  dxt_context_options co;
  dxt_context_options_init(&co);
  co.rng_mode = DXT_RNG_DETERMINISTIC;
  std::memset(co.seed, seed_byte, sizeof co.seed);
  dxt_context* ctx = nullptr;
  REQUIRE(dxt_context_create(model, &co, &ctx) == DXT_OK);
  return ctx;
}

dxt_privatize_options laplace(double epsilon) {
  dxt_privatize_options o;
  dxt_privatize_options_init(&o);
  o.epsilon = epsilon;
  return o;
}

dxt_ledger* open_ledger(const std::string& path, double cap, uint32_t memo = DXT_LEDGER_MEMO_DEFAULT,
                        const char* scope = "alice") {
  dxt_ledger_options lo;
  dxt_ledger_options_init(&lo);
  lo.cap = cap;
  lo.memo_capacity = memo;
  dxt_ledger* l = nullptr;
  const dxt_status s = dxt_ledger_open(path.c_str(), scope, &lo, &l);
  REQUIRE_MESSAGE(s == DXT_OK, dxt_last_error_message());
  return l;
}

// Privatises through the ledger; returns the status, the output in `out`.
dxt_status release(dxt_ledger* l, dxt_context* ctx, double epsilon, const std::string& text, std::string* out,
                   bool* memoised = nullptr, uint32_t flags = 0) {
  const dxt_privatize_options o = laplace(epsilon);
  char* result = nullptr;
  size_t length = 0;
  const dxt_status s = dxt_ledger_privatize_text(l, ctx, &o, text.data(), text.size(), flags, &result, &length,
                                                 memoised, nullptr, nullptr);
  if (out != nullptr) *out = s == DXT_OK ? std::string(result, length) : std::string();
  dxt_text_free(result);
  return s;
}

dxt_ledger_totals totals_of(dxt_ledger* l) {
  dxt_ledger_totals t;
  dxt_ledger_totals_init(&t);
  REQUIRE(dxt_ledger_get_totals(l, &t) == DXT_OK);
  return t;
}

// Counts the bytes drawn from it.
class CountingSource final : public dxt::ByteSource {
 public:
  explicit CountingSource(size_t* drawn) : drawn_(drawn) {}
  void fill(uint8_t* out, size_t n) override {
    for (size_t i = 0; i < n; ++i) out[i] = static_cast<uint8_t>(i * 131 + *drawn_ + 3);
    *drawn_ += n;
  }
  dxt_rng_mode mode() const override { return DXT_RNG_SYSTEM; }

 private:
  size_t* drawn_;
};

}  // namespace

TEST_CASE("ledger: HMAC-SHA-256 matches RFC 4231") {
  // Test case 1: key 0x0b * 20, "Hi There".
  const std::vector<uint8_t> key1(20, 0x0b);
  const dxt::Digest d1 = dxt::hmac_sha256(key1.data(), key1.size(), "Hi There", 8);
  CHECK(dxt::to_hex(d1.data(), d1.size()) == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
  // Test case 6: a 131-byte key (longer than a block, so hashed first).
  const std::vector<uint8_t> key6(131, 0xaa);
  const std::string m6 = "Test Using Larger Than Block-Size Key - Hash Key First";
  const dxt::Digest d6 = dxt::hmac_sha256(key6.data(), key6.size(), m6.data(), m6.size());
  CHECK(dxt::to_hex(d6.data(), d6.size()) == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
}

TEST_CASE("ledger: releases are counted against the cap and refused past it, before any draw") {
  Toy toy;
  TempDir dir;
  dxt_ledger* l = open_ledger(dir.file("l.dxl"), 2.5);
  dxt_context* ctx = seeded_context(toy.model);
  std::string out;
  CHECK(release(l, ctx, 1.0, "w1 w2", &out) == DXT_OK);
  CHECK(release(l, ctx, 1.0, "w3", &out) == DXT_OK);
  dxt_ledger_totals t = totals_of(l);
  CHECK(t.cap == 2.5);
  CHECK(t.spent == 2.0);
  CHECK(t.releases == 2);
  CHECK(t.words == 3);
  CHECK(t.memoised == 2);

  // The third would spend 3 > 2.5: refused, and the generator is untouched.
  size_t drawn = 0;
  ctx->rng = std::make_unique<dxt::RandomStream>(std::make_unique<CountingSource>(&drawn));
  CHECK(release(l, ctx, 1.0, "w4 w5", &out) == DXT_E_BUDGET_EXCEEDED);
  CHECK(drawn == 0);
  CHECK(std::string(dxt_last_error_message()).find("nothing was drawn") != std::string::npos);
  CHECK(std::string(dxt_status_string(DXT_E_BUDGET_EXCEEDED)) == "privacy budget exceeded");
  CHECK(totals_of(l).releases == 2);
  // A cheaper one still fits; it draws.
  CHECK(release(l, ctx, 0.5, "w4 w5", &out) == DXT_OK);
  CHECK(drawn > 0);
  CHECK(totals_of(l).spent == 2.5);
  CHECK(release(l, ctx, 1e-6, "w6", &out) == DXT_E_BUDGET_EXCEEDED);
  // Raising the cap is the app's decision.
  CHECK(dxt_ledger_set_cap(l, 10) == DXT_OK);
  CHECK(release(l, ctx, 1.0, "w6", &out) == DXT_OK);
  CHECK(totals_of(l).spent == 3.5);

  // The state is in the file: another handle sees it.
  dxt_ledger* again = open_ledger(dir.file("l.dxl"), 99);
  CHECK(totals_of(again).cap == 10);  // an existing scope keeps its cap
  CHECK(totals_of(again).releases == 4);
  dxt_ledger_close(again);
  dxt_context_destroy(ctx);
  dxt_ledger_close(l);
}

TEST_CASE("ledger: a refusal leaves a seeded generator exactly where it was") {
  Toy toy;
  TempDir dir;
  dxt_ledger* l = open_ledger(dir.file("l.dxl"), 0.5);
  dxt_context* a = seeded_context(toy.model);
  dxt_context* b = seeded_context(toy.model);
  std::string refused, from_a, from_b;
  CHECK(release(l, a, 1.0, "w1 w2 w3 w4 w5 w6 w7 w8", &refused) == DXT_E_BUDGET_EXCEEDED);
  const dxt_privatize_options o = laplace(1.0);
  const std::string text = "w1 w2 w3 w4 w5 w6 w7 w8";
  char* ra = nullptr;
  char* rb = nullptr;
  REQUIRE(dxt_privatize_text(a, &o, text.data(), text.size(), &ra, nullptr, nullptr, nullptr) == DXT_OK);
  REQUIRE(dxt_privatize_text(b, &o, text.data(), text.size(), &rb, nullptr, nullptr, nullptr) == DXT_OK);
  CHECK(std::string(ra) == std::string(rb));
  dxt_text_free(ra);
  dxt_text_free(rb);
  dxt_context_destroy(a);
  dxt_context_destroy(b);
  dxt_ledger_close(l);
}

TEST_CASE("ledger: the same input released again gives the same output and spends nothing") {
  Toy toy;
  TempDir dir;
  dxt_ledger* l = open_ledger(dir.file("l.dxl"), 100);
  dxt_context* ctx = seeded_context(toy.model);
  const std::string text = "w1 w7 w12 w3 w9 w18 w2 w5";
  std::string first, again, fresh;
  bool memoised = true;
  CHECK(release(l, ctx, 3.0, text, &first, &memoised) == DXT_OK);
  CHECK(!memoised);
  for (int i = 0; i < 5; ++i) {
    CHECK(release(l, ctx, 3.0, text, &again, &memoised) == DXT_OK);
    CHECK(memoised);
    CHECK(again == first);
  }
  CHECK(totals_of(l).spent == 3.0);
  CHECK(totals_of(l).releases == 1);

  // Memoised releases pass even when the cap is spent.
  CHECK(dxt_ledger_set_cap(l, 3.0) == DXT_OK);
  CHECK(release(l, ctx, 3.0, text, &again, &memoised) == DXT_OK);
  CHECK(again == first);
  // Other options or another text are another input.
  CHECK(release(l, ctx, 2.0, text, &again, &memoised) == DXT_E_BUDGET_EXCEEDED);
  CHECK(release(l, ctx, 3.0, text + " w4", &again, &memoised) == DXT_E_BUDGET_EXCEEDED);
  // A fresh draw is asked for explicitly and spends.
  CHECK(release(l, ctx, 3.0, text, &fresh, &memoised, DXT_LEDGER_FRESH) == DXT_E_BUDGET_EXCEEDED);
  CHECK(dxt_ledger_set_cap(l, 100) == DXT_OK);
  std::string last;
  bool changed = false;
  for (int i = 0; i < 10 && !changed; ++i) {
    CHECK(release(l, ctx, 3.0, text, &fresh, &memoised, DXT_LEDGER_FRESH) == DXT_OK);
    CHECK(!memoised);
    changed = fresh != first;
  }
  CHECK(changed);  // at eps = 3 on the toy grid, ten fresh draws of 8 words all equal to the first: ~never
  CHECK(totals_of(l).releases >= 2);
  // The newest draw is what the memo now returns.
  CHECK(release(l, ctx, 3.0, text, &again, &memoised) == DXT_OK);
  CHECK(memoised);
  CHECK(again == fresh);
  CHECK(dxt_ledger_privatize_text(l, ctx, nullptr, "w1", 2, 0, nullptr, nullptr, nullptr, nullptr, nullptr) ==
        DXT_E_INVALID_ARGUMENT);
  dxt_context_destroy(ctx);
  dxt_ledger_close(l);
}

TEST_CASE("ledger: the file holds no input, only its keyed hash and the output") {
  Toy toy;
  TempDir dir;
  dxt_ledger* l = open_ledger(dir.file("l.dxl"), 100);
  dxt_context* ctx = seeded_context(toy.model);
  const std::string text = "w13 w17 w19 w11 w13 w17 w19 w11";
  std::string out;
  REQUIRE(release(l, ctx, 0.01, text, &out) == DXT_OK);  // small epsilon: the output is far from the input
  REQUIRE(out != text);
  const std::vector<uint8_t> bytes = read_bytes(dir.file("l.dxl"));
  const std::string file(bytes.begin(), bytes.end());
  CHECK(file.find(text) == std::string::npos);
  CHECK(file.find(out) != std::string::npos);
  dxt_context_destroy(ctx);
  dxt_ledger_close(l);
}

TEST_CASE("ledger: the memo is bounded; the least recently used input is evicted and counted again") {
  Toy toy;
  TempDir dir;
  dxt_ledger* l = open_ledger(dir.file("l.dxl"), 100, 2);
  dxt_context* ctx = seeded_context(toy.model);
  std::string out;
  bool memoised = false;
  CHECK(release(l, ctx, 1.0, "w1", &out) == DXT_OK);
  CHECK(release(l, ctx, 1.0, "w2", &out) == DXT_OK);
  CHECK(release(l, ctx, 1.0, "w1", &out, &memoised) == DXT_OK);  // w1 is now the most recent
  CHECK(memoised);
  CHECK(release(l, ctx, 1.0, "w3", &out) == DXT_OK);  // evicts w2
  CHECK(totals_of(l).memoised == 2);
  CHECK(release(l, ctx, 1.0, "w1", &out, &memoised) == DXT_OK);
  CHECK(memoised);
  CHECK(release(l, ctx, 1.0, "w2", &out, &memoised) == DXT_OK);
  CHECK(!memoised);  // evicted: counted again
  CHECK(totals_of(l).spent == 4.0);
  dxt_context_destroy(ctx);
  dxt_ledger_close(l);

  // Capacity 0: no memo at all.
  dxt_ledger* none = open_ledger(dir.file("none.dxl"), 100, 0);
  dxt_context* c2 = seeded_context(toy.model);
  CHECK(release(none, c2, 1.0, "w1", &out) == DXT_OK);
  CHECK(release(none, c2, 1.0, "w1", &out, &memoised) == DXT_OK);
  CHECK(!memoised);
  CHECK(totals_of(none).spent == 2.0);
  dxt_context_destroy(c2);
  dxt_ledger_close(none);
}

TEST_CASE("ledger: scopes in one file are kept apart") {
  Toy toy;
  TempDir dir;
  dxt_ledger* alice = open_ledger(dir.file("l.dxl"), 1.0, 8, "alice");
  dxt_ledger* bob = open_ledger(dir.file("l.dxl"), 5.0, 8, "bob");
  dxt_context* ctx = seeded_context(toy.model);
  std::string out;
  bool memoised = true;
  CHECK(release(alice, ctx, 1.0, "w1", &out) == DXT_OK);
  CHECK(release(bob, ctx, 1.0, "w1", &out, &memoised) == DXT_OK);
  CHECK(!memoised);
  CHECK(release(alice, ctx, 1.0, "w2", &out) == DXT_E_BUDGET_EXCEEDED);
  CHECK(totals_of(alice).spent == 1.0);
  CHECK(totals_of(bob).spent == 1.0);
  CHECK(totals_of(bob).cap == 5.0);
  dxt_context_destroy(ctx);
  dxt_ledger_close(alice);
  dxt_ledger_close(bob);
}

TEST_CASE("ledger: JSON of a scope") {
  Toy toy;
  TempDir dir;
  dxt_ledger* l = open_ledger(dir.file("l.dxl"), 4);
  dxt_context* ctx = seeded_context(toy.model);
  std::string out;
  CHECK(release(l, ctx, 1.5, "w1 w2", &out) == DXT_OK);
  size_t required = 0;
  CHECK(dxt_ledger_to_json(l, nullptr, 0, &required) == DXT_E_INPUT_TOO_LARGE);
  std::vector<char> buffer(required);
  REQUIRE(dxt_ledger_to_json(l, buffer.data(), buffer.size(), &required) == DXT_OK);
  const std::string json = buffer.data();
  CHECK(json.find("\"scope\":\"alice\"") != std::string::npos);
  CHECK(json.find("\"cap\":4") != std::string::npos);
  CHECK(json.find("\"spent\":1.5") != std::string::npos);
  CHECK(json.find("\"remaining\":2.5") != std::string::npos);
  CHECK(json.find("\"releases\":1") != std::string::npos);
  CHECK(json.find("\"memoised\":1") != std::string::npos);
  CHECK(json.find("\"spent_by_metric\":{\"euclidean\":1.5}") != std::string::npos);
  CHECK(json.find("exp(1.5 * D_euclidean)") != std::string::npos);
  dxt_context_destroy(ctx);
  dxt_ledger_close(l);
}

TEST_CASE("ledger: bad arguments get clear statuses") {
  TempDir dir;
  dxt_ledger* l = nullptr;
  dxt_ledger_options lo;
  dxt_ledger_options_init(&lo);
  CHECK(dxt_ledger_open(nullptr, "a", &lo, &l) == DXT_E_INVALID_ARGUMENT);
  CHECK(dxt_ledger_open(dir.file("l").c_str(), "", &lo, &l) == DXT_E_INVALID_ARGUMENT);
  CHECK(dxt_ledger_open(dir.file("l").c_str(), "\xff", &lo, &l) == DXT_E_INVALID_UTF8);
  CHECK(dxt_ledger_open(dir.file("l").c_str(), std::string(256, 'a').c_str(), &lo, &l) == DXT_E_INVALID_ARGUMENT);
  lo.cap = NAN;
  CHECK(dxt_ledger_open(dir.file("l").c_str(), "a", &lo, &l) == DXT_E_INVALID_ARGUMENT);
  lo.cap = -1;
  CHECK(dxt_ledger_open(dir.file("l").c_str(), "a", &lo, &l) == DXT_E_INVALID_ARGUMENT);
  lo.cap = 1;
  lo.memo_capacity = DXT_LEDGER_MEMO_MAX + 1;
  CHECK(dxt_ledger_open(dir.file("l").c_str(), "a", &lo, &l) == DXT_E_INVALID_ARGUMENT);
  lo.memo_capacity = 1;
  const uint8_t short_key[8] = {};
  lo.key = short_key;
  lo.key_length = sizeof short_key;
  CHECK(dxt_ledger_open(dir.file("l").c_str(), "a", &lo, &l) == DXT_E_INVALID_ARGUMENT);
  CHECK(l == nullptr);
  CHECK(dxt_ledger_open((dir.path + "/no/such/dir/l").c_str(), "a", nullptr, &l) == DXT_E_IO);
  CHECK(dxt_ledger_set_cap(nullptr, 1) == DXT_E_INVALID_ARGUMENT);
  dxt_ledger_close(nullptr);
  REQUIRE(dxt_ledger_open(dir.file("l").c_str(), "a", nullptr, &l) == DXT_OK);
  CHECK(totals_of(l).cap == 0);  // the default cap allows nothing
  CHECK(dxt_ledger_set_cap(l, INFINITY) == DXT_E_INVALID_ARGUMENT);
  dxt_ledger_close(l);
}

TEST_CASE("ledger: every corrupted byte and every truncation is refused, and the file is left as it was") {
  Toy toy;
  TempDir dir;
  const std::string path = dir.file("l.dxl");
  {
    dxt_ledger* l = open_ledger(path, 10);
    dxt_context* ctx = seeded_context(toy.model);
    std::string out;
    REQUIRE(release(l, ctx, 1.0, "w1 w2", &out) == DXT_OK);
    dxt_context_destroy(ctx);
    dxt_ledger_close(l);
  }
  const std::vector<uint8_t> good = read_bytes(path);
  REQUIRE(good.size() > 100);
  int refused = 0;
  for (size_t i = 0; i < good.size(); ++i) {
    std::vector<uint8_t> bad = good;
    bad[i] ^= 0x01;
    write_bytes(path, bad);
    dxt_ledger* l = nullptr;
    const dxt_status s = dxt_ledger_open(path.c_str(), "alice", nullptr, &l);
    if (s == DXT_E_LEDGER_CORRUPT)
      ++refused;
    else
      FAIL_CHECK("byte " << i << " flipped: status " << s);
    dxt_ledger_close(l);
    CHECK(read_bytes(path) == bad);  // never reset
  }
  CHECK(refused == static_cast<int>(good.size()));
  for (size_t n : {size_t{0}, size_t{1}, size_t{8}, size_t{52}, good.size() / 2, good.size() - 1}) {
    write_bytes(path, std::vector<uint8_t>(good.begin(), good.begin() + static_cast<long>(n)));
    dxt_ledger* l = nullptr;
    CHECK(dxt_ledger_open(path.c_str(), "alice", nullptr, &l) == DXT_E_LEDGER_CORRUPT);
    CHECK(read_bytes(path).size() == n);
  }
  std::vector<uint8_t> longer = good;
  longer.push_back(0);
  write_bytes(path, longer);
  dxt_ledger* l = nullptr;
  CHECK(dxt_ledger_open(path.c_str(), "alice", nullptr, &l) == DXT_E_LEDGER_CORRUPT);
  CHECK(std::string(dxt_last_error_message()).find("corrupt") != std::string::npos);
  write_bytes(path, good);
  REQUIRE(dxt_ledger_open(path.c_str(), "alice", nullptr, &l) == DXT_OK);
  CHECK(totals_of(l).spent == 1.0);
  dxt_ledger_close(l);
}

TEST_CASE("ledger: an edit with a recomputed MAC is caught only with an app key") {
  TempDir dir;
  const std::string path = dir.file("l.dxl");
  const std::vector<uint8_t> key(32, 0x5a);
  dxt_ledger_options lo;
  dxt_ledger_options_init(&lo);
  lo.cap = 1;
  lo.key = key.data();
  lo.key_length = key.size();
  dxt_ledger* l = nullptr;
  REQUIRE(dxt_ledger_open(path.c_str(), "alice", &lo, &l) == DXT_OK);
  dxt_ledger_close(l);
  // Without the key, or with another one: refused.
  CHECK(dxt_ledger_open(path.c_str(), "alice", nullptr, &l) == DXT_E_LEDGER_CORRUPT);
  const std::vector<uint8_t> other(32, 0x5b);
  lo.key = other.data();
  CHECK(dxt_ledger_open(path.c_str(), "alice", &lo, &l) == DXT_E_LEDGER_CORRUPT);
  // An attacker who reads the file and rewrites it (raising the cap) cannot
  // produce the MAC without the app key.
  std::vector<uint8_t> bytes = read_bytes(path);
  dxt::LedgerState forged = dxt::decode_ledger(bytes.data(), bytes.size(), key);  // (the test knows the key)
  forged.scopes[0].cap = 1000;
  forged.keyed = true;
  write_bytes(path, dxt::encode_ledger(forged, std::vector<uint8_t>(32, 0x00)));
  lo.key = key.data();
  CHECK(dxt_ledger_open(path.c_str(), "alice", &lo, &l) == DXT_E_LEDGER_CORRUPT);
  // Without an app key the same rewrite verifies: the MAC then detects
  // damage, not an adversary who can write the file (docs/budgets.md).
  const std::string plain = dir.file("plain.dxl");
  dxt_ledger_options po;
  dxt_ledger_options_init(&po);
  po.cap = 1;
  REQUIRE(dxt_ledger_open(plain.c_str(), "alice", &po, &l) == DXT_OK);
  dxt_ledger_close(l);
  bytes = read_bytes(plain);
  dxt::LedgerState edited = dxt::decode_ledger(bytes.data(), bytes.size(), {});
  edited.scopes[0].cap = 1000;
  write_bytes(plain, dxt::encode_ledger(edited, {}));
  REQUIRE(dxt_ledger_open(plain.c_str(), "alice", nullptr, &l) == DXT_OK);
  CHECK(totals_of(l).cap == 1000);
  dxt_ledger_close(l);
}

TEST_CASE("ledger: kill -9 at every write step leaves the old or the new committed state") {
  Toy toy;
  TempDir dir;
  const std::string path = dir.file("l.dxl");
  {
    dxt_ledger* l = open_ledger(path, 100);
    dxt_context* ctx = seeded_context(toy.model);
    std::string out;
    REQUIRE(release(l, ctx, 1.0, "w1", &out) == DXT_OK);
    dxt_context_destroy(ctx);
    dxt_ledger_close(l);
  }
  const dxt::LedgerWriteStep steps[] = {dxt::LedgerWriteStep::temp_half_written, dxt::LedgerWriteStep::temp_written,
                                        dxt::LedgerWriteStep::temp_synced, dxt::LedgerWriteStep::renamed,
                                        dxt::LedgerWriteStep::directory_synced};
  uint64_t expected = 1;
  for (const dxt::LedgerWriteStep step : steps) {
    CAPTURE(static_cast<int>(step));
    const pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
      dxt_ledger* l = nullptr;
      if (dxt_ledger_open(path.c_str(), "alice", nullptr, &l) != DXT_OK) _exit(2);
      l->file->on_write_step = [step](dxt::LedgerWriteStep s) {
        if (s == step) raise(SIGKILL);
      };
      dxt_context* ctx = seeded_context(toy.model);
      std::string out;
      (void)release(l, ctx, 1.0, "w2 w3", &out, nullptr, DXT_LEDGER_FRESH);
      _exit(3);  // not reached: killed during the commit
    }
    int status = 0;
    REQUIRE(waitpid(child, &status, 0) == child);
    REQUIRE(WIFSIGNALED(status));
    CHECK(WTERMSIG(status) == SIGKILL);
    // Before the rename the old file stands; from the rename on, the new.
    if (step == dxt::LedgerWriteStep::renamed) ++expected;
    if (step == dxt::LedgerWriteStep::directory_synced) ++expected;
    dxt_ledger* l = nullptr;
    REQUIRE_MESSAGE(dxt_ledger_open(path.c_str(), "alice", nullptr, &l) == DXT_OK, dxt_last_error_message());
    CHECK(totals_of(l).releases == expected);
    CHECK(totals_of(l).spent == static_cast<double>(expected));
    dxt_ledger_close(l);
  }
  CHECK(expected == 3);
}

TEST_CASE("ledger: processes sharing one file are serialised and never pass the cap") {
  Toy toy;
  TempDir dir;
  const std::string path = dir.file("l.dxl");
  constexpr int kProcesses = 4;
  constexpr int kAttempts = 12;
  constexpr double kCap = 30;
  dxt_ledger_close(open_ledger(path, kCap));
  std::vector<pid_t> children;
  for (int p = 0; p < kProcesses; ++p) {
    const pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
      dxt_ledger* l = nullptr;
      if (dxt_ledger_open(path.c_str(), "alice", nullptr, &l) != DXT_OK) _exit(100);
      dxt_context* ctx = seeded_context(toy.model, static_cast<uint8_t>(p + 1));
      int granted = 0;
      for (int i = 0; i < kAttempts; ++i) {
        std::string out;
        // Distinct texts, so that nothing is memoised.
        const dxt_status s = release(l, ctx, 1.0, "w" + std::to_string(p) + " w" + std::to_string(i), &out);
        if (s == DXT_OK)
          ++granted;
        else if (s != DXT_E_BUDGET_EXCEEDED)
          _exit(101);
      }
      dxt_context_destroy(ctx);
      dxt_ledger_close(l);
      _exit(granted);
    }
    children.push_back(child);
  }
  int granted = 0;
  for (const pid_t c : children) {
    int status = 0;
    REQUIRE(waitpid(c, &status, 0) == c);
    REQUIRE(WIFEXITED(status));
    REQUIRE(WEXITSTATUS(status) <= kAttempts);
    granted += WEXITSTATUS(status);
  }
  dxt_ledger* l = open_ledger(path, kCap);
  const dxt_ledger_totals t = totals_of(l);
  CHECK(granted == static_cast<int>(kCap));  // 48 attempts for 30 units: exactly 30 granted
  CHECK(t.releases == static_cast<uint64_t>(granted));
  CHECK(t.spent == kCap);
  dxt_ledger_close(l);
}
