// SPDX-License-Identifier: Apache-2.0
// Every code point, U+0000 to U+10FFFF, through dxt_privatize_text, checked
// against the Unicode Character Database installed on the machine (Debian's
// unicode-data; DXT_UCD_DIR names another directory). Nothing letter- or
// digit-like may come out verbatim unless a keep policy kept it and the
// report counts it as leaked (DESIGN.md §8):
//
// - a code point whose General_Category is a letter (L*), mark (M*) or
//   number (N*), private use (Co) or unassigned (Cn), a symbol (S*) whose
//   compatibility decomposition holds a letter or number, or a symbol named
//   as a letter or digit ("... LETTER A"), must end in a word or number
//   token: replaced under the placeholder policy, kept and counted in
//   words_leaked under the keep policy;
// - a Default_Ignorable_Code_Point (tag characters, variation selectors,
//   zero-width joiners, bidi controls, ...) must never be copied: outside a
//   word it is dropped, inside one it goes with the word.
//
// Each code point is tried alone, after a letter and after a symbol, in
// texts of 4096 code points separated by U+0001 (a control, which is never
// part of a word, so each field of the output belongs to one code point).
#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "dxtext/dxtext.h"
#include "support/toy_models.hpp"
#include "unicode/char_class.hpp"
#include "unicode/utf8.hpp"

