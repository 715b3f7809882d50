// SPDX-License-Identifier: Apache-2.0
// What exponential, tem and syntf share: for each input word a candidate
// list (search/candidate_lists.hpp), built on first use (one pass over the
// matrix, or one pass per 256 words of a batch) and kept in a bounded cache,
// and the lazy Gumbel race (sampling/gumbel_race.hpp) that draws exactly
//
//   Pr[o | w] ∝ exp(score(w, o))   over every vocabulary word o
//
// from the list: one group per group of the list, with the mechanism's
// bound on the scores of its members, then one group for all other words
// (drawn uniformly, without replacement, from the vocabulary minus the
// list). The mechanism supplies the bound (a monotone function of the
// list's distance or cosine bound) and the exact score of a word.
//
// With an output vocabulary S (mechanisms/output_set.hpp) the race is over
// the words of S only: lists are built over S's rows, and the rest is drawn
// uniformly from S minus the list instead of [0, V) minus the list; the
// race and its argument are unchanged (docs/guarantees.md, "Output
// vocabularies").
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "mechanisms/candidate_cache.hpp"
#include "mechanisms/output_set.hpp"
#include "model/model.hpp"
#include "rng/random_stream.hpp"
#include "sampling/gumbel_race.hpp"
#include "sampling/samplers.hpp"
#include "search/candidate_lists.hpp"

namespace dxt {

class CandidateSelector {
 public:
  static constexpr uint32_t kDefaultListSize = 64;
  static constexpr uint32_t kDefaultCacheEntries = 2048;
  static constexpr size_t kBuildBatch = 256;  // lists built per pass over the matrix

  // list_size and cache_entries: 0 means the defaults above.
  // output: the words the race ranges over (kept alive by the caller);
  // nullptr = the whole vocabulary.
  CandidateSelector(const Model& model, CandidateOrder order, uint32_t list_size, uint32_t cache_entries,
                    const OutputSet* output = nullptr);
  // Wipes the lists and input points it holds outside the cache (the cache
  // wipes its own).
  ~CandidateSelector();
  CandidateSelector(const CandidateSelector&) = delete;
  CandidateSelector& operator=(const CandidateSelector&) = delete;

  CandidateScanner& scanner() { return scanner_; }

  // The input point: the word's row, or the origin (the fixed point of every
  // out-of-vocabulary word), in double. Returns ||x||^2.
  double load_point(std::optional<uint32_t> index, double* x);

  // The list of one input, found in the cache or built and cached. Valid
  // until the next call that builds or caches a list.
  const CandidateList& list_for(std::optional<uint32_t> index) {
    const uint32_t key = key_of(index);
    if (const CandidateList* list = cache_.find(key)) return *list;
    load_point(index, point_.data());
    scanner_.build(point_.data(), scratch_);
    cache_.insert(key, scratch_);
    return *cache_.find(key);
  }

  // draw(list, index) for one input.
  template <typename Draw>
  uint32_t select(std::optional<uint32_t> index, Draw&& draw) {
    return draw(list_for(index), index);
  }

  // out[j] = draw(list of indices[j], indices[j]) for j < count, in order.
  // The lists missing from the cache are built together, up to kBuildBatch
  // per pass over the matrix, before the draws of that stretch of inputs.
  template <typename Draw>
  void select_batch(const std::optional<uint32_t>* indices, size_t count, uint32_t* out, Draw&& draw) {
    const uint32_t D = model_.dimension();
    for (size_t start = 0; start < count;) {
      // The longest stretch from `start` with at most kBuildBatch lists to build.
      miss_keys_.clear();
      size_t end = start;
      for (; end < count; ++end) {
        const uint32_t key = key_of(indices[end]);
        if (cache_.find(key) != nullptr || std::find(miss_keys_.begin(), miss_keys_.end(), key) != miss_keys_.end())
          continue;
        if (miss_keys_.size() == kBuildBatch) break;
        miss_keys_.push_back(key);
        miss_points_.resize(miss_keys_.size() * D);
        load_point(indices[end], miss_points_.data() + (miss_keys_.size() - 1) * D);
      }
      if (built_.size() < miss_keys_.size()) built_.resize(miss_keys_.size());
      scanner_.build_batch(miss_points_.data(), miss_keys_.size(), built_.data());
      // Draws in input order; the new lists join the cache only afterwards,
      // so no list of this stretch is evicted while it is in use.
      for (size_t j = start; j < end; ++j) {
        const uint32_t key = key_of(indices[j]);
        const CandidateList* list = cache_.find(key);
        if (list == nullptr)
          list =
              &built_[static_cast<size_t>(std::find(miss_keys_.begin(), miss_keys_.end(), key) - miss_keys_.begin())];
        out[j] = draw(*list, indices[j]);
      }
      for (size_t m = 0; m < miss_keys_.size(); ++m) cache_.insert(miss_keys_[m], built_[m]);
      start = end;
    }
  }

