// SPDX-License-Identifier: Apache-2.0
#include "text/structured_tokens.hpp"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <string>
#include <utility>

#include "text/case_shape.hpp"
#include "text/stopwords.hpp"
#include "unicode/char_class.hpp"
#include "unicode/fold.hpp"
#include "unicode/utf8.hpp"

namespace dxt {

namespace {

// What the patterns see of a code point (see Reader): an ASCII character
// (the code point itself, or the one it folds to), or one of these.
constexpr char kWide = '\x01';  // a letter, mark or digit that folds to no ASCII character
constexpr char kMark = '\x02';  // any other code point (punctuation, symbols, NUL)
constexpr char kSkip = '\x03';  // a default-ignorable code point (zero-width space, joiner, ...)
constexpr char kEnd = '\0';     // the end of the text

// The code points whose toNFKC_Casefold may be a single ASCII character or
// nothing (full-width and small forms, mathematical letters, superscripts,
// letter-like symbols, spaces such as U+00A0 and U+3000, default-ignorables).
// Only these are folded: every other non-ASCII code point is a kWide or
// kMark by its class. The test "structured: only the listed ranges fold to
// ASCII" checks the list against the fold tables for every code point.
constexpr std::pair<uint32_t, uint32_t> kFoldsToAscii[] = {
    {0xA0, 0xBA},       {0x17F, 0x17F},     {0x2B0, 0x2E3},     {0x34F, 0x37E},     {0x600, 0x61C},
    {0x6DD, 0x70F},     {0x890, 0x891},     {0x8E2, 0x8E2},     {0x115F, 0x1160},   {0x180B, 0x180F},
    {0x1D2C, 0x1DBB},   {0x1FEF, 0x209C},   {0x2102, 0x217F},   {0x2460, 0x2468},   {0x24B6, 0x24EA},
    {0x2C7C, 0x2C7D},   {0x3000, 0x3000},   {0x3164, 0x3164},   {0xA7F2, 0xA7F4},   {0xFB29, 0xFB29},
    {0xFE00, 0xFE6B},   {0xFEFF, 0xFF5E},   {0xFFA0, 0xFFA0},   {0xFFF9, 0xFFFB},   {0x107A5, 0x107A5},
    {0x110BD, 0x110CD}, {0x13430, 0x13438}, {0x1BCA0, 0x1BCA3}, {0x1D173, 0x1D17A}, {0x1D400, 0x1D6A3},
    {0x1D7CE, 0x1D7FF}, {0x1F12B, 0x1F149}, {0x1FBF0, 0x1FBF9}, {0xE0000, 0xE0FFF}};

bool may_fold_to_ascii(uint32_t c) {
  const auto* r = std::upper_bound(std::begin(kFoldsToAscii), std::end(kFoldsToAscii), c,
                                   [](uint32_t v, const std::pair<uint32_t, uint32_t>& e) { return v < e.first; });
  return r != std::begin(kFoldsToAscii) && c <= (r - 1)->second;
}

struct Unit {
  char c;       // the ASCII character, kWide, kMark or kEnd
  size_t next;  // the byte after the code point
};

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_alnum(char c) { return is_digit(c) || is_alpha(c); }
bool is_word(char c) { return is_alnum(c) || c == kWide; }
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

// Reads the text as the patterns see it: every code point folded
// (toNFKC_Casefold) first, so that "＠", "﹫", the full-width "ｊｏｅ" and
// the mathematical "𝐣𝐨𝐞" read as "@" and "joe", U+00A0 and U+3000 as a
// space; default-ignorables are skipped; what folds to no ASCII character
// is a kWide (a letter, mark or digit: "é", "ж") or a kMark ("’", "…",
// "“"). Byte offsets stay those of the text.
class Reader {
 public:
  explicit Reader(std::string_view text) : t_(text) {}
  size_t size() const { return t_.size(); }
  std::string_view text() const { return t_; }

  // The unit at byte i, default-ignorables skipped.
  Unit at(size_t i) const {
    while (i < t_.size()) {
      const Unit u = raw(i);
      if (u.c != kSkip) return u;
      i = u.next;
    }
    return {kEnd, t_.size()};
  }

