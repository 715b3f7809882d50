// SPDX-License-Identifier: Apache-2.0
#include "text/polish.hpp"

#include <algorithm>
#include <cstring>
#include <string_view>
#include <utility>
#include <vector>

namespace dxt {

namespace {

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }
char upper(char c) { return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c; }

std::string lowered(std::string_view w) {
  std::string s(w);
  for (char& c : s) c = lower(c);
  return s;
}

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && s.compare(0, prefix.size(), prefix) == 0;
}

// Day and month names that are no other English word (may, march, august
// are). No word polished is longer than kLongest bytes.
constexpr std::string_view kCalendar[] = {"monday",     "tuesday",   "wednesday", "thursday",  "friday",  "saturday",
                                          "sunday",     "january",   "february",  "april",     "june",    "july",
                                          "september",  "october",   "november",  "december",  "mondays", "tuesdays",
                                          "wednesdays", "thursdays", "fridays",   "saturdays", "sundays"};
constexpr size_t kLongest = 10;  // also the longest pronoun (themselves)

bool is_calendar_name(std::string_view lower_word) {
  return std::find(std::begin(kCalendar), std::end(kCalendar), lower_word) != std::end(kCalendar);
}

bool is_first_person(std::string_view lower_word) {
  return lower_word == "i" || lower_word == "i'm" || lower_word == "i'll" || lower_word == "i've" ||
         lower_word == "i'd";
}

// The subject form of an object or reflexive pronoun, or "".
std::string_view subject_form(std::string_view lower_word) {
  static constexpr std::pair<std::string_view, std::string_view> kForms[] = {
      {"me", "i"},         {"myself", "i"},       {"him", "he"},       {"himself", "he"}, {"her", "she"},
      {"herself", "she"},  {"us", "we"},          {"ourselves", "we"}, {"them", "they"},  {"themselves", "they"},
      {"yourself", "you"}, {"yourselves", "you"}, {"itself", "it"}};
  for (const auto& [object, subject] : kForms)
    if (lower_word == object) return subject;
  return {};
}

// Verbs that take a subject right before them at the start of a sentence:
// auxiliaries, modals and their negations ("Me would", "Them don't").
bool is_finite_verb(std::string_view lower_word) {
  static constexpr std::string_view kVerbs[] = {
      "am",       "are",       "is",    "was",     "were",   "have",    "has",      "had",    "do",
      "does",     "did",       "will",  "would",   "shall",  "should",  "can",      "could",  "may",
      "might",    "must",      "don't", "doesn't", "didn't", "won't",   "wouldn't", "can't",  "cannot",
      "couldn't", "shouldn't", "isn't", "aren't",  "wasn't", "weren't", "haven't",  "hasn't", "hadn't"};
  return std::find(std::begin(kVerbs), std::end(kVerbs), lower_word) != std::end(kVerbs);
}

// A word of the release: [begin, end) in the text, letters, digits and
// what else a released word holds, without a trailing "." or ",".
struct Span {
  size_t begin, end;
};

std::vector<Span> words_of(const std::string& text) {
  std::vector<Span> out;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && text[i] == ' ') ++i;
    size_t j = i;
    while (j < text.size() && text[j] != ' ') ++j;
    size_t end = j;
    while (end > i && (text[end - 1] == '.' || text[end - 1] == ',')) --end;
    if (end > i) out.push_back({i, end});
    i = j;
  }
  return out;
}

}  // namespace

bool takes_an(std::string_view word) {
  const std::string w = lowered(word);
  if (w.empty()) return false;
  if (w[0] >= '0' && w[0] <= '9') {
    // "an 8", "an 80", "an 11", "an 18": the digits' sound.
    size_t n = 0;
    while (n < w.size() && w[n] >= '0' && w[n] <= '9') ++n;
    const std::string_view digits(w.data(), n);
    return digits[0] == '8' || digits == "11" || digits == "18";
  }
  // Silent h, and vowels that sound as a consonant.
  for (std::string_view p : {"hour", "honest", "honor", "honour", "heir"})
    if (starts_with(w, p)) return true;
  for (std::string_view p :
       {"uni", "use", "usu", "uti", "ura", "ure", "uro", "eu", "ewe", "one", "once", "ubiq", "uganda", "ukr", "ufo"})
    if (starts_with(w, p)) return false;
  return std::strchr("aeiou", w[0]) != nullptr;
}

void polish_normalized(std::string& text) {
  const std::vector<Span> words = words_of(text);
  // Swapping "a" and "an" changes lengths: rebuild the text.
  std::string out;
  out.reserve(text.size() + 8);
  size_t copied = 0;
  for (size_t k = 0; k < words.size(); ++k) {
    const Span s = words[k];
    if (s.end - s.begin > kLongest) continue;  // copied with what follows
    std::string w = text.substr(s.begin, s.end - s.begin);
    const std::string l = lowered(w);
    // First in its sentence (the text's first word, or after a full stop)
    // and right before a verb: a pronoun takes its subject form ("Me would"
    // -> "I would", "Yourselves don't" -> "You don't").
    const bool sentence_start = k == 0 || (words[k - 1].end < text.size() && text[words[k - 1].end] == '.');
    const bool before_verb = k + 1 < words.size() && s.end == words[k + 1].begin - 1 &&
                             is_finite_verb(lowered(std::string_view(text).substr(
                                 words[k + 1].begin, words[k + 1].end - words[k + 1].begin)));
    const std::string_view subject = sentence_start && before_verb ? subject_form(l) : std::string_view();
    if (!subject.empty()) {
      const bool capital = w[0] >= 'A' && w[0] <= 'Z';
      w = subject;
      if (capital || subject == "i") w[0] = upper(w[0]);
    } else if (is_first_person(l) || is_calendar_name(l)) {
      w[0] = upper(w[0]);
    } else if ((l == "a" || l == "an") && k + 1 < words.size() && s.end == words[k + 1].begin - 1) {
      // Only when one space, no mark, separates it from the next word.
      const bool an =
          takes_an(std::string_view(text).substr(words[k + 1].begin, words[k + 1].end - words[k + 1].begin));
      const bool capital = w[0] == 'A';
      w = an ? "an" : "a";
      if (capital) w[0] = 'A';
    }
    out.append(text, copied, s.begin - copied);
    out += w;
    copied = s.end;
  }
  out.append(text, copied, std::string::npos);
  text = std::move(out);
}

}  // namespace dxt
