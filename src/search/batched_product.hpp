// SPDX-License-Identifier: Apache-2.0
// The blocked product of the whole matrix with a batch of queries, with a
// bound on the error of every approximate dot product (DESIGN.md §7). Used
// by the batched exact decoder (nearest_euclidean_batch) and by the
// candidate lists of the selection mechanisms (candidate_lists.hpp).
//
// Error bound: for row v and query j,
//
//   |scores[i * Q + j] - <phi(v), z_j>| <= ||phi(v)|| * err[j],
//
// where phi(v) is the row as Model::row gives it (int8 rows scaled and
// rounded to f32) and <.,.> is exact. err[j] = 2 delta ||z_j|| covers the
// float rounding of a D-term product, delta = (2D + 64) 2^-24 (the sum of D
// products in any order errs by at most D 2^-24 ||phi|| ||z|| for f32, one
// more rounding each for the row scale and the conversion, and the 64 leaves
// room for the caller's own few operations); with int8 queries it also adds
// ||z_j - s_j zq_j||, the query's quantisation error (Cauchy-Schwarz).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "model/model.hpp"
#include "search/kernels.hpp"

namespace dxt {

class BatchedProduct {
 public:
  static constexpr uint32_t kRowBlock = 48;   // rows per block, a multiple of the kernels' row tile (6)
  static constexpr size_t kMaxQueries = 256;  // queries per pass over the matrix

  // Packs count <= kMaxQueries queries (D floats each, consecutive) for
  // model and kernels; keeps its buffers between calls.
  void prepare(const Model& model, const ScanKernels& kernels, const float* z, size_t count);

  // Queries rounded up to a multiple of kQueryBlock; scores rows have this
  // stride. Padding queries have zero error.
  uint32_t padded_count() const { return q_; }
  const float* errors() const { return err_.data(); }
  // delta of the bound above, for this model's dimension.
  double delta() const { return delta_; }

  // Calls visit(v0, n, scores) for consecutive blocks of n <= kRowBlock rows
  // from v0, covering the whole matrix in order; scores[i * Q + j] is the
  // approximate <phi(v0 + i), z_j>.
  template <typename Visit>
  void for_each_block(Visit visit) {
    const uint32_t V = model_->vocabulary_size();
    for (uint32_t v0 = 0; v0 < V; v0 += kRowBlock) {
      const uint32_t n = V - v0 < kRowBlock ? V - v0 : kRowBlock;
      compute_block(v0, n);
      visit(v0, n, static_cast<const float*>(scores_.data()));
    }
  }

 private:
  void compute_block(uint32_t v0, uint32_t n);

  const Model* model_ = nullptr;
  const ScanKernels* kernels_ = nullptr;
  bool integer_ = false;  // int8 rows times int8 queries (gemm_i8)
  size_t count_ = 0;
  uint32_t q_ = 0;
  double delta_ = 0;
  std::vector<float> zt_, block_, scores_, err_, query_scale_;
  std::vector<uint8_t> zu_;
};

}  // namespace dxt
