// SPDX-License-Identifier: Apache-2.0
// The patterns of text/structured_tokens read the text folded: addresses,
// URLs, handles and numbers written with compatibility forms, non-ASCII
// letters, non-ASCII punctuation beside them, other spacing around '@',
// the '@' and dots spelled out, and street addresses. Each case is a family
// of variants, not one example; each test fails on the ASCII-only patterns.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "text/structured_tokens.hpp"
#include "text/tokenizer.hpp"
#include "unicode/fold.hpp"
#include "unicode/utf8.hpp"

using namespace dxt;

namespace {

struct Found {
  std::string text;
  dxt_typed_class typed;
};

std::vector<Found> structured(const std::string& text) {
  std::vector<Found> out;
  for (const Token& t : tokenize(text))
    if (t.typed != DXT_TYPED_NONE) out.push_back({text.substr(t.begin, t.end - t.begin), t.typed});
  return out;
}

// `text` holds exactly one structured token, `token`, of class `cls`.
void one(const std::string& text, const std::string& token, dxt_typed_class cls) {
  const auto f = structured(text);
  REQUIRE_MESSAGE(f.size() == 1, text);
  CHECK_MESSAGE(f[0].text == token, text);
  CHECK_MESSAGE(f[0].typed == cls, text);
}

// No structured token of class `cls` in `text`.
void none(const std::string& text, dxt_typed_class cls) {
  for (const Found& f : structured(text)) CHECK_MESSAGE(f.typed != cls, text, " -> ", f.text);
}

}  // namespace

TEST_CASE("structured: an address, URL or handle beside non-ASCII punctuation is whole") {
  // Closing and opening marks that are not ASCII: curly quotes, guillemets,
  // an ellipsis, a dash, CJK brackets, the typographic apostrophe.
  const std::vector<std::pair<std::string, std::string>> marks = {
      {"\xE2\x80\x9C", "\xE2\x80\x9D"}, {"\xC2\xAB", "\xC2\xBB"},         {"\xE2\x80\x98", "\xE2\x80\x99"},
      {"\xE2\x80\xB9", "\xE2\x80\xA6"}, {"\xE2\x80\x94", "\xE2\x80\x94"}, {"\xE3\x80\x8C", "\xE3\x80\x8D"}};
  for (const auto& [open, close] : marks) {
    one("to " + open + "anna.lee@mail.de" + close + " desk", "anna.lee@mail.de", DXT_TYPED_EMAIL);
    one("see " + open + "https://example.org/a/b" + close, "https://example.org/a/b", DXT_TYPED_URL);
    one("follow " + open + "@bridge" + close + " now", "@bridge", DXT_TYPED_HANDLE);
    one("call " + open + "555-123-4567" + close, "555-123-4567", DXT_TYPED_PHONE);
  }
  one("to anna.lee@mail.de\xE2\x80\x99s desk", "anna.lee@mail.de", DXT_TYPED_EMAIL);
  one("at www.example.com\xE2\x80\xA6 and more", "www.example.com", DXT_TYPED_URL);
}

TEST_CASE("structured: non-ASCII letters in an address or URL belong to it") {
  one("see https://fr.example.org/caf\xC3\xA9/men\xC3\xBC?x=1 now",
      "https://fr.example.org/caf\xC3\xA9/men\xC3\xBC?x=1", DXT_TYPED_URL);
  one("write jos\xC3\xA9@correo.es today", "jos\xC3\xA9@correo.es", DXT_TYPED_EMAIL);
  one("write \xC3\xA9mile@m\xC3\xBCller.de today", "\xC3\xA9mile@m\xC3\xBCller.de", DXT_TYPED_EMAIL);
  one("\xD0\xB8\xD0\xB2\xD0\xB0\xD0\xBD@mail.ru", "\xD0\xB8\xD0\xB2\xD0\xB0\xD0\xBD@mail.ru", DXT_TYPED_EMAIL);
}

