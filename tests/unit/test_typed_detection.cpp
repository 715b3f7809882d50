// SPDX-License-Identifier: Apache-2.0
// Detection precision and recall of the typed classes on labelled text
// (tests/data/typed_eval.txt, made by eval/typed_classes/make_eval.py from
// public lists other than the model's wherever one exists, and the held-out
// tests/data/typed_eval_heldout.txt, made by it with --heldout), with the default
// model's lists, exactly as dxt_privatize_text finds them. Prints the table
// (docs/evaluation/typed-classes.md quotes it) and fails under the floors
// below, which sit a few points under the measured values: a change that
// loses detection must say so. The distractor sentences (labelled text
// with no entity) may not gain typed tokens.
//
// Scored per token by family of classes that share a placeholder: names
// (first names and surnames, "[name]"), then each other class. A labelled
// token found as another class counts as a miss of its class and a false
// positive of the other.
#include <doctest/doctest.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "mechanisms/mechanism.hpp"
#include "model/model.hpp"
#include "rng/byte_source.hpp"
#include "rng/random_stream.hpp"
#include "text/text_privatizer.hpp"
#include "text/typed_classes.hpp"

using namespace dxt;

namespace {

std::string scored(dxt_typed_class c) {
  if (c == DXT_TYPED_SURNAME || c == DXT_TYPED_FIRST_NAME) return "name";
  return typed_class_name(c);
}

struct Labelled {
  std::string text;
  std::map<size_t, std::string> gold;  // byte offset of a labelled token -> class
};

Labelled parse(const std::string& line) {
  Labelled l;
  size_t at = 0;
  while (at < line.size()) {
    const size_t open = line.find("[[", at);
    if (open == std::string::npos) {
      l.text += line.substr(at);
      break;
    }
    l.text += line.substr(at, open - at);
    const size_t colon = line.find(':', open), close = line.find("]]", open);
    std::string cls = line.substr(open + 2, colon - open - 2);
    if (cls == "first_name" || cls == "surname") cls = "name";
    l.gold[l.text.size()] = cls;
    l.text += line.substr(colon + 1, close - colon - 1);
    at = close + 2;
  }
  return l;
}

struct Floor {
  const char* cls;
  double precision, recall;
};

// The default model's detection with every family typed.
struct Detector {
  std::shared_ptr<const Model> model = Model::open_file(
      std::string(DXT_TEST_DATA_DIR) + "/../../models/dxtext-en-euclid-100d-40k.dxe", ModelOpenOptions{});
  std::unique_ptr<Mechanism> mechanism = make_mechanism(*model, [] {
    MechanismParams mp;
    mp.epsilon = 1;
    return mp;
  }());
  RandomStream rng{make_keyed_stream(std::array<uint8_t, 32>{})};
  TokenPolicies policies = [] {
    TokenPolicies p;
    for (auto& t : p.typed) t = DXT_TYPED_PLACEHOLDER;
    return p;
  }();
  TextPrivatizer privatizer{*model, *mechanism, rng, policies};

