// SPDX-License-Identifier: Apache-2.0
// Typed classes (text/structured_tokens, text/typed_classes, model/typed_lists):
// the tokenizer keeps structured tokens whole, the classifier's rules, the
// replacements' shapes, the section's encoding and its checks, and the C API
// end to end (options, presets, release record) on a toy model with lists.
#include <doctest/doctest.h>

#include <array>
#include <cstring>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "dxtext/dxtext.h"
#include "errors/error.hpp"
#include "model/format.hpp"
#include "model/section_append_writer.hpp"
#include "model/typed_lists.hpp"
#include "rng/byte_source.hpp"
#include "rng/random_stream.hpp"
#include "support/toy_models.hpp"
#include "text/privatize_presets.hpp"
#include "text/tokenizer.hpp"
#include "text/typed_classes.hpp"

using namespace dxt;

namespace {

struct Piece {
  std::string text;
  dxt_typed_class typed;
};

std::vector<Piece> structured(const std::string& text) {
  std::vector<Piece> out;
  for (const Token& t : tokenize(text))
    if (t.typed != DXT_TYPED_NONE) out.push_back({text.substr(t.begin, t.end - t.begin), t.typed});
  return out;
}

TypedLists toy_lists() {
  TypedLists l;
  l.members[DXT_TYPED_FIRST_NAME] = {{"tom", false}, {"maria", false}, {"sarah", false},  {"will", true},
                                     {"bill", true}, {"may", true},    {"jordan", false}, {"north", true}};
  l.members[DXT_TYPED_SURNAME] = {{"smith", false}, {"baker", true}, {"jordan", false}};
  l.members[DXT_TYPED_CITY] = {{"chicago", false}, {"paris", false}, {"lagos", false}};
  l.members[DXT_TYPED_REGION] = {{"ohio", false}, {"bavaria", false}};
  l.members[DXT_TYPED_COUNTRY] = {{"jordan", false}, {"peru", false}};
  l.members[DXT_TYPED_ORGANIZATION] = {{"unicef", false}, {"oxfam", false}};
  l.members[DXT_TYPED_CONDITION] = {{"diabetes", false}, {"asthma", false}};
  l.members[DXT_TYPED_DRUG] = {{"metformin", false}, {"aspirin", false}};
  return l;
}

TypedLists decoded_toy_lists() {
  const std::vector<uint8_t> bytes = encode_typed_lists(toy_lists());
  return decode_typed_lists(bytes.data(), bytes.size());
}

RandomStream seeded(uint8_t tag) {
  std::array<uint8_t, 32> seed{};
  seed[0] = tag;
  return RandomStream(make_keyed_stream(seed));
}

}  // namespace

TEST_CASE("typed: structured tokens are one token each") {
  auto one = [](const std::string& text, const std::string& token, dxt_typed_class cls) {
    const auto p = structured(text);
    REQUIRE_MESSAGE(p.size() == 1, text);
    CHECK(p[0].text == token);
    CHECK(p[0].typed == cls);
  };
  one("write to jsmith@example.com.", "jsmith@example.com", DXT_TYPED_EMAIL);
  one("mail J.Smith+x@mail.example.co.uk today", "J.Smith+x@mail.example.co.uk", DXT_TYPED_EMAIL);
  one("split: jsmith @ example . com", "jsmith @ example . com", DXT_TYPED_EMAIL);
  one("see https://example.org/a?b=1&c=2.", "https://example.org/a?b=1&c=2", DXT_TYPED_URL);
  one("(www.example.com)", "www.example.com", DXT_TYPED_URL);
  one("thanks @bob_99!", "@bob_99", DXT_TYPED_HANDLE);
  one("call (555) 123-4567 now", "(555) 123-4567", DXT_TYPED_PHONE);
  one("call +44 20 7946 0958", "+44 20 7946 0958", DXT_TYPED_PHONE);
  one("call 555-123-4567", "555-123-4567", DXT_TYPED_PHONE);
  one("call 555.123.4567", "555.123.4567", DXT_TYPED_PHONE);
  one("on 2024-03-12 at", "2024-03-12", DXT_TYPED_NUMBER);
  one("on 3/12/2024.", "3/12/2024", DXT_TYPED_NUMBER);
  one("at 12:30 sharp", "12:30", DXT_TYPED_TIME);
  one("at 2:08 PM sharp", "2:08 PM", DXT_TYPED_TIME);
  one("version 1.2.3", "1.2.3", DXT_TYPED_NUMBER);
  one("the 3rd time", "3rd", DXT_TYPED_NUMBER);
  one("at 5pm", "5pm", DXT_TYPED_TIME);
  one("at 13pm", "13pm", DXT_TYPED_NUMBER);
  one("from 1990-2000", "1990-2000", DXT_TYPED_NUMBER);
  one("costs $1,000.50", "1,000.50", DXT_TYPED_NUMBER);
  // Not structured: words with digits, an '@' inside a word, a lone '@'.
  CHECK(structured("abc123 v1.2 x@y @ a").empty());
  CHECK(structured("123abc").empty());
  // A '.' of an address is no sentence end: "example" and "com" are not words.
  for (const Token& t : tokenize("jsmith@example.com")) CHECK(t.typed == DXT_TYPED_EMAIL);
}

TEST_CASE("typed: hostile structured input stays bounded and round-trips") {
  std::string text;
  for (int i = 0; i < 2000; ++i) text += "a.";
  text += "@";
  for (int i = 0; i < 2000; ++i) text += "1-";
  text += " @@@@ ++++ (((( http:// www. @ . com";
  const std::vector<Token> tokens = tokenize(text);
  size_t at = 0;
  for (const Token& t : tokens) {
    CHECK(t.begin == at);
    at = t.end;
  }
  CHECK(at == text.size());
}

