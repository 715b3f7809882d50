// SPDX-License-Identifier: Apache-2.0
// The header-only C++ interface (include/dxtext/dxtext.hpp), used exactly as
// a client would: public headers only, on the committed golden model.
#include <doctest/doctest.h>

#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "dxtext/dxtext.hpp"

namespace {

using namespace std::string_literals;
using namespace std::string_view_literals;

// Four words of dimension 4, int8, lowercase: alpha, beta, gamma, über.
std::string golden_path() { return std::string(DXT_TEST_DATA_DIR) + "/golden_v1.dxe"; }

bool is_golden_word(const std::string& word) {
  static const char* const kWords[] = {"alpha", "beta", "gamma", "über"};
  for (const char* w : kWords)
    if (word == w) return true;
  return false;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in.good());
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

dxt::Bytes32 seed_of(uint8_t first) {
  dxt::Bytes32 seed{};
  seed[0] = first;
  return seed;
}

// Runs `body` and returns the status of the dxt::error it throws.
template <typename F>
dxt_status status_of(F&& body) {
  try {
    body();
  } catch (const dxt::error& e) {
    CHECK(std::string(e.what()).size() > 0);
    CHECK(std::string(e.what()).find(e.status_string()) == 0);
    return e.status();
  }
  return DXT_OK;
}

}  // namespace

static_assert(std::is_base_of_v<std::runtime_error, dxt::error>);
static_assert(!std::is_copy_constructible_v<dxt::Model> && std::is_nothrow_move_constructible_v<dxt::Model>);
static_assert(!std::is_copy_constructible_v<dxt::Context> && std::is_nothrow_move_constructible_v<dxt::Context>);
static_assert(static_cast<uint32_t>(dxt::Mechanism::tem) == DXT_MECHANISM_TEM);
static_assert(static_cast<uint32_t>(dxt::Policy::keep) == DXT_POLICY_KEEP);

TEST_CASE("a model opens from a file and answers questions") {
  const dxt::Model model = dxt::Model::open(golden_path());
  CHECK(static_cast<bool>(model));
  const dxt::ModelInfo info = model.info();
  CHECK(info.vocabulary_size == 4);
  CHECK(info.dimension == 4);
  CHECK(info.geometry == dxt::Geometry::euclidean);
  CHECK(info.quantization == dxt::Quantization::int8);
  CHECK(info.lowercase);

  const uint32_t beta = model.lookup("beta");
  CHECK(model.word(beta) == "beta");
  CHECK(model.lookup("BETA") == beta);  // lowercase vocabulary: lookups fold case
  CHECK(model.find("delta") == std::nullopt);
  CHECK(model.find("gamma").value() == model.lookup("gamma"));
  CHECK(status_of([&] { (void)model.lookup("delta"); }) == DXT_E_NOT_FOUND);
  CHECK(status_of([&] { (void)model.word(4); }) != DXT_OK);
  for (uint32_t i = 0; i < info.vocabulary_size; ++i) CHECK(is_golden_word(std::string(model.word(i))));

  // The nearest word to a row's own vector is that word.
  CHECK(model.nearest({0.1f, 0.2f, -0.3f, 0.4f}) == model.lookup("gamma"));
  CHECK(status_of([&] { (void)model.nearest({0.1f, 0.2f}); }) == DXT_E_INVALID_ARGUMENT);
  // The golden model has no orderings section (tests/unit/test_orderings.cpp has one).
  CHECK(model.ordering_count() == 0);
  CHECK(status_of([&] { (void)model.ordering_place(0, beta); }) == DXT_E_UNSUPPORTED);

  const dxt::Model verified = dxt::Model::open(golden_path(), /*verify_digests=*/true);
  CHECK(verified.fingerprint() == model.fingerprint());
}

