// SPDX-License-Identifier: Apache-2.0
// Presets (dxt_privatize_options.preset, tools/options/presets.table): how a
// preset resolves, which caller values it refuses, epsilon's override, the
// record's preset field, the refusal of a model without frequencies, the
// struct_size of older callers, and that every entry point of the C ABI
// runs with the resolved options.
#include <doctest/doctest.h>

#include <unistd.h>
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <string>

#include "dxtext/dxtext.h"
#include "support/toy_models.hpp"
#include "text/privatize_presets.hpp"

namespace {

struct Opened {
  dxt::test::AlignedBytes bytes;
  dxt_model* model = nullptr;
  dxt_context* ctx = nullptr;
  explicit Opened(bool frequencies) : bytes(spec_bytes(frequencies)) {
    REQUIRE(dxt_model_open_memory(bytes.data(), bytes.size, nullptr, &model) == DXT_OK);
    dxt_context_options co;
    dxt_context_options_init(&co);
    co.rng_mode = DXT_RNG_DETERMINISTIC;
    co.seed[3] = 7;
    REQUIRE(dxt_context_create(model, &co, &ctx) == DXT_OK);
  }
  ~Opened() {
    dxt_context_destroy(ctx);
    dxt_model_close(model);
  }
  static std::string spec_bytes(bool frequencies) {
    dxt::test::ToyModelSpec s = dxt::test::grid_2d_spec();
    s.with_frequencies = frequencies;
    s.with_orderings = true;
    s.with_typed_lists = true;    // the presets type names, places, ...
    s.with_context_prior = true;  // readable weights its words by a context prior
    return dxt::test::build_model_bytes(s);
  }
};

dxt_privatize_options with_preset(uint32_t preset) {
  dxt_privatize_options o;
  dxt_privatize_options_init(&o);
  o.preset = preset;
  return o;
}

std::string record_json(const dxt_release_record& r) {
  char json[4096];
  REQUIRE(dxt_release_record_to_json(&r, json, sizeof json, nullptr) == DXT_OK);
  return json;
}

// A call of dxt_privatize_index with `o`: its status, and the record.
dxt_status index_call(const Opened& m, const dxt_privatize_options& o, dxt_release_record& r) {
  dxt_release_record_init(&r);
  uint32_t out = 0;
  return dxt_privatize_index(m.ctx, &o, 1, &out, &r, nullptr);
}

bool message_has(const char* a, const char* b = nullptr) {
  const std::string m = dxt_last_error_message();
  return m.find(a) != std::string::npos && (b == nullptr || m.find(b) != std::string::npos);
}

}  // namespace

TEST_CASE("the generated table holds the header's presets, each findable by number and name") {
  CHECK(sizeof dxt::kPresets / sizeof dxt::kPresets[0] == 3);
  CHECK(std::string(dxt::preset_name(DXT_PRESET_NONE)) == "none");
  CHECK(std::string(dxt::preset_name(DXT_PRESET_READABLE)) == "readable");
  CHECK(std::string(dxt::preset_name(DXT_PRESET_FEATURES)) == "features");
  CHECK(std::string(dxt::preset_name(DXT_PRESET_STRONGEST)) == "strongest");
  CHECK(std::string(dxt::preset_name(99)) == "unknown");
  CHECK(dxt::find_preset(DXT_PRESET_NONE) == nullptr);
  for (const dxt::Preset& p : dxt::kPresets) {
    CAPTURE(p.name);
    CHECK(dxt::find_preset(p.id) == &p);
    CHECK(p.epsilon >= DXT_EPSILON_MIN);
    CHECK(p.epsilon <= DXT_EPSILON_MAX);
  }
  CHECK(std::string(dxt::kPresetsMeasuredOn).find(".dxe") != std::string::npos);
}

