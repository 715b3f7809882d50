// SPDX-License-Identifier: Apache-2.0
// The release shapes of dxt_privatize_text (DESIGN.md §8; docs/guarantees.md,
// "Release shapes"): what normalize and strict claim to hide is checked by
// privatising texts that differ only in that, with the same seed, and
// requiring byte-identical outputs (the same draws are consumed, so equal
// outputs for every seed is equal output laws). Mutants that copy one
// punctuation mark, or one word's case, must fail the same check.
#include <doctest/doctest.h>

#include <cstddef>
#include <cstring>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "dxtext/dxtext.h"
#include "model/format.hpp"
#include "model/model.hpp"
#include "model/section_append_writer.hpp"
#include "model/typed_lists.hpp"
#include "support/release_outputs.hpp"
#include "support/toy_models.hpp"

namespace {

using dxt::test::Reported;

// A grid of spacing 1: at epsilon 1 most words move, so outputs vary with the
// seed and a copied mark cannot hide among identical outputs.
const std::vector<std::string> kWords = {"cat",   "the",  "sat", "on",   "mat", "dog",
                                         "house", "tree", "ran", "blue", "run", "quick"};

dxt::test::ToyModelSpec grid(const std::vector<std::string>& words) {
  dxt::test::ToyModelSpec s;
  for (uint32_t i = 0; i < words.size(); ++i) {
    s.words.push_back(words[i]);
    s.vectors.push_back({static_cast<float>(i % 4), static_cast<float>(i / 4), 0.0f});
  }
  return s;
}

struct Toy {
  dxt::test::AlignedBytes bytes;
  dxt_model* model = nullptr;
  explicit Toy(const std::vector<std::string>& words = kWords) : bytes(dxt::test::build_model_bytes(grid(words))) {
    REQUIRE(dxt_model_open_memory(bytes.data(), bytes.size, nullptr, &model) == DXT_OK);
  }
  ~Toy() { dxt_model_close(model); }
  Toy(const Toy&) = delete;
  Toy& operator=(const Toy&) = delete;
};

dxt_context* seeded_context(dxt_model* model, uint8_t seed) {
  dxt_context_options o;
  dxt_context_options_init(&o);
  o.rng_mode = DXT_RNG_DETERMINISTIC;
  for (int i = 0; i < 32; ++i) o.seed[i] = static_cast<uint8_t>(i * 5 + 3);
  o.seed[0] = seed;
  dxt_context* ctx = nullptr;
  REQUIRE(dxt_context_create(model, &o, &ctx) == DXT_OK);
  return ctx;
}

dxt_privatize_options options(dxt_release_shape shape, double epsilon = 1.0) {
  dxt_privatize_options o;
  dxt_privatize_options_init(&o);
  o.epsilon = epsilon;
  o.release_shape = shape;
  return o;
}

dxt_status text_status(dxt_context* ctx, const dxt_privatize_options& o, const std::string& in, std::string& result,
                       Reported* r = nullptr) {
  char* out = nullptr;
  size_t len = 0;
  const dxt_status s =
      dxt_privatize_text(ctx, &o, in.data(), in.size(), &out, &len, r ? &r->rec : nullptr, r ? &r->diag : nullptr);
  result = s == DXT_OK ? std::string(out, len) : std::string();
  dxt_text_free(out);
  return s;
}

// One release of `in` from a fresh context seeded with `seed`.
using Release = std::function<std::string(const std::string& in, uint8_t seed)>;

Release real_release(dxt_model* model, const dxt_privatize_options& o) {
  return [model, o](const std::string& in, uint8_t seed) {
    dxt_context* ctx = seeded_context(model, seed);
    std::string out;
    const dxt_status s = text_status(ctx, o, in, out);
    dxt_context_destroy(ctx);
    REQUIRE_MESSAGE(s == DXT_OK, dxt_last_error_message());
    return out;
  };
}

// Mutants built on the real release: one copies the input's first '!' to
// the end of the output, the other writes the first output word in upper
// case when the input's first word is in upper case.
Release copies_exclamation(Release real) {
  return [real](const std::string& in, uint8_t seed) {
    std::string out = real(in, seed);
    if (in.find('!') != std::string::npos) out += '!';
    return out;
  };
}

Release copies_upper_case(Release real) {
  return [real](const std::string& in, uint8_t seed) {
    std::string out = real(in, seed);
    const bool upper = in.size() > 1 && in[0] >= 'A' && in[0] <= 'Z' && in[1] >= 'A' && in[1] <= 'Z';
    if (upper)
      for (char& ch : out) {
        if (ch == ' ') break;
        if (ch >= 'a' && ch <= 'z') ch = static_cast<char>(ch - 'a' + 'A');
      }
    return out;
  };
}

// True when every variant gives the same output as the first, for each of
// 20 seeds; reports the first difference.
bool hides(const Release& release, const std::vector<std::string>& variants) {
  for (uint8_t seed = 1; seed <= 20; ++seed) {
    const std::string expected = release(variants[0], seed);
    for (const std::string& v : variants) {
      const std::string got = release(v, seed);
      if (got != expected) {
        MESSAGE("seed " << int{seed} << ": '" << variants[0] << "' -> '" << expected << "' but '" << v << "' -> '"
                        << got << "'");
        return false;
      }
    }
  }
  return true;
}

// The same words; punctuation, case, whitespace, symbols and sentence
// structure all differ.
const std::vector<std::string> kStrictVariants = {
    "The cat sat on the mat. The dog ran!",      "the cat sat on the mat the dog ran",
    "THE CAT SAT, ON THE MAT; THE DOG RAN?",     "  The  cat\tsat -- on \"the\" mat...\n\nthe Dog (ran) :-)  ",
    "the-cat/sat & on the mat!!! The dog, ran.",
};

// The same words and the same sentence and clause boundaries; the marks,
// case, whitespace and symbols differ.
const std::vector<std::string> kNormalizeVariants = {
    "The cat sat, on the mat. The dog ran!",
    "the cat sat; on the mat! the dog ran.",
    "THE CAT   SAT (ON THE MAT)? THE DOG RAN...",
    "  The\tcat -- sat: on the mat?! the dog ran \xE2\x80\xA6 ",
    "the cat-sat \xE2\x80\x94 on the mat\xE3\x80\x82 The dog ran?",
};

}  // namespace

