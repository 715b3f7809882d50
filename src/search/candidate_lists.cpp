// SPDX-License-Identifier: Apache-2.0
#include "search/candidate_lists.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>

#include "errors/error.hpp"
#include "search/exact_scan.hpp"
#include "search/kernels.hpp"

namespace dxt {

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr uint32_t kScanBlock = 256;  // rows per single-query kernel call
constexpr size_t kQueriesPerPass = BatchedProduct::kMaxQueries;

// Margins (candidate_lists.hpp): the f32 key of a row errs by a few 2^-24 of
// ||phi(v)||^2 + ||x||^2 (distances) or of 1 (cosines), and the exact values
// by about (D + 2) 2^-53 of the same (of ||phi||/||x|| + ||x||/||phi|| for a
// cosine, whose dot product comes from a difference of squares); these
// margins are far above both for any dimension up to 2^20.
constexpr double kDistanceMargin = 0x1p-16;  // times (max ||phi||^2 + ||x||^2), on squared distances
constexpr double kShrink = 1 - 0x1p-30;      // on the distance after the square root
constexpr double kCosineMargin = 0x1p-20;
constexpr double kCosineCancellation = 0x1p-30;  // times ||phi||/||x|| + ||x||/||phi||

}  // namespace

CandidateScanner::Entry CandidateScanner::entry(float key, uint32_t row) {
  uint32_t bits;
  std::memcpy(&bits, &key, sizeof bits);
  // Negative floats order by the complement of their bits, others with the
  // sign bit set; -0 and +0 become neighbours, which only orders ties.
  bits = (bits & 0x80000000u) != 0 ? ~bits : bits | 0x80000000u;
  return uint64_t{bits} << 32 | row;
}

float CandidateScanner::key_of(Entry e) {
  auto bits = static_cast<uint32_t>(e >> 32);
  bits = (bits & 0x80000000u) != 0 ? bits & 0x7FFFFFFFu : ~bits;
  float key;
  std::memcpy(&key, &bits, sizeof key);
  return key;
}

CandidateScanner::CandidateScanner(const Model& model, CandidateOrder order, uint32_t list_size,
                                   const ScanKernels* kernels, const std::vector<uint32_t>* rows,
                                   const std::vector<uint8_t>* member)
    : model_(model),
      kernels_(kernels != nullptr ? *kernels : scan_kernels()),
      rows_(rows),
      member_(member),
      order_(order),
      list_size_(list_size),
      widened_(model.dimension()) {
  if (list_size == 0) fail(DXT_E_INTERNAL, "candidate lists need at least one member");
  if ((rows == nullptr) != (member == nullptr) || (rows != nullptr && rows->empty()))
    fail(DXT_E_INTERNAL, "an output vocabulary needs its rows and membership, and at least one row");
  const uint32_t V = model.vocabulary_size();
  std::vector<double> norms(V);
  squared_norms(model, norms.data());
  min_norm_ = std::numeric_limits<double>::infinity();
  for (uint32_t v = 0; v < V; ++v) {
    max_norm2_ = std::max(max_norm2_, norms[v]);
    if (norms[v] > 0) min_norm_ = std::min(min_norm_, std::sqrt(norms[v]));
  }
  max_norm_ = std::sqrt(max_norm2_);
  // The per-row terms of the key, key = p + q a + w err (a the approximate
  // dot product), computed once.
  term_p_.resize(V);
  term_w_.resize(V);
  for (uint32_t v = 0; v < V; ++v) {
    const double nn = norms[v], r = std::sqrt(nn);
    if (order_ == CandidateOrder::kDistance) {
      // ||phi||^2 - 2 <phi, x> >= nn - 2 a - 2 ||phi|| err.
      term_p_[v] = static_cast<float>(nn), term_w_[v] = static_cast<float>(-2 * r);
    } else if (nn > 0) {
      // -cos >= -(a / ||phi|| + err) - margins; term_w_ holds q = -1/||phi||.
      term_p_[v] = static_cast<float>(-(kCosineMargin + kCosineCancellation * (r / min_norm_ + max_norm_ / r)));
      term_w_[v] = static_cast<float>(-1 / r);
    } else {
      // A zero row has cosine 0.
      term_p_[v] = static_cast<float>(-kCosineMargin), term_w_[v] = 0.0f;
    }
  }
}

size_t CandidateScanner::heap_bytes() const {
  size_t bytes = (term_p_.capacity() + term_w_.capacity() + widened_.capacity() + z_.capacity() + dots_.capacity() +
                  err_.capacity() + threshold_.capacity() + keys_.capacity()) *
                     sizeof(float) +
                 exact_.capacity() * sizeof(double) + order_scratch_.capacity() * sizeof(uint32_t);
  for (const Buffer& b : buffers_) bytes += b.entries.capacity() * sizeof(Entry);
  return bytes;
}