TEST_CASE("structured: a URL of any length, and one without a scheme") {
  std::string path;
  for (int i = 0; i < 3000; ++i) path += static_cast<char>('a' + i % 26);
  one("see https://example.org/" + path + ". Then", "https://example.org/" + path, DXT_TYPED_URL);
  one("go to reddit.com/r/grief-support for help", "reddit.com/r/grief-support", DXT_TYPED_URL);
  one("read bbc.co.uk/news, then", "bbc.co.uk/news", DXT_TYPED_URL);
  one("on example.com.", "example.com", DXT_TYPED_URL);
  one("on my-site.blog/post?id=3 today", "my-site.blog/post?id=3", DXT_TYPED_URL);
  one("on localhost.dev:8080/x today", "localhost.dev:8080/x", DXT_TYPED_URL);
  // Not a URL: a missing space before a word, abbreviations, versions, file names.
  for (const char* text : {"the end.It was", "I left.Then", "e.g. this", "U.S.A. and", "v1.2 and 3.14",
                           "notes.txt here", "Node.js is", "and/or that"})
    none(text, DXT_TYPED_URL);
}

TEST_CASE("structured: a look-alike or encoded '@', and any spacing around it") {
  const std::vector<std::string> signs = {"@",
                                          "\xEF\xBC\xA0" /* ＠ */,
                                          "\xEF\xB9\xAB" /* ﹫ */,
                                          "&#64;",
                                          "%40",
                                          "&commat;",
                                          "(at)",
                                          "[at]",
                                          "{at}",
                                          " (at) ",
                                          " [AT] ",
                                          "\t@\t",
                                          "\xC2\xA0@\xC2\xA0",
                                          "\xE2\x80\x8B@",
                                          "\n@",
                                          " @\n",
                                          "\xE3\x80\x80@"};
  for (const std::string& at : signs) {
    const std::string address = "anna.lee" + at + "mail.de";
    one("mail " + address + " today", address, DXT_TYPED_EMAIL);
  }
  // A full-width address, and mathematical letters.
  one("mail "
      "\xEF\xBD\x8A\xEF\xBD\x8F\xEF\xBD\x85\xEF\xBC\xA0\xEF\xBD\x85\xEF\xBD\x98\xEF\xBC\x8E\xEF\xBD\x83\xEF\xBD\x8F"
      "\xEF\xBD\x8D now",
      "\xEF\xBD\x8A\xEF\xBD\x8F\xEF\xBD\x85\xEF\xBC\xA0\xEF\xBD\x85\xEF\xBD\x98\xEF\xBC\x8E\xEF\xBD\x83\xEF\xBD\x8F"
      "\xEF\xBD\x8D",
      DXT_TYPED_EMAIL);
  one("hi \xEF\xBC\xA0\xF0\x9D\x90\x9B\xF0\x9D\x90\xA8\xF0\x9D\x90\x9B!",
      "\xEF\xBC\xA0\xF0\x9D\x90\x9B\xF0\x9D\x90\xA8\xF0\x9D\x90\x9B", DXT_TYPED_HANDLE);
  // A zero-width space inside the address is read through.
  one("mail an\xE2\x80\x8Bna@mail\xE2\x80\x8B.de now", "an\xE2\x80\x8Bna@mail\xE2\x80\x8B.de", DXT_TYPED_EMAIL);
}

TEST_CASE("structured: addresses spelled out") {
  one("write anna dot lee at gmail dot com soon", "anna dot lee at gmail dot com", DXT_TYPED_EMAIL);
  one("write Anna at Gmail DOT com soon", "Anna at Gmail DOT com", DXT_TYPED_EMAIL);
  one("write j_smith [at] example [dot] org soon", "j_smith [at] example [dot] org", DXT_TYPED_EMAIL);
  one("write j.smith(at)example(dot)co(dot)uk soon", "j.smith(at)example(dot)co(dot)uk", DXT_TYPED_EMAIL);
  one("write bob (at) mail.example.net soon", "bob (at) mail.example.net", DXT_TYPED_EMAIL);
  one("write tom.b at uni dot edu", "tom.b at uni dot edu", DXT_TYPED_EMAIL);
  // Sentences, not addresses: "at" before a host written with a '.', "dot"
  // before a word that is no top-level domain, "at" before no host.
  none("I looked at example.com today", DXT_TYPED_EMAIL);
  none("we met at noon dot then", DXT_TYPED_EMAIL);
  none("look at the dot on the map", DXT_TYPED_EMAIL);
}