TEST_CASE("strict: texts that differ only in punctuation, case and spacing give identical outputs") {
  Toy toy;
  const Release strict = real_release(toy.model, options(DXT_SHAPE_STRICT));
  CHECK(hides(strict, kStrictVariants));
  // The outputs do vary with the seed (the check is not trivially true).
  CHECK(strict(kStrictVariants[0], 1) != strict(kStrictVariants[0], 2));
  // The same check rejects a release that copies one punctuation mark, or
  // one word's case.
  CHECK_FALSE(hides(copies_exclamation(strict), kStrictVariants));
  CHECK_FALSE(hides(copies_upper_case(strict), kStrictVariants));
  // The keep shape shows all of it, and fails the check.
  CHECK_FALSE(hides(real_release(toy.model, options(DXT_SHAPE_KEEP)), kStrictVariants));
  // normalize shows sentence boundaries, which these variants change.
  CHECK_FALSE(hides(real_release(toy.model, options(DXT_SHAPE_NORMALIZE)), kStrictVariants));
}

TEST_CASE("normalize: texts that differ only in the marks of the same boundaries, case and spacing are identical") {
  Toy toy;
  const Release normalize = real_release(toy.model, options(DXT_SHAPE_NORMALIZE));
  CHECK(hides(normalize, kNormalizeVariants));
  CHECK(normalize(kNormalizeVariants[0], 1) != normalize(kNormalizeVariants[0], 2));
  CHECK_FALSE(hides(copies_exclamation(normalize), kNormalizeVariants));
  CHECK_FALSE(hides(copies_upper_case(normalize), kNormalizeVariants));
  CHECK_FALSE(hides(real_release(toy.model, options(DXT_SHAPE_KEEP)), kNormalizeVariants));
  // What normalize shows: moving a sentence end or a clause mark changes it.
  CHECK_FALSE(hides(normalize, {"the cat sat. on the mat", "the cat sat on. the mat"}));
  CHECK_FALSE(hides(normalize, {"the cat sat, on the mat", "the cat sat on the mat"}));
}