double CandidateScanner::exact(const double* x, double xx, uint32_t v) {
  double diff, norm;
  row_sums(model_, v, x, diff, norm, widened_.data());
  if (order_ == CandidateOrder::kDistance) return distance_from_sums(model_, diff, norm, xx);
  if (!(norm > 0) || !(xx > 0)) return 0;
  const double dot = (norm + xx - diff) / 2;
  return std::clamp(dot * (1 / std::sqrt(xx)) * (1 / std::sqrt(norm)), -1.0, 1.0);
}

float CandidateScanner::query_point(const double* x, double xx, float* z) const {
  const uint32_t D = model_.dimension();
  if (order_ == CandidateOrder::kDistance) {
    for (uint32_t i = 0; i < D; ++i) z[i] = static_cast<float>(x[i]);
    // ||x - z|| <= 2^-24 ||x||: Cauchy-Schwarz adds that much per unit row norm.
    return static_cast<float>(0x1p-23 * std::sqrt(xx));
  }
  const double inv = 1 / std::sqrt(xx);
  for (uint32_t i = 0; i < D; ++i) z[i] = static_cast<float>(x[i] * inv);
  return static_cast<float>(0x1p-22);  // z within a few 2^-24 of x / ||x||
}

void CandidateScanner::key_terms(uint32_t v, float& p, float& q, float& w) const {
  p = term_p_[v];
  if (order_ == CandidateOrder::kDistance) {
    q = -2.0f, w = term_w_[v];
  } else {
    q = term_w_[v], w = -1.0f;
  }
}

// Whether a point of this norm is covered by the cosine margin, which
// assumes the norm of a vocabulary row (up to its rounding).
bool CandidateScanner::row_like(double norm) const {
  return norm >= min_norm_ * (1 - 0x1p-20) && norm <= max_norm_ * (1 + 0x1p-20);
}

double CandidateScanner::bound_of_key(double key, double xx) const {
  if (order_ == CandidateOrder::kCosine) return std::min(1.0, -key);
  const double squared = key + xx - kDistanceMargin * (max_norm2_ + xx);
  return squared > 0 ? std::sqrt(squared) * kShrink : 0.0;
}

void CandidateScanner::compact(Buffer& b) const {
  const auto kth = b.entries.begin() + (list_size_ - 1);
  std::nth_element(b.entries.begin(), kth, b.entries.end());
  b.threshold = key_of(*kth);
  b.entries.resize(list_size_);
}

void CandidateScanner::finish(Buffer& b, double xx, CandidateList& out) const {
  // Every row left out has a key >= b.threshold (thresholds only fall).
  if (b.entries.size() > list_size_) compact(b);
  std::sort(b.entries.begin(), b.entries.end());
  const size_t n = b.entries.size();
  out.members.reserve(list_size_);
  out.members.resize(n);
  out.group_end.clear();
  out.group_bound.clear();
  for (size_t i = 0; i < n; ++i) out.members[i] = row_of(b.entries[i]);
  for (size_t begin = 0, end = 1; begin < n; begin = end, end *= 2) {
    out.group_end.push_back(static_cast<uint32_t>(std::min(end, n)));
    out.group_bound.push_back(bound_of_key(key_of(b.entries[begin]), xx));
  }
  out.rest_bound = bound_of_key(b.threshold, xx);
}

// Lists chosen by the exact value of every row: Poincare distances, and
// cosines with points whose norm is outside the vocabulary's (the cosine
// margin assumes a vocabulary row's norm).
void CandidateScanner::build_exact(const double* x, CandidateList& out) {
  const uint32_t V = model_.vocabulary_size();
  const uint32_t D = model_.dimension();
  exact_.resize(V);
  if (order_ == CandidateOrder::kDistance) {
    distances_from(model_, x, exact_.data());
  } else {
    const double xx = squared_norm(x, D);
    for (uint32_t v = 0; v < V; ++v) exact_[v] = -exact(x, xx, v);  // keys: smaller is better
  }
  // Candidates: the output vocabulary's rows, or every row.
  if (rows_ != nullptr) {
    order_scratch_.assign(rows_->begin(), rows_->end());
  } else {
    order_scratch_.resize(V);
    std::iota(order_scratch_.begin(), order_scratch_.end(), 0u);
  }
  const auto n = static_cast<uint32_t>(std::min<size_t>(list_size_, order_scratch_.size()));
  auto less = [this](uint32_t a, uint32_t b) { return exact_[a] < exact_[b] || (exact_[a] == exact_[b] && a < b); };
  std::nth_element(order_scratch_.begin(), order_scratch_.begin() + (n - 1), order_scratch_.end(), less);
  std::sort(order_scratch_.begin(), order_scratch_.begin() + n, less);
  const double sign = order_ == CandidateOrder::kDistance ? 1.0 : -1.0;
  out.members.assign(order_scratch_.begin(), order_scratch_.begin() + n);
  out.group_end.clear();
  out.group_bound.clear();
  for (size_t begin = 0, end = 1; begin < n; begin = end, end *= 2) {
    out.group_end.push_back(static_cast<uint32_t>(std::min<size_t>(end, n)));
    out.group_bound.push_back(sign * exact_[out.members[begin]]);
  }
  // Rows left out are no better than the last member.
  out.rest_bound = sign * exact_[out.members[n - 1]];
}

