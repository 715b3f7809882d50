// SPDX-License-Identifier: Apache-2.0
// Post-processing of a release under the normalize shape (docs/guarantees.md,
// "Post-processing"): it reads only the released text, never the input, so
// it changes no guarantee (a function of a differentially private output is
// as private as the output). It writes what the released words alone decide:
// - "i", "i'm", "i'll", "i've", "i'd" as "I", "I'm", ...;
// - day names and month names that are nothing else ("friday", "january";
//   not "may", "march", "august") with a capital;
// - "a" or "an" by the sound of the next released word ("a idea" -> "an
//   idea", "an car" -> "a car", "an university" -> "a university");
// - a sentence's first word, when it is an object or reflexive pronoun right
//   before an auxiliary or modal verb, in its subject form ("Me would" ->
//   "I would", "Yourselves don't" -> "You don't").
// Each word's first letter is all it may change, "a"/"an" it may swap and a
// pronoun it may put in its subject form: no word is added, dropped or
// moved.
#pragma once

#include <string>
#include <string_view>

namespace dxt {

// `text`, a release written by the normalize shape (words one space apart,
// "." and "," right after a word), polished in place.
void polish_normalized(std::string& text);

// Whether "an" (rather than "a") goes before `word` (as written, any case).
bool takes_an(std::string_view word);

}  // namespace dxt
