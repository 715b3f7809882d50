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

namespace dxt {

struct ScanKernels;  // search/kernels.hpp; nullptr below means scan_kernels()

uint32_t nearest_euclidean(const Model& model, const float* z, const ScanKernels* kernels = nullptr);

// Working memory of nearest_euclidean_batch, kept by the caller so that
// repeated calls allocate nothing once it has grown.
struct BatchScratch {
  struct Candidate {
    uint32_t row;
    float lower;  // lower bound of its score
  };
  std::vector<float> zt, block, scores, err, query_scale, upper, lower;
  std::vector<uint8_t> zu;
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

// Computed in double from the rows themselves (not the stored f32 norms),
// since 1 - ||p||^2 is tiny for words near the boundary of the ball.
uint32_t nearest_hyperbolic(const Model& model, double y0, const double* y_spatial);

// out[v] = d(x, phi(v)) for every word v, in double, in the model's
// geometry (Euclidean, or Poincare-ball distance).
void distances_from(const Model& model, const double* x, double* out);

// out[v] = <phi(v), x> for every word v, in double.
void dots_from(const Model& model, const double* x, double* out);

}  // namespace dxt