TEST_CASE("typed: list classes are found in any case; common words only capitalised inside a sentence") {
  const TypedLists lists = decoded_toy_lists();
  TypedContext mid;
  TypedContext start;
  start.sentence_start = true;
  CHECK(classify_typed("tom", mid, &lists) == DXT_TYPED_FIRST_NAME);
  CHECK(classify_typed("TOM", mid, &lists) == DXT_TYPED_FIRST_NAME);
  CHECK(classify_typed("chicago", mid, &lists) == DXT_TYPED_CITY);
  CHECK(classify_typed("Chicago", start, &lists) == DXT_TYPED_CITY);
  CHECK(classify_typed("will", mid, &lists) == DXT_TYPED_NONE);
  CHECK(classify_typed("bill", mid, &lists) == DXT_TYPED_NONE);
  CHECK(classify_typed("Bill", mid, &lists) == DXT_TYPED_FIRST_NAME);
  CHECK(classify_typed("Will", start, &lists) == DXT_TYPED_NONE);
  CHECK(classify_typed("BILL", mid, &lists) == DXT_TYPED_NONE);
  CHECK(classify_typed("May", mid, &lists) == DXT_TYPED_MONTH);
  CHECK(classify_typed("may", mid, &lists) == DXT_TYPED_NONE);  // the verb
  CHECK(classify_typed("october", mid, &lists) == DXT_TYPED_MONTH);
  CHECK(classify_typed("the", mid, &lists) == DXT_TYPED_NONE);
  CHECK(classify_typed("Maria's", mid, &lists) == DXT_TYPED_FIRST_NAME);
  CHECK(classify_typed("diabetes", mid, &lists) == DXT_TYPED_CONDITION);
  CHECK(classify_typed("twenty", mid, &lists) == DXT_TYPED_NUMBER);
  CHECK(classify_typed("one", mid, &lists) == DXT_TYPED_NONE);
  CHECK(classify_typed("million", mid, &lists) == DXT_TYPED_NUMBER);  // a magnitude ("a million")
  CHECK(classify_typed("zero", mid, &lists) == DXT_TYPED_NUMBER);
  CHECK(classify_typed("Seventh", mid, &lists) == DXT_TYPED_NUMBER);
  TypedContext beside_number = mid;
  beside_number.number_neighbour = true;
  CHECK(classify_typed("one", beside_number, &lists) == DXT_TYPED_NUMBER);
  CHECK(classify_typed("first", beside_number, &lists) == DXT_TYPED_NUMBER);
  CHECK(classify_typed("first", mid, &lists) == DXT_TYPED_NONE);
  // After a determiner a capitalised common word is a common noun.
  TypedContext determiner;
  determiner.after_determiner = true;
  CHECK(classify_typed("Bill", determiner, &lists) == DXT_TYPED_NONE);
  CHECK(classify_typed("Chicago", determiner, &lists) == DXT_TYPED_CITY);
  CHECK(classify_typed("tom", mid, nullptr) == DXT_TYPED_NONE);  // no lists: no names
  // Odd scripts: not in the lists, not typed, no failure. Compatibility
  // forms fold to the listed name (unicode::fold).
  CHECK(classify_typed("Мария", mid, &lists) == DXT_TYPED_NONE);
  CHECK(classify_typed("ｔｏｍ", mid, &lists) == classify_typed("tom", mid, &lists));
  CHECK(classify_typed("ＴＯＭ", mid, &lists) == classify_typed("TOM", mid, &lists));
  // A name that is also a place: a place after a place cue.
  CHECK(classify_typed("Jordan", mid, &lists) == DXT_TYPED_FIRST_NAME);
  TypedContext cue;
  cue.after_place_word = true;
  CHECK(classify_typed("Jordan", cue, &lists) == DXT_TYPED_COUNTRY);
  // A capitalised word after a first name or a title is a surname.
  TypedContext after_name;
  after_name.previous = DXT_TYPED_FIRST_NAME;
  CHECK(classify_typed("Whitfield", after_name, &lists) == DXT_TYPED_SURNAME);
  CHECK(classify_typed("Baker", after_name, &lists) == DXT_TYPED_SURNAME);
  CHECK(classify_typed("whitfield", after_name, &lists) == DXT_TYPED_NONE);  // the model has it (by default)
  after_name.in_vocabulary = false;
  CHECK(classify_typed("whitfield", after_name, &lists) == DXT_TYPED_SURNAME);
  after_name.in_vocabulary = true;
  CHECK(classify_typed("smith", after_name, &lists) == DXT_TYPED_SURNAME);  // listed, not common
  CHECK(classify_typed("baker", after_name, &lists) == DXT_TYPED_NONE);     // listed, common
  TypedContext after_title;
  after_title.after_title = true;
  CHECK(classify_typed("Okafor", after_title, &lists) == DXT_TYPED_SURNAME);
  CHECK(classify_typed("Speaker", after_title, &lists) == DXT_TYPED_NONE);  // Mr. Speaker
  // A title written as one ("Dr. brown"): any word after it is a surname,
  // but an office; after a weak one ("dr brown", "I miss brown") only a
  // capitalised word, one the model lacks or a listed non-common surname.
  CHECK(classify_typed("brown", after_title, &lists) == DXT_TYPED_NONE);
  CHECK(classify_typed("baker", after_title, &lists) == DXT_TYPED_NONE);
  after_title.after_strong_title = true;
  CHECK(classify_typed("brown", after_title, &lists) == DXT_TYPED_SURNAME);
  CHECK(classify_typed("baker", after_title, &lists) == DXT_TYPED_SURNAME);
  CHECK(classify_typed("Speaker", after_title, &lists) == DXT_TYPED_NONE);
  CHECK(classify_typed("the", after_title, &lists) == DXT_TYPED_NONE);
  CHECK(is_strong_title("Dr", false, false));
  CHECK(is_strong_title("dr", true, false));
  CHECK(is_strong_title("MRS", false, true));
  CHECK_FALSE(is_strong_title("dr", false, false));
  CHECK(is_strong_title("Miss", false, false));
  CHECK_FALSE(is_strong_title("Miss", false, true));   // "Miss you already"
  CHECK_FALSE(is_strong_title("miss", false, false));  // "I miss home"
  CHECK_FALSE(is_strong_title("Doctor", true, false));
  // A common-word surname after a first name when both are lower case
  // ("layne rice"), not after a capitalised one ("the Brady bill").
  after_name.previous_lower = true;
  CHECK(classify_typed("baker", after_name, &lists) == DXT_TYPED_SURNAME);
  CHECK(classify_typed("brown", after_name, &lists) == DXT_TYPED_NONE);  // not a listed surname
  after_name.previous_lower = false;
  CHECK(classify_typed("baker", after_name, &lists) == DXT_TYPED_NONE);
  // After a sign-off any word is a name: a listed surname a surname, else a
  // first name.
  TypedContext sign_off;
  sign_off.after_sign_off = true;
  CHECK(classify_typed("bill", sign_off, &lists) == DXT_TYPED_FIRST_NAME);
  CHECK(classify_typed("BILL", sign_off, &lists) == DXT_TYPED_FIRST_NAME);
  CHECK(classify_typed("brown", sign_off, &lists) == DXT_TYPED_FIRST_NAME);
  CHECK(classify_typed("baker", sign_off, &lists) == DXT_TYPED_SURNAME);
  CHECK(classify_typed("the", sign_off, &lists) == DXT_TYPED_NONE);
  CHECK(classify_typed("May", sign_off, &lists) == DXT_TYPED_NONE);  // neither a month here nor a listed name
  // After a greeting: a listed name, common or not, or a word the model lacks.
  TypedContext greeting;
  greeting.after_greeting = true;
  CHECK(classify_typed("BILL", greeting, &lists) == DXT_TYPED_FIRST_NAME);
  CHECK(classify_typed("bill", greeting, &lists) == DXT_TYPED_FIRST_NAME);
  CHECK(classify_typed("Sir", greeting, &lists) == DXT_TYPED_NONE);  // the model has it (by default)
  greeting.in_vocabulary = false;
  CHECK(classify_typed("ocie", greeting, &lists) == DXT_TYPED_FIRST_NAME);
  // First in a sentence before a speech verb: a listed name.
  TypedContext speaker = start;
  speaker.before_speech_verb = true;
  CHECK(classify_typed("Bill", speaker, &lists) == DXT_TYPED_FIRST_NAME);
  CHECK(classify_typed("baker", speaker, &lists) == DXT_TYPED_SURNAME);
  CHECK(classify_typed("Everyone", speaker, &lists) == DXT_TYPED_NONE);
  speaker.sentence_start = false;
  CHECK(classify_typed("bill", speaker, &lists) == DXT_TYPED_NONE);
  // Before a name: a listed first name, not after a determiner, not a rank
  // or a place's first word.
  TypedContext before_name = start;
  before_name.before_name = true;
  CHECK(classify_typed("Bill", before_name, &lists) == DXT_TYPED_FIRST_NAME);
  CHECK(classify_typed("bill", before_name, &lists) == DXT_TYPED_FIRST_NAME);
  CHECK(classify_typed("baker", before_name, &lists) == DXT_TYPED_NONE);  // a surname only
  CHECK(classify_typed("North", before_name, &lists) == DXT_TYPED_NONE);  // "North Dakota"
  before_name.after_determiner = true;
  CHECK(classify_typed("bill", before_name, &lists) == DXT_TYPED_NONE);
  // The tokenizer's class wins.
  TypedContext email;
  email.structured = DXT_TYPED_EMAIL;
  CHECK(classify_typed("tom@example.com", email, &lists) == DXT_TYPED_EMAIL);
}