TEST_CASE("the canonical forms, at an epsilon where no word moves") {
  Toy toy;
  dxt_context* ctx = seeded_context(toy.model, 1);
  const std::string text = "  The CAT sat, (on the mat)?! the dog -- ran \xE2\x80\xA6 quick\n";
  std::string out;
  REQUIRE(text_status(ctx, options(DXT_SHAPE_KEEP, 1e6), text, out) == DXT_OK);
  CHECK(out == text);
  REQUIRE(text_status(ctx, options(DXT_SHAPE_NORMALIZE, 1e6), text, out) == DXT_OK);
  CHECK(out == "The cat sat, on the mat. The dog ran. Quick");
  REQUIRE(text_status(ctx, options(DXT_SHAPE_STRICT, 1e6), text, out) == DXT_OK);
  CHECK(out == "the cat sat on the mat the dog ran quick");
  // A clause mark at the end, and text without words.
  REQUIRE(text_status(ctx, options(DXT_SHAPE_NORMALIZE, 1e6), "cat, dog,", out) == DXT_OK);
  CHECK(out == "Cat, dog");
  for (const char* empty : {"", "  ?! -- ", "\xF0\x9F\x99\x82"}) {
    REQUIRE(text_status(ctx, options(DXT_SHAPE_NORMALIZE, 1e6), empty, out) == DXT_OK);
    CHECK(out.empty());
    REQUIRE(text_status(ctx, options(DXT_SHAPE_STRICT, 1e6), empty, out) == DXT_OK);
    CHECK(out.empty());
  }
  // Placeholders stand as words; dropped words leave no gap.
  dxt_privatize_options o = options(DXT_SHAPE_STRICT, 1e6);
  o.policy[DXT_CLASS_NUMBER] = DXT_POLICY_PLACEHOLDER;
  o.policy[DXT_CLASS_OUT_OF_VOCABULARY] = DXT_POLICY_DROP;
  REQUIRE(text_status(ctx, o, "Cat, 42 zebra!! dog.", out) == DXT_OK);
  CHECK(out == "cat [redacted] dog");
  // A text longer than one tokenizer piece (64 KiB) joins across pieces.
  std::string long_text, expected;
  for (int i = 0; i < 20000; ++i) {
    long_text += i % 3 ? "Cat;  " : "DOG!\n";
    expected += (i ? " " : "") + std::string(i % 3 ? "cat" : "dog");
  }
  REQUIRE(text_status(ctx, options(DXT_SHAPE_STRICT, 1e6), long_text, out) == DXT_OK);
  CHECK(out == expected);
  // One word: keep restores its case shape, the others do not.
  char* w = nullptr;
  size_t n = 0;
  const dxt_privatize_options keep = options(DXT_SHAPE_KEEP, 1e6), strict = options(DXT_SHAPE_STRICT, 1e6);
  REQUIRE(dxt_privatize_word(ctx, &keep, "DOG", 3, &w, &n, nullptr, nullptr) == DXT_OK);
  CHECK(std::string(w, n) == "DOG");
  dxt_text_free(w);
  REQUIRE(dxt_privatize_word(ctx, &strict, "DOG", 3, &w, &n, nullptr, nullptr) == DXT_OK);
  CHECK(std::string(w, n) == "dog");
  dxt_text_free(w);
  dxt_context_destroy(ctx);
}

// Words outside ASCII, stored in folded form (unicode::fold): the Greek
// final sigma folds to σ, ß to ss, the ligature ﬁ to fi.
const std::vector<std::string> kFoldedWords = {"οδοσ", "džungla", "strasse", "café", "hello", "tom", "fish", "the"};

// Spellings of "ΟΔΟΣ DŽUNGLA STRAẞE café hello tom fish the" that differ in
// case (full case folding), composition (e + U+0301), compatibility forms
// (full-width, mathematical bold, the ﬁ ligature, the DŽ digraph) and
// default-ignorable code points inside words (zero-width joiner, soft hyphen,
// word joiner).
const std::vector<std::string> kUnicodeVariants = {
    "\xCE\x9F\xCE\x94\xCE\x9F\xCE\xA3 D\xC5\xBDUNGLA STRA\xE1\xBA\x9E"
    "E caf\xC3\xA9 hello tom fish the",
    "\xCE\xBF\xCE\xB4\xCE\xBF\xCF\x82 d\xC5\xBEungla stra\xC3\x9F"
    "e cafe\xCC\x81 hel\xE2\x80\x8Dlo \xEF\xBD\x94\xEF\xBD\x8F\xEF\xBD\x8D \xEF\xAC\x81sh the",
    "\xCE\x9F\xCE\xB4\xCE\xBF\xCF\x82 \xC7\x85ungla Strasse CAF\xC3\x89 hel\xC2\xADlo "
    "\xF0\x9D\x90\xAD\xF0\x9D\x90\xA8\xF0\x9D\x90\xA6 FI\xE2\x81\xA0SH T\xE2\x80\x8BHE",
};