TEST_CASE("a preset resolves to its table values; without one the options are the caller's") {
  Opened m(true);
  for (const dxt::Preset& p : dxt::kPresets) {
    CAPTURE(p.name);
    dxt_release_record r;
    const dxt_privatize_options o = with_preset(p.id);  // epsilon 0: the preset's
    REQUIRE(index_call(m, o, r) == DXT_OK);
    CHECK(r.preset == static_cast<uint32_t>(p.id));
    CHECK(r.mechanism == static_cast<uint32_t>(p.mechanism));
    CHECK(r.epsilon == p.epsilon);
    CHECK(r.release_shape == static_cast<uint32_t>(p.release_shape));
    // The toy model has 20 words, no negator among them: a top-N vocabulary
    // takes them all (a list, when negations keep leaves negators out).
    const bool keeps_negations =
        dxt::resolve_preset(o, *dxt::test::open_bytes(m.bytes)).negations == DXT_NEGATIONS_KEEP;
    CHECK(r.output_kind == (keeps_negations     ? DXT_OUTPUT_LIST
                            : p.output_top != 0 ? DXT_OUTPUT_TOP
                                                : DXT_OUTPUT_VOCABULARY));
    CHECK(r.output_size == 20);
    CHECK(record_json(r).find(std::string("\"preset\":\"") + p.name + "\"") != std::string::npos);

    // The library's own resolution, field by field.
    dxt::test::AlignedBytes bytes(Opened::spec_bytes(true));
    const auto model = dxt::test::open_bytes(bytes);
    const dxt_privatize_options resolved = dxt::resolve_preset(o, *model);
    CHECK(resolved.mechanism == static_cast<uint32_t>(p.mechanism));
    CHECK(resolved.epsilon == p.epsilon);
    CHECK(resolved.release_shape == static_cast<uint32_t>(p.release_shape));
    CHECK(resolved.output_top == (p.output_top < 20 ? p.output_top : 20));
    for (int c = 0; c < DXT_TOKEN_CLASS_COUNT; ++c) CHECK(resolved.policy[c] == static_cast<uint32_t>(p.policy[c]));
    CHECK(resolved.preset == static_cast<uint32_t>(p.id));
  }

  dxt_privatize_options none = with_preset(DXT_PRESET_NONE);
  none.epsilon = 2;
  dxt_release_record r;
  REQUIRE(index_call(m, none, r) == DXT_OK);
  CHECK(r.preset == DXT_PRESET_NONE);
  CHECK(r.mechanism == DXT_MECHANISM_LAPLACE);
  CHECK(record_json(r).find("\"preset\"") == std::string::npos);
  // Without a preset, epsilon 0 is an unset epsilon, and says so.
  none.epsilon = 0;
  CHECK(index_call(m, none, r) == DXT_E_INVALID_EPSILON);
  CHECK(message_has("not set", "preset"));
}

TEST_CASE("a nonzero epsilon overrides the preset's and is range-checked as always") {
  Opened m(true);
  dxt_privatize_options o = with_preset(DXT_PRESET_READABLE);
  dxt_release_record r;
  o.epsilon = 5;
  REQUIRE(index_call(m, o, r) == DXT_OK);
  CHECK(r.epsilon == 5);
  CHECK(r.mechanism == static_cast<uint32_t>(dxt::find_preset(DXT_PRESET_READABLE)->mechanism));
  for (double bad : {-1.0, 1e-9, 1e9, std::nan(""), double{INFINITY}}) {
    CAPTURE(bad);
    o.epsilon = bad;
    CHECK(index_call(m, o, r) == DXT_E_INVALID_EPSILON);
  }
}

namespace {

// A preset with every kind of value the production table may use (another
// mechanism than the default, a shape, a top-N vocabulary, policies other
// than privatize), so that the rules of apply_preset are tested whatever
// values tools/options/presets.table holds today.
const dxt::Preset kTestPreset = {static_cast<dxt_preset>(9),
                                 "test",
                                 "a test",
                                 DXT_MECHANISM_EXPONENTIAL,
                                 2.0,
                                 DXT_SHAPE_NORMALIZE,
                                 5,
                                 {DXT_POLICY_PRIVATIZE, DXT_POLICY_PLACEHOLDER, DXT_POLICY_DROP, DXT_POLICY_DROP},
                                 {},
                                 0};

}  // namespace

