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

std::vector<uint64_t> letter_bigrams(std::string_view word) {
  std::vector<uint64_t> out;
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
    : Mechanism(params), model_(model), row_(model.dimension()), input_(model.dimension()) {
  if (!std::isfinite(params.syntf_s) || params.syntf_s < 0)
    fail(DXT_E_INVALID_ARGUMENT,
         "syntf needs a finite weight s >= 0 for the bigram term (got " + std::to_string(params.syntf_s) + ")");
}

void SyntfMechanism::prepare() {
  if (bigrams_) return;
  const uint32_t V = model_.vocabulary_size();
  const uint32_t D = model_.dimension();
  inverse_norms_.resize(V);
  for (uint32_t w = 0; w < V; ++w) {
    model_.row(w, row_.data());
    double n2 = 0;
    for (uint32_t i = 0; i < D; ++i) n2 += double{row_[i]} * row_[i];
    inverse_norms_[w] = n2 > 0 ? 1 / std::sqrt(n2) : 0;
  }
  scores_.resize(V);
  bigrams_ = std::make_unique<VocabularyBigrams>(model_);
}

const std::vector<double>& SyntfMechanism::scores(std::optional<uint32_t> index, std::string_view oov_word) {
  prepare();
  const uint32_t V = model_.vocabulary_size();
  std::vector<uint64_t> query;
  double input_inverse_norm = 0;  // 0: cosine 0 with every word
  if (index) {
    model_.row(*index, row_.data());
    std::copy(row_.begin(), row_.end(), input_.begin());
    input_inverse_norm = inverse_norms_[*index];
    bigrams_->bigrams_of(*index, query);
    dots_from(model_, input_.data(), scores_.data());  // the dot products, made scores below
  } else {
    query = letter_bigrams(oov_word);
  }
  bigrams_->intersections(query, intersections_);
  const double scale = epsilon() / (2 * range());
  const double q = static_cast<double>(query.size());
  for (uint32_t w = 0; w < V; ++w) {
    double cosine = 0;
    if (input_inverse_norm > 0 && inverse_norms_[w] > 0)
      cosine = std::clamp(scores_[w] * input_inverse_norm * inverse_norms_[w], -1.0, 1.0);
    const double sizes = q + bigrams_->size_of(w);
    const double b = intersections_[w] == 0 ? 0 : 2.0 * intersections_[w] / sizes;
    scores_[w] = scale * (cosine - s() * b);
  }
  return scores_;
}

uint32_t SyntfMechanism::draw(RandomStream& rng) const {
  uint32_t best = 0;
  double best_score = -std::numeric_limits<double>::infinity();
  for (uint32_t w = 0; w < scores_.size(); ++w) {
    const double score = scores_[w] + sample_gumbel(rng);
    if (score > best_score) best_score = score, best = w;
  }
  return best;
}

uint32_t SyntfMechanism::privatize(RandomStream& rng, std::optional<uint32_t> index) {
  scores(index, std::string_view());
  return draw(rng);
}

void SyntfMechanism::privatize_repeated(RandomStream& rng, std::optional<uint32_t> index, std::string_view oov_word,
                                        uint64_t count, const std::function<void(uint32_t)>& emit) {
  if (count == 0) return;
  scores(index, oov_word);
  for (uint64_t k = 0; k < count; ++k) emit(draw(rng));
}

}  // namespace dxt