TEST_CASE("typed: replacements have their class's public shape") {
  const TypedLists lists = decoded_toy_lists();
  RandomStream rng = seeded(1);
  for (int i = 0; i < 200; ++i) {
    const std::string n = typed_replacement(DXT_TYPED_NUMBER, "1,234.5", rng, &lists, false);
    CHECK(std::regex_match(n, std::regex("[0-9]{1,2}")));
    CHECK(std::regex_match(typed_replacement(DXT_TYPED_NUMBER, "1,234.5", rng, &lists, true),
                           std::regex("[0-9],[0-9]{3}\\.[0-9]")));
    CHECK(std::regex_match(typed_replacement(DXT_TYPED_PHONE, "+44 20 7946 0958", rng, &lists, false),
                           std::regex("[0-9]{3}-[0-9]{3}-[0-9]{4}")));
    CHECK(std::regex_match(typed_replacement(DXT_TYPED_PHONE, "+44 20 7946 0958", rng, &lists, true),
                           std::regex("\\+[0-9]{2} [0-9]{2} [0-9]{4} [0-9]{4}")));
    CHECK(std::regex_match(typed_replacement(DXT_TYPED_EMAIL, "x@y.org", rng, &lists, false),
                           std::regex("[a-z]+[0-9]{2}@example\\.com")));
    CHECK(std::regex_match(typed_replacement(DXT_TYPED_URL, "http://a.b/c", rng, &lists, false),
                           std::regex("https://example\\.com/[a-z0-9]{6}")));
    CHECK(std::regex_match(typed_replacement(DXT_TYPED_HANDLE, "@bob", rng, &lists, false),
                           std::regex("@[a-z]+[0-9]{2}")));
    const std::string name = typed_replacement(DXT_TYPED_FIRST_NAME, "Sarah's", rng, &lists, false);
    CHECK(
        std::set<std::string>{"Tom's", "Maria's", "Sarah's", "Will's", "Bill's", "May's", "Jordan's", "North's"}.count(
            name) == 1);
    const std::string month = typed_replacement(DXT_TYPED_MONTH, "October", rng, &lists, false);
    CHECK(std::set<std::string>{"January", "February", "March", "April", "May", "June", "July", "August", "September",
                                "October", "November", "December"}
              .count(month) == 1);
    const std::string drug = typed_replacement(DXT_TYPED_DRUG, "Aspirin", rng, &lists, false);
    CHECK((drug == "metformin" || drug == "aspirin"));
  }
  CHECK(std::string(typed_placeholder(DXT_TYPED_SURNAME)) == "[name]");
  CHECK(std::string(typed_placeholder(DXT_TYPED_CITY)) == "[city]");
  CHECK(std::string(typed_placeholder(DXT_TYPED_NUMBER)) == "[number]");
  CHECK(std::string(typed_placeholder(DXT_TYPED_MONTH)) == "[month]");
  CHECK(std::string(typed_placeholder(DXT_TYPED_TIME)) == "[time]");
  CHECK(std::string(typed_class_name(DXT_TYPED_TIME)) == "time");
  CHECK(typed_family(DXT_TYPED_TIME) == DXT_FAMILY_NUMBERS);
}