  // The unit of the code point that ends just before byte i (kEnd at 0).
  Unit before(size_t i) const {
    if (i == 0) return {kEnd, 0};
    size_t b = i - 1;
    while (b > 0 && (static_cast<unsigned char>(t_[b]) & 0xC0) == 0x80) --b;
    return raw(b);
  }

  // Whether the lower-case ASCII `word` is at i (any case, folded forms
  // too); if so, i moves past it.
  bool literal(size_t& i, std::string_view word) const {
    size_t j = i;
    for (char w : word) {
      const Unit u = at(j);
      if (lower(u.c) != w) return false;
      j = u.next;
    }
    i = j;
    return true;
  }

  // Skips at most `most` white-space units from i; returns how many.
  size_t gap(size_t& i, size_t most) const {
    size_t n = 0;
    while (n < most) {
      const Unit u = at(i);
      if (!is_space(u.c)) break;
      i = u.next;
      ++n;
    }
    return n;
  }

  // The unit of the code point at byte i (i < size()), kSkip included.
  Unit raw(size_t i) const {
    const auto b = static_cast<unsigned char>(t_[i]);
    if (b < 0x80) return {b == 0 ? kMark : static_cast<char>(b), i + 1};
    size_t next = i;
    const uint32_t c = utf8::decode(t_.data(), t_.size(), next);
    if (may_fold_to_ascii(c)) {
      const std::string f = unicode::fold(t_.substr(i, next - i));
      if (f.empty()) return {kSkip, next};
      if (f.size() == 1 && static_cast<unsigned char>(f[0]) < 0x80 && f[0] != 0) return {f[0], next};
    }
    const unicode::CharClass cls = unicode::char_class(c);
    if (cls == unicode::CharClass::kInvisible) return {kSkip, next};
    return {unicode::is_word_class(cls) ? kWide : kMark, next};
  }

