// SPDX-License-Identifier: Apache-2.0
// The options by name (dxt_options_*, dxt_option_describe): every option of
// tools/options/privatize_options.table is described and settable, values
// are checked with messages that name the option as written, presets follow
// the rules of the struct, and the struct built by name equals the one a C
// caller fills by hand.
#include <doctest/doctest.h>

#include <cstring>
#include <string>
#include <vector>

#include "accounting/privacy_report.hpp"
#include "dxtext/dxtext.h"
#include "support/toy_models.hpp"
#include "text/privatize_presets.hpp"

namespace {

struct Opened {
  dxt::test::AlignedBytes bytes;
  dxt_model* model = nullptr;
  dxt_context* ctx = nullptr;
  Opened() : bytes(spec_bytes()) {
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
  static std::string spec_bytes() {
    dxt::test::ToyModelSpec s = dxt::test::grid_2d_spec();
    s.with_frequencies = true;
    s.with_orderings = true;
    s.with_typed_lists = true;    // the presets' typed families need the lists
    s.with_context_prior = true;  // and readable its context prior
    return dxt::test::build_model_bytes(s);
  }
};

struct Options {
  dxt_options* h = nullptr;
  explicit Options(const dxt_model* model) { REQUIRE(dxt_options_create(model, &h) == DXT_OK); }
  ~Options() { dxt_options_destroy(h); }
  dxt_status set(const char* name, const char* value) { return dxt_options_set(h, name, value); }
  const dxt_privatize_options& get() const { return *dxt_options_get(h); }
};

std::string message() { return dxt_last_error_message(); }

// No message of the by-name path shows a C macro or a struct member.
void check_plain(const std::string& m) {
  CHECK(m.find("DXT_") == std::string::npos);
  CHECK(m.find("policy[") == std::string::npos);
  CHECK(m.find("options.") == std::string::npos);
}

dxt_option_info describe(uint32_t i) {
  dxt_option_info info;
  std::memset(&info, 0, sizeof info);
  info.struct_size = sizeof info;
  REQUIRE(dxt_option_describe(i, &info) == DXT_OK);
  return info;
}

std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= list.size()) {
    const size_t comma = list.find(", ", start);
    out.push_back(list.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 2;
  }
  return out;
}

}  // namespace

TEST_CASE("by name: every option is described, with static strings, and its default is what _init writes") {
  const uint32_t n = dxt_option_count();
  REQUIRE(n >= 18);
  std::vector<std::string> names;
  for (uint32_t i = 0; i < n; ++i) {
    const dxt_option_info info = describe(i);
    REQUIRE(info.name != nullptr);
    CHECK(info.kind >= DXT_OPTION_TYPE_DOUBLE);
    CHECK(info.kind <= DXT_OPTION_TYPE_WORDS);
    CHECK(std::strlen(info.meaning) > 0);
    CHECK(std::strlen(info.values) > 0);
    names.emplace_back(info.name);
  }
  CHECK(names[0] == "epsilon");
  dxt_option_info info;
  info.struct_size = sizeof info;
  CHECK(dxt_option_describe(n, &info) == DXT_E_INVALID_ARGUMENT);
  CHECK(dxt_option_describe(0, nullptr) == DXT_E_INVALID_ARGUMENT);
  info.struct_size = 4;
  CHECK(dxt_option_describe(0, &info) == DXT_E_INVALID_ARGUMENT);
  // An older, shorter struct: filled up to its size, struct_size kept.
  struct {
    uint32_t struct_size, kind;
    const char* name;
  } older{sizeof older, 0, nullptr};
  REQUIRE(dxt_option_describe(1, reinterpret_cast<dxt_option_info*>(&older)) == DXT_OK);
  CHECK(older.struct_size == sizeof older);
  CHECK(std::string(older.name) == names[1]);

  Options o(nullptr);
  dxt_privatize_options d;
  dxt_privatize_options_init(&d);
  CHECK(std::memcmp(&o.get(), &d, sizeof d) == 0);
}