TEST_CASE("strict and normalize are blind to Unicode case, normalisation and invisible code points inside words") {
  Toy toy(kFoldedWords);
  // At an epsilon where no word moves, every spelling is its folded word.
  dxt_context* ctx = seeded_context(toy.model, 1);
  for (const std::string& v : kUnicodeVariants) {
    std::string out;
    REQUIRE(text_status(ctx, options(DXT_SHAPE_STRICT, 1e6), v, out) == DXT_OK);
    CHECK_MESSAGE(out == "\xCE\xBF\xCE\xB4\xCE\xBF\xCF\x83 d\xC5\xBEungla strasse caf\xC3\xA9 hello tom fish the", v);
    REQUIRE(text_status(ctx, options(DXT_SHAPE_NORMALIZE, 1e6), v, out) == DXT_OK);
    CHECK_MESSAGE(out == "\xCE\x9F\xCE\xB4\xCE\xBF\xCF\x83 d\xC5\xBEungla strasse caf\xC3\xA9 hello tom fish the", v);
    for (const char* w : {"hello", "tom", "fish"}) {
      uint32_t index = 0;
      CHECK(dxt_model_lookup(toy.model, w, std::strlen(w), &index) == DXT_OK);
    }
  }
  dxt_context_destroy(ctx);
  // Where words move, the outputs are byte-identical for every seed.
  CHECK(hides(real_release(toy.model, options(DXT_SHAPE_STRICT)), kUnicodeVariants));
  CHECK(hides(real_release(toy.model, options(DXT_SHAPE_NORMALIZE)), kUnicodeVariants));
  // The lookup finds each spelling on its own, too.
  for (const char* w : {"\xEF\xBD\x88\xEF\xBD\x85\xEF\xBD\x8C\xEF\xBD\x8C\xEF\xBD\x8F", "HEL\xC2\xADLO",
                        "STRA\xC3\x9F"
                        "E",
                        "\xCE\x9F\xCE\x94\xCE\x9F\xCE\xA3", "CAFE\xCC\x81"}) {
    uint32_t index = 0;
    CHECK_MESSAGE(dxt_model_lookup(toy.model, w, std::strlen(w), &index) == DXT_OK, w);
  }
}

// Compatibility variants of digits, separators and apostrophes (full-width
// forms, small forms, mathematical digits): strict and normalize read the
// text through compatibility folding before they tokenize it, so
// "１，５００" is one number as "1,500" is, and "don＇t" one word.
const std::vector<std::string> kSeparatorVariants = {
    "I don't pay 1,500 now, the cat sat 3.14",
    // full-width apostrophe, digits, comma (U+FF0C) and full stop (U+FF0E)
    "I don\xEF\xBC\x87t pay \xEF\xBC\x91\xEF\xBC\x8C\xEF\xBC\x95\xEF\xBC\x90\xEF\xBC\x90 now\xEF\xBC\x8C the cat sat "
    "\xEF\xBC\x93\xEF\xBC\x8E\xEF\xBC\x91\xEF\xBC\x94",
    // mathematical bold digits, small comma (U+FE50) and small full stop (U+FE52)
    "I DON'T pay \xF0\x9D\x9F\x8F\xEF\xB9\x90\xF0\x9D\x9F\x93\xF0\x9D\x9F\x8E\xF0\x9D\x9F\x8E now\xEF\xB9\x90 the "
    "cat sat \xF0\x9D\x9F\x91\xEF\xB9\x92\xF0\x9D\x9F\x8F\xF0\x9D\x9F\x92",
};

TEST_CASE("strict and normalize are blind to compatibility forms of digits, separators and apostrophes") {
  std::vector<std::string> words = kWords;
  for (const char* w : {"don't", "pay", "now", "i"}) words.push_back(w);
  Toy toy(words);
  CHECK(hides(real_release(toy.model, options(DXT_SHAPE_STRICT)), kSeparatorVariants));
  CHECK(hides(real_release(toy.model, options(DXT_SHAPE_NORMALIZE)), kSeparatorVariants));
  // Each variant has the same word count: 9 words and numbers.
  dxt_context* ctx = seeded_context(toy.model, 1);
  for (const std::string& v : kSeparatorVariants) {
    Reported r;
    std::string out;
    REQUIRE(text_status(ctx, options(DXT_SHAPE_STRICT), v, out, &r) == DXT_OK);
    uint64_t words_seen = 0;
    for (const auto& by_class : r.diag.counts)
      for (uint64_t n : by_class) words_seen += n;
    CHECK_MESSAGE(words_seen == 9, v);
  }
  dxt_context_destroy(ctx);
  // Keep copies the input's form, and shows the difference.
  CHECK_FALSE(hides(real_release(toy.model, options(DXT_SHAPE_KEEP)), kSeparatorVariants));
}