  // Each typed token of `text` and the name of its class.
  std::map<std::string, std::string> typed(const std::string& text) {
    std::map<std::string, std::string> out;
    for (const auto& [token, cls] : privatizer.detect_typed(text))
      if (cls != DXT_TYPED_NONE) out[text.substr(token.begin, token.end - token.begin)] = typed_class_name(cls);
    return out;
  }
};

// Scores `file` (under tests/data) against `floors`; checks the distractor
// sentences' typed tokens stay at most `max_distractor_hits`.
void score(const char* file, const std::vector<Floor>& floors, int max_distractor_hits) {
  Detector d;
  REQUIRE(d.model->has_typed_lists());
  TextPrivatizer& privatizer = d.privatizer;

  std::map<std::string, int> tp, fp, fn;
  std::map<std::string, std::map<std::string, int>> false_words, missed_words;
  std::ifstream in(std::string(DXT_TEST_DATA_DIR) + "/" + file);
  REQUIRE(in);
  std::string line;
  int distractor_tokens = 0, distractor_hits = 0;
  std::map<std::string, int> distractor_words;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const Labelled l = parse(line);
    for (const auto& [token, cls] : privatizer.detect_typed(l.text)) {
      const auto g = l.gold.find(token.begin);
      const std::string found = cls == DXT_TYPED_NONE ? "" : scored(cls);
      if (l.gold.empty()) {
        ++distractor_tokens;
        if (!found.empty()) ++distractor_hits, ++distractor_words[l.text.substr(token.begin, token.end - token.begin)];
      }
      if (g != l.gold.end() && g->second == found) {
        ++tp[found];
        continue;
      }
      if (g != l.gold.end()) {
        ++fn[g->second];
        ++missed_words[g->second][l.text.substr(token.begin, token.end - token.begin)];
      }
      if (!found.empty()) {
        ++fp[found];
        ++false_words[found][l.text.substr(token.begin, token.end - token.begin)];
      }
    }
  }
  std::printf("%s\n%-10s %6s %6s %6s %9s %7s\n", file, "class", "tp", "fp", "fn", "precision", "recall");
  for (const Floor& f : floors) {
    const double t = tp[f.cls], p = t + fp[f.cls], r = t + fn[f.cls];
    const double precision = p > 0 ? t / p : 1, recall = r > 0 ? t / r : 1;
    std::printf("%-10s %6d %6d %6d %9.3f %7.3f\n", f.cls, tp[f.cls], fp[f.cls], fn[f.cls], precision, recall);
    CHECK_MESSAGE(precision >= f.precision, file, " ", f.cls);
    CHECK_MESSAGE(recall >= f.recall, file, " ", f.cls);
  }
  for (const auto& [cls, words] : false_words) {
    std::printf("false %s:", cls.c_str());
    for (const auto& [w, n] : words) std::printf(" %s(%d)", w.c_str(), n);
    std::printf("\n");
  }
  for (const auto& [cls, words] : missed_words) {
    std::printf("missed %s:", cls.c_str());
    for (const auto& [w, n] : words) std::printf(" %s(%d)", w.c_str(), n);
    std::printf("\n");
  }
  std::printf("distractor sentences: %d of %d tokens typed:", distractor_hits, distractor_tokens);
  for (const auto& [w, n] : distractor_words) std::printf(" %s(%d)", w.c_str(), n);
  std::printf("\n\n");
  CHECK_MESSAGE(distractor_hits <= max_distractor_hits, file, " distractors");
}

}  // namespace

TEST_CASE("typed detection: precision and recall per class on the labelled text") {
  // Measured values in docs/evaluation/typed-classes.md; floors a few points under.
  score("typed_eval.txt",
        {{"name", 0.90, 0.78},
         {"city", 0.80, 0.10},
         {"country", 0.75, 0.75},
         {"condition", 0.80, 0.60},
         {"drug", 0.80, 0.40},
         {"number", 0.95, 0.95},
         {"phone", 0.95, 0.95},
         {"time", 0.99, 0.99},
         {"email", 0.99, 0.99},
         {"url", 0.99, 0.99},
         {"handle", 0.99, 0.99}},
        3);
}

TEST_CASE("typed detection: the held-out labelled text (other templates, other seed)") {
  // tests/data/typed_eval_heldout.txt (make_eval.py --heldout), written after
  // the name rules were chosen on typed_eval.txt; few drugs and conditions
  // (10, 20), so their floors are loose. The two distractor hits are "Major"
  // in "Sergeant Major is a rank", as before the context rules.
  score("typed_eval_heldout.txt",
        {{"name", 0.93, 0.80},
         {"city", 0.50, 0.10},
         {"country", 0.90, 0.75},
         {"condition", 0.95, 0.80},
         {"drug", 0.95, 0.80},
         {"number", 0.95, 0.95},
         {"phone", 0.95, 0.95},
         {"time", 0.99, 0.99},
         {"email", 0.99, 0.99},
         {"url", 0.99, 0.99},
         {"handle", 0.99, 0.99}},
        2);
}

