#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "mechanisms/mechanism.hpp"

namespace dxt {

// The set of letter bigrams of a UTF-8 word: each pair of consecutive code
// points packed as (first << 21) | second, sorted, without repeats. Empty for
// words of fewer than two code points. Invalid UTF-8 throws.
std::vector<uint64_t> letter_bigrams(std::string_view word);

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
// Weggenmann & Kerschbaum (Cor. 3.5) give a tighter bound that dxtext does
// not implement; src/accounting/syntf_loss.hpp computes the exact per-draw
// loss of a given vocabulary instead.
//
// The cosine is that of the dequantised rows, computed in double (a zero row
// has cosine 0 with everything). For Poincare models it is the cosine of the
// ball coordinates: the guarantee does not depend on what the rating means,
// only on its range.
//
// Sampling: Gumbel-max over the scores eps * rho / (2 Delta) with full-range
// uniforms, which draws exactly from the softmax. The vocabulary's bigram sets
// and inverse row norms are computed once per mechanism object, on first use.
class SyntfMechanism final : public Mechanism {
 public:
  SyntfMechanism(const Model& model, const MechanismParams& params);
  dxt_metric metric() const override { return DXT_METRIC_DISCRETE; }
  // nullopt: the fixed point that the generic calls use for every
  // out-of-vocabulary word (cosine 0, no bigrams: all ratings 0, uniform).
  uint32_t privatize(RandomStream& rng, std::optional<uint32_t> index) override;

  // `count` independent draws for one input whose scores are computed once:
  // a vocabulary word (index) or, without an index, the out-of-vocabulary
  // word `oov_word` rated by its own bigrams. Calls `emit` with each output.
  void privatize_repeated(RandomStream& rng, std::optional<uint32_t> index, std::string_view oov_word, uint64_t count,
                          const std::function<void(uint32_t)>& emit);

  // The exponents eps * rho(v, w) / (2 Delta) for every vocabulary word w.
  const std::vector<double>& scores(std::optional<uint32_t> index, std::string_view oov_word);

  double s() const { return params().syntf_s; }
  double range() const { return 2 + s(); }

 private:
  void prepare();
  uint32_t draw(RandomStream& rng) const;

  const Model& model_;
  std::unique_ptr<VocabularyBigrams> bigrams_;  // built on first use
  std::vector<double> inverse_norms_;           // 1/||phi(w)||, 0 for a zero row
  std::vector<float> row_;
  std::vector<double> input_;  // the input word's row
  std::vector<uint32_t> intersections_;
  std::vector<double> scores_;
};

}  // namespace dxt
