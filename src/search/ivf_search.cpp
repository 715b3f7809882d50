#include "search/ivf_search.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "errors/error.hpp"
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
      order_(index_.cells) {}

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

uint32_t IvfSearch::nearest(const float* z) {
  rank_cells(z);
  uint32_t best = 0;
  float best_score = kInf;
  for (uint32_t p = 0; p < nprobe_; ++p) {
    const uint32_t c = order_[p];
    for (uint32_t i = index_.offsets[c]; i < index_.offsets[c + 1]; ++i) {
      const uint32_t v = index_.rows[i];
      const float score = euclidean_score(model_, kernels_, v, z);
      if (better(score, v, best_score, best)) best_score = score, best = v;
    }
  }
  return best;
}

TwoNearest IvfSearch::two_nearest(const float* z) {
  rank_cells(z);
  uint32_t b1 = 0, b2 = 0;
  float s1 = kInf, s2 = kInf;
  for (uint32_t p = 0; p < nprobe_; ++p) {
    const uint32_t c = order_[p];
    for (uint32_t i = index_.offsets[c]; i < index_.offsets[c + 1]; ++i) {
      const uint32_t v = index_.rows[i];
      const float score = euclidean_score(model_, kernels_, v, z);
      if (better(score, v, s1, b1)) {
        b2 = b1, s2 = s1;
        b1 = v, s1 = score;
      } else if (better(score, v, s2, b2)) {
        b2 = v, s2 = score;
      }
    }
  }
  if (model_.vocabulary_size() == 1) b2 = b1, s2 = s1;
  double zz = 0;
  for (uint32_t i = 0; i < model_.dimension(); ++i) zz += double{z[i]} * z[i];
  return {b1, b2, std::sqrt(std::max(0.0, double{s1} + zz)), std::sqrt(std::max(0.0, double{s2} + zz))};
}

}  // namespace dxt
