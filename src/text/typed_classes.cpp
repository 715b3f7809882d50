// SPDX-License-Identifier: Apache-2.0
#include "text/typed_classes.hpp"

#include <algorithm>
#include <array>

#include "errors/error.hpp"
#include "sampling/samplers.hpp"
#include "text/case_shape.hpp"
#include "text/clock_times.hpp"
#include "text/stopwords.hpp"
#include "unicode/fold.hpp"

namespace dxt {

namespace {

// Number words that are numbers in every use: zero to ninety, the
// magnitudes, and the ordinals from third.
constexpr std::string_view kNumberWords[] = {
    "zero",       "two",       "three",      "four",       "five",      "six",       "seven",       "eight",
    "nine",       "ten",       "eleven",     "twelve",     "thirteen",  "fourteen",  "fifteen",     "sixteen",
    "seventeen",  "eighteen",  "nineteen",   "twenty",     "thirty",    "forty",     "fifty",       "sixty",
    "seventy",    "eighty",    "ninety",     "hundred",    "thousand",  "million",   "billion",     "trillion",
    "third",      "fourth",    "fifth",      "sixth",      "seventh",   "eighth",    "ninth",       "tenth",
    "eleventh",   "twelfth",   "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth", "eighteenth",
    "nineteenth", "twentieth", "thirtieth",  "fortieth",   "fiftieth",  "sixtieth",  "seventieth",  "eightieth",
    "ninetieth",  "hundredth", "thousandth", "millionth"};

// Number words that are often no number ("one of them", "oh well", "at
// first", "a second"): numbers only beside another number (number_neighbour).
constexpr std::string_view kContextNumberWords[] = {"one", "oh", "first", "second"};

// After these a capitalised common word is a common noun ("the Union", "our
// Nation", "the President"), not a name.
constexpr std::array<std::string_view, 16> kDeterminers = {"the",   "a",     "an",    "our",  "this", "that",
                                                           "these", "those", "my",    "your", "his",  "her",
                                                           "its",   "their", "every", "each"};

constexpr std::array<std::string_view, 12> kPlaceCues = {
    "in", "to", "from", "at", "near", "visit", "visited", "visiting", "across", "around", "toward", "towards"};

// Classes in the order a word of several is taken as (names first; places
// first after a place cue).
constexpr dxt_typed_class kNameOrder[] = {DXT_TYPED_FIRST_NAME, DXT_TYPED_SURNAME, DXT_TYPED_CITY,
                                          DXT_TYPED_REGION,     DXT_TYPED_COUNTRY, DXT_TYPED_ORGANIZATION,
                                          DXT_TYPED_CONDITION,  DXT_TYPED_DRUG};
constexpr dxt_typed_class kPlaceOrder[] = {DXT_TYPED_CITY,       DXT_TYPED_REGION,  DXT_TYPED_COUNTRY,
                                           DXT_TYPED_FIRST_NAME, DXT_TYPED_SURNAME, DXT_TYPED_ORGANIZATION,
                                           DXT_TYPED_CONDITION,  DXT_TYPED_DRUG};

constexpr std::array<std::string_view, 7> kPersonTitles = {"mr", "mrs", "ms", "dr", "prof", "miss", "madam"};

// Closings of a letter: before a comma or a line break, the next word is the
// writer's name ("Best regards, pat", "Yours sincerely,\nOcie"). Not
// "thanks" or "cheers", which a comma follows in "Thanks, will do".
constexpr std::array<std::string_view, 6> kSignOffs = {"regards", "sincerely", "faithfully",
                                                       "truly",   "cordially", "wishes"};

// Greetings: as the first word of a sentence, a listed name or an unknown
// word after one is the addressee ("Hi BILL", "dear ocie"), not "Hi all",
// "Dear Sir" or "Hello World".
constexpr std::array<std::string_view, 4> kGreetings = {"hi", "hello", "hey", "dear"};

// Verbs of speech, and verbs whose subject is nearly always a person: a
// listed name first in its sentence before one is the subject ("Lane said",
// "Rose has diabetes", "Grace went home"), even a common word. Not "is" or
// "was" ("Hope is", "Art was").
constexpr std::string_view kSpeechVerbs[] = {
    "said",    "says",    "asked",   "asks",   "told",      "tells",     "wrote",  "writes", "replied", "replies",
    "called",  "calls",   "emailed", "texted", "mentioned", "explained", "added",  "thinks", "has",     "had",
    "hasn't",  "hadn't",  "went",    "goes",   "wants",     "wanted",    "needs",  "needed", "lives",   "lived",
    "works",   "worked",  "died",    "loves",  "loved",     "hates",     "feels",  "felt",   "knows",   "knew",
    "thought", "got",     "gets",    "came",   "comes",     "left",      "sent",   "gave",   "met",     "visited",
    "moved",   "started", "doesn't", "didn't", "can't",     "won't",     "isn't",  "wasn't", "suffers", "takes",
    "took",    "tried",   "stayed",  "slept",  "cried",     "laughed",   "smiled", "agreed", "admitted"};

// Closings that also start other sentences ("Thanks, will do", "Best of
// luck"): the writer's name after one stands alone on the next line, or is
// a listed name or an unknown word ending the line ("Thanks, Rose").
constexpr std::string_view kWeakSignOffs[] = {"thanks", "thx",     "cheers", "best", "love",  "xoxo", "xx",
                                              "warmly", "warmest", "bye",    "ta",   "later", "hugs"};

// Never typed: they are in the first-name lists ("May", "June", "August")
// but name a time far more often.
constexpr std::array<std::string_view, 19> kCalendarWords = {
    "january",  "february", "march",  "april",   "may",       "june",     "july",   "august",   "september", "october",
    "november", "december", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"};

bool ends_with_possessive(std::string_view w) {
  return (w.size() > 2 && w.substr(w.size() - 2) == "'s") ||
         (w.size() > 4 && w.substr(w.size() - 4) == "\xE2\x80\x99s");
}
// Letters, apostrophes and hyphens only (ASCII or not): no digits or symbols.
bool is_letters(std::string_view w) {
  for (char c : w)
    if ((c >= '0' && c <= '9') || c == '_' || c == '@') return false;
  return !w.empty();
}

size_t possessive_size(std::string_view w) { return w.substr(w.size() - 2) == "'s" ? 2 : 4; }

bool is_proper(dxt_typed_class c) { return c >= DXT_TYPED_FIRST_NAME && c <= DXT_TYPED_ORGANIZATION; }

// Title-case after every start of a word part: the start, '-', '.', and an
// apostrophe after one letter ("o'brien" -> "O'Brien", "sana'a" -> "Sana'a").
std::string proper_case(std::string_view lower) {
  std::string out;
  size_t part = 0;
  for (size_t i = 0; i <= lower.size(); ++i) {
    if (i == lower.size() || lower[i] == '-' || lower[i] == '.' || (lower[i] == '\'' && i - part == 1)) {
      out += apply_case_shape(lower.substr(part, i - part), CaseShape::kTitle);
      if (i < lower.size()) out += lower[i];
      part = i + 1;
    }
  }
  return out;
}

char digit(RandomStream& rng) { return static_cast<char>('0' + uniform_index(rng, 10)); }

std::string digits(RandomStream& rng, size_t n) {
  std::string s;
  for (size_t i = 0; i < n; ++i) s += digit(rng);
  return s;
}

// Every ASCII digit of `input` drawn anew; everything else kept.
std::string redraw_digits(std::string_view input, RandomStream& rng) {
  std::string s(input);
  for (char& c : s)
    if (c >= '0' && c <= '9') c = digit(rng);
  return s;
}

// The local part of a replaced e-mail address or handle: a first name and
// two digits when the model lists first names, else "user" and four digits.
std::string person_token(RandomStream& rng, const TypedLists* lists) {
  if (lists != nullptr && !lists->members[DXT_TYPED_FIRST_NAME].empty()) {
    const auto& m = lists->members[DXT_TYPED_FIRST_NAME];
    std::string name = m[uniform_index(rng, static_cast<uint32_t>(m.size()))].word;
    return name + digits(rng, 2);
  }
  return "user" + digits(rng, 4);
}

}  // namespace

dxt_typed_family typed_family(dxt_typed_class cls) {
  switch (cls) {
    case DXT_TYPED_FIRST_NAME:
    case DXT_TYPED_SURNAME: return DXT_FAMILY_NAMES;
    case DXT_TYPED_CITY:
    case DXT_TYPED_REGION:
    case DXT_TYPED_COUNTRY: return DXT_FAMILY_PLACES;
    case DXT_TYPED_ORGANIZATION: return DXT_FAMILY_ORGANIZATIONS;
    case DXT_TYPED_CONDITION:
    case DXT_TYPED_DRUG: return DXT_FAMILY_HEALTH;
    case DXT_TYPED_NUMBER:
    case DXT_TYPED_PHONE:
    case DXT_TYPED_MONTH:
    case DXT_TYPED_TIME: return DXT_FAMILY_NUMBERS;
    case DXT_TYPED_EMAIL:
    case DXT_TYPED_URL:
    case DXT_TYPED_HANDLE:
    case DXT_TYPED_STREET: return DXT_FAMILY_ADDRESSES;
    default: fail(DXT_E_INTERNAL, "no family for typed class " + std::to_string(cls));
  }
}

const char* typed_placeholder(dxt_typed_class cls) {
  switch (cls) {
    case DXT_TYPED_FIRST_NAME:
    case DXT_TYPED_SURNAME: return "[name]";
    case DXT_TYPED_CITY: return "[city]";
    case DXT_TYPED_REGION: return "[region]";
    case DXT_TYPED_COUNTRY: return "[country]";
    case DXT_TYPED_ORGANIZATION: return "[organization]";
    case DXT_TYPED_CONDITION: return "[condition]";
    case DXT_TYPED_DRUG: return "[drug]";
    case DXT_TYPED_NUMBER: return "[number]";
    case DXT_TYPED_PHONE: return "[phone]";
    case DXT_TYPED_EMAIL: return "[email]";
    case DXT_TYPED_URL: return "[url]";
    case DXT_TYPED_HANDLE: return "[handle]";
    case DXT_TYPED_STREET: return "[street]";
    case DXT_TYPED_MONTH: return "[month]";
    case DXT_TYPED_TIME: return "[time]";
    default: fail(DXT_E_INTERNAL, "no placeholder for typed class " + std::to_string(cls));
  }
}

const char* typed_class_name(dxt_typed_class cls) {
  switch (cls) {
    case DXT_TYPED_FIRST_NAME: return "first_name";
    case DXT_TYPED_SURNAME: return "surname";
    case DXT_TYPED_CITY: return "city";
    case DXT_TYPED_REGION: return "region";
    case DXT_TYPED_COUNTRY: return "country";
    case DXT_TYPED_ORGANIZATION: return "organization";
    case DXT_TYPED_CONDITION: return "condition";
    case DXT_TYPED_DRUG: return "drug";
    case DXT_TYPED_NUMBER: return "number";
    case DXT_TYPED_PHONE: return "phone";
    case DXT_TYPED_EMAIL: return "email";
    case DXT_TYPED_URL: return "url";
    case DXT_TYPED_HANDLE: return "handle";
    case DXT_TYPED_STREET: return "street";
    case DXT_TYPED_MONTH: return "month";
    case DXT_TYPED_TIME: return "time";
    default: return "none";
  }
}

bool is_person_title(std::string_view lower) {
  return std::find(kPersonTitles.begin(), kPersonTitles.end(), lower) != kPersonTitles.end();
}

constexpr std::array<std::string_view, 14> kOffices = {
    "president", "speaker", "chairman",   "chairwoman", "chair",      "secretary", "mayor",
    "governor",  "senator", "ambassador", "minister",   "chancellor", "justice",   "chief"};

bool is_office(std::string_view lower) { return std::find(kOffices.begin(), kOffices.end(), lower) != kOffices.end(); }

namespace {

// Ranks and the first words of place names: before a name they are not its
// first name ("Sergeant York", "North Dakota", "Saint Lucia").
constexpr std::array<std::string_view, 20> kBeforeNames = {
    "sergeant", "corporal", "private", "captain", "major", "general", "colonel", "lieutenant", "admiral", "officer",
    "north",    "south",    "east",    "west",    "new",   "saint",   "san",     "port",       "mount",   "lake"};

bool is_before_name(std::string_view lower) {
  return is_office(lower) || std::find(kBeforeNames.begin(), kBeforeNames.end(), lower) != kBeforeNames.end();
}

}  // namespace

bool is_determiner(std::string_view lower) {
  return std::find(kDeterminers.begin(), kDeterminers.end(), lower) != kDeterminers.end();
}

bool is_place_cue(std::string_view lower) {
  return std::find(kPlaceCues.begin(), kPlaceCues.end(), lower) != kPlaceCues.end();
}

bool is_strong_title(std::string_view title, bool period, bool sentence_start) {
  const std::string lower = unicode::fold(title);
  if (!is_person_title(lower)) return false;
  if (period) return true;
  const CaseShape shape = case_shape(title);
  if (lower == "miss" || lower == "madam") return shape == CaseShape::kTitle && !sentence_start;
  return shape != CaseShape::kLower;
}

bool is_sign_off(std::string_view lower) {
  return std::find(kSignOffs.begin(), kSignOffs.end(), lower) != kSignOffs.end();
}

bool is_greeting(std::string_view lower) {
  return std::find(kGreetings.begin(), kGreetings.end(), lower) != kGreetings.end();
}

bool is_speech_verb(std::string_view lower) {
  return std::find(std::begin(kSpeechVerbs), std::end(kSpeechVerbs), lower) != std::end(kSpeechVerbs);
}

bool is_weak_sign_off(std::string_view lower) {
  return std::find(std::begin(kWeakSignOffs), std::end(kWeakSignOffs), lower) != std::end(kWeakSignOffs);
}

bool is_number_word(std::string_view lower) {
  return std::find(std::begin(kNumberWords), std::end(kNumberWords), lower) != std::end(kNumberWords);
}

bool is_context_number_word(std::string_view lower) {
  return std::find(std::begin(kContextNumberWords), std::end(kContextNumberWords), lower) !=
         std::end(kContextNumberWords);
}

bool is_magnitude_word(std::string_view lower) {
  return lower == "hundred" || lower == "thousand" || lower == "million" || lower == "billion" || lower == "trillion";
}

bool is_month(std::string_view lower) {
  return std::find(kCalendarWords.begin(), kCalendarWords.begin() + 12, lower) != kCalendarWords.begin() + 12;
}

dxt_typed_class classify_typed(std::string_view word, const TypedContext& context, const TypedLists* lists) {
  if (context.structured != DXT_TYPED_NONE) return context.structured;
  if (context.is_number) return DXT_TYPED_NUMBER;
  std::string_view base = word;
  if (ends_with_possessive(base)) base.remove_suffix(possessive_size(base));
  const std::string lower = unicode::fold(base);
  if (is_stopword(lower)) return DXT_TYPED_NONE;
  if (is_number_word(lower) || (context.number_neighbour && is_context_number_word(lower))) return DXT_TYPED_NUMBER;
  // A month is part of a date; "may", "march" and "august" are also other
  // words, so they count only Title-case inside a sentence ("in May", not
  // "May I" nor "we may"), and not where the context makes a word a name
  // ("Best regards, May"). Days of the week are not typed.
  const bool name_place =
      context.after_sign_off || context.after_greeting || context.after_weak_sign_off || context.after_title;
  if (is_month(lower) && !name_place) {
    const bool ambiguous = lower == "may" || lower == "march" || lower == "august";
    const bool title = case_shape(base) == CaseShape::kTitle && !context.sentence_start;
    return !ambiguous || title ? DXT_TYPED_MONTH : DXT_TYPED_NONE;
  }
  if (std::find(kCalendarWords.begin(), kCalendarWords.end(), lower) != kCalendarWords.end()) return DXT_TYPED_NONE;
  if (lists == nullptr || context.in_identifier) return DXT_TYPED_NONE;
  const bool capitalised = case_shape(base) == CaseShape::kTitle;
  const auto it = lists->by_word.find(lower);
  // After a first name or a title: a capitalised word is a surname, listed
  // or not; a lower-case one if the model does not have it, or if it is a
  // listed surname that is not a common word.
  // ("Mr. President", "Madam Speaker": an office, not a surname.)
  const bool office = context.after_title && is_office(lower);
  const uint32_t classes = it == lists->by_word.end() ? 0 : it->second.classes;
  const bool listed_first = (classes & (1u << DXT_TYPED_FIRST_NAME)) != 0;
  const bool listed_surname = (classes & (1u << DXT_TYPED_SURNAME)) != 0;
  if ((context.previous == DXT_TYPED_FIRST_NAME || context.after_title) && !office &&
      !lists->members[DXT_TYPED_SURNAME].empty() && is_letters(base)) {
    // A listed surname not flagged common; a common one after a first name
    // when both are written lower case ("layne rice", not "the Brady bill"
    // nor "Sue tell me"). After a title written as one, any word ("Dr.
    // brown", not "I miss brown").
    const bool common_surname =
        it != lists->by_word.end() && (it->second.common_classes & (1u << DXT_TYPED_SURNAME)) != 0;
    const bool lower_pair =
        context.previous == DXT_TYPED_FIRST_NAME && context.previous_lower && case_shape(base) == CaseShape::kLower;
    const bool listed = listed_surname && (!common_surname || lower_pair);
    if (capitalised || !context.in_vocabulary || listed || context.after_strong_title) return DXT_TYPED_SURNAME;
  }
  if (is_letters(base) && !lists->members[DXT_TYPED_FIRST_NAME].empty()) {
    // The writer's name after a sign-off: any word. The addressee after a
    // greeting: a listed name or a word the model lacks. The speaker before
    // a speech verb: a listed name. A first name before a name: a listed
    // first name. A sentence's first word before a name, both Title-case: a
    // listed surname too (a surname written first, "Sun Li wrote back").
    const bool listed_name = listed_first || listed_surname;
    const bool surname_first = listed_surname && context.sentence_start && capitalised && context.before_name;
    const bool named =
        context.after_sign_off || (context.after_greeting && (listed_name || !context.in_vocabulary)) ||
        (context.after_weak_sign_off && (listed_name || !context.in_vocabulary)) ||
        (listed_name && context.sentence_start && context.before_speech_verb) ||
        (listed_first && context.sentence_start && base.size() != word.size() && capitalised) ||
        ((listed_first || surname_first) && context.before_name && !context.after_determiner && !is_before_name(lower));
    if (named) return listed_surname && !listed_first ? DXT_TYPED_SURNAME : DXT_TYPED_FIRST_NAME;
  }
  if (it == lists->by_word.end()) return DXT_TYPED_NONE;
  // A member that is also a common word counts only as a capitalised word
  // inside a sentence ("Bill", not "bill" nor a sentence's first "Will").
  const bool title = capitalised && !context.sentence_start && !context.after_determiner;
  const uint32_t usable = title ? it->second.classes : it->second.classes & ~it->second.common_classes;
  for (dxt_typed_class c : context.after_place_word ? kPlaceOrder : kNameOrder)
    if ((usable & (1u << c)) != 0) return c;
  return DXT_TYPED_NONE;
}

std::string typed_replacement(dxt_typed_class cls, std::string_view input, RandomStream& rng, const TypedLists* lists,
                              bool keep_number_shape) {
  switch (cls) {
    case DXT_TYPED_NUMBER: {
      const bool has_digit = std::any_of(input.begin(), input.end(), [](char c) { return c >= '0' && c <= '9'; });
      if (keep_number_shape && has_digit) return redraw_digits(input, rng);
      return std::to_string(uniform_index(rng, 100));
    }
    case DXT_TYPED_PHONE:
      if (keep_number_shape) return redraw_digits(input, rng);
      return digits(rng, 3) + "-" + digits(rng, 3) + "-" + digits(rng, 4);
    case DXT_TYPED_EMAIL: return person_token(rng, lists) + "@example.com";
    case DXT_TYPED_HANDLE: return "@" + person_token(rng, lists);
    case DXT_TYPED_URL: {
      static constexpr char kAlphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
      std::string path;
      for (int i = 0; i < 6; ++i) path += kAlphabet[uniform_index(rng, 36)];
      return "https://example.com/" + path;
    }
    case DXT_TYPED_MONTH: {
      static constexpr const char* kMonths[] = {"January", "February", "March",     "April",   "May",      "June",
                                                "July",    "August",   "September", "October", "November", "December"};
      return kMonths[uniform_index(rng, 12)];
    }
    case DXT_TYPED_TIME: return clock_time_replacement(clock_shape(input), rng);
    case DXT_TYPED_STREET: {
      // A house number 1..999, a street name and a type from fixed lists.
      static constexpr const char* kNames[] = {"Oak",    "Maple",   "Cedar", "Pine",  "Elm",   "Main",
                                               "Park",   "Lake",    "Hill",  "Mill",  "River", "Church",
                                               "Willow", "Station", "High",  "Forest"};
      static constexpr const char* kTypes[] = {"Street", "Road", "Avenue", "Lane", "Drive"};
      std::string out = std::to_string(1 + uniform_index(rng, 999)) + " ";
      out += kNames[uniform_index(rng, 16)];
      out += " ";
      out += kTypes[uniform_index(rng, 5)];
      return out;
    }
    default: break;
  }
  if (lists == nullptr || !is_list_class(cls) || lists->members[cls].empty())
    fail(DXT_E_INTERNAL, std::string("no members for typed class ") + typed_class_name(cls));
  const auto& members = lists->members[cls];
  const auto& pool = lists->replacements[cls];
  const std::string& w = pool.empty() ? members[uniform_index(rng, static_cast<uint32_t>(members.size()))].word
                                      : members[pool[uniform_index(rng, static_cast<uint32_t>(pool.size()))]].word;
  std::string out = is_proper(cls) ? proper_case(w) : w;
  if (ends_with_possessive(input)) out += input.substr(input.size() - possessive_size(input));
  return out;
}

}  // namespace dxt
