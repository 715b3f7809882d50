// SPDX-License-Identifier: Apache-2.0
#include "model/ordering_builder.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <string>
#include <utility>

#include "errors/error.hpp"
#include "model/format.hpp"

namespace dxt {

namespace {

// SplitMix64 (Steele, Lea & Flood, "Fast splittable pseudorandom number
// generators", OOPSLA 2014): the builder's only randomness. The orderings
// are public, so they need no secret generator, only a reproducible one.
struct SplitMix64 {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  uint32_t below(uint32_t n) { return static_cast<uint32_t>(next() % n); }
};

class Points {
 public:
  explicit Points(const Model& model) : V_(model.vocabulary_size()), D_(model.dimension()), x_(uint64_t{V_} * D_) {
    for (uint32_t w = 0; w < V_; ++w) model.row(w, x_.data() + uint64_t{w} * D_);
  }
  uint32_t size() const { return V_; }
  // Squared distance, summed in a fixed order (eight running sums, then a
  // fixed tree), so that every build on every machine gets the same bits.
  double dist2(uint32_t a, uint32_t b) const {
    const float* p = x_.data() + uint64_t{a} * D_;
    const float* q = x_.data() + uint64_t{b} * D_;
    float s[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    uint32_t i = 0;
    for (; i + 8 <= D_; i += 8)
      for (uint32_t j = 0; j < 8; ++j) {
        const float d = p[i + j] - q[i + j];
        s[j] += d * d;
      }
    for (uint32_t j = 0; i < D_; ++i, ++j) {
      const float d = p[i] - q[i];
      s[j] += d * d;
    }
    return (static_cast<double>(s[0] + s[1]) + static_cast<double>(s[2] + s[3])) +
           (static_cast<double>(s[4] + s[5]) + static_cast<double>(s[6] + s[7]));
  }
  double dist(uint32_t a, uint32_t b) const { return std::sqrt(dist2(a, b)); }

 private:
  uint32_t V_, D_;
  std::vector<float> x_;
};

// The words of one group, renumbered 0 .. n-1 (in vocabulary order).
class Group {
 public:
  Group(const Points& pts, std::vector<uint32_t> ids) : pts_(pts), ids_(std::move(ids)) {}
  uint32_t size() const { return static_cast<uint32_t>(ids_.size()); }
  uint32_t id(uint32_t local) const { return ids_[local]; }
  double dist2(uint32_t a, uint32_t b) const { return pts_.dist2(ids_[a], ids_[b]); }
  double dist(uint32_t a, uint32_t b) const { return pts_.dist(ids_[a], ids_[b]); }

