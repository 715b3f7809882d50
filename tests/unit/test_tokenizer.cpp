// SPDX-License-Identifier: Apache-2.0
// src/text/tokenizer.hpp: words, numbers, invisible runs and the spans
// between them. tests/unit/test_unicode_classes.cpp checks every code point
// against the Unicode Character Database.
#include <doctest/doctest.h>

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "errors/error.hpp"
#include "text/text_privatizer.hpp"
#include "text/tokenizer.hpp"

namespace doctest {
// Readable failure output for token lists.
template <>
struct StringMaker<std::vector<std::string>> {
  static String convert(const std::vector<std::string>& v) {
    std::string s = "{";
    for (size_t i = 0; i < v.size(); ++i) {
      if (i) s += ", ";
      s += "\"";
      for (unsigned char c : v[i]) {
        if (c < 0x20) {
          char b[8];
          std::snprintf(b, sizeof b, "\\x%02X", c);
          s += b;
        } else {
          s += static_cast<char>(c);
        }
      }
      s += "\"";
    }
    return String((s + "}").c_str());
  }
};
}  // namespace doctest

namespace {

using dxt::Token;
using dxt::TokenKind;

const char* kind_name(TokenKind k) {
  switch (k) {
    case TokenKind::kWord: return "W";
    case TokenKind::kNumber: return "N";
    case TokenKind::kSpan: return "S";
    case TokenKind::kInvisible: return "I";
  }
  return "?";
}

// Checks the structural invariants and returns "K:text" pieces.
std::vector<std::string> pieces(const std::string& text) {
  const std::vector<Token> tokens = dxt::tokenize(text);
  std::vector<std::string> out;
  size_t at = 0;
  std::string joined;
  for (const Token& t : tokens) {
    REQUIRE(t.begin == at);    // contiguous: every byte exactly once
    REQUIRE(t.end > t.begin);  // no empty tokens
    REQUIRE(t.end <= text.size());
    joined += text.substr(t.begin, t.end - t.begin);
    out.push_back(std::string(kind_name(t.kind)) + ":" + text.substr(t.begin, t.end - t.begin));
    at = t.end;
  }
  REQUIRE(at == text.size());
  REQUIRE(joined == text);
  // Two spans never follow each other (spans are maximal).
  for (size_t i = 1; i < tokens.size(); ++i)
    CHECK_FALSE((tokens[i].kind == TokenKind::kSpan && tokens[i - 1].kind == TokenKind::kSpan));
  return out;
}

using P = std::vector<std::string>;

}  // namespace

TEST_CASE("tokenizer: empty input gives no tokens") { CHECK(dxt::tokenize("").empty()); }

TEST_CASE("tokenizer: simple words, spaces and punctuation") {
  CHECK(pieces("Hello, world!") == P{"W:Hello", "S:, ", "W:world", "S:!"});
  CHECK(pieces("  two  spaces\tand\nnewline ") ==
        P{"S:  ", "W:two", "S:  ", "W:spaces", "S:\t", "W:and", "S:\n", "W:newline", "S: "});
  CHECK(pieces("word") == P{"W:word"});
  CHECK(pieces("...") == P{"S:..."});
  CHECK(pieces("a_b") == P{"W:a", "S:_", "W:b"});
  CHECK(pieces("(x)") == P{"S:(", "W:x", "S:)"});
}

TEST_CASE("tokenizer: numbers") {
  CHECK(pieces("42") == P{"N:42"});
  CHECK(pieces("3.14") == P{"N:3.14"});
  CHECK(pieces("1,000") == P{"N:1,000"});
  CHECK(pieces("1,000,000.50") == P{"N:1,000,000.50"});
  CHECK(pieces("pi is 3.14.") == P{"W:pi", "S: ", "W:is", "S: ", "N:3.14", "S:."});
  CHECK(pieces("1, 2") == P{"N:1", "S:, ", "N:2"});
  CHECK(pieces("3..14") == P{"N:3", "S:..", "N:14"});
  CHECK(pieces(".5") == P{"S:.", "N:5"});
  CHECK(pieces("-7") == P{"S:-", "N:7"});
  // Letters make a word, wherever they are.
  CHECK(pieces("abc123") == P{"W:abc123"});
  CHECK(pieces("123abc") == P{"W:123abc"});
  CHECK(pieces("v1.2") == P{"W:v1.2"});
  // '.' between a letter and a digit does not join.
  CHECK(pieces("a.1") == P{"W:a", "S:.", "N:1"});
}