TEST_CASE("typed detection: everyday words that are rarely the class are not typed (issue 35)") {
  // The examples and the commonest false positives of the changelog
  // sample (eval/data/typed-precision-msg.tsv), which the lists' pruning
  // (models/typed/typed_lists.py) removed; and true members beside them,
  // which must stay typed.
  Detector d;
  REQUIRE(d.model->has_typed_lists());
  auto typed = [&](const std::string& text) { return d.typed(text); };
  for (const char* text : {"He left a trail of cigar smoke behind him.", "She wore an oversized fedora to the party.",
                           "Fedora ships a new kernel this spring.", "* Bump Standards-Version to 4.6.2.",
                           "Fix a race condition and the mouse events.", "Set debian-branch to debian/sid.",
                           "Drop the X-Python-Version field.", "Move to the Debian Common Lisp Team.",
                           "Add -dev dependencies and build with -std=c++11.", "Require Perl 5.24 or later.",
                           "Tune hash-max-ziplist and cl-alexandria.", "  * Mark the package Multi-Arch: same.",
                           "- Grant access to the build logs.", "\xE2\x80\xA2 Bill the customer again."}) {
    CAPTURE(text);
    const auto found = typed(text);
    for (const char* word : {"cigar", "fedora", "Fedora", "Bump", "condition", "mouse", "Set", "Python", "Lisp", "dev",
                             "std", "Perl", "max", "alexandria", "Mark", "Grant", "Bill"})
      CHECK_MESSAGE(found.count(word) == 0, std::string(word), " typed as ", found.count(word) ? found.at(word) : "");
  }
  const auto kept = typed(
      "I take lisinopril and aspirin; Max has asthma and diabetes. Tell Mike that Ruby "
      "visited Berlin and Cairo with Chris Lamb.\n* Ask Jean-Luc Picard, who lives in Lyon.");
  for (const auto& [word, cls] : std::map<std::string, std::string>{{"lisinopril", "drug"},
                                                                    {"aspirin", "drug"},
                                                                    {"asthma", "condition"},
                                                                    {"diabetes", "condition"},
                                                                    {"Max", "first_name"},
                                                                    {"Mike", "first_name"},
                                                                    {"Ruby", "first_name"},
                                                                    {"Berlin", "city"},
                                                                    {"Cairo", "city"},
                                                                    {"Chris", "first_name"},
                                                                    {"Lamb", "surname"},
                                                                    {"Jean", "first_name"},
                                                                    {"Lyon", "city"}}) {
    CAPTURE(word);
    REQUIRE(kept.count(word) == 1);
    CHECK(kept.at(word) == cls);
  }
}

TEST_CASE("typed detection: romanised Chinese names, and the English words they spell (issue 34)") {
  // The lists hold Pinyin surnames and given names (models/typed/typed_lists.py):
  // a name that is no English word is found in any case ("Zhang", "zhang");
  // one that is (flagged common: "long", "fang", "sun", and every two-letter
  // one: "li", "ma") only Title-case inside a sentence or in a name context
  // ("Wei Long", "Dr. Fang"), never in lower case nor first in a sentence.
  Detector d;
  REQUIRE(d.model->has_typed_lists());
  auto typed = [&](const std::string& text) { return d.typed(text); };
  const std::vector<std::pair<std::string, std::map<std::string, std::string>>> named = {
      {"I spoke with Zhang yesterday.", {{"Zhang", "surname"}}},
      {"ask zhou and huang tomorrow", {{"zhou", "surname"}, {"huang", "surname"}}},
      {"I met Wei Long yesterday.", {{"Wei", "first_name"}, {"Long", "surname"}}},
      {"Please ask Dr. Fang about it.", {{"Fang", "surname"}}},
      {"We met Li and Sun at noon.", {{"Li", "first_name"}, {"Sun", "surname"}}},
      {"Thanks to Mr. Ma and Ms. Ouyang.", {{"Ma", "surname"}, {"Ouyang", "surname"}}},
      {"Best regards,\nXiuying Tang", {{"Xiuying", "first_name"}, {"Tang", "surname"}}},
      // A surname written first, first in its sentence, before a name.
      {"Sun Li wrote back.", {{"Sun", "surname"}, {"Li", "first_name"}}},
      {"Fang Wei called. Long Xiuying did not.", {{"Fang", "first_name"}, {"Long", "surname"}}}};
  for (const auto& [text, expected] : named) {
    CAPTURE(text);
    const auto found = typed(text);
    for (const auto& [word, cls] : expected) {
      CAPTURE(word);
      REQUIRE(found.count(word) == 1);
      CHECK(found.at(word) == cls);
    }
  }
  for (const char* text : {"It took a long time in the sun, and the dog bared a fang.", "Long ago the sun rose.",
                           "Sun rose early over the hills.", "Song and dance were long gone.",
                           "Check the SHA-256 digest and the git sha.", "Long Island is far.", "Sun Valley was cold.",
                           "Ha! Ye shall know them.", "My ma went to the li river with a long fang."}) {
    CAPTURE(text);
    for (const auto& [word, cls] : typed(text))
      if (cls != "number") CHECK_MESSAGE(false, word, " typed as ", cls);  // "SHA-256": 256 is one
  }
}