TEST_CASE("single words and bag words are classified on the folded form under strict and normalize") {
  Toy toy;
  dxt_context* ctx = seeded_context(toy.model, 1);
  const std::string plain = "1,500", wide = "\xEF\xBC\x91\xEF\xBC\x8C\xEF\xBC\x95\xEF\xBC\x90\xEF\xBC\x90";
  for (dxt_release_shape shape : {DXT_SHAPE_STRICT, DXT_SHAPE_NORMALIZE}) {
    dxt_privatize_options o = options(shape);
    o.policy[DXT_CLASS_NUMBER] = DXT_POLICY_PLACEHOLDER;  // shows whether a word was read as a number
    for (const std::string& w : {plain, wide}) {
      char* out = nullptr;
      size_t length = 0;
      REQUIRE(dxt_privatize_word(ctx, &o, w.data(), w.size(), &out, &length, nullptr, nullptr) == DXT_OK);
      CHECK(std::string(out, length) == "[redacted]");
      dxt_text_free(out);
      const dxt_bag_entry entry = {w.data(), w.size(), 3};
      dxt_bag* bag = nullptr;
      Reported r;
      REQUIRE(dxt_privatize_bag(ctx, &o, &entry, 1, &bag, &r.rec, &r.diag) == DXT_OK);
      REQUIRE(bag->size == 1);
      CHECK(std::string(bag->entries[0].word) == "[redacted]");
      CHECK(r.diag.counts[DXT_CLASS_NUMBER][DXT_POLICY_PLACEHOLDER - 1] == 3);
      dxt_bag_free(bag);
    }
  }
  // Under keep too the number patterns read the word folded
  // (text/structured_tokens.hpp): one number, as "1,500" is.
  dxt_privatize_options keep = options(DXT_SHAPE_KEEP);
  keep.policy[DXT_CLASS_NUMBER] = DXT_POLICY_PLACEHOLDER;
  char* out = nullptr;
  size_t length = 0;
  REQUIRE(dxt_privatize_word(ctx, &keep, wide.data(), wide.size(), &out, &length, nullptr, nullptr) == DXT_OK);
  CHECK(std::string(out, length) == "[redacted]");
  dxt_text_free(out);
  dxt_context_destroy(ctx);
}

namespace {

// The toy grid with "met" and "sister", and a typed classes section listing
// first names and surnames.
struct NamedToy {
  dxt::test::AlignedBytes bytes;
  dxt_model* model = nullptr;
  NamedToy() {
    std::vector<std::string> words = kWords;
    words.push_back("met");
    words.push_back("sister");
    const dxt::test::AlignedBytes plain(dxt::test::build_model_bytes(grid(words)));
    const auto m = dxt::test::open_bytes(plain);
    dxt::TypedLists lists;
    lists.members[DXT_TYPED_FIRST_NAME] = {{"tom", false}, {"maria", false}, {"sarah", false}};
    lists.members[DXT_TYPED_SURNAME] = {{"smith", false}, {"okafor", false}};
    std::stringstream out(std::ios::in | std::ios::out | std::ios::binary);
    dxt::write_model_with_section(*m, static_cast<uint32_t>(dxt::format::SectionKind::kTypedClasses),
                                  dxt::encode_typed_lists(lists), dxt::format::kMinorTypedClasses, out);
    bytes = dxt::test::AlignedBytes(out.str());
    REQUIRE(dxt_model_open_memory(bytes.data(), bytes.size, nullptr, &model) == DXT_OK);
  }
  ~NamedToy() { dxt_model_close(model); }
  NamedToy(const NamedToy&) = delete;
  NamedToy& operator=(const NamedToy&) = delete;
};

dxt_privatize_options names_replaced(dxt_release_shape shape) {
  dxt_privatize_options o = options(shape, 1.0);
  o.typed[DXT_FAMILY_NAMES] = DXT_TYPED_REPLACE;
  if (shape != DXT_SHAPE_STRICT)
    for (uint32_t& p : o.policy) p = DXT_POLICY_KEEP;  // only the name changes
  return o;
}

bool has_possessive(const std::string& s) {
  return s.find("'s") != std::string::npos || s.find("\xE2\x80\x99s") != std::string::npos;
}

}  // namespace