void CandidateScanner::build(const double* x, CandidateList& out) {
  const uint32_t V = model_.vocabulary_size();
  const uint32_t D = model_.dimension();
  const double xx = squared_norm(x, D);
  if (order_ == CandidateOrder::kCosine && !(xx > 0)) {
    // Every cosine with the zero vector is 0: no members, bound 0 for all.
    out.members.clear();
    out.group_end.clear();
    out.group_bound.clear();
    out.rest_bound = 0;
    return;
  }
  if (order_ == CandidateOrder::kDistance ? model_.geometry() == DXT_GEOMETRY_POINCARE : !row_like(std::sqrt(xx)))
    return build_exact(x, out);
  const ScanKernels& k = kernels_;
  z_.resize(D);
  const float extra = query_point(x, xx, z_.data());
  double zz = 0;
  for (uint32_t i = 0; i < D; ++i) zz += double{z_[i]} * z_[i];
  const double delta = (2.0 * D + 64) * 0x1p-24;
  const auto err = static_cast<float>(2 * delta * std::sqrt(zz) + extra);
  if (buffers_.empty()) buffers_.resize(1);
  Buffer& b = buffers_[0];
  b.entries.clear();
  b.threshold = kInf;
  dots_.resize(kScanBlock);
  for (uint32_t v0 = 0; v0 < V; v0 += kScanBlock) {
    const uint32_t n = std::min(kScanBlock, V - v0);
    approximate_dots(model_, k, z_.data(), v0, n, dots_.data());
    for (uint32_t i = 0; i < n; ++i) {
      if (skip(v0 + i)) continue;
      float p, q, w;
      key_terms(v0 + i, p, q, w);
      const float key = (p + q * dots_[i]) + w * err;
      if (key <= b.threshold) push(b, key, v0 + i);
    }
  }
  finish(b, xx, out);
}

void CandidateScanner::build_batch(const double* x, size_t count, CandidateList* out) {
  const uint32_t D = model_.dimension();
  if (count < 2 || (order_ == CandidateOrder::kDistance && model_.geometry() == DXT_GEOMETRY_POINCARE)) {
    for (size_t j = 0; j < count; ++j) build(x + j * D, out[j]);
    return;
  }
  const ScanKernels& k = kernels_;
  std::vector<size_t> batched;  // the queries scanned together (the others are built one by one)
  std::vector<double> xx(count);
  for (size_t j = 0; j < count; ++j) {
    xx[j] = squared_norm(x + j * D, D);
    const double norm = std::sqrt(xx[j]);
    if (order_ == CandidateOrder::kCosine && !row_like(norm)) {
      build(x + j * D, out[j]);
    } else {
      batched.push_back(j);
    }
  }
  for (size_t done = 0; done < batched.size(); done += kQueriesPerPass) {
    const size_t nq = std::min(kQueriesPerPass, batched.size() - done);
    z_.resize(nq * D);
    std::vector<float> extra(nq);
    for (size_t j = 0; j < nq; ++j) {
      const size_t q = batched[done + j];
      extra[j] = query_point(x + q * D, xx[q], z_.data() + j * D);
    }
    product_.prepare(model_, k, z_.data(), nq);
    const uint32_t Q = product_.padded_count();
    err_.assign(product_.errors(), product_.errors() + Q);
    // Padding queries keep no row.
    threshold_.assign(Q, -kInf);
    keys_.resize(Q);
    masks_.resize(Q / 16);
    if (buffers_.size() < nq) buffers_.resize(nq);
    for (size_t j = 0; j < nq; ++j) {
      err_[j] += extra[j];
      threshold_[j] = kInf;
      buffers_[j].entries.clear();
      buffers_[j].threshold = kInf;
    }
    product_.for_each_block([&](uint32_t v0, uint32_t n, const float* scores) {
      for (uint32_t i = 0; i < n; ++i) {
        if (skip(v0 + i)) continue;
        float p, q, w;
        key_terms(v0 + i, p, q, w);
        if (!k.key_row(scores + size_t{i} * Q, Q, p, q, w, err_.data(), threshold_.data(), keys_.data(), masks_.data()))
          continue;
        for (uint32_t c = 0; c < Q / 16; ++c)
          for (uint32_t m = masks_[c]; m != 0; m &= m - 1) {
            const uint32_t j = c * 16 + static_cast<uint32_t>(__builtin_ctz(m));
            push(buffers_[j], keys_[j], v0 + i);
            threshold_[j] = buffers_[j].threshold;
          }
      }
    });
    for (size_t j = 0; j < nq; ++j) finish(buffers_[j], xx[batched[done + j]], out[batched[done + j]]);
  }
}

}  // namespace dxt
