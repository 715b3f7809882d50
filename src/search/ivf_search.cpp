// SPDX-License-Identifier: Apache-2.0
#include "search/ivf_search.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>
#include <numeric>

#include "errors/error.hpp"
#include "model/format.hpp"
#include "search/kernels.hpp"

namespace dxt {

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

const SearchIndexView& index_of(const Model& model) {
  const SearchIndexView* index = model.search_index();
  if (index == nullptr)
    fail(DXT_E_UNSUPPORTED,
         "the model has no search index; build one with 'dxtext index IN.dxe OUT.dxe' or use exact search");
  return *index;
}

// (score, row) in lexicographic order: the order in which the exact scan's
// strict comparison, in index order, picks its winner. NaN never wins.
bool better(float score, uint32_t v, float best_score, uint32_t best) {
  return score < best_score || (score == best_score && score < kInf && v < best);
}

}  // namespace

uint32_t IvfSearch::default_nprobe(uint32_t cells) { return std::min(cells, std::max<uint32_t>(8, cells / 16)); }

IvfSearch::IvfSearch(const Model& model, uint32_t nprobe, const ScanKernels* kernels)
    : model_(model),
      index_(index_of(model)),
      kernels_(kernels != nullptr ? *kernels : scan_kernels()),
      nprobe_(nprobe == 0 ? default_nprobe(index_.cells) : std::min(nprobe, index_.cells)),
      cell_scores_(index_.cells),
      order_(index_.cells),
      gathered_(size_t{kGather} * model.dimension() * format::element_size(model.quantization())),
      dots_(kGather) {}

void IvfSearch::rank_cells(const float* z) {
  const uint32_t K = index_.cells;
  std::iota(order_.begin(), order_.end(), 0u);
  if (nprobe_ >= K) return;  // every cell: no ranking needed
  kernels_.dot_f32(index_.centroids, K, model_.dimension(), z, cell_scores_.data());
  for (uint32_t c = 0; c < K; ++c) {
    const float s = index_.centroid_norms[c] - 2.0f * cell_scores_[c];
    cell_scores_[c] = std::isnan(s) ? kInf : s;  // a total order for nth_element
  }
  const float* s = cell_scores_.data();
  std::nth_element(order_.begin(), order_.begin() + nprobe_, order_.end(),
                   [s](uint32_t a, uint32_t b) { return s[a] < s[b] || (s[a] == s[b] && a < b); });
}

// The rows ids[0..n) side by side, so that one kernel call scores them (a
// kernel's result for a row does not depend on the other rows of the call,
// so these are the exact scan's scores).
void IvfSearch::gather(const uint32_t* ids, uint32_t n) {
  const size_t row_bytes = size_t{model_.dimension()} * format::element_size(model_.quantization());
  const uint8_t* matrix = model_.matrix_data();
  for (uint32_t i = 0; i < n; ++i)
    std::memcpy(gathered_.data() + i * row_bytes, matrix + uint64_t{ids[i]} * row_bytes, row_bytes);
}

template <typename Visit>
void IvfSearch::score_gathered(const uint32_t* ids, uint32_t n, const float* z, Visit visit) {
  const uint32_t D = model_.dimension();
  const dxt_quantization q = model_.quantization();
  if (q == DXT_QUANT_F32) {
    kernels_.dot_f32(reinterpret_cast<const float*>(gathered_.data()), n, D, z, dots_.data());
  } else if (q == DXT_QUANT_F16) {
    kernels_.dot_f16(reinterpret_cast<const uint16_t*>(gathered_.data()), n, D, z, dots_.data());
  } else {
    kernels_.dot_i8(reinterpret_cast<const int8_t*>(gathered_.data()), n, D, z, dots_.data());
    const float* scales = model_.row_scales();
    for (uint32_t i = 0; i < n; ++i) dots_[i] *= scales[ids[i]];
  }
  const float* norms = model_.row_norms();
  for (uint32_t i = 0; i < n; ++i) visit(ids[i], norms[ids[i]] - 2.0f * dots_[i]);
}