TEST_CASE("tokenizer: apostrophes join letters") {
  CHECK(pieces("don't") == P{"W:don't"});
  CHECK(pieces("don\xE2\x80\x99t") == P{"W:don\xE2\x80\x99t"});  // U+2019
  CHECK(pieces("rock'n'roll") == P{"W:rock'n'roll"});
  CHECK(pieces("O'Brien's") == P{"W:O'Brien's"});
  CHECK(pieces("'tis") == P{"S:'", "W:tis"});
  CHECK(pieces("dogs'") == P{"W:dogs", "S:'"});
  CHECK(pieces("don''t") == P{"W:don", "S:''", "W:t"});
  CHECK(pieces("'quoted'") == P{"S:'", "W:quoted", "S:'"});
  CHECK(pieces("\xE2\x80\x98hi\xE2\x80\x99") == P{"S:\xE2\x80\x98", "W:hi", "S:\xE2\x80\x99"});
  // Not between digits.
  CHECK(pieces("1'000") == P{"N:1", "S:'", "N:000"});
}

TEST_CASE("tokenizer: hyphens split words") {
  CHECK(pieces("well-known") == P{"W:well", "S:-", "W:known"});
  CHECK(pieces("state-of-the-art") == P{"W:state", "S:-", "W:of", "S:-", "W:the", "S:-", "W:art"});
  CHECK(pieces("a\xE2\x80\x94"
               "b") == P{"W:a", "S:\xE2\x80\x94", "W:b"});  // em dash
}

TEST_CASE("tokenizer: non-ASCII words") {
  CHECK(pieces("caf\xC3\xA9 au lait") == P{"W:caf\xC3\xA9", "S: ", "W:au", "S: ", "W:lait"});
  CHECK(pieces("Herr M\xC3\xBCller.") == P{"W:Herr", "S: ", "W:M\xC3\xBCller", "S:."});
  CHECK(pieces("\xD0\x9C\xD0\xBE\xD1\x81\xD0\xBA\xD0\xB2\xD0\xB0!") ==
        P{"W:\xD0\x9C\xD0\xBE\xD1\x81\xD0\xBA\xD0\xB2\xD0\xB0", "S:!"});
  CHECK(pieces("\xCE\x91\xCE\xB8\xCE\xAE\xCE\xBD\xCE\xB1") == P{"W:\xCE\x91\xCE\xB8\xCE\xAE\xCE\xBD\xCE\xB1"});
  CHECK(pieces("stra\xC3\x9F"
               "e") == P{"W:stra\xC3\x9F"
                         "e"});
  // A combining accent (decomposed é) stays inside the word.
  CHECK(pieces("cafe\xCC\x81 ok") == P{"W:cafe\xCC\x81", "S: ", "W:ok"});
  // × ÷ « » and the no-break space are not letters.
  CHECK(pieces("2\xC3\x97"
               "3") == P{"N:2", "S:\xC3\x97", "N:3"});
  CHECK(pieces("\xC2\xAB"
               "oui\xC2\xBB") == P{"S:\xC2\xAB", "W:oui", "S:\xC2\xBB"});
  CHECK(pieces("a\xC2\xA0"
               "b") == P{"W:a", "S:\xC2\xA0", "W:b"});
  // Ideographic full stop.
  CHECK(pieces("\xE4\xB8\xAD\xE6\x96\x87\xE3\x80\x82") == P{"W:\xE4\xB8\xAD\xE6\x96\x87", "S:\xE3\x80\x82"});
}

TEST_CASE("tokenizer: emoji are spans; invisible code points between them are runs of their own") {
  CHECK(pieces("hi \xF0\x9F\x98\x80 there") == P{"W:hi", "S: \xF0\x9F\x98\x80 ", "W:there"});
  CHECK(pieces("\xF0\x9F\x98\x80\xF0\x9F\x91\x8D") == P{"S:\xF0\x9F\x98\x80\xF0\x9F\x91\x8D"});
  // A skin-tone modifier is a symbol (Sk): part of the span.
  CHECK(pieces("ok\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD") == P{"W:ok", "S:\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD"});
  // A ZWJ sequence (man + ZWJ + laptop): the ZWJ is invisible and not
  // between word characters, so it is a run of its own (dropped on output).
  CHECK(pieces("\xF0\x9F\x91\xA8\xE2\x80\x8D\xF0\x9F\x92\xBB") ==
        P{"S:\xF0\x9F\x91\xA8", "I:\xE2\x80\x8D", "S:\xF0\x9F\x92\xBB"});
  // "I ❤️ you": the variation selector U+FE0F after the heart likewise.
  CHECK(pieces("I \xE2\x9D\xA4\xEF\xB8\x8F you") == P{"W:I", "S: \xE2\x9D\xA4", "I:\xEF\xB8\x8F", "S: ", "W:you"});
  // A flag is two regional indicator letters: a word, like the country's name.
  CHECK(pieces("\xF0\x9F\x87\xAB\xF0\x9F\x87\xB7!") == P{"W:\xF0\x9F\x87\xAB\xF0\x9F\x87\xB7", "S:!"});
}