TEST_CASE("by name: every option is settable to every enum value and to a value of its range, and resets with NULL") {
  Opened m;
  Options o(m.model);
  for (uint32_t i = 0; i < dxt_option_count(); ++i) {
    const dxt_option_info info = describe(i);
    CAPTURE(info.name);
    switch (info.kind) {
      case DXT_OPTION_TYPE_ENUM:
        for (const std::string& v : split(info.values)) {
          CAPTURE(v);
          if (std::string(info.name) == "preset") continue;  // below, with its rules
          CHECK(o.set(info.name, v.c_str()) == DXT_OK);
        }
        break;
      case DXT_OPTION_TYPE_DOUBLE: CHECK(o.set(info.name, "0.5") == DXT_OK); break;
      case DXT_OPTION_TYPE_UINT32: CHECK(o.set(info.name, "7") == DXT_OK); break;
      case DXT_OPTION_TYPE_STRING: CHECK(o.set(info.name, "[x]") == DXT_OK); break;
      case DXT_OPTION_TYPE_WORDS: {
        const char* words[] = {"w1", "w2"};
        CHECK(dxt_options_set_words(o.h, info.name, words, 2) == DXT_OK);
        break;
      }
      default: FAIL("an option of unknown type");
    }
    CHECK(o.set(info.name, nullptr) == DXT_OK);
  }
  dxt_privatize_options d;
  dxt_privatize_options_init(&d);
  CHECK(std::memcmp(&o.get(), &d, sizeof d) == 0);
}

TEST_CASE("by name: each option set to the default the table states gives the struct _init writes") {
  dxt_privatize_options d;
  dxt_privatize_options_init(&d);
  for (uint32_t i = 0; i < dxt_option_count(); ++i) {
    const dxt_option_info info = describe(i);
    CAPTURE(info.name);
    const std::string def = info.default_value;
    if (info.kind == DXT_OPTION_TYPE_STRING || info.kind == DXT_OPTION_TYPE_WORDS || def == "required") continue;
    Options o(nullptr);
    REQUIRE(o.set(info.name, def.c_str()) == DXT_OK);
    CHECK(std::memcmp(&o.get(), &d, sizeof d) == 0);
  }
}