TEST_CASE("typed: a replaced time keeps its 12- or 24-hour shape, its precision and its am/pm spelling") {
  RandomStream rng = seeded(2);
  const std::vector<std::pair<std::string, std::string>> shapes = {
      {"2:08 PM", "([1-9]|1[0-2]):[0-5][0-9] [AP]M"},
      {"2:08pm", "([1-9]|1[0-2]):[0-5][0-9][ap]m"},
      {"6:45 a.m", "([1-9]|1[0-2]):[0-5][0-9] [ap]\\.m"},
      {"7:30 P.M", "([1-9]|1[0-2]):[0-5][0-9] [AP]\\.M"},
      {"9am", "([1-9]|1[0-2])[ap]m"},
      {"9 AM", "([1-9]|1[0-2]) [AP]M"},
      {"12.30 pm", "([1-9]|1[0-2])\\.[0-5][0-9] [ap]m"},
      {"11:59:30 PM", "([1-9]|1[0-2]):[0-5][0-9]:[0-5][0-9] [AP]M"},
      {"14:30", "([01][0-9]|2[0-3]):[0-5][0-9]"},
      {"9:05", "([01][0-9]|2[0-3]):[0-5][0-9]"},
      {"23:59:30", "([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]"},
      {"2:08\xC2\xA0PM", "([1-9]|1[0-2]):[0-5][0-9] [AP]M"},
  };
  for (const auto& [input, shape] : shapes) {
    std::set<std::string> seen;
    for (int i = 0; i < 200; ++i) {
      // number_shape changes nothing for a time.
      const std::string t = typed_replacement(DXT_TYPED_TIME, input, rng, nullptr, i % 2 == 0);
      CHECK_MESSAGE(std::regex_match(t, std::regex(shape)), input, " -> ", t);
      seen.insert(t);
    }
    CHECK_MESSAGE(seen.size() > 20, input);  // drawn, not copied
  }
  // Both halves of the day are drawn.
  std::set<char> halves;
  for (int i = 0; i < 100; ++i) {
    const std::string t = typed_replacement(DXT_TYPED_TIME, "2:08 pm", rng, nullptr, false);
    halves.insert(t[t.size() - 2]);
  }
  CHECK(halves == std::set<char>{'a', 'p'});
}

TEST_CASE("typed: the section round-trips and every fault is named") {
  const std::vector<uint8_t> good = encode_typed_lists(toy_lists());
  const TypedLists back = decode_typed_lists(good.data(), good.size());
  CHECK(back.members[DXT_TYPED_FIRST_NAME].size() == 8);
  CHECK(back.members[DXT_TYPED_FIRST_NAME][0].word == "bill");  // sorted
  CHECK(back.members[DXT_TYPED_FIRST_NAME][0].common_word);
  CHECK(back.by_word.at("jordan").classes ==
        ((1u << DXT_TYPED_FIRST_NAME) | (1u << DXT_TYPED_SURNAME) | (1u << DXT_TYPED_COUNTRY)));
  auto rejects = [&](auto&& damage, const char* what) {
    std::vector<uint8_t> b = good;
    damage(b);
    CHECK_THROWS_WITH_AS(decode_typed_lists(b.data(), b.size()), doctest::Contains(what), Error);
  };
  namespace tf = typed_format;
  rejects([](std::vector<uint8_t>& b) { b.resize(b.size() - 1); }, "size is not");
  rejects([](std::vector<uint8_t>& b) { b[tf::kReserved] = 1; }, "reserved header");
  rejects([](std::vector<uint8_t>& b) { format::store_u32(b.data(), 0); }, "class count");
  rejects([](std::vector<uint8_t>& b) { format::store_u32(b.data() + tf::kHeaderSize, 9); }, "not a list class");
  rejects([](std::vector<uint8_t>& b) { format::store_u32(b.data() + tf::kHeaderSize + 8, 2); }, "do not follow");
  rejects([](std::vector<uint8_t>& b) { format::store_u32(b.data() + tf::kHeaderSize + 8, 1); }, "fewer than 2");
  // The first entry's word, made upper case, then unsorted.
  const uint32_t C = format::load_u32(good.data());
  const uint32_t N = format::load_u32(good.data() + 4);
  const size_t strings = tf::kHeaderSize + C * tf::kClassRecordSize + N * tf::kEntrySize;
  rejects([&](std::vector<uint8_t>& b) { b[strings] = 'B'; }, "not in folded form");
  rejects([&](std::vector<uint8_t>& b) { b[strings] = 'z'; }, "not sorted");
  rejects([&](std::vector<uint8_t>& b) { b[strings] = ' '; }, "space or control");
  rejects([&](std::vector<uint8_t>& b) { b[tf::kHeaderSize + C * tf::kClassRecordSize + 7] = 1; }, "reserved entry");
  rejects(
      [&](std::vector<uint8_t>& b) {
        format::store_u32(b.data() + tf::kHeaderSize + C * tf::kClassRecordSize, 1u << 30);
      },
      "runs past");
  // The writer refuses bad members.
  TypedLists bad;
  bad.members[DXT_TYPED_CITY] = {{"New York", false}};
  CHECK_THROWS_AS(encode_typed_lists(bad), Error);
  bad.members[DXT_TYPED_CITY] = {{"Paris", false}};
  CHECK_THROWS_AS(encode_typed_lists(bad), Error);
}

namespace {

// The toy model with the toy lists as its typed classes section.
struct TypedModel {
  test::AlignedBytes bytes;
  dxt_model* model = nullptr;
  dxt_context* context = nullptr;
  // `words` replace the toy vocabulary's last words, so that they are words
  // the model has.
  explicit TypedModel(const std::vector<std::string>& words = {}) {
    test::ToyModelSpec spec = test::grid_2d_spec();
    for (size_t i = 0; i < words.size(); ++i) spec.words[spec.words.size() - words.size() + i] = words[i];
    test::AlignedBytes plain(test::build_model_bytes(spec));
    const auto m = test::open_bytes(plain);
    std::stringstream out(std::ios::in | std::ios::out | std::ios::binary);
    write_model_with_section(*m, static_cast<uint32_t>(format::SectionKind::kTypedClasses),
                             encode_typed_lists(toy_lists()), format::kMinorTypedClasses, out);
    bytes = test::AlignedBytes(out.str());
    REQUIRE(dxt_model_open_memory(bytes.data(), bytes.size, nullptr, &model) == DXT_OK);
    dxt_context_options o;
    dxt_context_options_init(&o);
    o.rng_mode = DXT_RNG_DETERMINISTIC;
    for (int i = 0; i < 32; ++i) o.seed[i] = static_cast<uint8_t>(i);
    REQUIRE(dxt_context_create(model, &o, &context) == DXT_OK);
  }
  ~TypedModel() {
    dxt_context_destroy(context);
    dxt_model_close(model);
  }
  std::string run(const dxt_privatize_options& o, const std::string& text, dxt_release_record* record = nullptr) {
    char* out = nullptr;
    size_t len = 0;
    const dxt_status s = dxt_privatize_text(context, &o, text.data(), text.size(), &out, &len, record, nullptr);
    REQUIRE_MESSAGE(s == DXT_OK, dxt_last_error_message());
    std::string r(out, len);
    dxt_text_free(out);
    return r;
  }
};

}  // namespace