TEST_CASE("structured: street addresses") {
  one("I live at 412 Spring Road, apartment 4 now", "412 Spring Road, apartment 4", DXT_TYPED_STREET);
  one("at 10 Downing Street.", "10 Downing Street", DXT_TYPED_STREET);
  one("at 5 W 42nd St, Apt. 4B today", "5 W 42nd St, Apt. 4B", DXT_TYPED_STREET);
  one("at 12B Elm Grove Avenue #12 today", "12B Elm Grove Avenue #12", DXT_TYPED_STREET);
  one("at 1600 Pennsylvania Ave today", "1600 Pennsylvania Ave", DXT_TYPED_STREET);
  one("at 77 old mill street today", "77 old mill street", DXT_TYPED_STREET);
  one("at 8 Rue Blanche Boulevard", "8 Rue Blanche Boulevard", DXT_TYPED_STREET);
  one("at 3 Church Lane, Unit 7", "3 Church Lane, Unit 7", DXT_TYPED_STREET);
  one("at \xEF\xBC\x94\xEF\xBC\x91\xEF\xBC\x92 Spring Road", "\xEF\xBC\x94\xEF\xBC\x91\xEF\xBC\x92 Spring Road",
      DXT_TYPED_STREET);
  // Not streets: a stopword among the words, words of mixed case, a common
  // street type after lower-case words, no street type. (A year before a
  // street's name, "In 2024 Spring Road was closed", is taken as one.)
  for (const char* text : {"I walked 5 blocks down the road", "we ran 5 miles along Ocean Drive", "a 2 hour drive",
                           "a 5 mile road", "a 2 lane road", "I have 3 kids now"})
    none(text, DXT_TYPED_STREET);
}

TEST_CASE("structured: only the listed ranges fold to ASCII") {
  // The patterns fold only the code points of kFoldsToAscii (every other
  // one is a letter or a mark by its class). So for every code point whose
  // folding is empty or one ASCII character, an address holding it must be
  // read as the folded address is: in a top-level domain (which must be
  // ASCII letters: a letter read as a non-ASCII one fails) and in a local
  // part (where a mark read as one fails).
  size_t checked = 0;
  auto whole = [](const std::string& text) {
    const auto f = structured(text);
    return f.size() == 1 && f[0].text == text;
  };
  for (uint32_t c = 0x80; c < 0xE1000; ++c) {
    if ((c >= 0xD800 && c < 0xE000) || (c >= 0x30000 && c < 0xE0000)) continue;
    std::string s;
    utf8::append(s, c);
    const std::string f = unicode::fold(s);
    if (!(f.empty() || (f.size() == 1 && static_cast<unsigned char>(f[0]) < 0x80))) continue;
    ++checked;
    if (whole("abc@mail.d" + f + "e")) CHECK_MESSAGE(whole("abc@mail.d" + s + "e"), "code point ", c);
    if (whole("ab" + f + "c@mail.de")) CHECK_MESSAGE(whole("ab" + s + "c@mail.de"), "code point ", c);
  }
  CHECK(checked > 1000);
}

TEST_CASE("structured: numbers in full-width digits, and hostile input stays linear") {
  one("on \xEF\xBC\x91\xEF\xBC\x92/\xEF\xBC\x93 at", "\xEF\xBC\x91\xEF\xBC\x92/\xEF\xBC\x93", DXT_TYPED_NUMBER);
  std::string text;
  for (int i = 0; i < 3000; ++i) text += "a.";
  text += "com ";
  for (int i = 0; i < 3000; ++i) text += "1 a ";
  for (int i = 0; i < 2000; ++i) text += "x dot ";
  for (int i = 0; i < 2000; ++i) text += "\xEF\xBC\xA0";
  size_t at = 0;
  for (const Token& t : tokenize(text)) {
    CHECK(t.begin == at);
    at = t.end;
  }
  CHECK(at == text.size());
}