TEST_CASE("a typed replacement's possessive: as written under keep, 's under normalize, none under strict") {
  NamedToy toy;
  const std::vector<std::string> variants = {"I met Tom\xE2\x80\x99s sister", "I met Tom's sister", "I met Tom sister"};
  const Release strict = real_release(toy.model, names_replaced(DXT_SHAPE_STRICT));
  CHECK(hides(strict, variants));
  for (uint8_t seed = 1; seed <= 20; ++seed) CHECK_FALSE(has_possessive(strict(variants[0], seed)));
  const Release keep = real_release(toy.model, names_replaced(DXT_SHAPE_KEEP));
  const Release normalize = real_release(toy.model, names_replaced(DXT_SHAPE_NORMALIZE));
  for (uint8_t seed = 1; seed <= 5; ++seed) {
    const std::string curly = keep(variants[0], seed), straight = keep(variants[1], seed);
    CHECK_MESSAGE(curly.find("\xE2\x80\x99s sister") != std::string::npos, curly);
    CHECK_MESSAGE(straight.find("'s sister") != std::string::npos, straight);
    const std::string normal = normalize(variants[0], seed);
    CHECK_MESSAGE(normal.find("'s sister") != std::string::npos, normal);
    CHECK(normalize(variants[1], seed) == normal);
    CHECK_FALSE(has_possessive(normalize(variants[2], seed)));
  }
}

TEST_CASE("the ledger's strict memo key is what strict releases: a possessive is no part of it, under keep it is") {
  NamedToy toy;
  const std::vector<uint8_t> key(32, 7);
  dxt_ledger_options lo;
  dxt_ledger_options_init(&lo);
  lo.cap = 100;
  lo.key = key.data();
  lo.key_length = key.size();
  dxt_ledger* ledger = nullptr;
  REQUIRE(dxt_ledger_open_memory(nullptr, 0, "alice", &lo, &ledger) == DXT_OK);
  dxt_context* ctx = seeded_context(toy.model, 1);
  auto release = [&](const dxt_privatize_options& o, const std::string& text, bool* memoised) {
    char* out = nullptr;
    size_t length = 0;
    REQUIRE(dxt_ledger_privatize_text(ledger, ctx, &o, text.data(), text.size(), 0, &out, &length, memoised, nullptr,
                                      nullptr) == DXT_OK);
    std::string r(out, length);
    dxt_text_free(out);
    return r;
  };
  bool memoised = true;
  const dxt_privatize_options strict = names_replaced(DXT_SHAPE_STRICT);
  const std::string first = release(strict, "I met Tom\xE2\x80\x99s sister", &memoised);
  CHECK_FALSE(memoised);
  CHECK_FALSE(has_possessive(first));
  // "I met Tom sister" has the same law under strict: served from the memo,
  // which holds nothing it would not release.
  CHECK(release(strict, "I met Tom sister", &memoised) == first);
  CHECK(memoised);
  // Under keep the possessive is released, so it is part of the key.
  const dxt_privatize_options keep = names_replaced(DXT_SHAPE_KEEP);
  const std::string with = release(keep, "I met Tom\xE2\x80\x99s sister", &memoised);
  CHECK_FALSE(memoised);
  CHECK(with.find("\xE2\x80\x99s") != std::string::npos);
  const std::string without = release(keep, "I met Tom sister", &memoised);
  CHECK_FALSE(memoised);
  CHECK_FALSE(has_possessive(without));
  dxt_context_destroy(ctx);
  dxt_ledger_close(ledger);
}

