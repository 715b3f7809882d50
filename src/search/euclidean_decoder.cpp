// SPDX-License-Identifier: Apache-2.0
#include "search/euclidean_decoder.hpp"

#include <string>

#include "errors/error.hpp"

namespace dxt {

EuclideanDecoder::EuclideanDecoder(const Model& model, dxt_search search, uint32_t ivf_nprobe,
                                   const std::vector<uint32_t>* rows)
    : model_(model), rows_(rows) {
  if (rows != nullptr && search == DXT_SEARCH_IVF)
    fail(DXT_E_UNSUPPORTED,
         "an output vocabulary is decoded exactly: the search index covers the whole vocabulary (use search exact)");
  switch (search) {
    case DXT_SEARCH_EXACT:
      if (ivf_nprobe != 0) fail(DXT_E_INVALID_ARGUMENT, "ivf_nprobe is set but the search is exact");
      return;
    case DXT_SEARCH_IVF: ivf_.emplace(model, ivf_nprobe); return;
  }
  fail(DXT_E_INVALID_ARGUMENT, "unknown search " + std::to_string(static_cast<int>(search)));
}

uint32_t EuclideanDecoder::nearest(const float* z) {
  if (rows_ != nullptr) return nearest_euclidean_in(model_, z, *rows_);
  return ivf_ ? ivf_->nearest(z) : nearest_euclidean(model_, z);
}

TwoNearest EuclideanDecoder::two_nearest(const float* z) {
  if (rows_ != nullptr) return two_nearest_euclidean_in(model_, z, *rows_);
  return ivf_ ? ivf_->two_nearest(z) : two_nearest_euclidean(model_, z);
}

void EuclideanDecoder::nearest_batch(const float* z, size_t count, uint32_t* out) {
  const uint32_t D = model_.dimension();
  if (rows_ != nullptr) {
    for (size_t j = 0; j < count; ++j) out[j] = nearest_euclidean_in(model_, z + j * D, *rows_);
  } else if (ivf_) {
    ivf_->nearest_batch(z, count, out);
  } else if (count < kMinBlocked) {
    for (size_t j = 0; j < count; ++j) out[j] = nearest(z + j * D);
  } else {
    nearest_euclidean_batch(model_, z, count, out, scratch_);
  }
}

}  // namespace dxt