TEST_CASE("typed: the C API replaces, puts placeholders, keeps, and records the classes") {
  TypedModel t;
  dxt_privatize_options o;
  dxt_privatize_options_init(&o);
  o.epsilon = 1;
  for (int f = 0; f < DXT_TYPED_FAMILY_COUNT; ++f) CHECK(o.typed[f] == DXT_TYPED_PRIVATIZE);
  for (uint32_t& p : o.policy) p = DXT_POLICY_KEEP;  // only typed tokens change
  for (uint32_t& p : o.typed) p = DXT_TYPED_PLACEHOLDER;
  dxt_release_record r;
  dxt_release_record_init(&r);
  CHECK(t.run(o, "Ask tom in chicago: 555-123-4567, tom@example.com, 3 pills of aspirin.", &r) ==
        "Ask [name] in [city]: [phone], [email], [number] pills of [drug].");
  CHECK((r.reveals & DXT_REVEALS_TYPED_CLASSES) != 0);
  CHECK((r.typed_classes & (1u << DXT_TYPED_EMAIL)) != 0);
  CHECK((r.typed_classes & (1u << DXT_TYPED_NONE)) == 0);
  // Replace: the same shapes, members of the lists.
  for (uint32_t& p : o.typed) p = DXT_TYPED_REPLACE;
  // (The toy vocabulary is w0..w19: a word the model lacks after a first
  // name would be taken as a surname.)
  const std::string replaced = t.run(o, "tom w3 in chicago");
  CHECK_MESSAGE(std::regex_match(
                    replaced, std::regex("(Tom|Maria|Sarah|Will|Bill|May|Jordan|North) w3 in (Chicago|Paris|Lagos)")),
                replaced);
  // Consistency: the same entity, the same replacement, within a call.
  o.typed_consistent = 1;
  dxt_release_record_init(&r);
  for (int i = 0; i < 20; ++i) {
    const std::string s = t.run(o, "Tom w1 Tom.", &r);
    const std::smatch m = [&] {
      std::smatch x;
      REQUIRE(std::regex_match(s, x, std::regex("(\\w+) w1 (\\w+)\\.")));
      return x;
    }();
    CHECK(m[1].str() == m[2].str());
  }
  CHECK((r.typed_flags & DXT_TYPED_FLAG_CONSISTENT) != 0);
  o.typed_consistent = 2;
  char* out = nullptr;
  size_t len = 0;
  CHECK(dxt_privatize_text(t.context, &o, "x", 1, &out, &len, nullptr, nullptr) == DXT_E_INVALID_ARGUMENT);
  o.typed_consistent = 0;
  // Keep: a leak the record names; refused under the strict shape.
  for (uint32_t& p : o.typed) p = DXT_TYPED_KEEP;
  dxt_release_record_init(&r);
  CHECK(t.run(o, "tom", &r) == "tom");
  CHECK((r.reveals & DXT_REVEALS_KEPT_WORDS) != 0);
  o.release_shape = DXT_SHAPE_STRICT;
  for (uint32_t& p : o.policy) p = DXT_POLICY_PRIVATIZE;
  CHECK(dxt_privatize_text(t.context, &o, "tom", 3, &out, &len, nullptr, nullptr) == DXT_E_INVALID_ARGUMENT);
  o.release_shape = DXT_SHAPE_KEEP;
  o.typed[0] = 7;
  CHECK(dxt_privatize_text(t.context, &o, "tom", 3, &out, &len, nullptr, nullptr) == DXT_E_INVALID_ARGUMENT);
}

TEST_CASE("typed: drop leaves no trace in any shape, and the record lists the dropped classes") {
  TypedModel t;
  dxt_privatize_options o;
  dxt_privatize_options_init(&o);
  o.epsilon = 1;
  for (uint32_t& p : o.policy) p = DXT_POLICY_KEEP;  // only typed tokens change
  for (uint32_t& p : o.typed) p = DXT_TYPED_DROP;
  dxt_release_record r;
  dxt_release_record_init(&r);
  // keep: of the two spans around a dropped token only the one with the
  // stronger mark stays, so no doubled space or comma marks where it was.
  CHECK(t.run(o, "Ask tom in chicago: 555-123-4567, tom@example.com, 3 pills of aspirin.", &r) == "Ask in: pills of.");
  CHECK(t.run(o, "tom@example.com wrote") == "wrote");
  CHECK(t.run(o, "  42 apples") == "  apples");
  CHECK(t.run(o, "apples 42") == "apples");
  CHECK((r.typed_dropped & (1u << DXT_TYPED_EMAIL)) != 0);
  CHECK((r.typed_dropped & (1u << DXT_TYPED_FIRST_NAME)) != 0);
  CHECK(r.typed_classes == 0);  // nothing shows a class
  CHECK((r.reveals & DXT_REVEALS_TYPED_CLASSES) == 0);
  CHECK((r.reveals & DXT_REVEALS_TOKEN_CLASSES) == 0);
  char json[4096];
  REQUIRE(dxt_release_record_to_json(&r, json, sizeof json, nullptr) == DXT_OK);
  CHECK(std::string(json).find("\"typed_dropped\":[\"first_name\"") != std::string::npos);
  // normalize and strict: the gaps join; the words alone stay.
  for (uint32_t& p : o.policy) p = DXT_POLICY_PRIVATIZE;
  o.epsilon = 1e6;  // the toy's words come back as themselves
  o.release_shape = DXT_SHAPE_NORMALIZE;
  CHECK(t.run(o, "w1 tom, w2 555-123-4567. w3") == "W1, w2. W3");
  o.release_shape = DXT_SHAPE_STRICT;
  CHECK(t.run(o, "w1 tom, w2 555-123-4567. w3") == "w1 w2 w3");
  CHECK(t.run(o, "w1 maria w2 tom@example.com w3") == "w1 w2 w3");
  // A word alone and a bag: nothing for a dropped token.
  char* out = nullptr;
  size_t len = 0;
  CHECK(dxt_privatize_word(t.context, &o, "tom@example.com", 15, &out, &len, nullptr, nullptr) == DXT_OK);
  CHECK(len == 0);
  dxt_text_free(out);
}