TEST_CASE("by name: the struct equals the one filled by hand, in any case of the names") {
  Opened m;
  Options o(m.model);
  REQUIRE(o.set("mechanism", "exponential") == DXT_OK);
  REQUIRE(o.set("epsilon", "7.5e-1") == DXT_OK);
  REQUIRE(o.set("oov", "placeholder") == DXT_OK);
  REQUIRE(o.set("numbers", "3") == DXT_OK);  // an enum by number: drop
  REQUIRE(o.set("placeholder", "[gone]") == DXT_OK);
  REQUIRE(o.set("vickreyT", "0.25") == DXT_OK);
  REQUIRE(o.set("mahalanobis-lambda", "0.5") == DXT_OK);
  REQUIRE(o.set("sampler", "Permute_And_Flip") == DXT_OK);
  REQUIRE(o.set("ivfNprobe", "12.0") == DXT_OK);
  CHECK(o.get().ivf_nprobe == 12);
  REQUIRE(o.set("ivf-nprobe", nullptr) == DXT_OK);  // nprobe without IVF is refused by the calls below
  REQUIRE(o.set("release_shape", "normalize") == DXT_OK);
  REQUIRE(o.set("output_top", "10") == DXT_OK);
  REQUIRE(o.set("syntf_s", "0.1") == DXT_OK);
  REQUIRE(o.set("syntf_s", "0.2") == DXT_OK);  // the last value wins

  dxt_privatize_options d;
  dxt_privatize_options_init(&d);
  d.mechanism = DXT_MECHANISM_EXPONENTIAL;
  d.epsilon = 0.75;
  d.policy[DXT_CLASS_OUT_OF_VOCABULARY] = DXT_POLICY_PLACEHOLDER;
  d.policy[DXT_CLASS_NUMBER] = DXT_POLICY_DROP;
  d.vickrey_t = 0.25;
  d.mahalanobis_lambda = 0.5;
  d.syntf_s = 0.2;
  d.exponential_sampler = DXT_SAMPLER_PERMUTE_AND_FLIP;
  d.release_shape = DXT_SHAPE_NORMALIZE;
  d.output_top = 10;
  const dxt_privatize_options& g = o.get();
  REQUIRE(g.placeholder != nullptr);
  CHECK(std::string(g.placeholder) == "[gone]");
  d.placeholder = g.placeholder;
  CHECK(std::memcmp(&g, &d, sizeof d) == 0);

  // Both structs privatise alike.
  dxt_context_options co;
  dxt_context_options_init(&co);
  co.rng_mode = DXT_RNG_DETERMINISTIC;
  dxt_context *c1 = nullptr, *c2 = nullptr;
  REQUIRE(dxt_context_create(m.model, &co, &c1) == DXT_OK);
  REQUIRE(dxt_context_create(m.model, &co, &c2) == DXT_OK);
  const std::string text = "w1 w2 zz 42 w3";
  char *a = nullptr, *b = nullptr;
  size_t na = 0, nb = 0;
  REQUIRE(dxt_privatize_text(c1, &g, text.data(), text.size(), &a, &na, nullptr, nullptr) == DXT_OK);
  REQUIRE(dxt_privatize_text(c2, &d, text.data(), text.size(), &b, &nb, nullptr, nullptr) == DXT_OK);
  CHECK(std::string(a, na) == std::string(b, nb));
  dxt_text_free(a);
  dxt_text_free(b);
  dxt_context_destroy(c1);
  dxt_context_destroy(c2);
}

TEST_CASE("by name: output_words builds a set the handle owns, refused without a model and on bad words") {
  Opened m;
  Options o(m.model);
  const char* words[] = {"w1", "w2", "w3"};
  REQUIRE(dxt_options_set_words(o.h, "output_words", words, 3) == DXT_OK);
  REQUIRE(o.get().output_set != nullptr);
  CHECK(dxt_output_set_size(o.get().output_set) == 3);
  REQUIRE(o.set("epsilon", "2") == DXT_OK);
  uint32_t out = 0;
  for (int i = 0; i < 20; ++i) {
    REQUIRE(dxt_privatize_index(m.ctx, &o.get(), 10, &out, nullptr, nullptr) == DXT_OK);
    CHECK(out >= 1);
    CHECK(out <= 3);
  }
  const char* bad[] = {"w1", "nope"};
  CHECK(dxt_options_set_words(o.h, "outputWords", bad, 2) == DXT_E_INVALID_ARGUMENT);
  CHECK(message().rfind("outputWords: ", 0) == 0);
  CHECK(dxt_output_set_size(o.get().output_set) == 3);  // unchanged
  CHECK(o.set("output_words", "w1") == DXT_E_INVALID_ARGUMENT);
  CHECK(message() == "output_words: takes a list of the model's words (dxt_options_set_words)");
  CHECK(dxt_options_set_words(o.h, "epsilon", words, 1) == DXT_E_INVALID_ARGUMENT);
  check_plain(message());

  Options without(nullptr);
  CHECK(dxt_options_set_words(without.h, "output_words", words, 1) == DXT_E_INVALID_ARGUMENT);
  CHECK(message().find("without a model") != std::string::npos);
}