TEST_CASE("a preset refuses fixed fields set to other values than its own and their defaults") {
  dxt::test::AlignedBytes bytes(Opened::spec_bytes(true));
  const auto model = dxt::test::open_bytes(bytes);
  const dxt::Preset& p = kTestPreset;
  dxt_privatize_options base;
  dxt_privatize_options_init(&base);
  auto apply = [&](const dxt_privatize_options& o) { return dxt::apply_preset(p, o, *model); };

  dxt_privatize_options o = base;
  o.mechanism = DXT_MECHANISM_TEM;
  CHECK_THROWS_WITH(apply(o), doctest::Contains("the option mechanism is tem, but the preset 'test'"));
  o.mechanism = DXT_MECHANISM_EXPONENTIAL;  // the preset's own value
  CHECK(apply(o).mechanism == DXT_MECHANISM_EXPONENTIAL);
  o.mechanism = DXT_MECHANISM_LAPLACE;  // the default: taken as unset
  CHECK(apply(o).mechanism == DXT_MECHANISM_EXPONENTIAL);
  o.mechanism = DXT_MECHANISM_UNKNOWN;  // 0, the C "default" value
  CHECK(apply(o).mechanism == DXT_MECHANISM_EXPONENTIAL);

  o = base;
  o.release_shape = DXT_SHAPE_STRICT;
  CHECK_THROWS_WITH(apply(o), doctest::Contains("release_shape is strict, but the preset 'test'"));
  o.release_shape = DXT_SHAPE_NORMALIZE;
  CHECK(apply(o).release_shape == DXT_SHAPE_NORMALIZE);

  o = base;
  o.policy[DXT_CLASS_OUT_OF_VOCABULARY] = DXT_POLICY_KEEP;
  CHECK_THROWS_WITH(apply(o), doctest::Contains("the option oov is keep, but the preset 'test'"));
  o.policy[DXT_CLASS_OUT_OF_VOCABULARY] = DXT_POLICY_PLACEHOLDER;  // the preset's value
  o.policy[DXT_CLASS_NUMBER] = DXT_POLICY_DROP;                    // the preset's value
  o.policy[DXT_CLASS_IN_VOCABULARY] = DXT_POLICY_DEFAULT;
  const dxt_privatize_options resolved = apply(o);
  CHECK(resolved.policy[DXT_CLASS_IN_VOCABULARY] == DXT_POLICY_PRIVATIZE);
  CHECK(resolved.policy[DXT_CLASS_STOPWORD] == DXT_POLICY_DROP);
  o.policy[DXT_CLASS_STOPWORD] = DXT_POLICY_PLACEHOLDER;
  CHECK_THROWS_WITH(apply(o), doctest::Contains("the option stopwords is placeholder, but the preset 'test'"));

  o = base;
  o.output_top = 3;
  CHECK_THROWS_WITH(apply(o), doctest::Contains("output_top is 3, but the preset 'test'"));
  o.output_top = 5;  // as the preset says
  CHECK(apply(o).output_top == 5);
  dxt::Preset wide = p;
  wide.output_top = 1000;  // more words than the model's 20: cut to the model
  CHECK(dxt::apply_preset(wide, base, *model).output_top == 20);
  o.output_top = 20;
  CHECK(dxt::apply_preset(wide, o, *model).output_top == 20);
  dxt::Preset all = p;
  all.output_top = 0;  // the whole vocabulary
  o.output_top = 5;
  CHECK_THROWS_WITH(dxt::apply_preset(all, o, *model), doctest::Contains("output_top is 5"));

  // The same rules through the C ABI, with the table's presets: a mechanism
  // that differs from both the default and each preset's own is refused.
  Opened m(true);
  dxt_release_record r;
  for (const dxt::Preset& q : dxt::kPresets) {
    CAPTURE(q.name);
    o = with_preset(q.id);
    o.mechanism = q.mechanism == DXT_MECHANISM_TEM ? DXT_MECHANISM_VICKREY : DXT_MECHANISM_TEM;
    CHECK(index_call(m, o, r) == DXT_E_INVALID_ARGUMENT);
    CHECK(message_has("mechanism", (std::string("'") + q.name + "'").c_str()));
    o.mechanism = q.mechanism;
    CHECK(index_call(m, o, r) == DXT_OK);
  }

  const char* words[] = {"w1", "w2"};
  dxt_output_set* set = nullptr;
  REQUIRE(dxt_output_set_create(m.model, words, 2, &set) == DXT_OK);
  o = with_preset(DXT_PRESET_FEATURES);
  o.output_set = set;
  CHECK(index_call(m, o, r) == DXT_E_INVALID_ARGUMENT);
  CHECK(message_has("output word list (output_words)", "'features'"));
  dxt_output_set_free(set);

  o = with_preset(DXT_PRESET_READABLE);
  o.preset = 99;
  CHECK(index_call(m, o, r) == DXT_E_INVALID_ARGUMENT);
  CHECK(message_has("unknown preset 99", "readable"));
  // Options a preset leaves to the caller stay the caller's.
  o = with_preset(DXT_PRESET_READABLE);
  o.exponential_sampler = DXT_SAMPLER_PERMUTE_AND_FLIP;
  o.placeholder = "[x]";
  CHECK(index_call(m, o, r) == DXT_OK);
}