TEST_CASE("the release record states the shape and what the output reveals") {
  Toy toy;
  dxt_context* ctx = seeded_context(toy.model, 1);
  struct Case {
    dxt_release_shape shape;
    uint32_t reveals;
    const char* json;
  };
  const uint32_t keep_bits = DXT_REVEALS_WORD_COUNT | DXT_REVEALS_LAYOUT | DXT_REVEALS_CASE_SHAPE;
  for (const Case c :
       {Case{DXT_SHAPE_DEFAULT, keep_bits, "\"shape\":\"keep\""},
        Case{DXT_SHAPE_KEEP, keep_bits, "\"reveals\":[\"word_count\",\"layout\",\"case_shape\"]"},
        Case{DXT_SHAPE_NORMALIZE,
             DXT_REVEALS_WORD_COUNT | DXT_REVEALS_SENTENCE_BOUNDARIES | DXT_REVEALS_CLAUSE_BOUNDARIES,
             "\"shape\":\"normalize\",\"reveals\":[\"word_count\",\"sentence_boundaries\","
             "\"clause_boundaries\"]"},
        Case{DXT_SHAPE_STRICT, DXT_REVEALS_WORD_COUNT, "\"shape\":\"strict\",\"reveals\":[\"word_count\"]"}}) {
    CAPTURE(static_cast<int>(c.shape));
    Reported r;
    std::string out;
    REQUIRE(text_status(ctx, options(c.shape), "The cat sat.", out, &r) == DXT_OK);
    CHECK(r.rec.reveals == c.reveals);
    CHECK(r.rec.release_shape == (c.shape == DXT_SHAPE_DEFAULT ? DXT_SHAPE_KEEP : c.shape));
    char json[4096];
    REQUIRE(dxt_release_record_to_json(&r.rec, json, sizeof json, nullptr) == DXT_OK);
    CHECK_MESSAGE(std::strstr(json, c.json) != nullptr, json);
  }
  // A placeholder policy adds token classes under every shape.
  dxt_privatize_options o = options(DXT_SHAPE_STRICT);
  o.policy[DXT_CLASS_NUMBER] = DXT_POLICY_PLACEHOLDER;
  Reported r;
  std::string out;
  REQUIRE(text_status(ctx, o, "cat 5", out, &r) == DXT_OK);
  CHECK(r.rec.reveals == (DXT_REVEALS_WORD_COUNT | DXT_REVEALS_TOKEN_CLASSES));
  // A single word under strict shows nothing of its form.
  char* w = nullptr;
  size_t n = 0;
  const dxt_privatize_options strict = options(DXT_SHAPE_STRICT);
  Reported rw;
  REQUIRE(dxt_privatize_word(ctx, &strict, "Cat", 3, &w, &n, &rw.rec, nullptr) == DXT_OK);
  dxt_text_free(w);
  CHECK(rw.rec.reveals == 0);
  // A record from a caller compiled before release_shape existed: accepted,
  // the field not written.
  Reported old;
  const auto old_size = static_cast<uint32_t>(offsetof(dxt_release_record, release_shape));
  old.rec.struct_size = old_size;
  old.rec.release_shape = 77;
  REQUIRE(text_status(ctx, options(DXT_SHAPE_STRICT), "cat", out, &old) == DXT_OK);
  CHECK(old.rec.release_shape == 77);
  CHECK(old.rec.reveals == DXT_REVEALS_WORD_COUNT);
  dxt_context_destroy(ctx);
}

TEST_CASE("bad shapes and strict with a keep policy are refused") {
  Toy toy;
  dxt_context* ctx = seeded_context(toy.model, 1);
  std::string out;
  dxt_privatize_options o = options(static_cast<dxt_release_shape>(4));
  CHECK(text_status(ctx, o, "cat", out) == DXT_E_INVALID_ARGUMENT);
  CHECK(std::string(dxt_last_error_message()).find("release_shape") != std::string::npos);
  for (int cls = 0; cls < DXT_TOKEN_CLASS_COUNT; ++cls) {
    o = options(DXT_SHAPE_STRICT);
    o.policy[cls] = DXT_POLICY_KEEP;
    CHECK(text_status(ctx, o, "cat", out) == DXT_E_INVALID_ARGUMENT);
    CHECK(std::string(dxt_last_error_message()).find("strict") != std::string::npos);
    char* w = nullptr;
    size_t n = 0;
    CHECK(dxt_privatize_word(ctx, &o, "cat", 3, &w, &n, nullptr, nullptr) == DXT_E_INVALID_ARGUMENT);
    CHECK(w == nullptr);
    const dxt_bag_entry entry{"cat", 3, 1};
    dxt_bag* bag = nullptr;
    CHECK(dxt_privatize_bag(ctx, &o, &entry, 1, &bag, nullptr, nullptr) == DXT_E_INVALID_ARGUMENT);
    CHECK(bag == nullptr);
    // normalize may keep words; the record names them.
    o.release_shape = DXT_SHAPE_NORMALIZE;
    Reported r;
    CHECK(text_status(ctx, o, "cat", out, &r) == DXT_OK);
    CHECK((r.rec.reveals & DXT_REVEALS_KEPT_WORDS) != 0);
  }
  // An options struct from before release_shape: the keep shape. That
  // struct's size, rounded to its alignment, covers release_shape, which sat
  // in its tail padding (any bytes), so release_shape is read only from a
  // struct that also covers the output fields appended with it.
  const size_t before_shape = offsetof(dxt_privatize_options, release_shape);
  const size_t padded = (before_shape + alignof(dxt_privatize_options) - 1) / alignof(dxt_privatize_options) *
                        alignof(dxt_privatize_options);
  CHECK(padded > before_shape);
  for (const size_t size : {before_shape, padded}) {
    CAPTURE(size);
    o = options(DXT_SHAPE_STRICT, 1e6);
    o.struct_size = static_cast<uint32_t>(size);
    CHECK(text_status(ctx, o, "The CAT, sat!", out) == DXT_OK);
    CHECK(out == "The CAT, sat!");
  }
  o = options(DXT_SHAPE_STRICT, 1e6);
  o.struct_size = static_cast<uint32_t>(offsetof(dxt_privatize_options, output_set) + sizeof o.output_set);
  CHECK(text_status(ctx, o, "The CAT, sat!", out) == DXT_OK);
  CHECK(out == "the cat sat");
  dxt_context_destroy(ctx);
}