TEST_CASE("structured: clock times are one token, am/pm included; other numbers stay numbers") {
  // 24-hour: H:MM, H:MM:SS, hour 0..23.
  one("at 14:30 sharp", "14:30", DXT_TYPED_TIME);
  one("at 9:05.", "9:05", DXT_TYPED_TIME);
  one("at 00:00 exactly", "00:00", DXT_TYPED_TIME);
  one("finished at 23:59:30 last night", "23:59:30", DXT_TYPED_TIME);
  // 12-hour: attached or after one space, any case, a full stop between the
  // letters; the full stop after them is left to the text.
  one("moved to 2:08 PM, can you", "2:08 PM", DXT_TYPED_TIME);
  one("moved to 2:08pm.", "2:08pm", DXT_TYPED_TIME);
  one("at 6:45 a.m. and", "6:45 a.m", DXT_TYPED_TIME);
  one("at 7:30 P.M", "7:30 P.M", DXT_TYPED_TIME);
  one("dentist at 9am tomorrow", "9am", DXT_TYPED_TIME);
  one("doors open 7 pm, show", "7 pm", DXT_TYPED_TIME);
  one("at 9 a.m. tomorrow", "9 a.m", DXT_TYPED_TIME);
  one("lunch at 12.30 pm", "12.30 pm", DXT_TYPED_TIME);
  one("at 11:59:30 PM", "11:59:30 PM", DXT_TYPED_TIME);
  one("at 09:15 am", "09:15 am", DXT_TYPED_TIME);
  // Read folded: full-width digits and colon, U+00A0 before "PM".
  one("at \xEF\xBC\x92\xEF\xBC\x9A\xEF\xBC\x90\xEF\xBC\x98 now", "\xEF\xBC\x92\xEF\xBC\x9A\xEF\xBC\x90\xEF\xBC\x98",
      DXT_TYPED_TIME);
  one("at 2:08\xC2\xA0PM now", "2:08\xC2\xA0PM", DXT_TYPED_TIME);
  // A range: two times.
  const auto range = structured("open 10:00-11:30pm daily");
  REQUIRE(range.size() == 2);
  CHECK(range[0].text == "10:00");
  CHECK(range[0].typed == DXT_TYPED_TIME);
  CHECK(range[1].text == "11:30pm");
  CHECK(range[1].typed == DXT_TYPED_TIME);
  // A date and a time: a number and a time.
  const auto stamp = structured("on 2024-03-12 14:30 we");
  REQUIRE(stamp.size() == 2);
  CHECK(stamp[0].typed == DXT_TYPED_NUMBER);
  CHECK(stamp[1].text == "14:30");
  CHECK(stamp[1].typed == DXT_TYPED_TIME);
  // Not times: hours or minutes out of range, one-digit or three-digit
  // minutes, more digits joined on, a decimal without am/pm, a version, a
  // ratio, am/pm that runs into a word.
  for (const char* text : {"at 24:00", "at 13:30 pm", "at 0:30 am", "at 9:60", "a ratio of 16:9", "at 12:345",
                           "at 12:30:45.5", "at 1:30/2", "costs 2.08 now", "version v2.08", "version 1.2.3",
                           "score 123:45", "at 5 amazing", "at 5 a man", "at 5 pmt", "at 9 a.mx", "at 13pm"})
    none(text, DXT_TYPED_TIME);
  one("at 13:30 pm", "13:30", DXT_TYPED_NUMBER);  // and "pm" a word
  one("at 24:00", "24:00", DXT_TYPED_NUMBER);
  one("costs 2.08 now", "2.08", DXT_TYPED_NUMBER);
  CHECK(structured("version v2.08").empty());
  // A verse reference with a two-digit verse and a chapter up to 23 reads as
  // a time (the text alone cannot tell): docs/evaluation/typed-classes.md.
  one("John 3:16 says", "3:16", DXT_TYPED_TIME);
  one("Genesis 1:1 says", "1:1", DXT_TYPED_NUMBER);
}