TEST_CASE("text, words, indices and bags are privatised with a record and diagnostics") {
  const dxt::Model model = dxt::Model::open(golden_path());
  dxt::Context context(model);
  const dxt::Options options = dxt::Options().epsilon(2.0);

  dxt::ReleaseRecord record;
  dxt::LocalDiagnostics diagnostics;
  const std::string out = context.privatize_text("Alpha beta, gamma!", options, &record, &diagnostics);
  CHECK(out.size() >= "A b, g!"s.size());
  CHECK(out.find(", ") != std::string::npos);
  CHECK(out.back() == '!');
  CHECK(record.release() == dxt::ReleaseKind::text);
  CHECK(record.is_private());
  CHECK(record.rng_mode() == dxt::RngMode::system);
  CHECK(record.mechanism() == dxt::Mechanism::laplace);
  CHECK(record.metric() == dxt::Metric::euclidean);
  CHECK(record.epsilon() == 2.0);
  CHECK(record.bound() == dxt::Bound::positionwise);
  CHECK(record.reveals() == (DXT_REVEALS_WORD_COUNT | DXT_REVEALS_LAYOUT | DXT_REVEALS_CASE_SHAPE));
  CHECK(record.model_fingerprint() == model.fingerprint());
  CHECK(record.release_shape() == dxt::ReleaseShape::keep);
  dxt::ReleaseRecord strict_record;
  const std::string strict = context.privatize_text(
      "Alpha beta, gamma!", dxt::Options(2.0).release_shape(dxt::ReleaseShape::strict), &strict_record);
  CHECK(strict.find_first_of(",!") == std::string::npos);
  CHECK(strict_record.release_shape() == dxt::ReleaseShape::strict);
  CHECK(strict_record.reveals() == DXT_REVEALS_WORD_COUNT);
  CHECK(diagnostics.words_privatized() == 3);
  CHECK(diagnostics.words_leaked() == 0);
  CHECK(diagnostics.count(dxt::TokenClass::in_vocabulary, dxt::Policy::privatize) == 3);
  const std::string json = record.to_json();
  CHECK(json.front() == '{');
  CHECK(json.back() == '}');
  CHECK(json.find("\"mechanism\":\"laplace\"") != std::string::npos);
  CHECK(json.find("\"private\":true") != std::string::npos);
  CHECK(json.find("words_privatized") == std::string::npos);  // the record says nothing of the input
  CHECK(diagnostics.to_json().find("\"words_privatized\":3") != std::string::npos);

  const std::string word = context.privatize_word("gamma", options, &record);
  CHECK(is_golden_word(word));
  CHECK(record.bound() == dxt::Bound::word);
  CHECK(context.privatize_index(model.lookup("alpha"), options) < 4);

  const dxt::Bag bag = {{"alpha", 3}, {"beta", 2}, {"unknownword", 1}, {"gamma", 0}};
  const dxt::Bag released = context.privatize_bag(bag, options, &record, &diagnostics);
  uint64_t total = 0;
  for (const auto& [w, count] : released) {
    CHECK(is_golden_word(w));  // the OOV word is privatised from the origin
    total += count;
  }
  CHECK(total == 6);
  CHECK(diagnostics.words_privatized() == 6);
  CHECK(diagnostics.count(dxt::TokenClass::out_of_vocabulary, dxt::Policy::privatize) == 1);
  CHECK(record.bound() == dxt::Bound::bag_emd);
  CHECK(record.release() == dxt::ReleaseKind::bag);
}

