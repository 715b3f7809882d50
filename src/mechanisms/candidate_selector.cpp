// SPDX-License-Identifier: Apache-2.0
#include "mechanisms/candidate_selector.hpp"

#include "rng/secure_wipe.hpp"
#include "search/exact_scan.hpp"

namespace dxt {

CandidateSelector::CandidateSelector(const Model& model, CandidateOrder order, uint32_t list_size,
                                     uint32_t cache_entries, const OutputSet* output)
    : model_(model),
      output_(output),
      candidate_count_(output != nullptr ? output->size() : model.vocabulary_size()),
      scanner_(model, order, list_size != 0 ? list_size : kDefaultListSize, nullptr,
               output != nullptr ? &output->rows : nullptr, output != nullptr ? &output->member : nullptr),
      cache_(cache_entries != 0 ? cache_entries : kDefaultCacheEntries),
      point_(model.dimension()),
      row_(model.dimension()),
      marks_((size_t{model.vocabulary_size()} + 63) / 64, 0) {}

CandidateSelector::~CandidateSelector() {
  CandidateCache::wipe(scratch_);
  for (CandidateList& l : built_) CandidateCache::wipe(l);
  secure_wipe(miss_keys_.data(), miss_keys_.size() * sizeof(uint32_t));
  secure_wipe(point_.data(), point_.size() * sizeof(double));
  secure_wipe(miss_points_.data(), miss_points_.size() * sizeof(double));
  secure_wipe(row_.data(), row_.size() * sizeof(float));
}

double CandidateSelector::load_point(std::optional<uint32_t> index, double* x) {
  const uint32_t D = model_.dimension();
  if (!index) {
    std::fill(x, x + D, 0.0);
    return 0;
  }
  model_.row(*index, row_.data());
  for (uint32_t i = 0; i < D; ++i) x[i] = row_[i];
  return squared_norm(x, D);
}

size_t CandidateSelector::heap_bytes() const {
  size_t bytes = cache_.heap_bytes() + scanner_.heap_bytes() + scratch_.heap_bytes() +
                 (miss_keys_.capacity() + picks_.capacity() + marked_.capacity()) * sizeof(uint32_t) +
                 (point_.capacity() + miss_points_.capacity()) * sizeof(double) + row_.capacity() * sizeof(float) +
                 marks_.capacity() * sizeof(uint64_t);
  for (const CandidateList& l : built_) bytes += l.heap_bytes() + sizeof l;
  return bytes;
}

}  // namespace dxt
