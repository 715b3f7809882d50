// SPDX-License-Identifier: Apache-2.0
#include "mechanisms/candidate_cache.hpp"

#include <utility>

#include "rng/secure_wipe.hpp"

namespace dxt {

CandidateCache::CandidateCache(uint32_t capacity)
    : slots_((static_cast<size_t>(capacity == 0 ? 1 : capacity) + kWays - 1) / kWays * kWays) {}

void CandidateCache::wipe(CandidateList& list) {
  secure_wipe(list.members.data(), list.members.size() * sizeof(uint32_t));
  secure_wipe(list.group_bound.data(), list.group_bound.size() * sizeof(double));
  secure_wipe(&list.rest_bound, sizeof list.rest_bound);
}

CandidateCache::~CandidateCache() {
  for (Slot& s : slots_) {
    secure_wipe(&s.key, sizeof s.key);
    wipe(s.list);
  }
}

CandidateCache::Slot* CandidateCache::set_of(uint32_t key) {
  const size_t sets = slots_.size() / kWays;
  // Fibonacci hashing: consecutive word indices spread over the sets.
  const uint64_t h = (uint64_t{key} * 0x9E3779B97F4A7C15ull) >> 32;
  return &slots_[(h % sets) * kWays];
}

const CandidateList* CandidateCache::find(uint32_t key) {
  Slot* set = set_of(key);
  for (uint32_t w = 0; w < kWays; ++w)
    if (set[w].key == key) {
      set[w].used = ++clock_;
      return &set[w].list;
    }
  return nullptr;
}

void CandidateCache::insert(uint32_t key, CandidateList& list) {
  Slot* set = set_of(key);
  Slot* victim = &set[0];
  for (uint32_t w = 0; w < kWays; ++w) {
    if (set[w].key == key) {
      victim = &set[w];
      break;
    }
    if (set[w].used < victim->used) victim = &set[w];
  }
  victim->key = key;
  victim->used = ++clock_;
  std::swap(victim->list, list);
}

size_t CandidateCache::heap_bytes() const {
  size_t bytes = slots_.capacity() * sizeof(Slot);
  for (const Slot& s : slots_) bytes += s.list.heap_bytes();
  return bytes;
}

}  // namespace dxt