TEST_CASE("options: policies, placeholder and mechanism parameters reach the library") {
  const dxt::Model model = dxt::Model::open(golden_path());
  dxt::Context context(model);
  dxt::Options options(1.0);
  options.policy(dxt::TokenClass::out_of_vocabulary, dxt::Policy::placeholder).placeholder("<x>");
  CHECK(options.policy(dxt::TokenClass::out_of_vocabulary) == dxt::Policy::placeholder);
  CHECK(context.privatize_text("zzz", options) == "<x>");
  options.default_placeholder();
  CHECK(context.privatize_text("zzz", options) == "[redacted]");

  dxt::ReleaseRecord record;
  dxt::LocalDiagnostics diagnostics;
  options.policy(dxt::TokenClass::out_of_vocabulary, dxt::Policy::keep);
  CHECK(context.privatize_text("zzz", options, &record, &diagnostics) == "zzz");
  CHECK(diagnostics.words_leaked() == 1);
  CHECK((record.reveals() & DXT_REVEALS_KEPT_WORDS) != 0);
  options.policy(dxt::TokenClass::out_of_vocabulary, dxt::Policy::drop);
  CHECK(context.privatize_word("zzz", options) == "");

  // A placeholder reaches C as a NUL-terminated string: a NUL is refused.
  CHECK(status_of([&] { options.placeholder("a\0b"sv); }) == DXT_E_INVALID_ARGUMENT);

  const dxt::Options vickrey = dxt::Options(3.0).mechanism(dxt::Mechanism::vickrey).vickrey_t(0.5);
  CHECK(vickrey.vickrey_t() == 0.5);
  context.privatize_text("alpha", vickrey, &record);
  CHECK(record.mechanism() == dxt::Mechanism::vickrey);
  const dxt::Options bad_t = dxt::Options(3.0).mechanism(dxt::Mechanism::vickrey).vickrey_t(2.0);
  CHECK(status_of([&] { context.privatize_text("alpha", bad_t); }) != DXT_OK);
  const dxt::Options exponential =
      dxt::Options(3.0).mechanism(dxt::Mechanism::exponential).exponential_sampler(dxt::Sampler::permute_and_flip);
  CHECK(is_golden_word(context.privatize_word("beta", exponential)));
  // A Euclidean model has no hyperbolic mechanism.
  CHECK(status_of([&] { context.privatize_text("alpha", dxt::Options(5).mechanism(dxt::Mechanism::hyperbolic)); }) ==
        DXT_E_UNSUPPORTED);
  // IVF search needs a search index, which the golden model has not.
  const dxt::Options ivf = dxt::Options(3.0).search(dxt::Search::ivf, 2);
  CHECK(ivf.search() == dxt::Search::ivf);
  CHECK(ivf.ivf_nprobe() == 2);
  CHECK(ivf.c_options().search == DXT_SEARCH_IVF);
  CHECK(status_of([&] { context.privatize_text("alpha", ivf); }) == DXT_E_UNSUPPORTED);
  CHECK(dxt::Options(3.0).search(dxt::Search::ivf, 2).search(dxt::Search::exact).ivf_nprobe() == 0);
}

TEST_CASE("syntf and calibrate") {
  const dxt::Model model = dxt::Model::open(golden_path());
  dxt::Context context(model);
  dxt::ReleaseRecord record;
  const dxt::Bag bag = context.syntf({{"alpha", 2}, {"beta", 1}}, 10, dxt::Options(1.0).syntf_s(0.5), &record);
  uint64_t total = 0;
  for (const auto& entry : bag) total += entry.second;
  CHECK(total == 10);
  CHECK(record.mechanism() == dxt::Mechanism::syntf);
  CHECK(record.metric() == dxt::Metric::discrete);
  CHECK(record.bound() == dxt::Bound::any_inputs);
  CHECK(record.draws() == 10);
  CHECK(record.epsilon_total() == 10.0);
  CHECK(record.epsilon_vocabulary() > 0);
  CHECK(record.epsilon_vocabulary() <= 1.0);
  CHECK(status_of([&] { context.syntf({{"alpha", 1}}, 0, dxt::Options(1.0)); }) == DXT_E_INVALID_ARGUMENT);

  const dxt::Calibration c = context.calibrate(dxt::Options(2.0), 2, 50);
  CHECK(c.words == 2);
  CHECK(c.trials == 50);
  CHECK(c.keep_mean >= 0.0);
  CHECK(c.keep_max <= 1.0);
  CHECK(c.distinct_max >= 1.0);
  CHECK(c.distinct_max <= 4.0);
}