template <typename Visit>
void IvfSearch::scan_probed(const float* z, Visit visit) {
  for (uint32_t p = 0; p < nprobe_; ++p) {
    const uint32_t c = order_[p];
    for (uint32_t first = index_.offsets[c]; first < index_.offsets[c + 1]; first += kGather) {
      const uint32_t n = std::min(kGather, index_.offsets[c + 1] - first);
      gather(index_.rows + first, n);
      score_gathered(index_.rows + first, n, z, visit);
    }
  }
}

uint32_t IvfSearch::nearest(const float* z) {
  rank_cells(z);
  uint32_t best = 0;
  float best_score = kInf;
  scan_probed(z, [&](uint32_t v, float score) {
    if (better(score, v, best_score, best)) best_score = score, best = v;
  });
  return best;
}

// Cell by cell rather than point by point: each probed cell's rows are
// gathered once and scored against every point of the batch that probes
// it, so a batch reads each of those rows once. Every point still sees the
// rows of exactly its own probed cells, scored by the same kernel call, and
// the (score, index) minimum does not depend on the order of the visits:
// out[j] is nearest(z + j * D), bit for bit.
void IvfSearch::nearest_batch(const float* z, size_t count, uint32_t* out) {
  const uint32_t D = model_.dimension();
  const uint32_t K = index_.cells;
  // The probed cells of every point, then the points of every cell.
  probes_.resize(count * nprobe_);
  for (size_t j = 0; j < count; ++j) {
    rank_cells(z + j * D);
    std::copy(order_.begin(), order_.begin() + nprobe_, probes_.begin() + static_cast<std::ptrdiff_t>(j * nprobe_));
  }
  cell_start_.assign(size_t{K} + 1, 0);
  for (uint32_t c : probes_) ++cell_start_[c + 1];
  for (uint32_t c = 0; c < K; ++c) cell_start_[c + 1] += cell_start_[c];
  cell_points_.resize(probes_.size());
  fill_.assign(cell_start_.begin(), cell_start_.end() - 1);
  for (size_t j = 0; j < count; ++j)
    for (uint32_t p = 0; p < nprobe_; ++p) cell_points_[fill_[probes_[j * nprobe_ + p]]++] = static_cast<uint32_t>(j);
  best_.assign(count, 0);
  best_score_.assign(count, kInf);
  for (uint32_t c = 0; c < K; ++c) {
    if (cell_start_[c] == cell_start_[c + 1]) continue;
    for (uint32_t first = index_.offsets[c]; first < index_.offsets[c + 1]; first += kGather) {
      const uint32_t n = std::min(kGather, index_.offsets[c + 1] - first);
      gather(index_.rows + first, n);
      for (uint32_t k = cell_start_[c]; k < cell_start_[c + 1]; ++k) {
        const uint32_t j = cell_points_[k];
        score_gathered(index_.rows + first, n, z + size_t{j} * D, [&](uint32_t v, float score) {
          if (better(score, v, best_score_[j], best_[j])) best_score_[j] = score, best_[j] = v;
        });
      }
    }
  }
  std::copy(best_.begin(), best_.end(), out);
}

TwoNearest IvfSearch::two_nearest(const float* z) {
  rank_cells(z);
  uint32_t b1 = 0, b2 = 0;
  float s1 = kInf, s2 = kInf;
  scan_probed(z, [&](uint32_t v, float score) {
    if (better(score, v, s1, b1)) {
      b2 = b1, s2 = s1;
      b1 = v, s1 = score;
    } else if (better(score, v, s2, b2)) {
      b2 = v, s2 = score;
    }
  });
  if (model_.vocabulary_size() == 1) b2 = b1, s2 = s1;
  double zz = 0;
  for (uint32_t i = 0; i < model_.dimension(); ++i) zz += double{z[i]} * z[i];
  return {b1, b2, std::sqrt(std::max(0.0, double{s1} + zz)), std::sqrt(std::max(0.0, double{s2} + zz))};
}

}  // namespace dxt