 private:
  const Points& pts_;
  std::vector<uint32_t> ids_;
};

// The k nearest other words of every word, nearest first (ties: lower index).
std::vector<uint32_t> neighbour_lists(const Group& pts, uint32_t k, const std::function<void(uint32_t)>& tick) {
  const uint32_t V = pts.size();
  std::vector<uint32_t> out(uint64_t{V} * k);
  std::vector<std::pair<double, uint32_t>> best;
  best.reserve(k + 1);
  for (uint32_t a = 0; a < V; ++a) {
    best.clear();
    for (uint32_t b = 0; b < V; ++b) {
      if (b == a) continue;
      const double d = pts.dist2(a, b);
      if (best.size() == k && !(std::make_pair(d, b) < best.back())) continue;
      auto at = std::upper_bound(best.begin(), best.end(), std::make_pair(d, b));
      best.insert(at, {d, b});
      if (best.size() > k) best.pop_back();
    }
    for (uint32_t j = 0; j < k; ++j) out[uint64_t{a} * k + j] = best[j].second;
    if ((a & 1023) == 1023) tick(1024);
  }
  tick(V & 1023);
  return out;
}

// A tour as an array of words and each word's place in it.
struct Tour {
  std::vector<uint32_t> at, pos;
  uint32_t n() const { return static_cast<uint32_t>(at.size()); }
  uint32_t next(uint32_t p) const { return p + 1 == n() ? 0 : p + 1; }
  uint32_t prev(uint32_t p) const { return p == 0 ? n() - 1 : p - 1; }
  // Reverses the path from position i forward to position j; reversing the
  // complement instead gives the same cycle, so the shorter side is done.
  void reverse(uint32_t i, uint32_t j) {
    uint32_t len = (j + n() - i) % n() + 1;
    if (2 * len > n()) {
      const uint32_t ni = next(j), nj = prev(i);
      i = ni;
      j = nj;
      len = n() - len;
    }
    for (uint32_t s = 0; s < len / 2; ++s) {
      std::swap(at[i], at[j]);
      pos[at[i]] = i;
      pos[at[j]] = j;
      i = next(i);
      j = prev(j);
    }
  }
};

// Nearest-neighbour tour from `start`: step to the nearest unvisited word,
// found in the neighbour list when it holds one, else by a scan of the words
// not yet visited.
Tour greedy_tour(const Group& pts, const std::vector<uint32_t>& nn, uint32_t k, uint32_t start) {
  const uint32_t V = pts.size();
  Tour t;
  t.at.reserve(V);
  t.pos.assign(V, 0);
  std::vector<uint32_t> left(V), where(V);  // the unvisited words, in a swap-remove list
  std::iota(left.begin(), left.end(), 0u);
  std::iota(where.begin(), where.end(), 0u);
  std::vector<char> visited(V, 0);
  auto visit = [&](uint32_t w) {
    visited[w] = 1;
    t.pos[w] = static_cast<uint32_t>(t.at.size());
    t.at.push_back(w);
    const uint32_t last = left.back();
    left[where[w]] = last;
    where[last] = where[w];
    left.pop_back();
  };
  uint32_t current = start;
  visit(current);
  while (!left.empty()) {
    uint32_t chosen = UINT32_MAX;
    for (uint32_t j = 0; j < k; ++j) {
      const uint32_t c = nn[uint64_t{current} * k + j];
      if (!visited[c]) {
        chosen = c;
        break;
      }
    }
    if (chosen == UINT32_MAX) {
      double best = INFINITY;
      for (const uint32_t c : left) {
        const double d = pts.dist2(current, c);
        if (d < best || (d == best && c < chosen)) {
          best = d;
          chosen = c;
        }
      }
    }
    visit(chosen);
    current = chosen;
  }
  return t;
}

// 2-opt over the neighbour lists with don't-look bits, until no move
// shortens the tour by more than a rounding error.
void two_opt(const Group& pts, const std::vector<uint32_t>& nn, uint32_t k, Tour& t) {
  const uint32_t V = t.n();
  std::vector<uint32_t> queue(t.at);  // in tour order: reproducible
  std::vector<char> queued(V, 1);
  size_t head = 0;
  auto push = [&](uint32_t w) {
    if (!queued[w]) {
      queued[w] = 1;
      queue.push_back(w);
    }
  };
  constexpr double kMinGain = 1e-9;
  while (head < queue.size()) {
    const uint32_t a = queue[head++];
    queued[a] = 0;
    if (head > 4 * uint64_t{V}) {  // compact the consumed front now and then
      queue.erase(queue.begin(), queue.begin() + static_cast<std::ptrdiff_t>(head));
      head = 0;
    }
    bool improved = false;
    for (int dir = 0; dir < 2 && !improved; ++dir) {
      const uint32_t pa = t.pos[a];
      const uint32_t b = dir == 0 ? t.at[t.next(pa)] : t.at[t.prev(pa)];
      const double dab = pts.dist(a, b);
      for (uint32_t j = 0; j < k; ++j) {
        const uint32_t c = nn[uint64_t{a} * k + j];
        const double g1 = dab - pts.dist(a, c);
        if (g1 <= kMinGain) break;  // the list is sorted: no later c gains
        const uint32_t pc = t.pos[c];
        const uint32_t d = dir == 0 ? t.at[t.next(pc)] : t.at[t.prev(pc)];
        if (c == b || d == a) continue;
        const double gain = g1 + pts.dist(c, d) - pts.dist(b, d);
        if (gain <= kMinGain) continue;
        // dir 0: ... a b ... c d ... -> ... a c ... b d ...: reverse b..c.
        // dir 1: ... d c ... b a ... -> ... d b ... c a ...: reverse c..b.
        if (dir == 0)
          t.reverse(t.pos[b], pc);
        else
          t.reverse(pc, t.pos[b]);
        for (const uint32_t w : {a, b, c, d}) push(w);
        improved = true;
        break;
      }
    }
  }
}

}  // namespace

std::vector<uint32_t> build_orderings(const Model& model, const OrderingBuildOptions& o, OrderingStats* stats) {
  if (model.geometry() != DXT_GEOMETRY_EUCLIDEAN)
    fail(DXT_E_UNSUPPORTED, "orderings are built for Euclidean models only");
  const uint32_t V = model.vocabulary_size();
  if (V < 3) fail(DXT_E_INVALID_ARGUMENT, "orderings need a vocabulary of at least 3 words");
  if (o.count == 0 || o.count > format::orderings::kMaxCount)
    fail(DXT_E_INVALID_ARGUMENT, "the number of orderings must be 1 to " +
                                     std::to_string(format::orderings::kMaxCount) + " (got " + std::to_string(o.count) +
                                     ")");
  if (o.neighbours == 0 || o.neighbours > 256)
    fail(DXT_E_INVALID_ARGUMENT, "neighbours must be 1 to 256 (got " + std::to_string(o.neighbours) + ")");
  if (!o.groups.empty() && o.groups.size() != V)
    fail(DXT_E_INVALID_ARGUMENT, "groups must name one group per vocabulary word");
  const Points pts(model);
  std::vector<Group> groups;
  {
    std::vector<std::vector<uint32_t>> ids(256);
    for (uint32_t w = 0; w < V; ++w) ids[o.groups.empty() ? 0 : o.groups[w]].push_back(w);
    for (auto& g : ids)
      if (!g.empty()) groups.emplace_back(pts, std::move(g));
  }
  // Work units for the progress callback: V neighbour lists, then a tour of
  // every group per ordering.
  const double total = double{1} * V * (1 + o.count);
  double done = 0;
  auto tick = [&](uint32_t n) {
    done += n;
    if (o.progress) o.progress(done / total);
  };
  std::vector<std::vector<uint32_t>> nn(groups.size());
  std::vector<uint32_t> ks(groups.size());
  for (size_t g = 0; g < groups.size(); ++g) {
    ks[g] = std::min(o.neighbours, groups[g].size() - 1);
    if (ks[g] > 0) nn[g] = neighbour_lists(groups[g], ks[g], tick);
  }
  SplitMix64 rng{o.seed};
  std::vector<uint32_t> words(uint64_t{o.count} * V);
  for (uint32_t L = 0; L < o.count; ++L) {
    uint32_t* cycle = words.data() + uint64_t{L} * V;
    uint64_t filled = 0;
    for (size_t g = 0; g < groups.size(); ++g) {
      const Group& group = groups[g];
      const uint32_t n = group.size(), k = ks[g];
      const uint32_t start = rng.below(n);
      if (n < 3) {  // nothing to order
        for (uint32_t j = 0; j < n; ++j) cycle[filled++] = group.id(j);
        continue;
      }
      Tour t = greedy_tour(group, nn[g], k, start);
      two_opt(group, nn[g], k, t);
      // Opened at its longest edge (ties: the first place): the join to the
      // next group replaces the tour's worst step.
      uint32_t cut = 0;
      double longest = -1;
      for (uint32_t p = 0; p < n; ++p) {
        const double e = group.dist(t.at[p], t.at[t.next(p)]);
        if (e > longest) {
          longest = e;
          cut = t.next(p);
        }
      }
      for (uint32_t j = 0; j < n; ++j) cycle[filled++] = group.id(t.at[(cut + j) % n]);
      tick(n);
    }
  }
  if (stats) {
    *stats = OrderingStats{};
    // Against the nearest neighbours in the whole vocabulary (not the
    // group), of a sample of about 2 000 words (every step-th).
    const uint32_t k10 = std::min<uint32_t>(10, V - 1), step = std::max<uint32_t>(1, V / 2000);
    std::vector<uint32_t> sample, nn_all;
    std::vector<double> nearest;
    std::vector<std::pair<double, uint32_t>> d(V);
    for (uint32_t w = 0; w < V; w += step) {
      for (uint32_t v = 0; v < V; ++v) d[v] = {v == w ? INFINITY : pts.dist2(w, v), v};
      std::partial_sort(d.begin(), d.begin() + k10, d.end());
      sample.push_back(w);
      for (uint32_t j = 0; j < k10; ++j) nn_all.push_back(d[j].second);
      nearest.push_back(std::sqrt(d[0].first));
    }
    std::nth_element(nearest.begin(), nearest.begin() + nearest.size() / 2, nearest.end());
    stats->median_nearest = nearest[nearest.size() / 2];
    std::vector<uint32_t> pos(V);
    for (uint32_t L = 0; L < o.count; ++L) {
      const uint32_t* cycle = words.data() + uint64_t{L} * V;
      for (uint32_t p = 0; p < V; ++p) pos[cycle[p]] = p;
      std::vector<double> edges(V);
      double length = 0;
      for (uint32_t p = 0; p < V; ++p) length += edges[p] = pts.dist(cycle[p], cycle[(p + 1) % V]);
      std::nth_element(edges.begin(), edges.begin() + V / 2, edges.end());
      uint64_t near = 0;
      for (size_t i = 0; i < sample.size(); ++i)
        for (uint32_t j = 0; j < k10; ++j) {
          const uint32_t gap = (pos[nn_all[i * k10 + j]] + V - pos[sample[i]]) % V;
          near += std::min(gap, V - gap) <= 5;
        }
      stats->length.push_back(length);
      stats->median_edge.push_back(edges[V / 2]);
      stats->neighbours_within_5.push_back(static_cast<double>(near) / (static_cast<double>(sample.size()) * k10));
    }
  }
  return words;
}

std::vector<uint8_t> encode_orderings(const Model& model, const OrderingBuildOptions& o,
                                      const std::vector<uint32_t>& words) {
  namespace od = format::orderings;
  const uint64_t V = model.vocabulary_size();
  if (o.count == 0 || o.count > od::kMaxCount || words.size() != o.count * V)
    fail(DXT_E_INTERNAL, "orderings sizes do not match the model");
  std::vector<uint8_t> out(od::kHeaderSize + 4 * words.size(), 0);
  format::store_u32(out.data() + od::kMethod, od::kMethodTours);
  format::store_u32(out.data() + od::kCount, o.count);
  format::store_u32(out.data() + od::kVocabularySize, model.vocabulary_size());
  format::store_u32(out.data() + od::kNeighbours, o.neighbours);
  format::store_u64(out.data() + od::kSeed, o.seed);
  std::memcpy(out.data() + od::kHeaderSize, words.data(), 4 * words.size());
  return out;
}

}  // namespace dxt