TEST_CASE("a preset whose output vocabulary needs word frequencies is refused on a model without them") {
  Opened m(false);
  dxt_release_record r;
  int with_top = 0;
  for (const dxt::Preset& p : dxt::kPresets) {
    CAPTURE(p.name);
    if (p.output_top != 0) {
      ++with_top;
      CHECK(index_call(m, with_preset(p.id), r) == DXT_E_UNSUPPORTED);
      CHECK(message_has("frequencies", p.name));
    } else {  // the whole vocabulary: no frequencies needed
      CHECK(index_call(m, with_preset(p.id), r) == DXT_OK);
      CHECK(r.output_kind == DXT_OUTPUT_VOCABULARY);
    }
  }
  // And the rule itself, whatever the table holds.
  dxt::test::AlignedBytes bytes(Opened::spec_bytes(false));
  const auto model = dxt::test::open_bytes(bytes);
  dxt_privatize_options o;
  dxt_privatize_options_init(&o);
  CHECK_THROWS_WITH(dxt::apply_preset(kTestPreset, o, *model), doctest::Contains("no frequencies section"));
  MESSAGE(with_top << " of the table's presets need frequencies");
}

TEST_CASE("a caller whose struct ends before preset gets no preset, and an older record no preset field") {
  Opened m(true);
  dxt_privatize_options o;
  std::memset(&o, 0xAB, sizeof o);
  dxt_privatize_options_init_sized(&o, offsetof(dxt_privatize_options, preset));
  CHECK(o.struct_size == offsetof(dxt_privatize_options, preset));
  o.epsilon = 3;
  o.preset = DXT_PRESET_READABLE;  // beyond the caller's struct: never read
  dxt_release_record r;
  dxt_release_record_init(&r);
  uint32_t out = 0;
  REQUIRE(dxt_privatize_index(m.ctx, &o, 1, &out, &r, nullptr) == DXT_OK);
  CHECK(r.mechanism == DXT_MECHANISM_LAPLACE);
  CHECK(r.preset == DXT_PRESET_NONE);

  // A record that ends before preset keeps its bytes there untouched.
  dxt_privatize_options full = with_preset(DXT_PRESET_READABLE);
  dxt_release_record old;
  std::memset(&old, 0xCD, sizeof old);
  dxt_release_record_init_sized(&old, offsetof(dxt_release_record, preset));
  REQUIRE(dxt_privatize_index(m.ctx, &full, 1, &out, &old, nullptr) == DXT_OK);
  CHECK(old.mechanism == static_cast<uint32_t>(dxt::find_preset(DXT_PRESET_READABLE)->mechanism));
  CHECK(old.preset == 0xCDCDCDCDu);
}

