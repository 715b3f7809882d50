// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "mechanisms/candidate_selector.hpp"
#include "mechanisms/mechanism.hpp"

namespace dxt {

// The set of letter bigrams of a UTF-8 word: each pair of consecutive code
// points packed as (first << 21) | second, sorted, without repeats. Empty for
// words of fewer than two code points. Invalid UTF-8 throws.
std::vector<uint64_t> letter_bigrams(std::string_view word);
// The same into `out` (cleared first), reusing its storage.
void letter_bigrams(std::string_view word, std::vector<uint64_t>& out);

// Dice coefficient 2|a n b| / (|a| + |b|) of two sorted sets; 0 if either is
// empty.
double dice(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b);

// The bigram sets of a whole vocabulary with an inverted index, so that the
// intersections of one word with every word cost only the postings of its own
// bigrams.
class VocabularyBigrams {
 public:
  explicit VocabularyBigrams(const Model& model);
  uint32_t size_of(uint32_t word) const { return set_sizes_[word]; }
  // counts[w] = |bigrams(query) n bigrams(w)| for every word w; `query` is a
  // sorted set. `counts` is resized to the vocabulary and overwritten.
  void intersections(const std::vector<uint64_t>& query, std::vector<uint32_t>& counts) const;
  const std::vector<uint64_t>& bigrams_of(uint32_t word, std::vector<uint64_t>& scratch) const;

 private:
  std::vector<uint32_t> set_sizes_;
  std::vector<uint64_t> word_offsets_;  // V + 1, into word_bigrams_
  std::vector<uint64_t> word_bigrams_;
  std::vector<uint64_t> keys_;         // distinct bigrams, sorted
  std::vector<uint64_t> key_offsets_;  // keys_.size() + 1, into postings_
  std::vector<uint32_t> postings_;     // word indices, ascending per key
};

// The per-word mechanism of SynTF (Weggenmann & Kerschbaum, "SynTF:
// Synthetic and Differentially Private Term Frequency Vectors for Privacy-
// Preserving Text Mining", SIGIR 2018): the exponential mechanism over the
// whole vocabulary with the rating
//
//   rho(v, w) = cos(phi(v), phi(w)) - s * B(v, w),
//
// where B is the Dice coefficient 2|A n B| / (|A| + |B|) of the two words'
// sets of letter bigrams (pairs of consecutive Unicode code points; 0 when
// either set is empty), and
//
//   Pr[w | v] ∝ exp(eps * rho(v, w) / (2 Delta)),  Delta = 2 + s.
//
// Guarantee: eps-DP per word with every two words adjacent (the metric
// DXT_METRIC_DISCRETE). Whatever v is, rho(v, .) lies in [-1 - s, 1], a range
// of Delta = 2 + s, so changing v moves every exponent by at most eps/2 and
// the normaliser by at most a factor e^(eps/2): McSherry & Talwar (2007,
// Thm. 6) with sensitivity Delta. This holds for any input at all, including
// an out-of-vocabulary word, which is rated with cosine 0 against every word
// and its actual bigrams. A synthetic bag of n_out independent draws
// (dxt_syntf) is therefore (eps * n_out)-DP with all documents adjacent.
// A tighter per-draw bound from the vocabulary size V, eps + ln eta(eps, V)
// (the form of Weggenmann & Kerschbaum's Cor. 3.5), is derived in
// docs/guarantees.md, computed by syntf_vocabulary_bound and given in release
// records; src/accounting/syntf_loss.hpp also computes the exact per-draw
// loss of a given vocabulary, offline.
//
// The cosine is that of the dequantised rows, computed in double (a zero row
// has cosine 0 with everything). For Poincare models it is the cosine of the
// ball coordinates: the guarantee does not depend on what the rating means,
// only on its range.
//
// Sampling: Gumbel-max over the scores eps * rho / (2 Delta), which draws
// exactly from the softmax, by the lazy race of candidate_selector.hpp: the
// words of highest cosine from a cached candidate list, then the rest of the
// vocabulary under the bound eps * cos / (2 Delta) (the bigram term only
// lowers a score). An input without a cosine (the out-of-vocabulary fixed
// point, an out-of-vocabulary word rated by its bigrams, a zero row) has an
// empty list and the bound 0 for every word. A rated word's bigram set is
// computed from its spelling when the race needs its score.
class SyntfMechanism final : public Mechanism {
 public:
  SyntfMechanism(const Model& model, const MechanismParams& params);
  dxt_metric metric() const override { return DXT_METRIC_DISCRETE; }
  // nullopt: the fixed point that the generic calls use for every
  // out-of-vocabulary word (cosine 0, no bigrams: all ratings 0, uniform).
  uint32_t privatize(RandomStream& rng, std::optional<uint32_t> index) override;
  void privatize_batch(RandomStream& rng, const std::optional<uint32_t>* indices, size_t count, uint32_t* out) override;
  size_t cache_bytes() const override;

  // `count` independent draws for one input: a vocabulary word (index) or,
  // without an index, the out-of-vocabulary word `oov_word` rated by its own
  // bigrams. Calls `emit` with each output.
  void privatize_repeated(RandomStream& rng, std::optional<uint32_t> index, std::string_view oov_word, uint64_t count,
                          const std::function<void(uint32_t)>& emit);

  // The exponents eps * rho(v, w) / (2 Delta) for every vocabulary word w,
  // as the draws use them (O(V D): for tests and audits).
  const std::vector<double>& scores(std::optional<uint32_t> index, std::string_view oov_word);

  double s() const { return params().syntf_s; }
  double range() const { return 2 + s(); }

 private:
  // Makes the input of the next draws current: its point (the origin
  // without an index) and its bigram set.
  void load_input(std::optional<uint32_t> index, std::string_view oov_word);
  double score_of(uint32_t w);  // of the current input
  uint32_t draw(RandomStream& rng, const CandidateList& list);

  const Model& model_;
  CandidateSelector selector_;
  CandidateList no_cosine_;  // empty, bound 0: inputs whose cosines are all 0
  std::vector<double> point_;
  double point_norm2_ = 0;
  std::vector<uint64_t> query_, other_;  // bigram sets of the input and of a rated word
  std::vector<double> scores_;
};

}  // namespace dxt