namespace {

constexpr uint32_t kMaxCodePoint = 0x10FFFF;
constexpr char kSeparator = '\x01';

std::string ucd_dir() {
  const char* d = std::getenv("DXT_UCD_DIR");
  return d != nullptr && *d != '\0' ? d : "/usr/share/unicode";
}

std::ifstream open_ucd(const std::string& name) {
  const std::string path = ucd_dir() + "/" + name;
  std::ifstream in(path);
  REQUIRE_MESSAGE(in.good(), path << " is missing: install Debian's unicode-data (tools/setup.sh does)");
  return in;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string field;
  std::istringstream in(s);
  while (std::getline(in, field, sep)) out.push_back(field);
  if (!s.empty() && s.back() == sep) out.emplace_back();
  return out;
}

std::string trim(const std::string& s) {
  const size_t a = s.find_first_not_of(" \t");
  const size_t b = s.find_last_not_of(" \t");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

// What the UCD says of each code point that matters here.
struct Ucd {
  std::vector<std::array<char, 2>> category = std::vector<std::array<char, 2>>(kMaxCodePoint + 1, {'C', 'n'});
  std::unordered_map<uint32_t, std::string> names;  // of code points listed one by one
  std::unordered_map<uint32_t, std::vector<uint32_t>> decomposition;
  std::vector<bool> ignorable = std::vector<bool>(kMaxCodePoint + 1, false);
  std::string version;

  Ucd() {
    std::ifstream data = open_ucd("UnicodeData.txt");
    std::string line;
    uint32_t range_first = 0;
    while (std::getline(data, line)) {
      const std::vector<std::string> f = split(line, ';');
      REQUIRE(f.size() >= 6);
      const auto cp = static_cast<uint32_t>(std::stoul(f[0], nullptr, 16));
      if (f[1].size() > 8 && f[1].compare(f[1].size() - 8, 8, ", First>") == 0) {
        range_first = cp;
        continue;
      }
      const bool last = f[1].size() > 7 && f[1].compare(f[1].size() - 7, 7, ", Last>") == 0;
      for (uint32_t c = last ? range_first : cp; c <= cp; ++c) category[c] = {f[2][0], f[2][1]};
      if (!last) names[cp] = f[1];
      std::istringstream d(f[5]);
      for (std::string x; d >> x;)
        if (x[0] != '<') decomposition[cp].push_back(static_cast<uint32_t>(std::stoul(x, nullptr, 16)));
    }
    std::ifstream derived = open_ucd("DerivedCoreProperties.txt");
    std::getline(derived, version);  // "# DerivedCoreProperties-15.0.0.txt"
    while (std::getline(derived, line)) {
      line = line.substr(0, line.find('#'));
      const std::vector<std::string> f = split(line, ';');
      if (f.size() < 2 || trim(f[1]) != "Default_Ignorable_Code_Point") continue;
      const std::string range = trim(f[0]);
      const size_t dots = range.find("..");
      const auto a = static_cast<uint32_t>(std::stoul(range.substr(0, dots), nullptr, 16));
      const auto b =
          dots == std::string::npos ? a : static_cast<uint32_t>(std::stoul(range.substr(dots + 2), nullptr, 16));
      for (uint32_t c = a; c <= b; ++c) ignorable[c] = true;
    }
  }

  std::string gc(uint32_t c) const { return {category[c][0], category[c][1]}; }
  std::string name(uint32_t c) const {
    const auto it = names.find(c);
    return it == names.end() ? "" : it->second;
  }

  bool letter_or_number(uint32_t c) const {
    const char g = category[c][0];
    return g == 'L' || g == 'M' || g == 'N';
  }

  // Its compatibility decomposition, applied again to each part, holds a
  // letter or a number (a symbol over a combining mark does not count).
  bool decomposes_to_letter(uint32_t c, int depth = 0) const {
    const auto it = decomposition.find(c);
    if (it == decomposition.end()) return false;
    for (uint32_t d : it->second)
      if (d != c &&
          (category[d][0] == 'L' || category[d][0] == 'N' || (depth < 8 && decomposes_to_letter(d, depth + 1))))
        return true;
    return false;
  }

  // Named as one letter or digit: "... LETTER A", "... DIGIT TWO".
  bool named_letter(uint32_t c) const {
    const std::string n = name(c);
    for (const char* key : {" LETTER ", " DIGIT "}) {
      const size_t at = n.rfind(key);
      if (at != std::string::npos && n.find(' ', at + std::string(key).size()) == std::string::npos) return true;
    }
    return false;
  }

  // Must end in a word or number token (never copied between words).
  bool word_like(uint32_t c) const {
    const std::string g = gc(c);
    return letter_or_number(c) || g == "Co" || g == "Cn" ||
           (g[0] == 'S' && (decomposes_to_letter(c) || named_letter(c)));
  }
};

const Ucd& ucd() {
  static const Ucd u;
  return u;
}

struct Toy {
  dxt::test::AlignedBytes bytes{dxt::test::build_model_bytes(dxt::test::grid_2d_spec())};
  dxt_model* model = nullptr;
  dxt_context* ctx = nullptr;
  Toy() {
    REQUIRE(dxt_model_open_memory(bytes.data(), bytes.size, nullptr, &model) == DXT_OK);
    REQUIRE(dxt_context_create(model, nullptr, &ctx) == DXT_OK);
  }
  ~Toy() {
    dxt_context_destroy(ctx);
    dxt_model_close(model);
  }
};

// Two code points, so that no single code point copied verbatim equals it.
constexpr const char* kPlaceholder = "<>";

// Runs `text` with every token class under `policy`; returns the output and
// the local diagnostics' words_leaked.
std::string run(Toy& toy, const std::string& text, uint32_t policy, uint64_t& leaked) {
  dxt_privatize_options o;
  dxt_privatize_options_init(&o);
  o.epsilon = 1;
  for (auto& p : o.policy) p = policy;
  o.placeholder = kPlaceholder;
  dxt_local_diagnostics d;
  dxt_local_diagnostics_init(&d);
  char* out = nullptr;
  size_t len = 0;
  REQUIRE(dxt_privatize_text(toy.ctx, &o, text.data(), text.size(), &out, &len, nullptr, &d) == DXT_OK);
  std::string s(out, len);
  dxt_text_free(out);
  leaked = d.words_leaked;
  return s;
}

std::string hex(uint32_t c) {
  char b[16];
  std::snprintf(b, sizeof b, "U+%04X", c);
  return b;
}

std::string utf8(uint32_t c) {
  std::string s;
  dxt::utf8::append(s, c);
  return s;
}

// Every code point but the surrogates (not in valid UTF-8) and the
// separator, in batches.
std::vector<std::vector<uint32_t>> batches() {
  std::vector<std::vector<uint32_t>> out(1);
  for (uint32_t c = 0; c <= kMaxCodePoint; ++c) {
    if ((c >= 0xD800 && c <= 0xDFFF) || c == static_cast<uint32_t>(kSeparator)) continue;
    if (out.back().size() == 4096) out.emplace_back();
    out.back().push_back(c);
  }
  return out;
}

}  // namespace

TEST_CASE(
    "every code point: letters, marks, numbers and letter-like symbols end in words; invisible ones are never "
    "copied") {
  const Ucd& u = ucd();
  MESSAGE("UCD " << u.version << " in " << ucd_dir() << "; table from Unicode "
                 << std::string(dxt::unicode::char_class_unicode_version()));
  Toy toy;
  const std::string letter = "a", symbol = "\xE2\x98\xBA";  // ☺ U+263A
  uint64_t word_like = 0, invisible = 0, failures = 0;
  for (const std::vector<uint32_t>& batch : batches()) {
    // Alone: each field of the placeholder output is the placeholder (a
    // word or number), empty (an invisible run, dropped) or the code point
    // (a span, copied).
    std::string alone;
    for (uint32_t c : batch) alone += utf8(c) + kSeparator;
    uint64_t leaked = 0;
    const std::vector<std::string> replaced = split(run(toy, alone, DXT_POLICY_PLACEHOLDER, leaked), kSeparator);
    REQUIRE(replaced.size() == batch.size() + 1);
    CHECK(leaked == 0);
    // Under keep, every word is copied and counted as leaked.
    const std::vector<std::string> kept = split(run(toy, alone, DXT_POLICY_KEEP, leaked), kSeparator);
    REQUIRE(kept.size() == batch.size() + 1);
    uint64_t words = 0;
    for (size_t i = 0; i < batch.size(); ++i) {
      const uint32_t c = batch[i];
      const std::string enc = utf8(c);
      const bool is_word = replaced[i] == kPlaceholder;
      words += is_word;
      bool ok = true;
      if (u.ignorable[c]) {
        ++invisible;
        ok = replaced[i].empty() && kept[i].empty();  // dropped, whatever the policy
      } else if (u.word_like(c)) {
        ++word_like;
        ok = is_word && kept[i] == enc;
      }
      if (!ok && ++failures <= 20)
        FAIL_CHECK(hex(c) << " (" << u.gc(c) << ", " << u.name(c) << "): placeholder gave '" << replaced[i]
                          << "', keep gave '" << kept[i] << "'");
    }
    CHECK(leaked == words);  // each kept word is reported

    // After a letter and after a symbol: a word-like or invisible code point
    // may end up inside the word or be dropped, never be copied.
    for (const std::string& before : {letter, symbol}) {
      std::string text;
      for (uint32_t c : batch) text += before + utf8(c) + kSeparator;
      const std::vector<std::string> out = split(run(toy, text, DXT_POLICY_PLACEHOLDER, leaked), kSeparator);
      REQUIRE(out.size() == batch.size() + 1);
      for (size_t i = 0; i < batch.size(); ++i) {
        const uint32_t c = batch[i];
        if (!u.ignorable[c] && !u.word_like(c)) continue;
        const std::string enc = utf8(c);
        if (out[i].find(enc) != std::string::npos && enc != before && ++failures <= 20)
          FAIL_CHECK(hex(c) << " (" << u.gc(c) << ", " << u.name(c) << ") after '" << before << "' was copied: '"
                            << out[i] << "'");
      }
    }
  }
  CHECK(failures == 0);
  MESSAGE(word_like << " word-like and " << invisible << " invisible code points checked");
  CHECK(word_like > 900000);  // the UCD was read: most code points are letters, Co or Cn
  CHECK(invisible > 4000);
}

TEST_CASE("the table agrees with the UCD it was made from, class by class") {
  // The generator's own rules, checked in both directions for the classes
  // the UCD states directly (letter-like symbols by script are the
  // generator's addition and only widen the letters).
  const Ucd& u = ucd();
  if (u.version.find(dxt::unicode::char_class_unicode_version()) == std::string::npos) {
    MESSAGE("installed UCD (" << u.version << ") is not the table's ("
                              << std::string(dxt::unicode::char_class_unicode_version())
                              << "): only the first test case applies");
    return;
  }
  using dxt::unicode::CharClass;
  uint64_t failures = 0;
  for (uint32_t c = 0x80; c <= kMaxCodePoint; ++c) {
    if (c >= 0xD800 && c <= 0xDFFF) continue;
    const CharClass got = dxt::unicode::char_class(c);
    const char g = u.category[c][0];
    CharClass want;
    if (u.ignorable[c]) {
      want = CharClass::kInvisible;
    } else if (g == 'N') {
      want = CharClass::kDigit;
    } else if (u.word_like(c)) {
      want = CharClass::kLetter;
    } else if (g == 'S') {
      continue;  // a symbol of one script may be a letter too
    } else {
      want = CharClass::kOther;
    }
    if (got != want && ++failures <= 20)
      FAIL_CHECK(hex(c) << " (" << u.gc(c) << ", " << u.name(c) << "): class " << static_cast<int>(got) << ", expected "
                        << static_cast<int>(want));
  }
  CHECK(failures == 0);
}