TEST_CASE("every entry point runs with the resolved options") {
  Opened m(true);
  const dxt_privatize_options features = with_preset(DXT_PRESET_FEATURES);
  dxt_release_record r;
  dxt_release_record_init(&r);
  dxt_local_diagnostics d;
  dxt_local_diagnostics_init(&d);

  const dxt::Preset& fp = *dxt::find_preset(DXT_PRESET_FEATURES);
  const bool numbers_dropped = fp.policy[DXT_CLASS_NUMBER] == DXT_POLICY_DROP;
  const bool stopwords_dropped = fp.policy[DXT_CLASS_STOPWORD] == DXT_POLICY_DROP;

  // Text: each token under the preset's policy for its class, in its shape.
  const char text[] = "W1, the 42 -- w2!";
  char* out = nullptr;
  size_t len = 0;
  REQUIRE(dxt_privatize_text(m.ctx, &features, text, sizeof text - 1, &out, &len, &r, &d) == DXT_OK);
  const std::string released(out, len);
  dxt_text_free(out);
  const int words = 2 + (numbers_dropped ? 0 : 1) + (stopwords_dropped ? 0 : 1);
  if (fp.release_shape == DXT_SHAPE_STRICT) {
    CHECK(std::count(released.begin(), released.end(), ' ') == words - 1);
    CHECK(released.find_first_of(",!-") == std::string::npos);
  }
  // A number is a typed token: the typed policy of its family counts first.
  const dxt_typed_policy typed_numbers = fp.typed[DXT_FAMILY_NUMBERS];
  const uint32_t number_action = typed_numbers == DXT_TYPED_PLACEHOLDER ? DXT_POLICY_PLACEHOLDER
                                 : typed_numbers == DXT_TYPED_REPLACE   ? DXT_POLICY_PRIVATIZE
                                 : typed_numbers == DXT_TYPED_KEEP      ? DXT_POLICY_KEEP
                                                                        : fp.policy[DXT_CLASS_NUMBER];
  CHECK(d.counts[DXT_CLASS_NUMBER][number_action - 1] == 1);
  CHECK(d.counts[DXT_CLASS_STOPWORD][fp.policy[DXT_CLASS_STOPWORD] - 1] == 1);
  CHECK(r.release == DXT_RELEASE_TEXT);
  CHECK(r.preset == DXT_PRESET_FEATURES);
  CHECK(r.epsilon == fp.epsilon);
  CHECK(r.release_shape == static_cast<uint32_t>(fp.release_shape));

  // One word: a number under the numbers policy (dropped: an empty string).
  REQUIRE(dxt_privatize_word(m.ctx, &features, "42", 2, &out, &len, &r, nullptr) == DXT_OK);
  CHECK((len == 0) == numbers_dropped);
  dxt_text_free(out);
  CHECK(r.preset == DXT_PRESET_FEATURES);

  // A bag: the word privatised, the number under the numbers policy.
  const dxt_bag_entry entries[] = {{"w3", 2, 2}, {"7", 1, 5}};
  dxt_bag* bag = nullptr;
  REQUIRE(dxt_privatize_bag(m.ctx, &features, entries, 2, &bag, &r, nullptr) == DXT_OK);
  uint64_t total = 0;
  for (size_t i = 0; i < bag->size; ++i) total += bag->entries[i].count;
  CHECK(total == (numbers_dropped ? 2u : 7u));
  dxt_bag_free(bag);
  CHECK(r.mechanism == static_cast<uint32_t>(fp.mechanism));
  CHECK(r.preset == DXT_PRESET_FEATURES);

  // SynTF: its own mechanism, the preset's epsilon and policies; it refuses
  // a placeholder or keep policy (it would reveal the drawn word's class).
  bool syntf_refuses = false;
  for (const auto q : fp.policy) syntf_refuses |= q == DXT_POLICY_PLACEHOLDER || q == DXT_POLICY_KEEP;
  if (syntf_refuses) {
    CHECK(dxt_syntf(m.ctx, &features, entries, 2, 4, &bag, &r, nullptr) == DXT_E_UNSUPPORTED);
  } else {
    REQUIRE(dxt_syntf(m.ctx, &features, entries, 2, 4, &bag, &r, nullptr) == DXT_OK);
    dxt_bag_free(bag);
    CHECK(r.mechanism == DXT_MECHANISM_SYNTF);
    CHECK(r.epsilon == dxt::find_preset(DXT_PRESET_FEATURES)->epsilon);
    CHECK(r.preset == DXT_PRESET_FEATURES);
  }

  // Calibration with epsilon 0: the preset's.
  dxt_calibration c;
  dxt_calibration_init(&c);
  REQUIRE(dxt_calibrate(m.ctx, &features, 5, 10, &c) == DXT_OK);
  CHECK(c.words == 5);

#ifndef __EMSCRIPTEN__
  // The ledger spends the resolved epsilon and memoises under the resolved options.
  char dir[] = "/tmp/dxt-presets-XXXXXX";
  REQUIRE(mkdtemp(dir) != nullptr);
  const std::string path = std::string(dir) + "/ledger.dxl";
  dxt_ledger_options lo;
  dxt_ledger_options_init(&lo);
  lo.cap = 100;
  const uint8_t key[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};  // the memo needs an app key
  lo.key = key;
  lo.key_length = sizeof key;
  dxt_ledger* ledger = nullptr;
  REQUIRE(dxt_ledger_open(path.c_str(), "u", &lo, &ledger) == DXT_OK);
  const dxt_privatize_options readable = with_preset(DXT_PRESET_READABLE);
  bool memoised = true;
  REQUIRE(dxt_ledger_privatize_text(ledger, m.ctx, &readable, "w1 w2", 5, 0, &out, &len, &memoised, &r, nullptr) ==
          DXT_OK);
  dxt_text_free(out);
  CHECK_FALSE(memoised);
  CHECK(r.preset == DXT_PRESET_READABLE);
  REQUIRE(dxt_ledger_privatize_text(ledger, m.ctx, &readable, "w1 w2", 5, 0, &out, &len, &memoised, &r, nullptr) ==
          DXT_OK);
  dxt_text_free(out);
  CHECK(memoised);
  dxt_ledger_totals t;
  dxt_ledger_totals_init(&t);
  REQUIRE(dxt_ledger_get_totals(ledger, &t) == DXT_OK);
  CHECK(t.spent == dxt::find_preset(DXT_PRESET_READABLE)->epsilon);
  CHECK(t.releases == 1);
  // A conflicting option is refused before anything is spent.
  dxt_privatize_options bad = readable;
  bad.mechanism =
      dxt::find_preset(DXT_PRESET_READABLE)->mechanism == DXT_MECHANISM_TEM ? DXT_MECHANISM_VICKREY : DXT_MECHANISM_TEM;
  CHECK(dxt_ledger_privatize_text(ledger, m.ctx, &bad, "w3", 2, 0, &out, &len, nullptr, nullptr, nullptr) ==
        DXT_E_INVALID_ARGUMENT);
  REQUIRE(dxt_ledger_get_totals(ledger, &t) == DXT_OK);
  CHECK(t.releases == 1);
  dxt_ledger_close(ledger);
  std::remove(path.c_str());
  std::remove((path + ".lock").c_str());
  rmdir(dir);
#endif
}