 private:
  std::string_view t_;
};

// A match must not run into a letter or digit (then the word rules apply).
bool runs_on(const Reader& r, size_t end) {
  const char c = r.at(end).c;
  return is_word(c) || c == '_';
}

// The ASCII letters of [begin, end) in lower case; "" if any unit is not
// an ASCII letter.
std::string letters(const Reader& r, size_t begin, size_t end) {
  std::string s;
  for (size_t i = begin; i < end;) {
    const Unit u = r.at(i);
    if (u.next > end) break;
    if (!is_alpha(u.c)) return "";
    s += lower(u.c);
    i = u.next;
  }
  return s;
}

bool url_char(char c) {
  if (is_alnum(c) || c == kWide || c == '_') return true;
  return c != kEnd && std::strchr("-.~:/?#[]@!$&'()*+,;=%", c) != nullptr;
}

bool trailing_mark(char c) { return c != kEnd && std::strchr(".,;:!?'\")]}", c) != nullptr; }

// Top-level domains a bare "name.tld" is taken as an address with (no
// English word among them: "end.It" is a missing space).
constexpr std::string_view kBareTopLevel[] = {"com", "org",  "net", "edu", "gov", "mil", "io", "co",  "uk",  "de",
                                              "fr",  "info", "biz", "ca",  "au",  "ly",  "tv", "app", "dev", "ai",
                                              "nl",  "es",   "ru",  "ch",  "se",  "jp",  "pl", "eu",  "nz",  "ie",
                                              "xyz", "gg",   "fm",  "cn",  "br",  "mx",  "za", "dk",  "fi",  "pt"};

// Top-level domains after a spaced or spelled-out dot ("example . com",
// "gmail dot com").
constexpr std::string_view kSpacedTopLevel[] = {"com", "org", "net",  "edu", "gov", "io", "co", "uk",
                                                "de",  "fr",  "info", "biz", "us",  "ca", "au", "me",
                                                "nl",  "es",  "it",   "ch",  "ru",  "jp", "eu", "ie"};

template <typename List>
bool listed(const List& list, std::string_view word) {
  return std::find(std::begin(list), std::end(list), word) != std::end(list);
}

// Scans the rest of a URL from i (URL characters, non-ASCII letters
// included: "/café"), less trailing punctuation. No limit: every character
// scanned is part of the match, so the tokenizer never scans one twice.
size_t url_rest(const Reader& r, size_t i) {
  size_t end = i;
  for (Unit u = r.at(i); url_char(u.c); u = r.at(i)) {
    i = u.next;
    if (!trailing_mark(u.c)) end = i;
  }
  return end;
}

// A host name from i: labels of letters, digits and '-' (non-ASCII letters
// too) separated by single dots, within kMaxStructuredBytes of `at`. Sets
// the label count and the last label (lower-case ASCII letters, or "").
size_t host(const Reader& r, size_t at, size_t i, size_t& labels, std::string& last) {
  const size_t limit = std::min(r.size(), at + kMaxStructuredBytes);
  size_t end = i;
  labels = 0;
  while (i < limit) {
    const size_t label = i;
    for (Unit u = r.at(i); i < limit && (is_word(u.c) || u.c == '-'); u = r.at(i)) i = u.next;
    if (i == label) break;
    ++labels;
    end = i;
    last = letters(r, label, i);
    const Unit dot = r.at(i);
    if (dot.c != '.' || !is_word(r.at(dot.next).c)) break;
    i = dot.next;
  }
  return end;
}

std::optional<StructuredMatch> match_url(const Reader& r, size_t at) {
  size_t i = at;
  if (r.literal(i, "https://") || r.literal(i, "http://") || r.literal(i, "ftp://") || r.literal(i, "www.")) {
    if (!is_word(r.at(i).c)) return std::nullopt;
    const size_t end = url_rest(r, i);
    if (runs_on(r, end)) return std::nullopt;
    return StructuredMatch{end, DXT_TYPED_URL};
  }
  // Without a scheme: a host with a listed top-level domain ("example.com",
  // "bbc.co.uk/news"), or any of 2 to 6 letters when a path follows
  // ("example.blog/post").
  size_t labels = 0;
  std::string last;
  size_t end = host(r, at, i, labels, last);
  if (labels < 2 || last.size() < 2) return std::nullopt;
  size_t k = end;
  const Unit colon = r.at(k);
  if (colon.c == ':' && is_digit(r.at(colon.next).c)) {  // a port
    k = colon.next;
    for (Unit u = r.at(k); is_digit(u.c); u = r.at(k)) k = u.next;
  }
  const char after = r.at(k).c;
  const bool path = after == '/' || after == '?' || after == '#';
  if (!listed(kBareTopLevel, last) && !(path && last.size() <= 6)) return std::nullopt;
  if (after == '@' || after == '_' || is_word(after)) return std::nullopt;  // part of an address or word
  if (path || k != end) end = std::max(end, url_rest(r, k));
  if (runs_on(r, end)) return std::nullopt;
  return StructuredMatch{end, DXT_TYPED_URL};
}

// How the '@' of an e-mail address is written.
enum class AtForm { kSign, kBracketed, kWord };

// The '@' of an e-mail address at i, in any of its written forms: "@"
// (with white space around it: space, tab, line break, U+00A0; full-width
// and small forms fold to it), "&#64;", "%40", "&commat;"; "(at)", "[at]",
// "{at}", "<at>"; or the word "at" between spaces.
bool email_at(const Reader& r, size_t& i, AtForm& form) {
  size_t j = i;
  const size_t before = r.gap(j, 3);
  form = AtForm::kSign;
  const Unit u = r.at(j);
  if (u.c == '@') {
    j = u.next;
  } else if (r.literal(j, "&#64;") || r.literal(j, "%40") || r.literal(j, "&commat;")) {
  } else if (r.literal(j, "(at)") || r.literal(j, "[at]") || r.literal(j, "{at}") || r.literal(j, "<at>")) {
    form = AtForm::kBracketed;
  } else if (before > 0 && r.literal(j, "at") && is_space(r.at(j).c)) {
    form = AtForm::kWord;
  } else {
    return false;
  }
  r.gap(j, 3);
  i = j;
  return true;
}

// A dot between two labels of an address at i: '.', with white space
// around it (`spaced`), or "(dot)", "[dot]", "{dot}", or the word "dot"
// between spaces (`spelled`). The label after it must start at the new i.
bool email_dot(const Reader& r, size_t& i, bool& spaced, bool& spelled) {
  size_t j = i;
  const size_t before = r.gap(j, 3);
  if (r.at(j).c == '.') {
    j = r.at(j).next;
    spaced = before > 0;
  } else if (r.literal(j, "(dot)") || r.literal(j, "[dot]") || r.literal(j, "{dot}")) {
    spelled = true;
  } else if (before > 0 && r.literal(j, "dot") && is_space(r.at(j).c)) {
    spelled = true;
  } else {
    return false;
  }
  spaced = r.gap(j, 3) > 0 || spaced;
  if (!is_word(r.at(j).c)) return false;
  i = j;
  return true;
}

std::optional<StructuredMatch> match_email(const Reader& r, size_t at) {
  auto local_char = [](char c) { return is_word(c) || c == '.' || c == '_' || c == '%' || c == '+' || c == '-'; };
  if (!is_word(r.at(at).c)) return std::nullopt;
  const size_t limit = std::min(r.size(), at + kMaxStructuredBytes);
  // The local part: local characters, and spelled-out dots between words
  // ("anna dot lee").
  size_t i = at;
  bool spelled_dot = false;
  for (;;) {
    char last = 0;
    for (Unit u = r.at(i); i < limit && i - at < 64 && local_char(u.c); u = r.at(i)) {
      size_t k = i;
      if (u.c == '%' && r.literal(k, "%40")) break;  // an encoded '@'
      i = u.next, last = u.c;
    }
    if (last == '.' || i >= limit) return std::nullopt;
    size_t j = i;
    bool spaced = false, spelled = false;
    if (email_dot(r, j, spaced, spelled) && spelled) {
      i = j;
      spelled_dot = true;
      continue;
    }
    break;
  }
  AtForm form = AtForm::kSign;
  size_t j = i;
  if (!email_at(r, j, form)) return std::nullopt;
  // Labels separated by dots; white space around a dot, or a spelled-out
  // dot, only before a common top-level domain ("example . com", "gmail
  // dot com").
  size_t labels = 0, end = 0;
  std::string last;
  bool spelled_domain = false;
  while (j < limit) {
    const size_t label = j;
    for (Unit u = r.at(j); j < limit && (is_word(u.c) || u.c == '-'); u = r.at(j)) j = u.next;
    if (j == label) break;
    ++labels;
    last = letters(r, label, j);
    end = j;
    size_t k = j;
    bool spaced = false, spelled = false;
    if (!email_dot(r, k, spaced, spelled)) break;
    size_t probe = k;
    for (Unit u = r.at(probe); probe < limit && is_alnum(u.c); u = r.at(probe)) probe = u.next;
    if ((spaced || spelled) && !listed(kSpacedTopLevel, letters(r, k, probe))) break;
    spelled_domain = spelled_domain || spelled;
    j = k;
  }
  if (labels < 2 || last.size() < 2) return std::nullopt;
  // A spelled-out "at" needs a spelled-out dot in the domain too: "looked
  // at example.com" is a sentence with an address in it, not an address.
  if (form == AtForm::kWord && !spelled_domain) return std::nullopt;
  if ((spelled_dot || spelled_domain) && !listed(kSpacedTopLevel, last)) return std::nullopt;
  if (runs_on(r, end)) return std::nullopt;
  return StructuredMatch{end, DXT_TYPED_EMAIL};
}

std::optional<StructuredMatch> match_handle(const Reader& r, size_t at) {
  Unit u = r.at(at);
  if (u.c != '@') return std::nullopt;
  size_t i = u.next, n = 0;
  for (u = r.at(i); n < 30 && (is_alnum(u.c) || u.c == '_'); u = r.at(i)) i = u.next, ++n;
  if (n == 0 || runs_on(r, i)) return std::nullopt;
  return StructuredMatch{i, DXT_TYPED_HANDLE};
}

std::optional<StructuredMatch> match_phone(const Reader& r, size_t at) {
  size_t i = at;
  const bool plus = r.at(i).c == '+';
  if (plus) i = r.at(i).next;
  const bool paren = r.at(i).c == '(';
  size_t groups[16];
  size_t group_count = 0, digits = 0, end = 0, units = 0;
  char separator = 0;
  bool mixed = false;
  auto step = [&](size_t& k) {
    k = r.at(k).next;
    ++units;
  };
  while (units < 32 && i < r.size()) {
    if (r.at(i).c == '(') step(i);
    size_t n = 0;
    while (units < 32 && is_digit(r.at(i).c)) step(i), ++n;
    if (n == 0) break;
    if (group_count == 16) return std::nullopt;
    groups[group_count++] = n;
    digits += n;
    end = i;
    bool closed = false;
    if (r.at(i).c == ')') step(i), closed = true;
    if (units >= 32 || i >= r.size()) break;
    const char c = r.at(i).c;
    if (c != '-' && c != '.' && c != ' ') {
      if (closed && is_digit(c)) continue;
      break;
    }
    size_t next = r.at(i).next;
    if (r.at(next).c == ' ' && c != ' ') next = r.at(next).next;  // "(555) - 123"
    const char d = r.at(next).c;
    if (!(is_digit(d) || d == '(')) break;
    // A separator counts only between two groups.
    if (separator != 0 && c != separator) mixed = true;
    separator = c;
    i = next;
    ++units;
  }
  if (digits < 7 || digits > 15 || group_count < 2 || runs_on(r, end)) return std::nullopt;
  if (!plus && !paren) {
    if (groups[group_count - 1] < 3) return std::nullopt;
    for (size_t g = 0; g < group_count; ++g)
      if (groups[g] < 2 || groups[g] > 4) return std::nullopt;
    // Two groups only as 3-4 (555-1234): 1990-2000 is a range of years.
    if (group_count == 2 && !(groups[0] == 3 && groups[1] == 4)) return std::nullopt;
    if (separator == '.' && !(group_count == 3 && groups[0] == 3 && groups[1] == 3 && groups[2] == 4 && !mixed))
      return std::nullopt;
  }
  return StructuredMatch{end, DXT_TYPED_PHONE};
}

std::optional<StructuredMatch> match_number(const Reader& r, size_t at) {
  if (!is_digit(r.at(at).c)) return std::nullopt;
  size_t i = at;
  const size_t limit = std::min(r.size(), at + kMaxStructuredBytes);
  while (i < limit) {
    for (Unit u = r.at(i); i < limit && is_digit(u.c); u = r.at(i)) i = u.next;
    const Unit joiner = r.at(i);
    if (i < limit && joiner.c != kEnd && std::strchr(".,:/-", joiner.c) != nullptr && is_digit(r.at(joiner.next).c)) {
      i = joiner.next;
      continue;
    }
    break;
  }
  for (std::string_view suffix : {"st", "nd", "rd", "th", "am", "pm"}) {
    size_t k = i;
    if (r.literal(k, suffix) && !runs_on(r, k)) return StructuredMatch{k, DXT_TYPED_NUMBER};
  }
  if (runs_on(r, i)) return std::nullopt;
  return StructuredMatch{i, DXT_TYPED_NUMBER};
}

// A clock time: H:MM or H:MM:SS with an hour 0..23 ("14:30", "9:05",
// "23:59:30"); or, with am/pm after it (attached or after one space, any
// case, a full stop between its letters: "2:08 PM", "2:08pm", "9 a.m"), H,
// H:MM, H.MM or H:MM:SS with an hour 1..12 ("9am", "12.30 pm"). Minutes and
// seconds are two digits, 00..59. The full stop after "a.m" is left to the
// text: it may end the sentence too. Not a time when more digits are joined
// on ("12:30:45.5", "1:30/2", "12:345"): then the number pattern applies; a
// '-' and digits may follow ("10:00-11:30", a range of two times).
std::optional<StructuredMatch> match_time(const Reader& r, size_t at) {
  size_t i = at;
  int hour = 0, hour_digits = 0;
  for (Unit u = r.at(i); is_digit(u.c) && hour_digits < 3; u = r.at(i)) {
    hour = hour * 10 + (u.c - '0');
    ++hour_digits;
    i = u.next;
  }
  if (hour_digits == 0 || hour_digits > 2) return std::nullopt;
  // Two digits 00..59 at k, no third one after them.
  auto two_digits = [&](size_t& k) {
    const Unit a = r.at(k);
    if (!is_digit(a.c)) return false;
    const Unit b = r.at(a.next);
    if (!is_digit(b.c) || is_digit(r.at(b.next).c) || (a.c - '0') * 10 + (b.c - '0') > 59) return false;
    k = b.next;
    return true;
  };
  char separator = 0;
  int fields = 0;  // after the hour: 1 minutes, 2 minutes and seconds
  if (const Unit s = r.at(i); s.c == ':' || s.c == '.') {
    size_t k = s.next;
    if (two_digits(k)) {
      separator = s.c, fields = 1, i = k;
      if (const Unit s2 = r.at(i); separator == ':' && s2.c == ':') {
        size_t k2 = s2.next;
        if (two_digits(k2)) fields = 2, i = k2;
      }
    }
  }
  const Unit joiner = r.at(i);
  if (joiner.c != kEnd && std::strchr(".,:/", joiner.c) != nullptr && is_digit(r.at(joiner.next).c))
    return std::nullopt;
  // am / pm: attached or after one space (U+00A0 too: read folded).
  size_t k = i;
  if (r.at(k).c == ' ') k = r.at(k).next;
  if (const Unit a = r.at(k); lower(a.c) == 'a' || lower(a.c) == 'p') {
    size_t m = a.next;
    if (r.at(m).c == '.') m = r.at(m).next;
    const Unit mu = r.at(m);
    if (lower(mu.c) == 'm' && !runs_on(r, mu.next)) {
      if (hour < 1 || hour > 12) return std::nullopt;
      return StructuredMatch{mu.next, DXT_TYPED_TIME};
    }
  }
  if (fields == 0 || separator != ':' || hour > 23 || runs_on(r, i)) return std::nullopt;
  return StructuredMatch{i, DXT_TYPED_TIME};
}

// Street types. After words written lower case only the first row counts
// ("412 spring street", not "a 2 hour drive" nor "a 5 mile road").
constexpr std::string_view kStrongStreetTypes[] = {"street", "st", "avenue", "ave", "boulevard", "blvd"};
constexpr std::string_view kStreetTypes[] = {
    "road",    "rd",    "lane",     "ln",      "drive", "dr",      "court",   "ct",      "place", "pl",     "way",
    "terrace", "close", "crescent", "square",  "sq",    "highway", "hwy",     "parkway", "pkwy",  "circle", "cir",
    "alley",   "row",   "grove",    "gardens", "mews",  "trail",   "strasse", "avenida", "calle"};
constexpr std::string_view kUnitWords[] = {"apartment", "apt", "suite", "ste", "unit", "flat",
                                           "room",      "rm",  "floor", "fl",  "no"};

// A street address: a house number (1 to 6 digits, and a letter: "12B"),
// one to three words, and a street type ("412 Spring Road", "10 Downing
// Street", "5 W 42nd St"), then a unit if any (", apartment 4", " Apt. 4B",
// " #12"). The words are single-space separated, none a stopword, all
// capitalised or all lower case ("ran 5 miles along Ocean Drive" is none).
std::optional<StructuredMatch> match_street(const Reader& r, size_t at) {
  size_t i = at, n = 0;
  for (Unit u = r.at(i); is_digit(u.c) && n < 7; u = r.at(i)) i = u.next, ++n;
  if (n == 0 || n > 6) return std::nullopt;
  if (is_alpha(r.at(i).c) && !runs_on(r, r.at(i).next)) i = r.at(i).next;  // "12B"
  bool any_lower = false, any_upper = false;
  std::optional<StructuredMatch> found;  // the longest: "12 Elm Grove Avenue", not "12 Elm Grove"
  for (size_t words = 0; words < 4; ++words) {
    if (r.at(i).c != ' ') break;
    size_t w = r.at(i).next;
    const size_t word = w;
    const char first = r.at(w).c;
    if (!is_word(first)) break;
    for (Unit u = r.at(w); is_word(u.c) || u.c == '\''; u = r.at(w)) w = u.next;
    const std::string folded = unicode::fold(r.text().substr(word, w - word));
    // The words are all capitalised (or numbers: "42nd") or all lower case.
    const bool upper = is_digit(first) || case_shape(r.text().substr(word, w - word)) != CaseShape::kLower;
    const bool strong = listed(kStrongStreetTypes, folded);
    if (words > 0 && (strong || listed(kStreetTypes, folded)) && (strong || !any_lower)) {
      size_t end = w;
      // A unit: ", apartment 4", " Apt. 4B", " #12".
      size_t k = end;
      if (r.at(k).c == ',') k = r.at(k).next;
      if (r.at(k).c == ' ') {
        k = r.at(k).next;
        size_t word_end = k;
        for (Unit u = r.at(word_end); is_alpha(u.c); u = r.at(word_end)) word_end = u.next;
        const bool unit_word = word_end != k && listed(kUnitWords, letters(r, k, word_end));
        if (unit_word || r.at(k).c == '#') {
          k = unit_word ? word_end : r.at(k).next;
          if (unit_word && r.at(k).c == '.') k = r.at(k).next;
          if (unit_word && r.at(k).c == ' ') k = r.at(k).next;
          if (r.at(k).c == '#') k = r.at(k).next;
          size_t m = 0;
          for (Unit u = r.at(k); is_alnum(u.c) && m < 7; u = r.at(k)) k = u.next, ++m;
          if (m >= 1 && m <= 6 && !runs_on(r, k)) end = k;
        }
      }
      if (!runs_on(r, end)) found = StructuredMatch{end, DXT_TYPED_STREET};
    }
    if (words == 3 || is_stopword(folded) || folded.empty()) break;
    any_upper = any_upper || upper;
    any_lower = any_lower || !upper;
    if (any_upper && any_lower) break;
    i = w;
  }
  return found;
}

// Whether an e-mail address or URL may start at `at` (a letter): after the
// run of local-part characters, an '@' in one of its forms, a dot, a
// scheme's ':', or white space and then what may start an '@' or a dot
// ("@", ".", "(at)", "&#64;", "at", "dot"). Ordinary words fail here after
// one scan of the word.
bool may_start_address(const Reader& r, size_t at) {
  size_t i = at, n = 0;
  bool dot = false;
  Unit u = r.at(i);
  for (; n < 64 && (is_word(u.c) || u.c == '.' || u.c == '_' || u.c == '+' || u.c == '-'); u = r.at(i)) {
    dot = dot || u.c == '.';
    i = u.next, ++n;
  }
  if (dot || (u.c != kEnd && std::strchr("@&%([{<:", u.c) != nullptr)) return true;
  if (!is_space(u.c)) return false;
  r.gap(i, 3);
  const char d = r.at(i).c;
  return d == 'a' || d == 'A' || d == 'd' || d == 'D' || (d != kEnd && std::strchr("@.&%([{<", d) != nullptr);
}

}  // namespace

std::optional<StructuredMatch> match_structured(std::string_view text, size_t at) {
  if (at >= text.size()) return std::nullopt;
  const Reader r(text);
  const char before = r.before(at).c;
  if (is_word(before) || before == '_') return std::nullopt;
  const char c = r.raw(at).c;  // no match starts with a default-ignorable
  if (c == '@') return match_handle(r, at);
  if (is_alpha(c) || c == kWide) {
    if (!may_start_address(r, at)) return std::nullopt;
    if (auto m = match_email(r, at)) return m;
    return match_url(r, at);
  }
  if (c == '+' || c == '(') return match_phone(r, at);
  if (is_digit(c)) {
    if (auto m = match_email(r, at)) return m;
    if (auto m = match_street(r, at)) return m;
    if (auto m = match_phone(r, at)) return m;
    if (auto m = match_time(r, at)) return m;
    return match_number(r, at);
  }
  return std::nullopt;
}

}  // namespace dxt
