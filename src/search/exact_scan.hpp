// SPDX-License-Identifier: Apache-2.0
// Exact nearest-neighbour decoding (DESIGN.md §7): one inner-product scan
// over the whole vocabulary with precomputed per-row terms.
//
//   Euclidean:  argmin_v ||phi(v)||^2 - 2 <phi(v), z>
//   Hyperbolic: argmin_v  x0(v) y0 - (2 / (1 - ||p_v||^2)) <p_v, y_s>
//               (= -<x_v, y>_L, monotone in d_H; y = (y0, y_s) need only be
//               a positive multiple of a hyperboloid point)
//
// Ties break to the lowest index. The result depends on the query and the
// model only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "model/model.hpp"
#include "search/batched_product.hpp"

namespace dxt {

struct ScanKernels;  // search/kernels.hpp; nullptr below means scan_kernels()

uint32_t nearest_euclidean(const Model& model, const float* z, const ScanKernels* kernels = nullptr);

// out[i] = <phi(v0 + i), z> for i < n (n <= 256), as nearest_euclidean
// computes it: f32 arithmetic, int8 rows unscaled then times their scale.
// Within 2 delta ||phi|| ||z|| of the exact value (batched_product.hpp).
void approximate_dots(const Model& model, const ScanKernels& kernels, const float* z, uint32_t v0, uint32_t n,
                      float* out);

// Working memory of nearest_euclidean_batch, kept by the caller so that
// repeated calls allocate nothing once it has grown.
struct BatchScratch {
  struct Candidate {
    uint32_t row;
    float lower;  // lower bound of its score
  };
  BatchedProduct product;
  std::vector<float> upper, lower;
  std::vector<std::vector<Candidate>> candidates;
};

// out[j] = nearest_euclidean(model, z + j*D) for j < count: the same word,
// computed in one pass over the matrix per 256 queries (a blocked matrix
// product, in integers for int8 models where the CPU has a kernel for it),
// then an exact rescoring of the few words the product cannot rule out.
void nearest_euclidean_batch(const Model& model, const float* z, size_t count, uint32_t* out, BatchScratch& scratch,
                             const ScanKernels* kernels = nullptr);

// The score nearest_euclidean gives row v for z, ||phi(v)||^2 - 2 <phi(v), z>,
// by the same kernel and the same float operations.
float euclidean_score(const Model& model, const ScanKernels& kernels, uint32_t v, const float* z);

struct TwoNearest {
  uint32_t first, second;  // second == first when the vocabulary has one word
  double first_distance, second_distance;
};
// The two nearest words to z with their Euclidean distances.
TwoNearest two_nearest_euclidean(const Model& model, const float* z);

// The same decoders restricted to an output vocabulary: argmin over the
// rows listed (ascending, non-empty), each scored exactly as the full scans
// score it, ties to the lowest index. One row at a time: meant for sets far
// smaller than the vocabulary.
uint32_t nearest_euclidean_in(const Model& model, const float* z, const std::vector<uint32_t>& rows);
TwoNearest two_nearest_euclidean_in(const Model& model, const float* z, const std::vector<uint32_t>& rows);
uint32_t nearest_hyperbolic_in(const Model& model, double y0, const double* y_spatial,
                               const std::vector<uint32_t>& rows);

// Computed in double from the rows themselves (not the stored f32 norms),
// since 1 - ||p||^2 is tiny for words near the boundary of the ball.
uint32_t nearest_hyperbolic(const Model& model, double y0, const double* y_spatial);

// out[v] = d(x, phi(v)) for every word v, in double, in the model's
// geometry (Euclidean, or Poincare-ball distance).
void distances_from(const Model& model, const double* x, double* out);

// out[v] = <phi(v), x> for every word v, in double.
void dots_from(const Model& model, const double* x, double* out);

// out[v] = ||phi(v)||^2 for every word v, in double (the norm that
// row_sums reports).
void squared_norms(const Model& model, double* out);

// ||x||^2 in double, summed in index order.
double squared_norm(const double* x, uint32_t D);

// diff = ||phi(v) - x||^2 and norm = ||phi(v)||^2 in double for one row, by
// the kernel and the operations distances_from and dots_from use, so the
// values are bit for bit theirs. `widened` is scratch of D floats.
void row_sums(const Model& model, uint32_t v, const double* x, double& diff, double& norm, float* widened);

// The distance distances_from reports for a row with these sums, with
// xx = squared_norm(x): sqrt(diff), or the Poincare-ball distance.
double distance_from_sums(const Model& model, double diff, double norm, double xx);

}  // namespace dxt