TEST_CASE("numbers are privatised in every shape: no digit of the input is copied, and their class does not show") {
  // docs/guarantees.md, "Release shapes": with the default policies a number
  // is privatised like a word (the toy has no number, so from the shared
  // out-of-vocabulary point) and the output is a model word in every shape.
  // The record's reveals then do not include token_classes; with the
  // placeholder policy for numbers it does, and the placeholder shows where
  // the numbers were.
  Toy toy;
  const std::string in = "Call 555-0134 at 3.14, or 1,000 times; 42!";
  for (const dxt_release_shape shape : {DXT_SHAPE_KEEP, DXT_SHAPE_NORMALIZE, DXT_SHAPE_STRICT}) {
    CAPTURE(static_cast<int>(shape));
    for (uint8_t seed = 0; seed < 10; ++seed) {
      dxt_context* ctx = seeded_context(toy.model, seed);
      std::string out;
      Reported r;
      REQUIRE(text_status(ctx, options(shape), in, out, &r) == DXT_OK);
      CHECK(out.find_first_of("0123456789") == std::string::npos);
      CHECK((r.rec.reveals & DXT_REVEALS_TOKEN_CLASSES) == 0);
      dxt_privatize_options placeholder = options(shape);
      placeholder.policy[DXT_CLASS_NUMBER] = DXT_POLICY_PLACEHOLDER;
      REQUIRE(text_status(ctx, placeholder, in, out, &r) == DXT_OK);
      CHECK((r.rec.reveals & DXT_REVEALS_TOKEN_CLASSES) != 0);
      dxt_context_destroy(ctx);
    }
  }
}

TEST_CASE("a multiword lemma (WordNet's 'ice_cream') is released with a space, in every shape") {
  // The '_' is the model's spelling of a word of several words, not text a
  // reader writes: the release says "ice cream". A word kept as typed stays
  // as it was.
  Toy toy({"cat", "ice_cream", "the"});
  dxt_context* ctx = seeded_context(toy.model, 1);
  for (dxt_release_shape shape : {DXT_SHAPE_KEEP, DXT_SHAPE_NORMALIZE, DXT_SHAPE_STRICT}) {
    CAPTURE(shape);
    const dxt_privatize_options o = options(shape, 1e6);  // no word moves
    char* out = nullptr;
    size_t len = 0;
    REQUIRE(dxt_privatize_word(ctx, &o, "ice_cream", 9, &out, &len, nullptr, nullptr) == DXT_OK);
    CHECK(std::string(out, len) == "ice cream");
    dxt_text_free(out);
  }
  dxt_privatize_options keep = options(DXT_SHAPE_KEEP, 1e6);
  keep.policy[DXT_CLASS_IN_VOCABULARY] = DXT_POLICY_KEEP;
  char* out = nullptr;
  size_t len = 0;
  REQUIRE(dxt_privatize_word(ctx, &keep, "ice_cream", 9, &out, &len, nullptr, nullptr) == DXT_OK);
  CHECK(std::string(out, len) == "ice_cream");
  dxt_text_free(out);
  dxt_context_destroy(ctx);
}
