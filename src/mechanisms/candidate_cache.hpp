// SPDX-License-Identifier: Apache-2.0
// A bounded cache of candidate lists (search/candidate_lists.hpp), keyed by
// input word, one per mechanism object (so one per context). Texts are
// Zipfian: the same words come back, and their lists cost a pass over the
// matrix only the first time.
//
// Memory is bounded by construction: `capacity` entries, each holding at
// most one list (list_size members of 4 bytes, and 12 bytes per group of
// which there are at most 2 + log2(list_size)); nothing grows past that.
// Four-way set associative, least recently used within a set.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "search/candidate_lists.hpp"

namespace dxt {

class CandidateCache {
 public:
  static constexpr uint32_t kWays = 4;

  // capacity >= 1 entries, rounded up to a multiple of kWays.
  explicit CandidateCache(uint32_t capacity);
  // Wipes the keys and lists: together they name the words privatised
  // recently on the context.
  ~CandidateCache();
  CandidateCache(const CandidateCache&) = delete;
  CandidateCache& operator=(const CandidateCache&) = delete;

  // The list stored under key (any value but UINT32_MAX), or nullptr.
  const CandidateList* find(uint32_t key);
  // Stores list under key, evicting the least recently used entry of its
  // set. The list's storage is swapped with the evicted one's, so once the
  // cache is full nothing is allocated; `list` is left with stale contents.
  void insert(uint32_t key, CandidateList& list);

  uint32_t capacity() const { return static_cast<uint32_t>(slots_.size()); }
  // Overwrites a list's members and bounds with zeros (secure_wipe).
  static void wipe(CandidateList& list);
  size_t heap_bytes() const;

 private:
  static constexpr uint32_t kEmpty = UINT32_MAX;
  struct Slot {
    uint32_t key = kEmpty;
    uint64_t used = 0;  // clock_ at the last use
    CandidateList list;
  };
  Slot* set_of(uint32_t key);

  std::vector<Slot> slots_;
  uint64_t clock_ = 0;
};

}  // namespace dxt