TEST_CASE("by name: each error names the option as written, says what is allowed, and suggests") {
  Options o(nullptr);
  CHECK(o.set("epsilom", "1") == DXT_E_INVALID_ARGUMENT);
  CHECK(message() == "unknown option 'epsilom' (did you mean 'epsilon'?)");
  CHECK(o.set("vickreyTT", "1") == DXT_E_INVALID_ARGUMENT);
  CHECK(message() == "unknown option 'vickreyTT' (did you mean 'vickreyT'?)");
  CHECK(o.set("zzzzzzzzzzzz", "1") == DXT_E_INVALID_ARGUMENT);
  CHECK(message().rfind("unknown option 'zzzzzzzzzzzz' (the options are epsilon, mechanism, ", 0) == 0);
  CHECK(o.set("release_shape", "strik") == DXT_E_INVALID_ARGUMENT);
  CHECK(message() == "release_shape: 'strik' is not one of keep, normalize, strict (did you mean 'strict'?)");
  CHECK(o.set("releaseShape", "purple") == DXT_E_INVALID_ARGUMENT);
  CHECK(message() == "releaseShape: 'purple' is not one of keep, normalize, strict");
  CHECK(o.set("epsilon", "1e7") == DXT_E_INVALID_EPSILON);
  CHECK(message() == "epsilon: '1e7' is out of range ([1e-6, 1e6])");
  CHECK(o.set("epsilon", "0") == DXT_E_INVALID_EPSILON);
  CHECK(o.set("epsilon", "nan") == DXT_E_INVALID_EPSILON);
  CHECK(message() == "epsilon: 'nan' is not a number");
  CHECK(o.set("epsilon", "1,5") == DXT_E_INVALID_EPSILON);
  CHECK(o.set("tem_beta", "1") == DXT_E_INVALID_ARGUMENT);
  CHECK(message() == "tem_beta: '1' is out of range ((0, 1))");
  CHECK(o.set("syntf_s", "-0.5") == DXT_E_INVALID_ARGUMENT);
  CHECK(message() == "syntf_s: '-0.5' is out of range (>= 0)");
  CHECK(o.set("vickrey-t", "1.5") == DXT_E_INVALID_ARGUMENT);
  CHECK(message() == "vickrey-t: '1.5' is out of range ([0, 1])");
  CHECK(o.set("ivf_nprobe", "-1") == DXT_E_INVALID_ARGUMENT);
  CHECK(message() == "ivf_nprobe: '-1' is not a whole number in 0 .. 4294967295");
  CHECK(o.set("output_top", "2.5") == DXT_E_INVALID_ARGUMENT);
  CHECK(o.set("output_top", "4294967296") == DXT_E_INVALID_ARGUMENT);
  CHECK(o.set("placeholder", "\xff") == DXT_E_INVALID_UTF8);
  CHECK(o.set(nullptr, "1") == DXT_E_INVALID_ARGUMENT);
  CHECK(dxt_options_set(nullptr, "epsilon", "1") == DXT_E_INVALID_ARGUMENT);
  check_plain(message());
  // A refused value leaves the handle as it was.
  dxt_privatize_options d;
  dxt_privatize_options_init(&d);
  CHECK(std::memcmp(&o.get(), &d, sizeof d) == 0);
  CHECK(dxt_options_get(nullptr) == nullptr);
  dxt_options_destroy(nullptr);
}