TEST_CASE("tokenizer: letter- and digit-like symbols are word characters") {
  // Enclosed alphanumerics: circled letters (So) and circled digits (No).
  CHECK(pieces("\xE2\x92\xB6\xE2\x93\x91\xE2\x93\x92 \xE2\x91\xA0\xE2\x91\xA1") ==
        P{"W:\xE2\x92\xB6\xE2\x93\x91\xE2\x93\x92", "S: ", "N:\xE2\x91\xA0\xE2\x91\xA1"});
  // Letterlike symbols: ℡ ™ ℃ (compatibility decompositions with letters).
  CHECK(pieces("\xE2\x84\xA1 Acme\xE2\x84\xA2 5\xE2\x84\x83") ==
        P{"W:\xE2\x84\xA1", "S: ", "W:Acme\xE2\x84\xA2", "S: ", "W:5\xE2\x84\x83"});
  // Superscript and subscript digits are digits: x² is one word, ²³ a number.
  CHECK(pieces("x\xC2\xB2 \xC2\xB2\xC2\xB3 H\xE2\x82\x82O") ==
        P{"W:x\xC2\xB2", "S: ", "N:\xC2\xB2\xC2\xB3", "S: ", "W:H\xE2\x82\x82O"});
  // Digits of other scripts (Arabic-Indic) make numbers; fractions too.
  CHECK(pieces("\xD9\xA1\xD9\xA2\xD9\xA3 \xC2\xBD") == P{"N:\xD9\xA1\xD9\xA2\xD9\xA3", "S: ", "N:\xC2\xBD"});
  // Mathematical alphanumerics, fullwidth letters, negative squared letters,
  // Braille.
  CHECK(pieces("\xF0\x9D\x90\x80\xF0\x9D\x90\x81 \xEF\xBC\xA1 \xF0\x9F\x85\xB0 \xE2\xA0\x93\xE2\xA0\x91") ==
        P{"W:\xF0\x9D\x90\x80\xF0\x9D\x90\x81", "S: ", "W:\xEF\xBC\xA1", "S: ", "W:\xF0\x9F\x85\xB0",
          "S: ", "W:\xE2\xA0\x93\xE2\xA0\x91"});
  // Private use and unassigned code points: unknown meaning, so words.
  CHECK(pieces("\xEE\x80\x80 \xF3\xB0\x80\x80") == P{"W:\xEE\x80\x80", "S: ", "W:\xF3\xB0\x80\x80"});
  // A combining mark after a space makes a word of its own.
  CHECK(pieces("a \xCC\x81") == P{"W:a", "S: ", "W:\xCC\x81"});
}

TEST_CASE("tokenizer: invisible code points join a word between word characters, else stand alone") {
  // Persian "mikhaham" with a zero-width non-joiner: one word.
  CHECK(pieces("\xD9\x85\xDB\x8C\xE2\x80\x8C\xD8\xAE\xD9\x88\xD8\xA7\xD9\x87\xD9\x85") ==
        P{"W:\xD9\x85\xDB\x8C\xE2\x80\x8C\xD8\xAE\xD9\x88\xD8\xA7\xD9\x87\xD9\x85"});
  // A soft hyphen or zero-width space inside a word; a tag run inside a word.
  CHECK(pieces("pass\xC2\xADword") == P{"W:pass\xC2\xADword"});
  CHECK(pieces("ab\xE2\x80\x8B\xE2\x80\x8B"
               "cd") == P{"W:ab\xE2\x80\x8B\xE2\x80\x8B"
                          "cd"});
  CHECK(pieces("hi\xF3\xA0\x81\xA8\xF3\xA0\x81\xA9there") == P{"W:hi\xF3\xA0\x81\xA8\xF3\xA0\x81\xA9there"});
  // Tag characters after a word, before a space: a run of their own.
  CHECK(pieces("hi\xF3\xA0\x81\xA8\xF3\xA0\x81\xA9 x") ==
        P{"W:hi", "I:\xF3\xA0\x81\xA8\xF3\xA0\x81\xA9", "S: ", "W:x"});
  // Bidi controls around a word; a byte order mark at the start.
  CHECK(pieces("\xE2\x80\xAE"
               "abc\xE2\x80\xAC") == P{"I:\xE2\x80\xAE", "W:abc", "I:\xE2\x80\xAC"});
  CHECK(pieces("\xEF\xBB\xBFok") == P{"I:\xEF\xBB\xBF", "W:ok"});
  // A variation selector of the supplement (U+E0100..) after a Han
  // character is part of the word when a word character follows, else a run
  // of its own; 300 of them alone are one invisible run.
  CHECK(pieces("\xE8\xBE\xBB\xF3\xA0\x84\x80\xE8\xBE\xBB") == P{"W:\xE8\xBE\xBB\xF3\xA0\x84\x80\xE8\xBE\xBB"});
  CHECK(pieces("\xE8\xBE\xBB\xF3\xA0\x84\x80") == P{"W:\xE8\xBE\xBB", "I:\xF3\xA0\x84\x80"});
  std::string selectors;
  for (int i = 0; i < 300; ++i) selectors += "\xF3\xA0\x84\x80";
  CHECK(pieces(" " + selectors + " ") == P{"S: ", "I:" + selectors, "S: "});
  // A joiner next to an invisible run does not join across it.
  CHECK(pieces("a'\xE2\x80\x8B"
               "b") == P{"W:a", "S:'", "I:\xE2\x80\x8B", "W:b"});
}