TEST_CASE("mechanism parameters a preset sets are applied and checked like the other fixed fields") {
  // A preset as tools/options/presets.table would generate it with
  // "parameters: vickrey_t=0.5 sampler=permute-and-flip".
  const dxt::Preset p = {static_cast<dxt_preset>(9),
                         "test",
                         "a test",
                         DXT_MECHANISM_VICKREY,
                         4.0,
                         DXT_SHAPE_KEEP,
                         0,
                         {DXT_POLICY_PRIVATIZE, DXT_POLICY_PRIVATIZE, DXT_POLICY_PRIVATIZE, DXT_POLICY_PRIVATIZE},
                         {DXT_TYPED_PRIVATIZE, DXT_TYPED_PRIVATIZE, DXT_TYPED_PRIVATIZE, DXT_TYPED_PRIVATIZE,
                          DXT_TYPED_PRIVATIZE, DXT_TYPED_PRIVATIZE},
                         {{"vickrey_t", "0.5", &dxt_privatize_options::vickrey_t, nullptr, 0.5, 0.75},
                          {"sampler", "permute-and-flip", nullptr, &dxt_privatize_options::exponential_sampler, 2, 1}},
                         2};
  dxt::test::AlignedBytes bytes(Opened::spec_bytes(false));
  const auto model = dxt::test::open_bytes(bytes);
  dxt_privatize_options o;
  dxt_privatize_options_init(&o);
  dxt_privatize_options r = dxt::apply_preset(p, o, *model);
  CHECK(r.mechanism == DXT_MECHANISM_VICKREY);
  CHECK(r.epsilon == 4.0);
  CHECK(r.vickrey_t == 0.5);
  CHECK(r.exponential_sampler == DXT_SAMPLER_PERMUTE_AND_FLIP);
  o.vickrey_t = 0.5;  // the preset's own value
  o.exponential_sampler = DXT_SAMPLER_DEFAULT;
  CHECK(dxt::apply_preset(p, o, *model).vickrey_t == 0.5);
  o.vickrey_t = 0.25;
  CHECK_THROWS_WITH(dxt::apply_preset(p, o, *model),
                    doctest::Contains("the option vickrey_t is 0.25, but the preset 'test' sets it to 0.5"));
  o.vickrey_t = 0.75;
  o.exponential_sampler = DXT_SAMPLER_GUMBEL;  // the default: taken as unset
  CHECK(dxt::apply_preset(p, o, *model).exponential_sampler == DXT_SAMPLER_PERMUTE_AND_FLIP);
  o.exponential_sampler = 7;
  CHECK_THROWS_WITH(dxt::apply_preset(p, o, *model), doctest::Contains("the option sampler is 7"));
}