  // The winner of the race over every vocabulary word, exactly distributed
  // as argmax_o (score_of(o) + G_o): bound_of maps a list bound (distance
  // or cosine) to an upper bound of the scores it covers. race_rest = false
  // leaves out the words not in the list: a broken variant, only for the
  // test that shows the statistical suite catches it.
  template <typename BoundOf, typename ScoreOf>
  uint32_t race(RandomStream& rng, const CandidateList& list, BoundOf&& bound_of, ScoreOf&& score_of,
                bool race_rest = true) {
    GumbelRace race;
    for (size_t g = 0; g < list.group_count(); ++g) {
      const uint32_t* first = list.members.data() + list.group_begin(g);
      const auto n = static_cast<uint32_t>(list.group_end[g] - list.group_begin(g));
      uint32_t taken = 0;
      // Members without replacement: a partial Fisher-Yates over a copy.
      auto pick = [&]() -> uint32_t {
        if (taken == 0) picks_.assign(first, first + n);
        std::swap(picks_[taken], picks_[taken + uniform_index(rng, n - taken)]);
        return picks_[taken++];
      };
      race.offer(rng, bound_of(list.group_bound[g]), n, pick, score_of);
    }
    // Every other word: uniform over the vocabulary, rejecting the list's
    // members and the words already drawn (marked in a bitmap that is
    // cleared again however the race ends).
    const uint64_t rest = race_rest ? candidate_count_ - list.members.size() : 0;
    MarkGuard guard(*this);
    auto pick_rest = [&]() -> uint32_t {
      if (guard.marked.empty())
        for (uint32_t m : list.members) guard.mark(m);
      for (;;) {
        const uint32_t u = uniform_index(rng, candidate_count_);
        const uint32_t v = output_ != nullptr ? output_->rows[u] : u;
        if (!guard.is_marked(v)) {
          guard.mark(v);
          return v;
        }
      }
    };
    race.offer(rng, bound_of(list.rest_bound), rest, pick_rest, score_of);
    if (race.winner() != GumbelRace::kNone) return race.winner();
    // Every score was -infinity (an epsilon so large that exp underflows
    // for every word): the nearest candidate stands for the limit.
    if (!list.members.empty()) return list.members[0];
    return output_ != nullptr ? output_->rows[0] : 0;
  }

  // Heap bytes held: cache, scanner, scratch.
  size_t heap_bytes() const;

 private:
  static constexpr uint32_t kOutOfVocabularyKey = UINT32_MAX - 1;
  static uint32_t key_of(std::optional<uint32_t> index) { return index ? *index : kOutOfVocabularyKey; }

  struct MarkGuard {
    explicit MarkGuard(CandidateSelector& s) : bits(s.marks_), marked(s.marked_) {}
    ~MarkGuard() {
      for (uint32_t v : marked) bits[v / 64] &= ~(uint64_t{1} << (v % 64));
      marked.clear();
    }
    MarkGuard(const MarkGuard&) = delete;
    MarkGuard& operator=(const MarkGuard&) = delete;
    bool is_marked(uint32_t v) const { return (bits[v / 64] >> (v % 64) & 1) != 0; }
    void mark(uint32_t v) {
      bits[v / 64] |= uint64_t{1} << (v % 64);
      marked.push_back(v);
    }
    std::vector<uint64_t>& bits;
    std::vector<uint32_t>& marked;
  };

  const Model& model_;
  const OutputSet* output_;   // nullptr: the whole vocabulary
  uint32_t candidate_count_;  // the words raced over: |S|, or V for words [0, V)
  CandidateScanner scanner_;
  CandidateCache cache_;
  CandidateList scratch_;
  std::vector<CandidateList> built_;
  std::vector<uint32_t> miss_keys_, picks_, marked_;
  std::vector<double> point_, miss_points_;
  std::vector<float> row_;
  std::vector<uint64_t> marks_;  // one bit per vocabulary word
};

}  // namespace dxt