TEST_CASE("typed: a caller's struct that ends before the typed fields gets no typed handling") {
  TypedModel t;
  dxt_privatize_options o;
  dxt_privatize_options_init(&o);
  o.epsilon = 1;
  o.policy[DXT_CLASS_NUMBER] = DXT_POLICY_KEEP;
  for (uint32_t& p : o.typed) p = DXT_TYPED_PLACEHOLDER;  // the caller's padding, as it were
  o.struct_size = static_cast<uint32_t>(offsetof(dxt_privatize_options, typed) + sizeof(uint32_t));
  CHECK(t.run(o, "42") == "42");
  o.struct_size = sizeof o;
  CHECK(t.run(o, "42") == "[number]");
}

TEST_CASE("typed: presets set the families and the record shows them") {
  TypedModel t;
  dxt_privatize_options o;
  dxt_privatize_options_init(&o);
  o.preset = DXT_PRESET_STRONGEST;
  dxt_release_record r;
  dxt_release_record_init(&r);
  const std::string s = t.run(o, "tom@example.com 42", &r);
  // What the preset's table row sets for addresses and numbers (retuning it
  // needs no edit here).
  const Preset& strongest = *find_preset(DXT_PRESET_STRONGEST);
  const dxt_typed_policy addresses = strongest.typed[DXT_FAMILY_ADDRESSES];
  REQUIRE(addresses == strongest.typed[DXT_FAMILY_NUMBERS]);
  if (addresses == DXT_TYPED_DROP) {
    CHECK(s.empty());
    CHECK((r.typed_dropped & (1u << DXT_TYPED_EMAIL)) != 0);
  } else {
    REQUIRE(addresses == DXT_TYPED_PLACEHOLDER);
    CHECK(s == "[email] [number]");
    CHECK(r.typed_classes != 0);
  }
  // A family set against the preset is refused, naming it.
  o.typed[DXT_FAMILY_NAMES] = DXT_TYPED_KEEP;
  char* out = nullptr;
  size_t len = 0;
  CHECK(dxt_privatize_text(t.context, &o, "x", 1, &out, &len, nullptr, nullptr) == DXT_E_INVALID_ARGUMENT);
  CHECK(std::string(dxt_last_error_message()).find("names") != std::string::npos);
}

TEST_CASE("typed: names found from the words around them, in a text") {
  // "brown" (no list's), "baker" (a common-word surname), "home", "paid",
  // "said", "sir": words the model has; every other word but w0..w13 is one
  // it lacks.
  TypedModel t({"brown", "baker", "home", "paid", "said", "sir"});
  dxt_privatize_options o;
  dxt_privatize_options_init(&o);
  o.epsilon = 1;
  for (uint32_t& p : o.policy) p = DXT_POLICY_KEEP;  // only typed tokens change
  for (uint32_t& p : o.typed) p = DXT_TYPED_PLACEHOLDER;
  auto same = [&](const std::string& in, const std::string& out) { CHECK(t.run(o, in) == out); };
  // A title written as one: any word after it; not after "dr" in lower case
  // without a full stop, nor the verb "miss", nor across a comma.
  same("Dr. brown paid.", "Dr. [name] paid.");
  same("DR brown paid.", "DR [name] paid.");
  same("dr brown paid.", "dr brown paid.");
  same("I miss home.", "I miss home.");
  same("I met Miss brown.", "I met Miss [name].");
  same("Miss home, w1.", "Miss home, w1.");
  same("Dear Sir or Madam, paid w1.", "Dear Sir or Madam, paid w1.");  // nor "Sir" after "Dear"
  // A lower-case first name and a common-word surname; not when only the
  // first name is capitalised.
  same("w1 sarah baker paid.", "w1 [name] [name] paid.");
  same("w1 Sarah baker paid.", "w1 [name] baker paid.");
  // The writer's name after a sign-off, at the end of its line.
  same("Best regards, bill", "Best regards, [name]");
  same("Kind regards, brown baker", "Kind regards, [name] [name]");
  same("Yours sincerely,\nBILL", "Yours sincerely,\n[name]");
  same("Best regards to bill", "Best regards to bill");
  same("Thanks, home", "Thanks, home");  // ("Thanks, bill": the name, as after any sign-off)
  same("Sincerely, brown paid w1 w2 home.", "Sincerely, brown paid w1 w2 home.");
  // The addressee after a greeting that starts its sentence.
  same("Hi BILL, w1.", "Hi [name], w1.");
  same("hey bill w1", "hey [name] w1");
  same("Hi brown.", "Hi brown.");
  same("w1 hi bill.", "w1 hi bill.");
  same("Hi. bill w1.", "Hi. bill w1.");
  // The speaker before a speech verb, first in the sentence.
  same("Bill said w1.", "[name] said w1.");
  same("Bill paid w1.", "Bill paid w1.");
  same("w1 bill said w2.", "w1 bill said w2.");
  // A first name before a name in the same case; not after a determiner.
  same("Bill Smith paid.", "[name] [name] paid.");
  same("bill smith paid.", "[name] [name] paid.");
  same("Bill smith paid.", "Bill [name] paid.");
  same("w1 the bill smith paid.", "w1 the bill [name] paid.");
  same("Bill, Smith paid.", "Bill, [name] paid.");
  // Detection reads the text only: another seed, the same placeholders.
  dxt_context_options co;
  dxt_context_options_init(&co);
  co.rng_mode = DXT_RNG_DETERMINISTIC;
  co.seed[0] = 99;
  dxt_context* other = nullptr;
  REQUIRE(dxt_context_create(t.model, &co, &other) == DXT_OK);
  std::swap(other, t.context);
  same("Best regards, bill", "Best regards, [name]");
  same("Dr. brown paid.", "Dr. [name] paid.");
  std::swap(other, t.context);
  dxt_context_destroy(other);
}

