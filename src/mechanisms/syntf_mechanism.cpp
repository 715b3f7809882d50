// SPDX-License-Identifier: Apache-2.0
#include "mechanisms/syntf_mechanism.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "errors/error.hpp"
#include "sampling/samplers.hpp"
#include "search/exact_scan.hpp"
#include "unicode/utf8.hpp"

namespace dxt {

void letter_bigrams(std::string_view word, std::vector<uint64_t>& out) {
  out.clear();
  size_t i = 0;
  uint32_t previous = utf8::kInvalid;
  while (i < word.size()) {
    const uint32_t cp = utf8::decode(word.data(), word.size(), i);
    if (cp == utf8::kInvalid) fail(DXT_E_INVALID_UTF8, "word is not valid UTF-8");
    if (previous != utf8::kInvalid) out.push_back(uint64_t{previous} << 21 | cp);
    previous = cp;
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
}

std::vector<uint64_t> letter_bigrams(std::string_view word) {
  std::vector<uint64_t> out;
  letter_bigrams(word, out);
  return out;
}

double dice(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b) {
  if (a.empty() || b.empty()) return 0;
  size_t i = 0, j = 0, common = 0;
  while (i < a.size() && j < b.size()) {
    if (a[i] < b[j]) {
      ++i;
    } else if (b[j] < a[i]) {
      ++j;
    } else {
      ++common, ++i, ++j;
    }
  }
  return 2.0 * static_cast<double>(common) / static_cast<double>(a.size() + b.size());
}

VocabularyBigrams::VocabularyBigrams(const Model& model) {
  const uint32_t V = model.vocabulary_size();
  set_sizes_.resize(V);
  word_offsets_.reserve(uint64_t{V} + 1);
  word_offsets_.push_back(0);
  std::vector<std::pair<uint64_t, uint32_t>> pairs;  // (bigram, word)
  for (uint32_t w = 0; w < V; ++w) {
    const std::vector<uint64_t> set = letter_bigrams(model.word(w));
    set_sizes_[w] = static_cast<uint32_t>(set.size());
    word_bigrams_.insert(word_bigrams_.end(), set.begin(), set.end());
    word_offsets_.push_back(word_bigrams_.size());
    for (uint64_t b : set) pairs.emplace_back(b, w);
  }
  std::sort(pairs.begin(), pairs.end());
  postings_.reserve(pairs.size());
  for (size_t k = 0; k < pairs.size(); ++k) {
    if (k == 0 || pairs[k].first != pairs[k - 1].first) {
      keys_.push_back(pairs[k].first);
      key_offsets_.push_back(k);
    }
    postings_.push_back(pairs[k].second);
  }
  key_offsets_.push_back(pairs.size());
}

const std::vector<uint64_t>& VocabularyBigrams::bigrams_of(uint32_t word, std::vector<uint64_t>& scratch) const {
  scratch.assign(word_bigrams_.begin() + static_cast<std::ptrdiff_t>(word_offsets_[word]),
                 word_bigrams_.begin() + static_cast<std::ptrdiff_t>(word_offsets_[word + 1]));
  return scratch;
}

void VocabularyBigrams::intersections(const std::vector<uint64_t>& query, std::vector<uint32_t>& counts) const {
  counts.assign(set_sizes_.size(), 0);
  for (uint64_t b : query) {
    const auto it = std::lower_bound(keys_.begin(), keys_.end(), b);
    if (it == keys_.end() || *it != b) continue;
    const auto k = static_cast<size_t>(it - keys_.begin());
    for (uint64_t p = key_offsets_[k]; p < key_offsets_[k + 1]; ++p) ++counts[postings_[p]];
  }
}

SyntfMechanism::SyntfMechanism(const Model& model, const MechanismParams& params)
    : Mechanism(params),
      model_(model),
      selector_(model, CandidateOrder::kCosine, params.candidate_list_size, params.candidate_cache_entries,
                params.output.get()),
      point_(model.dimension()) {
  if (!std::isfinite(params.syntf_s) || params.syntf_s < 0)
    fail(DXT_E_INVALID_ARGUMENT,
         "syntf needs a finite weight s >= 0 for the bigram term (got " + std::to_string(params.syntf_s) + ")");
  no_cosine_.rest_bound = 0;
}

size_t SyntfMechanism::cache_bytes() const { return selector_.heap_bytes(); }

void SyntfMechanism::load_input(std::optional<uint32_t> index, std::string_view oov_word) {
  point_norm2_ = selector_.load_point(index, point_.data());
  letter_bigrams(index ? model_.word(*index) : oov_word, query_);
}

double SyntfMechanism::score_of(uint32_t w) {
  const double cosine = selector_.scanner().exact(point_.data(), point_norm2_, w);
  // The rated word's bigrams are taken from its spelling each time: a few
  // words per draw, cheaper than holding the sets of the whole vocabulary.
  letter_bigrams(model_.word(w), other_);
  const double b = dice(query_, other_);
  return epsilon() / (2 * range()) * (cosine - s() * b);
}

const std::vector<double>& SyntfMechanism::scores(std::optional<uint32_t> index, std::string_view oov_word) {
  load_input(index, oov_word);
  scores_.resize(model_.vocabulary_size());
  for (uint32_t w = 0; w < scores_.size(); ++w) scores_[w] = score_of(w);
  return scores_;
}

uint32_t SyntfMechanism::draw(RandomStream& rng, const CandidateList& list) {
  // rho <= cos, since s >= 0 and B >= 0: the list's cosine bounds bound the
  // scores (a bound of 0 for inputs without a cosine).
  const double scale = epsilon() / (2 * range());
  return selector_.race(
      rng, list, [scale](double cosine) { return scale * cosine; }, [this](uint32_t w) { return score_of(w); });
}

uint32_t SyntfMechanism::privatize(RandomStream& rng, std::optional<uint32_t> index) {
  return selector_.select(index, [&](const CandidateList& list, std::optional<uint32_t> i) {
    load_input(i, {});
    return draw(rng, list);
  });
}

void SyntfMechanism::privatize_batch(RandomStream& rng, const std::optional<uint32_t>* indices, size_t count,
                                     uint32_t* out) {
  selector_.select_batch(indices, count, out, [&](const CandidateList& list, std::optional<uint32_t> i) {
    load_input(i, {});
    return draw(rng, list);
  });
}

void SyntfMechanism::privatize_repeated(RandomStream& rng, std::optional<uint32_t> index, std::string_view oov_word,
                                        uint64_t count, const std::function<void(uint32_t)>& emit) {
  if (count == 0) return;
  const CandidateList& list = index ? selector_.list_for(index) : no_cosine_;
  load_input(index, oov_word);
  for (uint64_t k = 0; k < count; ++k) emit(draw(rng, list));
}

}  // namespace dxt