TEST_CASE("by name: a preset refuses a conflicting option in either order, naming it as written") {
  Opened m;
  Options o(m.model);
  REQUIRE(o.set("preset", "readable") == DXT_OK);
  // The preset's mechanism, from its table (retuning needs no edit here).
  const std::string own =
      dxt::mechanism_name(static_cast<dxt_mechanism>(dxt::find_preset(DXT_PRESET_READABLE)->mechanism));
  REQUIRE(own != "hyperbolic");
  CHECK(o.set("mechanism", own.c_str()) == DXT_OK);  // the preset's own value
  // The default, set by name, is a conflict too: it was asked for, and the
  // command line refuses it in the same case (`--preset readable
  // --release-shape keep`).
  if (own != "laplace") {
    CHECK(o.set("mechanism", "laplace") == DXT_E_INVALID_ARGUMENT);
    CHECK(message().rfind("mechanism: 'laplace' conflicts with the preset 'readable'", 0) == 0);
  }
  CHECK(o.set("mechanism", "hyperbolic") == DXT_E_INVALID_ARGUMENT);
  CHECK(message() == "mechanism: 'hyperbolic' conflicts with the preset 'readable', which sets it to '" + own +
                         "': leave it unset, set '" + own + "', or use no preset");
  CHECK(o.get().mechanism == static_cast<uint32_t>(dxt::find_preset(DXT_PRESET_READABLE)->mechanism));  // unchanged
  CHECK(o.set("numbers", "drop") == DXT_E_INVALID_ARGUMENT);
  CHECK(message().rfind("numbers: 'drop' conflicts with the preset 'readable'", 0) == 0);
  check_plain(message());
  const char* words[] = {"w1", "w2"};
  CHECK(dxt_options_set_words(o.h, "outputWords", words, 2) == DXT_E_INVALID_ARGUMENT);
  CHECK(message().rfind("outputWords: the preset 'readable' fixes the output vocabulary", 0) == 0);
  CHECK(o.get().output_set == nullptr);
  CHECK(o.set("epsilon", "1.5") == DXT_OK);  // overrides the preset's
  CHECK(o.set("placeholder", "[x]") == DXT_OK);

  // The other order: the option first, then the preset, which is refused.
  Options p(m.model);
  REQUIRE(p.set("releaseShape", "normalize") == DXT_OK);
  CHECK(p.set("preset", "features") == DXT_E_INVALID_ARGUMENT);
  CHECK(message().rfind("releaseShape: 'normalize' conflicts with the preset 'features', which sets it to 'strict'",
                        0) == 0);
  CHECK(p.get().preset == DXT_PRESET_NONE);
  // release_shape set to its default, keep, conflicts as well (the
  // preset's is strict): set by name, a default is not "unset".
  REQUIRE(p.set("releaseShape", "keep") == DXT_OK);
  CHECK(p.set("preset", "features") == DXT_E_INVALID_ARGUMENT);
  CHECK(message().rfind("releaseShape: 'keep' conflicts with the preset 'features', which sets it to 'strict'", 0) ==
        0);
  REQUIRE(p.set("releaseShape", nullptr) == DXT_OK);  // unset again
  CHECK(p.set("preset", "features") == DXT_OK);
  CHECK(p.set("preset", "nonee") == DXT_E_INVALID_ARGUMENT);
  CHECK(message() == "preset: 'nonee' is not one of none, readable, features, strongest (did you mean 'none'?)");
}

TEST_CASE("by name: a preset resolves as the struct's does, epsilon overriding") {
  Opened m;
  Options o(m.model);
  REQUIRE(o.set("preset", "strongest") == DXT_OK);
  dxt_privatize_options d;
  dxt_privatize_options_init(&d);
  d.preset = DXT_PRESET_STRONGEST;
  CHECK(std::memcmp(&o.get(), &d, sizeof d) == 0);
  dxt_release_record a, b;
  dxt_release_record_init(&a);
  dxt_release_record_init(&b);
  uint32_t out = 0;
  REQUIRE(dxt_privatize_index(m.ctx, &o.get(), 1, &out, &a, nullptr) == DXT_OK);
  REQUIRE(dxt_privatize_index(m.ctx, &d, 1, &out, &b, nullptr) == DXT_OK);
  CHECK(a.preset == DXT_PRESET_STRONGEST);
  CHECK(a.mechanism == DXT_MECHANISM_EXPONENTIAL);
  CHECK(a.epsilon == b.epsilon);
  REQUIRE(o.set("epsilon", "1.25") == DXT_OK);
  REQUIRE(dxt_privatize_index(m.ctx, &o.get(), 1, &out, &a, nullptr) == DXT_OK);
  CHECK(a.epsilon == 1.25);
}