TEST_CASE("typed: number words from zero, with magnitudes and ordinals; 'one' and 'first' by their neighbours") {
  TypedModel t({"home", "paid", "said", "of", "well", "wait"});
  dxt_privatize_options o;
  dxt_privatize_options_init(&o);
  o.epsilon = 1;
  for (uint32_t& p : o.policy) p = DXT_POLICY_KEEP;
  for (uint32_t& p : o.typed) p = DXT_TYPED_PLACEHOLDER;
  auto same = [&](const std::string& in, const std::string& out) { CHECK(t.run(o, in) == out); };
  // A phone number in words: every digit, the 0s and 1s too.
  same("call five five five, one two one zero oh one",
       "call [number] [number] [number], [number] [number] "
       "[number] [number] [number] [number]");
  same("Zero paid.", "[number] paid.");
  same("one one two", "[number] [number] [number]");
  same("twenty-one", "[number]-[number]");
  same("one hundred and one", "[number] [number] and [number]");
  same("two thousand and first", "[number] [number] and [number]");
  same("two w1 and one w2", "[number] w1 and one w2");  // "and" joins only after a magnitude
  same("a hundred w1, a thousand w2, a million w3", "a [number] w1, a [number] w2, a [number] w3");
  same("ONE MILLION", "[number] [number]");
  same("one 4", "[number] [number]");
  // Dates of birth with ordinals.
  same("born the seventh of October", "born the [number] of [month]");
  same("the twenty-third of May", "the [number]-[number] of [month]");
  same("the first of May", "the [number] of [month]");
  same("on May second", "on [month] [number]");
  // Months: in any case, but "may", "march", "august" only Title-case
  // inside a sentence.
  same("born in october 1990", "born in [month] [number]");
  same("paid in March", "paid in [month]");
  same("May I wait", "May I wait");
  same("they march home in august", "they march home in august");
  same("Paid on Monday", "Paid on Monday");  // days of the week are not typed
  same("the thirty first", "the [number] [number]");
  // Not numbers: "one" as a pronoun, "first" and "second" as words, "oh".
  same("one of them paid", "one of them paid");
  same("the one w1 paid", "the one w1 paid");
  same("at first w1 paid", "at first w1 paid");
  same("wait a second", "wait a second");
  same("oh well", "oh well");
  same("the second w1 of w2", "the second w1 of w2");
  same("you may first ask", "you may first ask");  // "may", the verb
}

TEST_CASE("typed: names first in a sentence, in signatures, and in compatibility letters") {
  TypedModel t({"brown", "home", "paid", "said", "has", "is", "went", "hasn't"});
  dxt_privatize_options o;
  dxt_privatize_options_init(&o);
  o.epsilon = 1;
  for (uint32_t& p : o.policy) p = DXT_POLICY_KEEP;
  for (uint32_t& p : o.typed) p = DXT_TYPED_PLACEHOLDER;
  auto same = [&](const std::string& in, const std::string& out) { CHECK(t.run(o, in) == out); };
  // A common-word name first in its sentence, before a verb of a person.
  same("Bill has w1.", "[name] has w1.");
  same("w1. Bill went home.", "w1. [name] went home.");
  same("Bill hasn't paid.", "[name] hasn't paid.");
  same("Bill is w1.", "Bill is w1.");  // "is": a common word may be its subject
  same("w1 bill has w2.", "w1 bill has w2.");
  CHECK(t.run(o, "Bill's w1 paid.").rfind("[name]", 0) == 0);  // a possessive
  same("May's w1 paid.", "May's w1 paid.");                    // months are never typed
  // Signatures after a closing that also opens sentences.
  same("w1.\nThanks,\nbill", "w1.\nThanks,\n[name]");
  same("w1.\nThank you!\nBill\n", "w1.\nThank you!\n[name]\n");
  same("Cheers, BILL", "Cheers, [name]");
  same("Best,\nocie", "Best,\n[name]");  // a word the model lacks
  same("Thanks, home", "Thanks, home");
  same("Thanks,\nbill paid w1", "Thanks,\nbill paid w1");
  same("Best of luck, bill w1", "Best of luck, bill w1");
  // Full-width and mathematical letters keep their case: "Ｂｉｌｌ" is a
  // Title-case "bill" inside a sentence.
  same("I met \xEF\xBC\xA2\xEF\xBD\x89\xEF\xBD\x8C\xEF\xBD\x8C.", "I met [name].");
  same("I met \xF0\x9D\x90\x81\xF0\x9D\x90\xA2\xF0\x9D\x90\xA5\xF0\x9D\x90\xA5.", "I met [name].");
  same("I met \xF0\x9D\x91\xA9\xF0\x9D\x92\x8A\xF0\x9D\x92\x8D\xF0\x9D\x92\x8D.", "I met [name].");  // bold italic
  same("I paid the \xEF\xBD\x82\xEF\xBD\x89\xEF\xBD\x8C\xEF\xBD\x8C.",
       "I paid the \xEF\xBD\x82\xEF\xBD\x89\xEF\xBD\x8C\xEF\xBD\x8C.");
  same("Thanks,\n\xEF\xBC\xA2\xEF\xBD\x89\xEF\xBD\x8C\xEF\xBD\x8C", "Thanks,\n[name]");
}

TEST_CASE("typed: street addresses and written-out addresses in a text") {
  TypedModel t({"home", "paid", "live"});
  dxt_privatize_options o;
  dxt_privatize_options_init(&o);
  o.epsilon = 1;
  for (uint32_t& p : o.policy) p = DXT_POLICY_KEEP;
  for (uint32_t& p : o.typed) p = DXT_TYPED_PLACEHOLDER;
  CHECK(t.run(o, "I live at 412 Spring Road, apartment 4.") == "I live at [street].");
  CHECK(t.run(o, "write anna dot lee at gmail dot com!") == "write [email]!");
  CHECK(t.run(o, "to anna.lee@mail.de\xE2\x80\x99s desk") == "to [email]\xE2\x80\x99s desk");
  CHECK(t.run(o, "follow \xE2\x80\x9C@bridge\xE2\x80\x9D") == "follow \xE2\x80\x9C[handle]\xE2\x80\x9D");
  CHECK(t.run(o, "go to reddit.com/r/grief-support now") == "go to [url] now");
  // A replacement is a street of the public pattern, whatever the input.
  o.typed[DXT_FAMILY_ADDRESSES] = DXT_TYPED_REPLACE;
  const std::regex street(R"(I live at \d{1,3} [A-Z][a-z]+ (Street|Road|Avenue|Lane|Drive)\.)");
  for (const char* input : {"I live at 412 Spring Road, apartment 4.", "I live at 9 Elm St."}) {
    const std::string out = t.run(o, input);
    CHECK_MESSAGE(std::regex_match(out, street), out);
  }
}