TEST_CASE("typed errors: epsilon, missing file, corrupt model") {
  const dxt::Model model = dxt::Model::open(golden_path());
  dxt::Context context(model);
  for (const double eps :
       {0.0, -1.0, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    CAPTURE(eps);
    try {
      context.privatize_text("alpha", dxt::Options(eps));
      FAIL("no exception");
    } catch (const dxt::error& e) {
      CHECK(e.status() == DXT_E_INVALID_EPSILON);
      CHECK(std::string(e.what()).find("epsilon") != std::string::npos);
    }
  }
  CHECK(status_of([&] { context.privatize_bag({{"alpha", 1}}, dxt::Options()); }) == DXT_E_INVALID_EPSILON);
  CHECK(status_of([&] { context.calibrate(dxt::Options(-3), 1, 1); }) == DXT_E_INVALID_EPSILON);

  CHECK(status_of([] { dxt::Model::open(golden_path() + ".missing"); }) == DXT_E_IO);
  CHECK(status_of([] { dxt::Model::open("a\0b"s); }) == DXT_E_INVALID_ARGUMENT);
  // dxt::error is a std::runtime_error.
  CHECK_THROWS_AS(dxt::Model::open(golden_path() + ".missing"), std::runtime_error);

  const std::string bytes = read_file(golden_path());
  CHECK(status_of([&] { dxt::Model::from_bytes(bytes.substr(0, bytes.size() / 2)); }) == DXT_E_TRUNCATED_MODEL);
  CHECK(status_of([&] { dxt::Model::from_bytes(std::string(bytes.size(), 'x')); }) == DXT_E_NOT_A_MODEL);
  std::string flipped = bytes;
  flipped[641] ^= 0x40;  // in the matrix section, which starts at byte 640 of the golden file
  CHECK(status_of([&] { dxt::Model::from_bytes(flipped, /*verify_digests=*/true); }) == DXT_E_DIGEST_MISMATCH);
}

TEST_CASE("move semantics, and contexts outlive their model") {
  dxt::Model a = dxt::Model::open(golden_path());
  dxt::Model b = std::move(a);
  CHECK_FALSE(static_cast<bool>(a));  // NOLINT(bugprone-use-after-move): the moved-from state is specified
  CHECK(static_cast<bool>(b));
  CHECK(status_of([&] { (void)a.info(); }) == DXT_E_INVALID_ARGUMENT);
  a = std::move(b);
  CHECK(a.info().vocabulary_size == 4);

  dxt::Context c1(a);
  dxt::Context c2 = std::move(c1);
  CHECK_FALSE(static_cast<bool>(c1));  // NOLINT(bugprone-use-after-move)
  CHECK(status_of([&] { c1.privatize_text("alpha", dxt::Options(1)); }) == DXT_E_INVALID_ARGUMENT);
  CHECK(is_golden_word(c2.privatize_word("alpha", dxt::Options(1))));

  // A Context from a from_bytes() model keeps the bytes alive after the
  // Model, and the buffer it was copied from, are gone.
  std::optional<dxt::Context> survivor;
  {
    std::string bytes = read_file(golden_path());
    dxt::Model temporary = dxt::Model::from_bytes(bytes);
    survivor.emplace(temporary);
    bytes.assign(bytes.size(), '\0');
  }
  CHECK(is_golden_word(survivor->privatize_word("beta", dxt::Options(1))));

  dxt::Context c3(a);
  c3 = std::move(c2);  // destroys c3's own context
  CHECK(static_cast<bool>(c3));
}

TEST_CASE("string_view inputs are used by length: NUL bytes and unterminated views") {
  const dxt::Model model = dxt::Model::open(golden_path());
  const std::string padded = "alphabetagamma";
  CHECK(model.lookup(std::string_view(padded).substr(0, 5)) == model.lookup("alpha"));
  CHECK(model.lookup(std::string_view(padded).substr(5, 4)) == model.lookup("beta"));
  CHECK(model.find("alpha\0"sv) == std::nullopt);  // the NUL is part of the word
  CHECK(model.find(std::string_view()) == std::nullopt);

  dxt::Context context = dxt::Context::seeded(model, seed_of(1));
  const dxt::Options options(1.0);
  // An unterminated view privatises only its own bytes.
  dxt::LocalDiagnostics report;
  const std::string one = context.privatize_text(std::string_view(padded).substr(0, 5), options, nullptr, &report);
  CHECK(report.words_privatized() == 1);
  CHECK(is_golden_word(one));
  // A NUL inside the text is kept and the output is returned whole.
  const std::string out = context.privatize_text("alpha\0beta"sv, options, nullptr, &report);
  CHECK(out.find('\0') != std::string::npos);
  CHECK(out.size() > out.find('\0') + 1);
  CHECK(report.words_privatized() == 2);
  // An empty view with a NULL data pointer is valid input.
  CHECK(context.privatize_text(std::string_view(), options) == "");
  CHECK_NOTHROW(context.privatize_word(std::string_view(), options));
  // Bag words are counted by length too: "alpha\0x" is not "alpha".
  context.privatize_bag({{"alpha\0x"s, 1}}, options, nullptr, &report);
  CHECK(report.count(dxt::TokenClass::out_of_vocabulary, dxt::Policy::privatize) == 1);
  // Invalid UTF-8 is refused with its own status.
  CHECK(status_of([&] { context.privatize_text("caf\xc3", options); }) == DXT_E_INVALID_UTF8);
}

TEST_CASE("seeded contexts reproduce and say they are not private") {
  const dxt::Model model = dxt::Model::open(golden_path());
  const std::string text = "alpha beta gamma alpha beta gamma alpha beta gamma";
  const dxt::Options options(0.5);
  dxt::Context a = dxt::Context::seeded(model, seed_of(7));
  dxt::Context b = dxt::Context::seeded(model, seed_of(7));
  dxt::ReleaseRecord report;
  const std::string first = a.privatize_text(text, options, &report);
  CHECK(b.privatize_text(text, options) == first);
  CHECK_FALSE(report.is_private());
  CHECK(report.rng_mode() == dxt::RngMode::deterministic);
  CHECK(report.to_json().find("NOT private") != std::string::npos);
  CHECK(a.privatize_bag({{"alpha", 20}}, options) == b.privatize_bag({{"alpha", 20}}, options));
}

TEST_CASE("the default model path follows DXTEXT_MODEL") {
  const char* saved = std::getenv("DXTEXT_MODEL");
  const std::string restore = saved == nullptr ? "" : saved;
  setenv("DXTEXT_MODEL", golden_path().c_str(), 1);
  CHECK(dxt::Model::default_path() == golden_path());
  CHECK(dxt::Model::open_default().info().vocabulary_size == 4);
  // A path longer than the first buffer the wrapper tries.
  std::string long_path = std::string(DXT_TEST_DATA_DIR);
  for (int i = 0; i < 200; ++i) long_path += "/.";
  long_path += "/golden_v1.dxe";
  setenv("DXTEXT_MODEL", long_path.c_str(), 1);
  CHECK(dxt::Model::default_path() == long_path);
  setenv("DXTEXT_MODEL", (golden_path() + ".missing").c_str(), 1);
  CHECK(status_of([] { (void)dxt::Model::default_path(); }) == DXT_E_NOT_FOUND);
  CHECK(status_of([] { (void)dxt::Model::default_path(dxt::Geometry::unknown); }) == DXT_E_INVALID_ARGUMENT);
  if (saved == nullptr)
    unsetenv("DXTEXT_MODEL");
  else
    setenv("DXTEXT_MODEL", restore.c_str(), 1);
}

TEST_CASE("the version is the header's") {
  CHECK(dxt::version() == std::to_string(DXT_VERSION_MAJOR) + "." + std::to_string(DXT_VERSION_MINOR) + "." +
                              std::to_string(DXT_VERSION_PATCH));
}

TEST_CASE("ledger: the C++ wrapper caps, memoises and reports") {
  const dxt::Model model = dxt::Model::open(golden_path());
  dxt::Context context(model);
  const dxt::Options options = dxt::Options().epsilon(2.0);
  char dir_template[] = "/tmp/dxt-cpp-ledger-XXXXXX";
  REQUIRE(mkdtemp(dir_template) != nullptr);
  const std::string path = std::string(dir_template) + "/l.dxl";
  {
    dxt::Ledger ledger(path, "alice", 4.0, DXT_LEDGER_MEMO_DEFAULT, "0123456789abcdef");  // a key: the memo needs one
    bool memoised = true;
    dxt::ReleaseRecord record;
    const std::string first = ledger.privatize_text(context, "alpha beta", options, false, &memoised, &record);
    CHECK(!memoised);
    CHECK(record.epsilon() == 2.0);
    CHECK(ledger.privatize_text(context, "alpha beta", options, false, &memoised) == first);
    CHECK(memoised);
    (void)ledger.privatize_text(context, "gamma", options);
    CHECK(status_of([&] { (void)ledger.privatize_text(context, "beta", options); }) == DXT_E_BUDGET_EXCEEDED);
    const dxt_ledger_totals t = ledger.totals();
    CHECK(t.spent == 4.0);
    CHECK(t.releases == 2);
    CHECK(ledger.to_json().find("\"remaining\":0") != std::string::npos);
    dxt::Ledger moved = std::move(ledger);
    moved.set_cap(6.0);
    CHECK(moved.totals().cap == 6.0);
    CHECK(moved.anchor().spent == 4.0);
    // A scope with a NUL would be cut at it by the C call: refused.
    CHECK(status_of([&] { dxt::Ledger nul(path, std::string("alice\0day1", 10), 1.0); }) == DXT_E_INVALID_ARGUMENT);
  }
  std::remove(path.c_str());
  std::remove((path + ".lock").c_str());
  rmdir(dir_template);
}
