// SPDX-License-Identifier: Apache-2.0
#include "text/stopwords.hpp"

#include <algorithm>
#include <iterator>
#include <vector>

namespace dxt {

namespace {
// Function words (articles, pronouns, auxiliaries, prepositions,
// conjunctions), sorted for binary search.
constexpr std::string_view kStopwords[] = {
    "a",       "about",  "above", "after",      "again",    "against",    "all",     "am",        "an",    "and",
    "any",     "are",    "as",    "at",         "be",       "because",    "been",    "before",    "being", "below",
    "between", "both",   "but",   "by",         "can",      "could",      "did",     "do",        "does",  "doing",
    "down",    "during", "each",  "few",        "for",      "from",       "further", "had",       "has",   "have",
    "having",  "he",     "her",   "here",       "hers",     "herself",    "him",     "himself",   "his",   "how",
    "i",       "if",     "in",    "into",       "is",       "it",         "its",     "itself",    "just",  "me",
    "more",    "most",   "my",    "myself",     "no",       "nor",        "not",     "now",       "of",    "off",
    "on",      "once",   "only",  "or",         "other",    "our",        "ours",    "ourselves", "out",   "over",
    "own",     "same",   "she",   "should",     "so",       "some",       "such",    "than",      "that",  "the",
    "their",   "theirs", "them",  "themselves", "then",     "there",      "these",   "they",      "this",  "those",
    "through", "to",     "too",   "under",      "until",    "up",         "very",    "was",       "we",    "were",
    "what",    "when",   "where", "which",      "while",    "who",        "whom",    "why",       "will",  "with",
    "would",   "you",    "your",  "yours",      "yourself", "yourselves", "shall"};
}  // namespace

bool is_stopword(std::string_view lower) {
  static const auto sorted = [] {
    std::vector<std::string_view> s(std::begin(kStopwords), std::end(kStopwords));
    std::sort(s.begin(), s.end());
    return s;
  }();
  return std::binary_search(sorted.begin(), sorted.end(), lower);
}

}  // namespace dxt
