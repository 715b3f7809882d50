// SPDX-License-Identifier: Apache-2.0
// Candidate lists for the selection mechanisms (exponential, tem, syntf):
// for one query point, the rows most likely to be selected, in groups, each
// group with a certified bound on its members' exact values, and one bound
// for all other rows. A lazy Gumbel race (sampling/gumbel_race.hpp) over
// such a list draws exactly the law of a race over every row.
//
// Two orders:
// - kDistance: nearest first. The exact value of row v is
//   exact(x, v) = the distance distances_from reports (bit for bit); bounds
//   are LOWER bounds of it.
// - kCosine: most similar first. The exact value is the cosine of the two
//   vectors, clamp(<x, phi(v)> / (||x|| ||phi(v)||), -1, 1) with the dot
//   product and norms from row_sums (0 for a zero vector); bounds are UPPER
//   bounds of it.
//
// How the bounds are certified. A list is chosen by approximate dot products
// (the decoding kernels, f32 or int8 arithmetic, one pass over the matrix;
// batched_product.hpp bounds their error by ||phi(v)|| err). Each row gets a
// key that is, in exact arithmetic, at most the exact quantity
// (||phi(v)||^2 - 2 <phi(v), x> for distances, -cosine for cosines). The
// list keeps the k rows of smallest key (a buffer pruned to the k smallest
// whenever it doubles, so every row left out has a key >= the final k-th
// smallest); a key is turned into a bound with a margin (2^-16 relative for
// squared distances, 2^-20 plus the cancellation error of the exact cosine)
// that covers every rounding of the f32 key computation and of the exact
// value itself, each of which is below 2^-20 of it by a wide factor. Which
// rows are kept affects only the speed of the race, never its law, so the
// margins are generous. Poincare-ball distances are not monotone in a dot
// product; their lists are chosen by the exact distances of every row.
//
// Groups: ranks [0,1), [1,2), [2,4), [4,8), ... up to the list size, so
// that the race draws few members of each: a group's bound is that of its
// first (best) member.
//
// Restricting the candidates to a subset of the vocabulary (an output
// vocabulary) means skipping the rows outside it in the scans below and
// drawing the rest from the subset; nothing else changes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "model/model.hpp"
#include "search/batched_product.hpp"

namespace dxt {

enum class CandidateOrder {
  kDistance,  // nearest first; bounds are lower bounds of the distance
  kCosine,    // most similar first; bounds are upper bounds of the cosine
};

struct CandidateList {
  std::vector<uint32_t> members;    // grouped, best group first
  std::vector<uint32_t> group_end;  // group g is [g ? group_end[g-1] : 0, group_end[g])
  std::vector<double> group_bound;  // bound of every member of group g
  double rest_bound = 0;            // bound of every row not in members

  size_t group_count() const { return group_end.size(); }
  size_t group_begin(size_t g) const { return g == 0 ? 0 : group_end[g - 1]; }
  // Heap bytes held (capacities), for the memory bound of caches.
  size_t heap_bytes() const {
    return members.capacity() * sizeof(uint32_t) + group_end.capacity() * sizeof(uint32_t) +
           group_bound.capacity() * sizeof(double);
  }
};

class CandidateScanner {
 public:
  // list_size >= 1: how many rows a list keeps (fewer when the vocabulary is
  // smaller). Reads every row once to compute its norm. `kernels` chooses
  // the approximate products (nullptr: scan_kernels()); exact values always
  // come from row_sums.
  // rows and member: an output vocabulary (rows ascending and non-empty,
  // member[v] != 0 iff v is a row; the caller keeps both alive): lists hold
  // only its rows, and bounds cover only its rows. nullptr: every row.
  CandidateScanner(const Model& model, CandidateOrder order, uint32_t list_size, const ScanKernels* kernels = nullptr,
                   const std::vector<uint32_t>* rows = nullptr, const std::vector<uint8_t>* member = nullptr);

  CandidateOrder order() const { return order_; }
  uint32_t list_size() const { return list_size_; }

  // The list for the point x (the model's dimension, double). For kCosine
  // and x = 0 every cosine is 0: the list is empty with bound 0.
  void build(const double* x, CandidateList& out);
  // The lists for count points (x: count * D doubles), one pass over the
  // matrix per 256 of them. Lists may differ from build()'s (other
  // arithmetic, other margins) but are as valid.
  void build_batch(const double* x, size_t count, CandidateList* out);

  // The exact value the bounds refer to, for row v and the point x with
  // xx = squared_norm(x).
  double exact(const double* x, double xx, uint32_t v);

  // Heap bytes held by the scanner (norms and scratch).
  size_t heap_bytes() const;

 private:
  // A row and its key packed so that integer order is (key, row) order:
  // the key's bits made order-preserving in the high half, the row in the
  // low half. Compaction and sorting then compare plain integers.
  using Entry = uint64_t;
  static Entry entry(float key, uint32_t row);
  static float key_of(Entry e);
  static uint32_t row_of(Entry e) { return static_cast<uint32_t>(e); }
  struct Buffer {
    std::vector<Entry> entries;
    float threshold;  // rows with a larger key are left out
  };
  void compact(Buffer& b) const;
  void push(Buffer& b, float key, uint32_t row) const {
    b.entries.push_back(entry(key, row));
    if (b.entries.size() >= 2 * size_t{list_size_}) compact(b);
  }
  // Query j's point in f32 as the kernels take it (x, or x/||x|| for
  // cosines), and the extra error per unit row norm that this rounding adds.
  float query_point(const double* x, double xx, float* z) const;
  // Per-row terms of the key: key = p + q a + w err, a the approximate dot.
  void key_terms(uint32_t v, float& p, float& q, float& w) const;
  void finish(Buffer& b, double xx, CandidateList& out) const;
  void build_exact(const double* x, CandidateList& out);
  double bound_of_key(double key, double xx) const;
  bool row_like(double norm) const;

  bool skip(uint32_t v) const { return member_ != nullptr && (*member_)[v] == 0; }

  const Model& model_;
  const ScanKernels& kernels_;
  const std::vector<uint32_t>* rows_;
  const std::vector<uint8_t>* member_;
  CandidateOrder order_;
  uint32_t list_size_;
  // Per-row terms of the key (key_terms): p, and w (distances) or q (cosines).
  std::vector<float> term_p_, term_w_;
  double max_norm2_ = 0;                // largest ||phi(v)||^2
  double min_norm_ = 0, max_norm_ = 0;  // smallest nonzero and largest ||phi(v)||
  std::vector<float> widened_, z_, dots_, err_, threshold_, keys_;
  std::vector<uint16_t> masks_;
  std::vector<Buffer> buffers_;
  BatchedProduct product_;
  std::vector<double> exact_;  // build_exact: every row's exact value
  std::vector<uint32_t> order_scratch_;
};

}  // namespace dxt