TEST_CASE("tokenizer: control characters and NUL are spans") {
  const std::string text("a\0b", 3);
  const std::vector<Token> t = dxt::tokenize(text);
  REQUIRE(t.size() == 3);
  CHECK(t[0].kind == TokenKind::kWord);
  CHECK(t[1].kind == TokenKind::kSpan);
  CHECK(t[1].begin == 1);
  CHECK(t[1].end == 2);
  CHECK(t[2].kind == TokenKind::kWord);
  CHECK(pieces(text) == P{"W:a", std::string("S:\0", 3), "W:b"});
  CHECK(pieces("x\x01\x7Fy") == P{"W:x", "S:\x01\x7F", "W:y"});
}

TEST_CASE("tokenizer: invalid UTF-8 throws DXT_E_INVALID_UTF8 naming the byte offset") {
  struct Case {
    std::string text;
    size_t offset;
  };
  const Case cases[] = {
      {"abc\xFF", 3},
      {"\x80", 0},
      {"caf\xC3\xA9 \xC0\x80", 6},
      {"ok \xED\xA0\x80", 3},
      {"truncated \xE2\x82", 10},
      {"big \xF4\x90\x80\x80", 4},
  };
  for (const Case& c : cases) {
    CAPTURE(c.offset);
    bool threw = false;
    try {
      (void)dxt::tokenize(c.text);
    } catch (const dxt::Error& e) {
      threw = true;
      CHECK(e.status() == DXT_E_INVALID_UTF8);
      const std::string msg = e.what();
      CHECK(msg.find("byte " + std::to_string(c.offset)) != std::string::npos);
    }
    CHECK(threw);
  }
}

TEST_CASE("tokenizer: a long mixed text round-trips and classifies") {
  const std::string text =
      "On 3 May 2024, Dr. O'Neill paid \xE2\x82\xAC"
      "1,250.75 for caf\xC3\xA9-au-lait \xF0\x9F\x98\x80 in "
      "\xD0\x9C\xD0\xBE\xD1\x81\xD0\xBA\xD0\xB2\xD0\xB0\xE2\x80\x94"
      "don\xE2\x80\x99t ask!\n";
  const std::vector<std::string> p = pieces(text);
  const P expected = {"W:On",
                      "S: ",
                      "N:3",
                      "S: ",
                      "W:May",
                      "S: ",
                      "N:2024",
                      "S:, ",
                      "W:Dr",
                      "S:. ",
                      "W:O'Neill",
                      "S: ",
                      "W:paid",
                      "S: \xE2\x82\xAC",
                      "N:1,250.75",
                      "S: ",
                      "W:for",
                      "S: ",
                      "W:caf\xC3\xA9",
                      "S:-",
                      "W:au",
                      "S:-",
                      "W:lait",
                      "S: \xF0\x9F\x98\x80 ",
                      "W:in",
                      "S: ",
                      "W:\xD0\x9C\xD0\xBE\xD1\x81\xD0\xBA\xD0\xB2\xD0\xB0",
                      "S:\xE2\x80\x94",
                      "W:don\xE2\x80\x99t",
                      "S: ",
                      "W:ask",
                      "S:!\n"};
  CHECK(p == expected);
}

TEST_CASE("typographic apostrophes are looked up as ASCII ones") {
  CHECK(dxt::fold_apostrophes("don\xE2\x80\x99t") == "don't");
  CHECK(dxt::fold_apostrophes("\xE2\x80\x99twas\xE2\x80\x99") == "'twas'");
  CHECK(dxt::fold_apostrophes("plain") == "plain");
}