TEST_CASE("typed: a text cut into pieces keeps every token and its context whole") {
  TypedModel t({"brown", "paid", "home"});
  dxt_privatize_options o;
  dxt_privatize_options_init(&o);
  o.epsilon = 1;
  for (uint32_t& p : o.policy) p = DXT_POLICY_KEEP;
  for (uint32_t& p : o.typed) p = DXT_TYPED_PLACEHOLDER;
  // Filler with no sentence end, then a token with spaces in it (or a
  // title and its name) straddling the 64 KiB mark at every offset, then a
  // sentence end within 4 KiB.
  const std::vector<std::pair<std::string, std::string>> cases = {{"anna @ mail . de", "[email]"},
                                                                  {"anna dot lee at gmail dot com", "[email]"},
                                                                  {"412 Spring Road, apartment 4", "[street]"},
                                                                  {"555 123 4567", "[phone]"},
                                                                  {"Dr. brown", "Dr. [name]"}};
  for (const auto& [token, placeholder] : cases) {
    for (size_t shift = 0; shift < token.size() + 2; shift += 3) {
      std::string text;
      while (text.size() < 65536 - shift) text += "w1 ";
      text += token + " paid w2 w3. w4 w5 w6";
      const std::string out = t.run(o, text);
      CHECK_MESSAGE(out.find(placeholder) != std::string::npos, token, " shift ", shift);
      CHECK_MESSAGE(out.find(token) == std::string::npos, token, " shift ", shift);
    }
  }
}

TEST_CASE("typed: a replacement is drawn from the members the model's vocabulary has, not flagged common") {
  // Cities paris, oslo (in the vocabulary), lagos (not), rome (in it, but
  // flagged common): only Paris and Oslo may replace a city.
  test::ToyModelSpec spec = test::grid_2d_spec();
  for (const char* w : {"paris", "oslo", "rome"}) {
    spec.words.push_back(w);
    spec.vectors.push_back({9.0f, static_cast<float>(spec.words.size())});
  }
  TypedLists lists = test::toy_typed_lists();
  lists.members[DXT_TYPED_CITY] = {{"paris", false}, {"lagos", false}, {"oslo", false}, {"rome", true}};
  const test::AlignedBytes bytes(test::with_typed_section(test::build_model_bytes(spec), lists));
  const auto model = test::open_bytes(bytes);
  const TypedLists* loaded = model->typed_lists();
  REQUIRE(loaded != nullptr);
  RandomStream rng = seeded(9);
  std::set<std::string> drawn;
  for (int i = 0; i < 400; ++i) drawn.insert(typed_replacement(DXT_TYPED_CITY, "Berlin", rng, loaded, false));
  CHECK(drawn == std::set<std::string>{"Paris", "Oslo"});
  // Fewer than two such members: every member may replace (here the first
  // names, none of which the vocabulary has).
  drawn.clear();
  for (int i = 0; i < 400; ++i) drawn.insert(typed_replacement(DXT_TYPED_FIRST_NAME, "Sarah", rng, loaded, false));
  CHECK(drawn.size() == loaded->members[DXT_TYPED_FIRST_NAME].size());
}

TEST_CASE("typed: a time stays a time: one token, replaced in its shape, [time], dropped, consistent, recorded") {
  TypedModel t({"meeting", "moved", "to", "at", "and"});
  dxt_privatize_options o;
  dxt_privatize_options_init(&o);
  o.epsilon = 1;
  for (uint32_t& p : o.policy) p = DXT_POLICY_KEEP;  // only typed tokens change
  o.typed[DXT_FAMILY_NUMBERS] = DXT_TYPED_PLACEHOLDER;
  dxt_release_record r;
  dxt_release_record_init(&r);
  // The am/pm is part of the time, not a word of its own.
  CHECK(t.run(o, "meeting moved to 2:08 PM, ok", &r) == "meeting moved to [time], ok");
  CHECK((r.typed_classes & (1u << DXT_TYPED_TIME)) != 0);
  CHECK(t.run(o, "at 9am and at 6:45 a.m. and 14:30") == "at [time] and at [time]. and [time]");
  CHECK(t.run(o, "at 13:30 pm and 2.08") == "at [number] pm and [number]");
  // A time is a whole value: "one" beside it is no number ("5 one" is).
  CHECK(t.run(o, "at 9 am, one of them") == "at [time], one of them");
  CHECK(t.run(o, "at 5 one of them") == "at [number] [number] of them");
  // Replace: the input's shape under keep and normalize.
  o.typed[DXT_FAMILY_NUMBERS] = DXT_TYPED_REPLACE;
  for (int i = 0; i < 20; ++i) {
    const std::string keep = t.run(o, "moved to 2:08 PM, and 14:30 and 6:45 a.m.");
    CHECK_MESSAGE(std::regex_match(keep, std::regex("moved to ([1-9]|1[0-2]):[0-5][0-9] [AP]M, and "
                                                    "([01][0-9]|2[0-3]):[0-5][0-9] and ([1-9]|1[0-2]):[0-5][0-9] "
                                                    "[ap]\\.m\\.")),
                  keep);
  }
  o.release_shape = DXT_SHAPE_NORMALIZE;
  const std::string normalized = t.run(o, "moved to 2:08pm");
  CHECK_MESSAGE(std::regex_match(normalized, std::regex("[Mm]oved to ([1-9]|1[0-2]):[0-5][0-9][ap]m")), normalized);
  // Strict: every time a 24-hour HH:MM (its shape is not released), unless
  // number_shape keeps shapes.
  o.release_shape = DXT_SHAPE_STRICT;
  for (uint32_t& p : o.policy) p = DXT_POLICY_PRIVATIZE;
  const std::string strict = t.run(o, "2:08 PM 9am");
  CHECK_MESSAGE(std::regex_match(strict, std::regex("([01][0-9]|2[0-3]):[0-5][0-9] ([01][0-9]|2[0-3]):[0-5][0-9]")),
                strict);
  o.number_shape = DXT_NUMBER_SHAPE_KEEP;
  const std::string strict_kept = t.run(o, "2:08 PM 9am");
  CHECK_MESSAGE(std::regex_match(strict_kept, std::regex("([1-9]|1[0-2]):[0-5][0-9] [AP]M ([1-9]|1[0-2])[ap]m")),
                strict_kept);
  o.number_shape = DXT_NUMBER_SHAPE_HIDE;
  o.release_shape = DXT_SHAPE_KEEP;
  for (uint32_t& p : o.policy) p = DXT_POLICY_KEEP;
  // typed_consistent: the same time written the same way, one draw.
  o.typed_consistent = 1;
  for (int i = 0; i < 20; ++i) {
    const std::string s = t.run(o, "at 2:08 PM and at 2:08 PM");
    std::smatch m;
    REQUIRE(std::regex_match(s, m, std::regex("at (.+) and at (.+)")));
    CHECK(m[1].str() == m[2].str());
  }
  o.typed_consistent = 0;
  // Drop: no trace.
  o.typed[DXT_FAMILY_NUMBERS] = DXT_TYPED_DROP;
  CHECK(t.run(o, "moved to 2:08 PM, ok") == "moved to, ok");
}
