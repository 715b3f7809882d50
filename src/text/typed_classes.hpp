// SPDX-License-Identifier: Apache-2.0
// Typed classes (DESIGN.md §6; docs/guarantees.md, "Typed replacement"):
// which class a token belongs to, and what replaces it. A replacement is a
// member of the token's class drawn uniformly with the context's generator,
// so every member of a class gives the same output distribution and the
// release shows only the class; or the class's placeholder.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "dxtext/dxtext.h"
#include "model/typed_lists.hpp"
#include "rng/random_stream.hpp"

namespace dxt {

// The family whose policy applies to a class.
dxt_typed_family typed_family(dxt_typed_class cls);

// "[name]", "[city]", "[number]", ... (fixed strings: they reveal the class).
const char* typed_placeholder(dxt_typed_class cls);

// "first_name", "city", ... for records and reports.
const char* typed_class_name(dxt_typed_class cls);

// What the classifier knows of a token's place in the text.
struct TypedContext {
  dxt_typed_class structured = DXT_TYPED_NONE;  // from the tokenizer
  bool is_number = false;                       // a number token
  bool sentence_start = false;                  // the first word of a sentence
  bool after_place_word = false;                // after "in", "to", "from", "at", ...
  bool after_title = false;                     // after "Mr", "Mrs", "Ms", "Dr", "Prof", "Miss" (only spaces or
                                                // a full stop between)
  bool after_strong_title = false;              // after a title written as one: "Dr.", "Mr", "MRS" (see below)
  bool after_sign_off = false;                  // after "regards", "sincerely", ... and a comma or line break,
                                                // with at most two words after it on its line
  bool after_greeting = false;                  // after a sentence's first word "hi", "hello", "hey", "dear"
  bool before_speech_verb = false;              // the next word, after only spaces, is "said", "asked", ...
  bool before_name = false;                     // the next word, after only spaces, was found a name, and is
                                                // written lower case if and only if this one is
  dxt_typed_class previous = DXT_TYPED_NONE;    // the class of the word before, if only a space is between
  bool previous_lower = false;                  // the word before is written lower case
  bool in_vocabulary = true;                    // the model has the word
  bool after_determiner = false;                // after "the", "our", "this", ...
  bool after_weak_sign_off = false;             // after "thanks", "thank you", "cheers", "best", ... and a comma
                                                // or line break, and last on its line
  bool number_neighbour = false;                // beside a number (digits or a number word) with only spaces,
                                                // hyphens or commas between; an ordinal beside a month
  bool in_identifier = false;                   // part of words joined by - _ / or . with no space, one of them
                                                // lower case ("hash-max-ziplist", "cl-alexandria",
                                                // "python-django"): an identifier, not a name or a place
};

// "the", "a", "our", "this", ... (lower case): a capitalised common word
// after one is a common noun.
bool is_determiner(std::string_view lower);

// "mr", "mrs", "ms", "dr", "prof", "miss", "madam" (lower case).
bool is_person_title(std::string_view lower);

// The words after which a name that is also a place is taken as the place.
bool is_place_cue(std::string_view lower);

// Whether a title (is_person_title) is written as one, so that the word after
// it is a name whatever its case: "mr", "mrs", "ms", "dr", "prof" followed by
// a full stop or not written lower case ("Dr. brown", "Mr Ward", "DR
// BELL"); "miss", "madam" followed by a full stop, or Title-case and not the
// first word of a sentence ("I met Miss Lane", not "Miss you" nor "I miss
// home"). `title` as written, `period` whether a full stop follows it.
bool is_strong_title(std::string_view title, bool period, bool sentence_start);

// "regards", "sincerely", "faithfully", "truly", "cordially", "wishes" (lower
// case): before a comma or a line break, a word after one among the last
// three of its line is a name.
bool is_sign_off(std::string_view lower);

// "hi", "hello", "hey", "dear" (lower case): as a sentence's first word, a
// listed name or a word the model lacks after one is a name.
bool is_greeting(std::string_view lower);

// "said", "says", "asked", "told", "wrote", "replied", "called", and verbs
// whose subject is nearly always a person ("has", "went", "lives", "died",
// ...; not "is", "was") (lower case): a listed name first in its sentence
// before one is a name.
bool is_speech_verb(std::string_view lower);

// "thanks", "cheers", "best", "love", "xoxo", ... (lower case): closings
// that also open other sentences (kWeakSignOffs).
bool is_weak_sign_off(std::string_view lower);

// "zero" to "ninety", "hundred", "thousand", "million", "billion",
// "trillion", and the ordinals from "third" to "ninetieth", "hundredth",
// ... (lower case): numbers wherever they stand.
bool is_number_word(std::string_view lower);

// "one", "oh", "first", "second" (lower case): numbers only beside another
// number ("five one two", "twenty-one", "one hundred", "a hundred and
// one", "the first of May").
bool is_context_number_word(std::string_view lower);

// "hundred", "thousand", "million", "billion", "trillion" (lower case).
bool is_magnitude_word(std::string_view lower);

// "january" to "december" (lower case).
bool is_month(std::string_view lower);

// The class of `word` (DXT_TYPED_NONE: none). Names, places, organisations
// and health terms come from `lists` (may be nullptr): a member is found in
// any case ("tom", "Chicago", "PARIS"); a member flagged as a common English
// word ("will", "bill", "may") only when Title-case, not the first word of
// a sentence and not after a determiner ("the Union", "our Nation"), or
// where the context says it is a name (below). A Title-case word right after
// a first name or a person's title ("Sarah Whitfield", "Dr. Okafor") is a
// surname, listed or not; so is a lower-case one there that the model does
// not have or that is a listed surname not flagged common ("sarah
// whitfield", "tom smith"), or flagged common after a lower-case first name
// ("layne rice"; not "the Brady bill"); after a title written as one
// (is_strong_title) any word is ("Dr. brown"), but an office ("Mr.
// Speaker"). Context that makes a word a name, whatever its case and
// common-word flag:
// - after a sign-off ("Best regards, pat"): any word; a listed first name,
//   or a word in no name list, is a first name, a listed surname a surname;
// - after a greeting ("Hi BILL", "dear ocie"): a listed name, or a word the
//   model does not have;
// - after a weak sign-off ("Thanks,\nRose"; TypedContext::after_weak_sign_off):
//   a listed name, or a word the model does not have;
// - first in a sentence before a speech verb or a verb of a person ("Lane
//   said", "Rose has diabetes", "toy said"): a listed first name or surname;
// - first in a sentence, Title-case, with a possessive "'s" ("Rose's
//   test"): a listed first name;
// - before a word found a name written in the same case, but after a
//   determiner ("Grace Kelly", "sandy smith"; not "little Jimmy" nor "the
//   Brady bill"): a listed first name that is not a rank or the first word
//   of a place's name ("Sergeant", "North").
// A possessive "'s" is looked through. Number words (is_number_word) are
// numbers, and "one", "oh", "first", "second" beside a number
// (TypedContext::number_neighbour). Month names are months ("may", "march",
// "august" only Title-case inside a sentence). Stopwords and days of the week
// are never typed, and no word of an identifier (TypedContext::in_identifier)
// is a name, place, organisation or health term.
dxt_typed_class classify_typed(std::string_view word, const TypedContext& context, const TypedLists* lists);

// A member of class `cls` drawn uniformly (docs/guarantees.md lists each
// class's members): list classes from `lists`, written Title-case for names,
// places and organisations and lower case for health terms; numbers,
// phones, e-mail addresses, URLs and handles from fixed public patterns,
// months from the twelve month names, times as a uniform time of day in
// `input`'s shape (text/clock_times.hpp: 12- or 24-hour, precision, am/pm
// spelling) (`keep_number_shape` keeps a number's or phone's shape and draws
// its digits). A possessive "'s" on `input` is kept.
std::string typed_replacement(dxt_typed_class cls, std::string_view input, RandomStream& rng, const TypedLists* lists,
                              bool keep_number_shape);

}  // namespace dxt
