// SPDX-License-Identifier: Apache-2.0
// dxtext-poincare-train: Poincaré embeddings of a hierarchy (Nickel & Kiela,
// "Poincaré Embeddings for Learning Hierarchical Representations", NIPS 2017),
// trained by Riemannian SGD, deterministically, on several threads.
//
//   dxtext-poincare-train train --edges CLOSURE.tsv --output EMB.txt [options]
//   dxtext-poincare-train eval --edges CLOSURE.tsv --embedding EMB.txt
//   dxtext-poincare-train nearest --embedding EMB.txt [--k 10] WORD...
//   dxtext-poincare-train --self-test
//
// Input: the transitive closure of the hierarchy as TSV lines
// "child<TAB>ancestor". Output: GloVe text, "name v1 ... vD" per node, every
// norm below 1.
//
// Method (paper, sections 2-3; choices of the reference implementation where
// the paper leaves them open):
// - loss per closure edge (u, v): softmax cross-entropy of -d(u, v) against
//   -d(u, n) for N negatives n, averaged over the mini-batch;
// - negatives: N distinct nodes n that are neither u nor an ancestor of u
//   (descendants of u are negatives: the relation is directed, as in the
//   paper's D = {(u, v)}); during the burn-in drawn with probability
//   proportional to degree^0.75 (degree = closure edges at the node), then
//   uniformly;
// - Riemannian SGD: theta <- proj(theta - lr (1 - |theta|^2)^2 / 4 * grad),
//   proj scaling a point back to norm 1 - 1e-5; one step per node and batch
//   with the batch's summed gradient;
// - burn-in: the first epochs at lr * 0.1 (paper: 10 epochs at lr / 10);
// - initialisation: coordinates uniform in [-0.001, 0.001].
//
// Determinism: every random choice comes from a seeded xoshiro256** stream
// keyed by (seed, epoch, position in the epoch), never from the thread that
// makes it. A mini-batch's gradients are computed in parallel into per-thread
// buffers and then summed per node in batch order, so the result is
// bit-identical for a given seed whatever the number of threads.
//
// Standard library only.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "poincare_math.hpp"

namespace {

using poincare::Rng;
using Clock = std::chrono::steady_clock;

[[noreturn]] void die(const std::string& msg) { throw std::runtime_error(msg); }

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// --- The hierarchy ----------------------------------------------------------

struct Graph {
  std::vector<std::string> names;  // node id -> name, in order of first appearance
  std::unordered_map<std::string, uint32_t> ids;
  std::vector<std::pair<uint32_t, uint32_t>> edges;  // (child, ancestor), unique, sorted
  std::vector<uint32_t> anc_off, anc;                // CSR: ancestors of each node, sorted
  std::vector<uint32_t> desc_off, desc;              // CSR: descendants of each node, sorted

  uint32_t size() const { return static_cast<uint32_t>(names.size()); }
  uint32_t id(const std::string& name) {
    auto it = ids.find(name);
    if (it != ids.end()) return it->second;
    if (names.size() >= std::numeric_limits<uint32_t>::max() - 1) die("too many nodes");
    const auto i = static_cast<uint32_t>(names.size());
    names.push_back(name);
    ids.emplace(name, i);
    return i;
  }
};

void build_csr(uint32_t n, const std::vector<std::pair<uint32_t, uint32_t>>& pairs, std::vector<uint32_t>& off,
               std::vector<uint32_t>& out) {
  off.assign(n + 1, 0);
  for (const auto& p : pairs) ++off[p.first + 1];
  for (uint32_t i = 0; i < n; ++i) off[i + 1] += off[i];
  out.assign(pairs.size(), 0);
  std::vector<uint32_t> pos(off.begin(), off.end() - 1);
  for (const auto& p : pairs) out[pos[p.first]++] = p.second;
  for (uint32_t i = 0; i < n; ++i) std::sort(out.begin() + off[i], out.begin() + off[i + 1]);
}

// Builds the edge list and adjacency from (child, ancestor) pairs; removes
// self-loops and duplicates.
void finish_graph(Graph& g, std::vector<std::pair<uint32_t, uint32_t>> pairs) {
  pairs.erase(std::remove_if(pairs.begin(), pairs.end(), [](const auto& p) { return p.first == p.second; }),
              pairs.end());
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  g.edges = pairs;
  build_csr(g.size(), pairs, g.anc_off, g.anc);
  for (auto& p : pairs) std::swap(p.first, p.second);
  build_csr(g.size(), pairs, g.desc_off, g.desc);
}

Graph read_edges(const std::string& path) {
  std::ifstream in(path);
  if (!in) die("cannot open '" + path + "'");
  Graph g;
  std::vector<std::pair<uint32_t, uint32_t>> pairs;
  std::string line;
  uint64_t line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    const size_t tab = line.find('\t');
    if (tab == std::string::npos || tab == 0 || tab + 1 == line.size() || line.find('\t', tab + 1) != std::string::npos)
      die(path + ":" + std::to_string(line_no) + ": expected 'child<TAB>ancestor'");
    const uint32_t c = g.id(line.substr(0, tab));
    const uint32_t a = g.id(line.substr(tab + 1));
    pairs.emplace_back(c, a);
  }
  if (in.bad()) die("reading '" + path + "' failed");
  if (pairs.empty()) die("'" + path + "' holds no edges");
  finish_graph(g, std::move(pairs));
  return g;
}

// --- Embedding files (GloVe text) -------------------------------------------

// Writes through a temporary file renamed into place, unless the path exists
// and is not a regular file (a pipe, /dev/stdout), which is written directly.
void write_embedding(const std::string& path, const Graph& g, const std::vector<double>& emb, uint32_t dim) {
  std::error_code ec;
  const auto st = std::filesystem::status(path, ec);
  const bool direct = std::filesystem::exists(st) && !std::filesystem::is_regular_file(st);
  const std::string tmp = direct ? path : path + ".partial";
  FILE* f = std::fopen(tmp.c_str(), "wb");
  if (f == nullptr) die("cannot write '" + tmp + "'");
  for (uint32_t i = 0; i < g.size(); ++i) {
    std::fputs(g.names[i].c_str(), f);
    for (uint32_t j = 0; j < dim; ++j) std::fprintf(f, " %.17g", emb[size_t{i} * dim + j]);
    std::fputc('\n', f);
  }
  if (std::fclose(f) != 0) die("writing '" + tmp + "' failed");
  if (!direct && std::rename(tmp.c_str(), path.c_str()) != 0) die("cannot rename '" + tmp + "' to '" + path + "'");
}

struct Embedding {
  std::vector<std::string> words;
  std::vector<double> vectors;
  uint32_t dim = 0;
};

Embedding read_embedding(const std::string& path) {
  std::ifstream in(path);
  if (!in) die("cannot open '" + path + "'");
  Embedding e;
  std::string line;
  uint64_t line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.empty()) continue;
    std::istringstream ss(line);
    std::string w;
    ss >> w;
    std::vector<double> v;
    std::string tok;
    while (ss >> tok) {
      char* end = nullptr;
      const double x = std::strtod(tok.c_str(), &end);
      if (end == tok.c_str() || *end != '\0' || !std::isfinite(x))
        die(path + ":" + std::to_string(line_no) + ": bad number '" + tok + "'");
      v.push_back(x);
    }
    if (v.empty()) die(path + ":" + std::to_string(line_no) + ": no vector");
    if (e.dim == 0) e.dim = static_cast<uint32_t>(v.size());
    if (v.size() != e.dim) die(path + ":" + std::to_string(line_no) + ": wrong dimension");
    if (poincare::dot(v.data(), v.data(), v.size()) >= 1.0)
      die(path + ":" + std::to_string(line_no) + ": '" + w + "' lies outside the unit ball");
    e.words.push_back(w);
    e.vectors.insert(e.vectors.end(), v.begin(), v.end());
  }
  if (e.words.empty()) die("'" + path + "' holds no vectors");
  return e;
}

// Puts the rows of an embedding file in the node order of g.
std::vector<double> align_embedding(const Graph& g, const Embedding& e) {
  std::vector<double> out(size_t{g.size()} * e.dim, 0.0);
  std::vector<char> seen(g.size(), 0);
  for (size_t i = 0; i < e.words.size(); ++i) {
    auto it = g.ids.find(e.words[i]);
    if (it == g.ids.end()) continue;
    std::copy_n(e.vectors.begin() + static_cast<std::ptrdiff_t>(i * e.dim), e.dim,
                out.begin() + static_cast<std::ptrdiff_t>(size_t{it->second} * e.dim));
    seen[it->second] = 1;
  }
  for (uint32_t i = 0; i < g.size(); ++i)
    if (!seen[i]) die("the embedding has no vector for node '" + g.names[i] + "'");
  return out;
}

// --- Threads ------------------------------------------------------------------

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

// Asks for a node's row and squared norm to be brought into the cache: the
// rows of one edge's candidates are fetched in parallel rather than one miss
// at a time.
inline void prefetch_row(const double* row, uint32_t dim, const double* sq_norm) {
#if defined(__GNUC__)
  for (uint32_t i = 0; i < dim; i += 8) __builtin_prefetch(row + i);
  __builtin_prefetch(row + dim - 1);
  __builtin_prefetch(sq_norm);
#else
  (void)row;
  (void)dim;
  (void)sq_norm;
#endif
}

// A reusable barrier: spins briefly, then yields (both cheap when the partner
// arrives within microseconds), then sleeps, so that a descheduled partner on
// a shared machine does not cost a spinning core.
class Barrier {
 public:
  explicit Barrier(unsigned n) : n_(n) {}
  void wait() {
    if (n_ == 1) return;
    const uint64_t gen = gen_.load(std::memory_order_acquire);
    if (count_.fetch_add(1, std::memory_order_acq_rel) + 1 == n_) {
      count_.store(0, std::memory_order_relaxed);
      {
        std::lock_guard<std::mutex> lock(m_);
        gen_.store(gen + 1, std::memory_order_release);
      }
      cv_.notify_all();
      return;
    }
    for (int i = 0; i < 2000; ++i) {
      if (gen_.load(std::memory_order_acquire) != gen) return;
      if (i < 100) {
        cpu_relax();
      } else {
        std::this_thread::yield();
      }
    }
    std::unique_lock<std::mutex> lock(m_);
    cv_.wait(lock, [&] { return gen_.load(std::memory_order_acquire) != gen; });
  }

 private:
  const unsigned n_;
  std::atomic<unsigned> count_{0};
  std::atomic<uint64_t> gen_{0};
  std::mutex m_;
  std::condition_variable cv_;
};

// Runs body(t) for t = 0..threads-1, t = 0 on the calling thread.
void run_parallel(unsigned threads, const std::function<void(unsigned)>& body) {
  std::vector<std::thread> pool;
  std::vector<std::exception_ptr> errors(threads);
  for (unsigned t = 1; t < threads; ++t)
    pool.emplace_back([&, t] {
      try {
        body(t);
      } catch (...) {
        errors[t] = std::current_exception();
      }
    });
  try {
    body(0);
  } catch (...) {
    errors[0] = std::current_exception();
  }
  for (auto& th : pool) th.join();
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
}

// --- Training -----------------------------------------------------------------

struct TrainOptions {
  uint32_t dim = 10;
  uint32_t epochs = 100;
  uint32_t burnin = 10;  // epochs at lr * burnin_lr_factor (paper: 10 epochs at lr / 10)
  double burnin_lr_factor = 0.1;
  double lr = 1.0;       // for the batch-mean loss, as in the reference implementation
  double lr_final = -1;  // < 0: constant lr after burn-in; else linear decay to lr_final
  uint32_t negatives = 50;
  uint32_t batch = 50;
  uint64_t seed = 1;
  unsigned threads = 2;
  double init_range = 1e-3;   // initial coordinates uniform in [-init_range, init_range]
  bool burnin_degree = true;  // burn-in negatives ~ degree^0.75, afterwards uniform
  double degree_power = 0.75;
  double max_norm = poincare::kMaxNorm;  // projection radius (paper: 1 - 1e-5)
  uint32_t eval_every = 0;               // evaluate reconstruction every N epochs (0: never)
  bool quiet = false;
};

struct EvalResult {
  double mean_rank = 0, map = 0;          // paper protocol: neighbours of u are its ancestors
  double sym_mean_rank = 0, sym_map = 0;  // neighbours of u are its ancestors and descendants
  uint64_t ranked_edges = 0, ranked_nodes = 0;
  uint64_t rank_1 = 0, rank_le_10 = 0, rank_gt_100 = 0;  // edges by rank (paper protocol)
};

EvalResult evaluate(const Graph& g, const std::vector<double>& emb, uint32_t dim, unsigned threads, bool progress);

// Negative sampler for the burn-in: P(n) proportional to degree(n)^power,
// degree = number of closure edges at n (as child or as ancestor). Walker's
// alias method (Vose's construction, deterministic): O(1) per draw.
class DegreeSampler {
 public:
  DegreeSampler(const Graph& g, double power) {
    const uint32_t n = g.size();
    std::vector<double> p(n);
    double total = 0;
    for (uint32_t i = 0; i < n; ++i) {
      const double deg = (g.anc_off[i + 1] - g.anc_off[i]) + (g.desc_off[i + 1] - g.desc_off[i]);
      p[i] = std::pow(deg, power);
      total += p[i];
    }
    prob_.assign(n, 1.0);
    alias_.resize(n);
    std::vector<uint32_t> small, large;
    for (uint32_t i = 0; i < n; ++i) {
      alias_[i] = i;
      p[i] = p[i] * n / total;
      (p[i] < 1.0 ? small : large).push_back(i);
    }
    while (!small.empty() && !large.empty()) {
      const uint32_t s = small.back(), l = large.back();
      small.pop_back();
      prob_[s] = p[s];
      alias_[s] = l;
      p[l] = (p[l] + p[s]) - 1.0;
      if (p[l] < 1.0) {
        large.pop_back();
        small.push_back(l);
      }
    }
    // What is left has probability 1 up to rounding.
  }
  uint32_t sample(Rng& rng) const {
    const uint32_t i = rng.below(static_cast<uint32_t>(prob_.size()));
    return rng.uniform() < prob_[i] ? i : alias_[i];
  }

 private:
  std::vector<double> prob_;
  std::vector<uint32_t> alias_;
};

// Per-thread scratch space and gradient buffer.
struct Worker {
  std::vector<uint32_t> grad_nodes;  // one entry per (node, gradient) contribution
  std::vector<double> grad_values;   // dim doubles per entry
  std::vector<uint32_t> mark;        // stamp per node: excluded for the current edge
  uint32_t stamp = 0;
  std::vector<uint32_t> cand;  // cand[0] = positive, then the negatives
  std::vector<double> dots, roots, weight;
  std::vector<uint32_t> touched;  // nodes this thread updates in the current batch
  std::vector<double> acc;        // their summed gradients, dim doubles each
  double loss = 0;
  uint64_t sampled_negatives = 0;
};

// Loss of one edge (u, v) with negatives cand[1..]:
//   L = -log( exp(-d(u, v)) / sum_{c in cand} exp(-d(u, c)) )
// and its Euclidean gradient, times `scale`, appended to w's buffer: one
// entry for u, then one per candidate. sq_norm[i] = |emb_i|^2.
//
// With gamma = cosh d, exp(-d) = 1 / (gamma + sqrt(gamma^2 - 1)): the softmax
// needs neither log nor exp, and the loss one log per edge.
void edge_gradient(const double* emb, const double* sq_norm, uint32_t dim, uint32_t u, Worker& w, double scale) {
  const size_t k = w.cand.size();
  w.dots.resize(k);
  w.roots.resize(k);
  w.weight.resize(k);
  const double* xu = emb + size_t{u} * dim;
  const double su = sq_norm[u], alpha = 1.0 - su;
  double z = 0;
  for (size_t j = 0; j < k; ++j) {
    const double* y = emb + size_t{w.cand[j]} * dim;
    double dt = 0, sd = 0;
    for (uint32_t i = 0; i < dim; ++i) {
      dt += xu[i] * y[i];
      const double t = xu[i] - y[i];
      sd += t * t;
    }
    const double key = poincare::distance_key(sd, alpha, 1.0 - sq_norm[w.cand[j]]);  // gamma - 1
    const double root = std::sqrt(key * (key + 2.0));                                // sqrt(gamma^2 - 1)
    w.dots[j] = dt;
    w.roots[j] = root;
    w.weight[j] = 1.0 / (1.0 + key + root);  // exp(-d)
    z += w.weight[j];
  }
  w.loss += std::log(z / w.weight[0]);  // L = log(z) - log(exp(-d_0))
  // dL/dd_j = [j == 0] - softmax_j
  for (size_t j = 0; j < k; ++j) w.weight[j] = ((j == 0 ? 1.0 : 0.0) - w.weight[j] / z) * scale;

  const size_t at = w.grad_values.size();
  w.grad_values.resize(at + (k + 1) * dim, 0.0);
  double* gu = w.grad_values.data() + at;
  w.grad_nodes.push_back(u);
  for (size_t j = 0; j < k; ++j) {
    const uint32_t c = w.cand[j];
    poincare::add_pair_gradients(xu, emb + size_t{c} * dim, su, sq_norm[c], w.dots[j], w.roots[j], w.weight[j], gu,
                                 gu + (j + 1) * dim, dim);
    w.grad_nodes.push_back(c);
  }
}

// Draws the negatives of edge (u, v): distinct nodes that are neither u nor an
// ancestor of u (v is one), uniformly or by degree during the burn-in.
void sample_negatives(const Graph& g, uint32_t u, uint32_t v, uint32_t count, bool by_degree,
                      const DegreeSampler& degree, Rng& rng, Worker& w) {
  if (++w.stamp == 0) {  // wrapped: clear the marks
    std::fill(w.mark.begin(), w.mark.end(), 0u);
    w.stamp = 1;
  }
  const uint32_t s = w.stamp;
  w.mark[u] = s;
  for (uint32_t i = g.anc_off[u]; i < g.anc_off[u + 1]; ++i) w.mark[g.anc[i]] = s;
  w.cand.clear();
  w.cand.push_back(v);
  const uint32_t n = g.size();
  const uint64_t max_tries = 10ull * count + 10;
  for (uint64_t tries = 0; tries < max_tries && w.cand.size() < size_t{count} + 1; ++tries) {
    const uint32_t c = by_degree ? degree.sample(rng) : rng.below(n);
    if (w.mark[c] == s) continue;
    w.mark[c] = s;
    w.cand.push_back(c);
  }
  w.sampled_negatives += w.cand.size() - 1;
}

void init_embedding(std::vector<double>& emb, uint32_t n, const TrainOptions& o) {
  Rng rng(poincare::mix64(o.seed ^ 0x5EEDu));
  emb.resize(size_t{n} * o.dim);
  for (double& x : emb) x = (2.0 * rng.uniform() - 1.0) * o.init_range;
}

double epoch_lr(const TrainOptions& o, uint32_t epoch) {
  if (epoch < o.burnin) return o.lr * o.burnin_lr_factor;
  if (o.lr_final < 0 || o.epochs <= o.burnin + 1) return o.lr;
  const double t = double(epoch - o.burnin) / double(o.epochs - o.burnin - 1);
  return o.lr + (o.lr_final - o.lr) * t;
}

// Trains emb in place. An emb of the right size (n * dim) is the starting
// point; anything else is replaced by the seeded random initialisation.
void train(const Graph& g, const TrainOptions& o, std::vector<double>& emb,
           const std::function<void(uint32_t, const std::vector<double>&)>& on_epoch = nullptr) {
  const uint32_t n = g.size();
  const uint32_t dim = o.dim;
  const size_t E = g.edges.size();
  const unsigned T = std::max(1u, o.threads);
  if (emb.size() != size_t{n} * dim) init_embedding(emb, n, o);  // else: continue from the given embedding
  DegreeSampler degree(g, o.degree_power);
  std::vector<uint32_t> perm(E);
  for (size_t i = 0; i < E; ++i) perm[i] = static_cast<uint32_t>(i);
  std::vector<Worker> workers(T);
  for (auto& w : workers) w.mark.assign(n, 0);
  // slot[node]: where the node's summed gradient sits in its owner thread's
  // compact accumulator during the current batch (UINT32_MAX: untouched).
  std::vector<uint32_t> slot(n, UINT32_MAX);
  std::vector<double> sq_norm(n);
  for (uint32_t i = 0; i < n; ++i) sq_norm[i] = poincare::dot(&emb[size_t{i} * dim], &emb[size_t{i} * dim], dim);
  const uint64_t seed_key = poincare::mix64(o.seed);
  const auto t_start = Clock::now();
  if (!o.quiet)
    std::fprintf(stderr,
                 "training: %u nodes, %zu edges, dim %u, %u epochs (burn-in %u at lr x %g), lr %g%s, %u negatives "
                 "(%s), batch %u, seed %llu, %u threads, max norm 1 - %.3g\n",
                 n, E, dim, o.epochs, o.burnin, o.burnin_lr_factor, o.lr,
                 o.lr_final >= 0 ? (" -> " + std::to_string(o.lr_final)).c_str() : "", o.negatives,
                 o.burnin_degree ? "burn-in by degree^0.75, then uniform" : "uniform", o.batch,
                 static_cast<unsigned long long>(o.seed), T, 1.0 - o.max_norm);

  for (uint32_t epoch = 0; epoch < o.epochs; ++epoch) {
    const auto t_epoch = Clock::now();
    const bool burn = epoch < o.burnin;
    const double lr = epoch_lr(o, epoch);
    {
      Rng shuffle_rng(poincare::mix64(seed_key ^ (0xABCDull + epoch)));
      for (size_t i = E; i > 1; --i) std::swap(perm[i - 1], perm[shuffle_rng.below(static_cast<uint32_t>(i))]);
    }
    for (auto& w : workers) {
      w.loss = 0;
      w.sampled_negatives = 0;
    }
    Barrier barrier(T);
    const size_t batches = (E + o.batch - 1) / o.batch;
    run_parallel(T, [&](unsigned t) {
      Worker& w = workers[t];
      for (size_t b = 0; b < batches; ++b) {
        const size_t start = b * o.batch;
        const size_t end = std::min(E, start + o.batch);
        const size_t len = end - start;
        const size_t chunk = (len + T - 1) / T;
        const size_t lo = std::min(end, start + t * chunk), hi = std::min(end, lo + chunk);
        const double scale = 1.0 / double(len);  // loss = mean over the batch
        // 1. gradients of my share of the batch
        w.grad_nodes.clear();
        w.grad_values.clear();
        for (size_t pos = lo; pos < hi; ++pos) {
          const auto& e = g.edges[perm[pos]];
          Rng rng(seed_key ^ poincare::mix64(uint64_t{epoch} * E + pos + 1));
          sample_negatives(g, e.first, e.second, o.negatives, burn && o.burnin_degree, degree, rng, w);
          for (uint32_t c : w.cand) prefetch_row(emb.data() + size_t{c} * dim, dim, sq_norm.data() + c);
          edge_gradient(emb.data(), sq_norm.data(), dim, e.first, w, scale);
        }
        barrier.wait();
        // 2. sum the contributions per node in batch order (thread 0's share
        // first), each thread for the nodes it owns, then one RSGD step per node
        w.touched.clear();
        w.acc.clear();
        for (unsigned s = 0; s < T; ++s) {
          const Worker& src = workers[s];
          for (size_t k = 0; k < src.grad_nodes.size(); ++k) {
            const uint32_t node = src.grad_nodes[k];
            if (node % T != t) continue;
            const double* gv = src.grad_values.data() + k * dim;
            if (slot[node] == UINT32_MAX) {
              slot[node] = static_cast<uint32_t>(w.touched.size());
              w.touched.push_back(node);
              w.acc.insert(w.acc.end(), gv, gv + dim);
            } else {
              double* a = w.acc.data() + size_t{slot[node]} * dim;
              for (uint32_t j = 0; j < dim; ++j) a[j] += gv[j];
            }
          }
        }
        for (size_t i = 0; i < w.touched.size(); ++i) {
          const uint32_t node = w.touched[i];
          double* theta = emb.data() + size_t{node} * dim;
          poincare::rsgd_step(theta, w.acc.data() + i * dim, lr, dim, o.max_norm);
          sq_norm[node] = poincare::dot(theta, theta, dim);
          slot[node] = UINT32_MAX;
        }
        barrier.wait();
      }
    });
    double loss = 0;
    uint64_t negs = 0;
    for (const auto& w : workers) {
      loss += w.loss;
      negs += w.sampled_negatives;
    }
    if (!o.quiet) {
      const double el = seconds_since(t_start);
      const double eta = el / (epoch + 1) * (o.epochs - epoch - 1);
      std::fprintf(stderr, "epoch %u/%u%s lr %.4g loss %.5f negatives/edge %.2f  %.1fs  (elapsed %.0fs, eta %.0fs)\n",
                   epoch + 1, o.epochs, burn ? " burn-in" : "", lr, loss / double(E), double(negs) / double(E),
                   seconds_since(t_epoch), el, eta);
    }
    if (o.eval_every != 0 && (epoch + 1) % o.eval_every == 0 && epoch + 1 != o.epochs) {
      const EvalResult r = evaluate(g, emb, dim, T, false);
      std::fprintf(stderr, "eval after epoch %u: mean rank %.3f, MAP %.4f (symmetric: mean rank %.3f, MAP %.4f)\n",
                   epoch + 1, r.mean_rank, r.map, r.sym_mean_rank, r.sym_map);
    }
    if (on_epoch) on_epoch(epoch, emb);
  }
}

// --- Reconstruction evaluation ------------------------------------------------
//
// Paper protocol (Nickel & Kiela 2017, section 4.1; reference implementation's
// eval_reconstruction): for every node u with at least one ancestor, each
// ancestor v of u (every closure edge (u, v)) is ranked by distance among v and
// all nodes w != u with (u, w) not in the closure:
//   rank(u, v) = 1 + #{w : w != u, (u, w) not an edge, d(u, w) <= d(u, v)}
// (ties counted against v). Mean rank = mean over edges. MAP = mean over those
// nodes of the average precision of the ranking of all nodes w != u by d(u, w)
// with u's ancestors as the relevant items.
//
// Symmetric variant (also reported): the neighbours of u are its ancestors and
// its descendants; every node with a neighbour is ranked.

struct NodeScore {
  double rank_sum = 0, ap = 0;
  uint32_t nranks = 0;
  uint32_t rank_1 = 0, rank_le_10 = 0, rank_gt_100 = 0;
  double sym_rank_sum = 0, sym_ap = 0;
  uint32_t sym_nranks = 0;
};

// Given the neighbours' keys (sorted) and, for each neighbour j, the number of
// non-neighbours with a key <= key[j], accumulates the rank sum and the AP.
void score_ranking(const std::vector<uint64_t>& before, size_t k, double& rank_sum, double& ap) {
  rank_sum = 0;
  ap = 0;
  for (size_t j = 0; j < k; ++j) {
    rank_sum += 1.0 + double(before[j]);
    ap += double(j + 1) / double(j + 1 + before[j]);  // precision at the j-th relevant item
  }
  ap /= double(k);
}

EvalResult evaluate(const Graph& g, const std::vector<double>& emb, uint32_t dim, unsigned threads, bool progress) {
  const uint32_t n = g.size();
  std::vector<double> inv_alpha(n);
  for (uint32_t i = 0; i < n; ++i) {
    const double* x = emb.data() + size_t{i} * dim;
    inv_alpha[i] = 1.0 / (1.0 - poincare::dot(x, x, dim));
  }
  std::vector<NodeScore> scores(n);
  std::atomic<uint32_t> next{0}, done{0};
  const auto t0 = Clock::now();
  const unsigned T = std::max(1u, threads);
  constexpr uint32_t kGroup = 4;  // nodes u whose distances share one pass over the embedding
  run_parallel(T, [&](unsigned t) {
    std::vector<uint32_t> anc_mark(n, 0), desc_mark(n, 0);
    std::vector<double> nk, sk;          // sorted neighbour keys (directed, symmetric)
    std::vector<uint64_t> cnt_d, cnt_s;  // non-neighbours per key interval
    std::vector<double> keys(size_t{kGroup} * n);
    double next_report = 5;
    for (;;) {
      const uint32_t begin = next.fetch_add(kGroup);
      if (begin >= n) break;
      const uint32_t end = std::min(n, begin + kGroup);
      uint32_t group[kGroup];
      uint32_t m = 0;
      for (uint32_t u = begin; u < end; ++u)
        if (g.anc_off[u + 1] > g.anc_off[u] || g.desc_off[u + 1] > g.desc_off[u]) group[m++] = u;
      // key(u, w) = |u - w|^2 / (1 - |w|^2): for a fixed u, a strictly
      // increasing function of d(u, w) = arcosh(1 + 2 key / (1 - |u|^2)).
      for (uint32_t w = 0; w < n; ++w) {
        const double* xw = emb.data() + size_t{w} * dim;
        for (uint32_t b = 0; b < m; ++b) {
          const double* xu = emb.data() + size_t{group[b]} * dim;
          double sd = 0;
          for (uint32_t i = 0; i < dim; ++i) {
            const double d = xu[i] - xw[i];
            sd += d * d;
          }
          keys[size_t{b} * n + w] = sd * inv_alpha[w];
        }
      }
      for (uint32_t b = 0; b < m; ++b) {
        const uint32_t u = group[b];
        const double* key = keys.data() + size_t{b} * n;
        const uint32_t stamp = u + 1;
        nk.clear();
        for (uint32_t i = g.anc_off[u]; i < g.anc_off[u + 1]; ++i) {
          anc_mark[g.anc[i]] = stamp;
          nk.push_back(key[g.anc[i]]);
        }
        sk = nk;
        for (uint32_t i = g.desc_off[u]; i < g.desc_off[u + 1]; ++i) {
          desc_mark[g.desc[i]] = stamp;
          sk.push_back(key[g.desc[i]]);
        }
        std::sort(nk.begin(), nk.end());
        std::sort(sk.begin(), sk.end());
        cnt_d.assign(nk.size(), 0);
        cnt_s.assign(sk.size(), 0);
        const double max_d = nk.empty() ? -1.0 : nk.back();
        const double max_s = sk.back();
        const double max_any = std::max(max_d, max_s);
        for (uint32_t w = 0; w < n; ++w) {
          const double kw = key[w];
          if (kw > max_any || w == u || anc_mark[w] == stamp) continue;
          if (kw <= max_d) ++cnt_d[std::lower_bound(nk.begin(), nk.end(), kw) - nk.begin()];
          if (desc_mark[w] != stamp && kw <= max_s) ++cnt_s[std::lower_bound(sk.begin(), sk.end(), kw) - sk.begin()];
        }
        for (size_t j = 1; j < cnt_d.size(); ++j) cnt_d[j] += cnt_d[j - 1];
        for (size_t j = 1; j < cnt_s.size(); ++j) cnt_s[j] += cnt_s[j - 1];
        NodeScore& s = scores[u];
        if (!nk.empty()) {
          score_ranking(cnt_d, nk.size(), s.rank_sum, s.ap);
          s.nranks = static_cast<uint32_t>(nk.size());
          for (uint64_t before : cnt_d) {
            s.rank_1 += before == 0;
            s.rank_le_10 += before < 10;
            s.rank_gt_100 += before >= 100;
          }
        }
        score_ranking(cnt_s, sk.size(), s.sym_rank_sum, s.sym_ap);
        s.sym_nranks = static_cast<uint32_t>(sk.size());
      }
      const uint32_t d = done.fetch_add(end - begin) + (end - begin);
      if (progress && t == 0 && 100.0 * d / n >= next_report) {
        const double el = seconds_since(t0);
        std::fprintf(stderr, "  evaluating: %u/%u nodes (%.0f%%), %.0fs, eta %.0fs\n", d, n, 100.0 * d / n, el,
                     el / d * (n - d));
        next_report = 100.0 * d / n + 5;
      }
    }
  });
  EvalResult r;
  double rank_sum = 0, ap_sum = 0, sym_rank_sum = 0, sym_ap_sum = 0;
  uint64_t nranks = 0, nnodes = 0, sym_nranks = 0, sym_nnodes = 0;
  for (const NodeScore& s : scores) {  // in node order: deterministic
    if (s.nranks > 0) {
      r.rank_1 += s.rank_1;
      r.rank_le_10 += s.rank_le_10;
      r.rank_gt_100 += s.rank_gt_100;
      rank_sum += s.rank_sum;
      nranks += s.nranks;
      ap_sum += s.ap;
      ++nnodes;
    }
    if (s.sym_nranks > 0) {
      sym_rank_sum += s.sym_rank_sum;
      sym_nranks += s.sym_nranks;
      sym_ap_sum += s.sym_ap;
      ++sym_nnodes;
    }
  }
  r.mean_rank = nranks ? rank_sum / double(nranks) : 0;
  r.map = nnodes ? ap_sum / double(nnodes) : 0;
  r.sym_mean_rank = sym_nranks ? sym_rank_sum / double(sym_nranks) : 0;
  r.sym_map = sym_nnodes ? sym_ap_sum / double(sym_nnodes) : 0;
  r.ranked_edges = nranks;
  r.ranked_nodes = nnodes;
  return r;
}

// --- Self-test ------------------------------------------------------------------

int failures = 0;

void check(bool ok, const std::string& what) {
  std::fprintf(stderr, "  [%s] %s\n", ok ? " ok " : "FAIL", what.c_str());
  if (!ok) ++failures;
}

std::string fmt(const char* f, double a, double b = 0) {
  char buf[256];
  std::snprintf(buf, sizeof buf, f, a, b);
  return buf;
}

std::vector<double> random_point(Rng& rng, uint32_t dim, double max_norm) {
  std::vector<double> x(dim);
  for (double& v : x) v = 2 * rng.uniform() - 1;
  const double norm = std::sqrt(poincare::dot(x.data(), x.data(), dim));
  const double r = max_norm * rng.uniform();
  for (double& v : x) v *= r / norm;
  return x;
}

// Möbius addition x (+) y in the Poincaré ball; d(x, y) = 2 artanh |(-x) (+) y|
// is an independent formula for the distance.
std::vector<double> mobius_add(const std::vector<double>& x, const std::vector<double>& y) {
  const size_t n = x.size();
  const double xy = poincare::dot(x.data(), y.data(), n), xx = poincare::dot(x.data(), x.data(), n),
               yy = poincare::dot(y.data(), y.data(), n);
  const double den = 1 + 2 * xy + xx * yy;
  std::vector<double> r(n);
  for (size_t i = 0; i < n; ++i) r[i] = ((1 + 2 * xy + yy) * x[i] + (1 - xx) * y[i]) / den;
  return r;
}

// A complete `branching`-ary tree of the given depth, as its transitive closure.
Graph toy_tree(uint32_t branching, uint32_t depth) {
  Graph g;
  std::vector<std::pair<uint32_t, uint32_t>> pairs;
  std::vector<uint32_t> parent;
  std::vector<uint32_t> level{g.id("root")};
  parent.push_back(UINT32_MAX);
  for (uint32_t d = 0; d < depth; ++d) {
    std::vector<uint32_t> next_level;
    for (uint32_t p : level)
      for (uint32_t c = 0; c < branching; ++c) {
        const uint32_t id = g.id(g.names[p] + "." + std::to_string(c));
        parent.push_back(p);
        next_level.push_back(id);
      }
    level = next_level;
  }
  for (uint32_t i = 0; i < g.size(); ++i)
    for (uint32_t a = parent[i]; a != UINT32_MAX; a = parent[a]) pairs.emplace_back(i, a);
  finish_graph(g, pairs);
  return g;
}

int self_test() {
  Rng rng(12345);
  std::fprintf(stderr, "distance:\n");
  {
    const uint32_t dim = 5;
    double worst_origin = 0, worst_mobius = 0, worst_sym = 0, worst_triangle = 0;
    std::vector<double> origin(dim, 0.0);
    for (int trial = 0; trial < 2000; ++trial) {
      const double max_norm = trial % 2 ? 0.999 : 0.9;
      auto x = random_point(rng, dim, max_norm), y = random_point(rng, dim, max_norm),
           z = random_point(rng, dim, max_norm);
      const double r = std::sqrt(poincare::dot(x.data(), x.data(), dim));
      const double d0 = poincare::distance(origin.data(), x.data(), dim);
      worst_origin = std::max(worst_origin, std::fabs(d0 - std::log((1 + r) / (1 - r))) / std::max(1.0, d0));
      std::vector<double> mx(x);
      for (double& v : mx) v = -v;
      const auto m = mobius_add(mx, y);
      const double dm = 2 * std::atanh(std::sqrt(poincare::dot(m.data(), m.data(), dim)));
      const double dxy = poincare::distance(x.data(), y.data(), dim);
      worst_mobius = std::max(worst_mobius, std::fabs(dxy - dm) / std::max(1.0, dm));
      worst_sym = std::max(worst_sym, std::fabs(dxy - poincare::distance(y.data(), x.data(), dim)));
      const double dxz = poincare::distance(x.data(), z.data(), dim), dzy = poincare::distance(z.data(), y.data(), dim);
      worst_triangle = std::max(worst_triangle, dxy - (dxz + dzy));
    }
    check(worst_origin < 1e-9, fmt("d(0, x) = ln((1+|x|)/(1-|x|)); worst relative error %.3g", worst_origin));
    check(worst_mobius < 1e-7, fmt("d(x, y) = 2 artanh|(-x) (+) y| (Mobius); worst relative error %.3g", worst_mobius));
    check(worst_sym < 1e-12, fmt("d(x, y) = d(y, x); worst difference %.3g", worst_sym));
    check(worst_triangle < 1e-9, fmt("triangle inequality; worst excess %.3g", worst_triangle));
    auto x = random_point(rng, dim, 0.7);
    check(poincare::distance(x.data(), x.data(), dim) == 0.0, "d(x, x) = 0");
  }

  std::fprintf(stderr, "gradients against central finite differences:\n");
  {
    const uint32_t dim = 4;
    double worst = 0;
    for (int trial = 0; trial < 500; ++trial) {
      const double max_norm = trial % 2 ? 0.95 : 0.5;
      auto x = random_point(rng, dim, max_norm), y = random_point(rng, dim, max_norm);
      const auto p = poincare::distance_parts(x.data(), y.data(), dim);
      std::vector<double> gx(dim, 0.0);
      poincare::add_distance_gradient(x.data(), y.data(), p.sq_norm_x, p.sq_norm_y, p.dot_xy, p.gamma, 1.0, gx.data(),
                                      dim);
      for (uint32_t i = 0; i < dim; ++i) {
        const double h = 1e-6 * (1 - max_norm);
        auto xp = x, xm = x;
        xp[i] += h;
        xm[i] -= h;
        const double fd =
            (poincare::distance(xp.data(), y.data(), dim) - poincare::distance(xm.data(), y.data(), dim)) / (2 * h);
        worst = std::max(worst, std::fabs(fd - gx[i]) / std::max(1.0, std::fabs(fd)));
      }
    }
    check(worst < 1e-5, fmt("d d(x, y) / dx; worst relative error %.3g", worst));

    // The whole per-edge loss (softmax over the positive and the negatives),
    // as the trainer computes it, against finite differences of the loss.
    const uint32_t n = 8;
    std::vector<double> emb(size_t{n} * dim);
    for (uint32_t i = 0; i < n; ++i) {
      auto x = random_point(rng, dim, 0.9);
      std::copy(x.begin(), x.end(), emb.begin() + i * dim);
    }
    Worker w;
    w.cand = {1, 2, 3, 4, 5, 6, 7};
    const uint32_t u = 0;
    auto loss_of = [&](const std::vector<double>& e) {
      double z = 0;
      for (uint32_t c : w.cand) z += std::exp(-poincare::distance(e.data(), e.data() + size_t{c} * dim, dim));
      return poincare::distance(e.data(), e.data() + size_t{w.cand[0]} * dim, dim) + std::log(z);
    };
    std::vector<double> sq(n);
    for (uint32_t i = 0; i < n; ++i) sq[i] = poincare::dot(&emb[size_t{i} * dim], &emb[size_t{i} * dim], dim);
    edge_gradient(emb.data(), sq.data(), dim, u, w, 1.0);
    std::vector<double> full(emb.size(), 0.0);
    for (size_t k = 0; k < w.grad_nodes.size(); ++k)
      for (uint32_t j = 0; j < dim; ++j) full[size_t{w.grad_nodes[k]} * dim + j] += w.grad_values[k * dim + j];
    double worst_loss = 0;
    for (size_t i = 0; i < emb.size(); ++i) {
      const double h = 1e-7;
      auto ep = emb, em = emb;
      ep[i] += h;
      em[i] -= h;
      const double fd = (loss_of(ep) - loss_of(em)) / (2 * h);
      worst_loss = std::max(worst_loss, std::fabs(fd - full[i]) / std::max(1.0, std::fabs(fd)));
    }
    check(std::fabs(w.loss - loss_of(emb)) < 1e-12, "per-edge loss value");
    check(worst_loss < 1e-5, fmt("per-edge softmax loss, all 8 points; worst relative error %.3g", worst_loss));

    // A Riemannian step stays in the ball.
    std::vector<double> theta{0.6, 0.79, 0.0, 0.0};
    std::vector<double> gr{-100.0, -100.0, 0.0, 0.0};
    poincare::rsgd_step(theta.data(), gr.data(), 1e6, dim);
    const double nt = std::sqrt(poincare::dot(theta.data(), theta.data(), dim));
    check(nt <= poincare::kMaxNorm + 1e-15 && nt > 0.99, fmt("projection keeps |theta| <= 1 - 1e-5 (%.12f)", nt));
  }

  std::fprintf(stderr, "training on a toy tree (3-ary, depth 4: 121 nodes):\n");
  {
    Graph g = toy_tree(3, 4);
    TrainOptions o;
    o.dim = 5;
    o.epochs = 100;
    o.burnin = 10;
    o.negatives = 10;
    o.batch = 10;
    o.lr = 1.0;
    o.seed = 7;
    o.quiet = true;
    o.threads = 2;
    std::vector<double> a, b, c, d;
    train(g, o, a);
    train(g, o, b);
    o.threads = 1;
    train(g, o, c);
    o.threads = 2;
    o.seed = 8;
    train(g, o, d);
    check(a == b, "same seed, 2 threads, twice: bit-identical embeddings");
    check(a == c, "same seed, 1 thread vs 2 threads: bit-identical embeddings");
    check(a != d, "another seed gives another embedding");
    double max_norm = 0;
    for (uint32_t i = 0; i < g.size(); ++i) {
      const double* x = a.data() + size_t{i} * o.dim;
      max_norm = std::max(max_norm, std::sqrt(poincare::dot(x, x, o.dim)));
    }
    check(max_norm < 1.0, fmt("all norms < 1 (max %.6f)", max_norm));
    const double* root = a.data();
    const double* leaf = a.data() + size_t{g.size() - 1} * o.dim;
    check(std::sqrt(poincare::dot(root, root, o.dim)) < std::sqrt(poincare::dot(leaf, leaf, o.dim)),
          "the root is nearer the origin than a leaf");
    const EvalResult r1 = evaluate(g, a, o.dim, 2, false), r2 = evaluate(g, a, o.dim, 1, false);
    check(r1.map == r2.map && r1.mean_rank == r2.mean_rank, "evaluation: 1 and 2 threads agree");
    check(r1.ranked_edges == g.edges.size(), "evaluation ranks every edge");
    check(r1.map > 0.9 && r1.mean_rank < 1.5, fmt("reconstruction: MAP %.4f, mean rank %.3f", r1.map, r1.mean_rank));

    // Evaluation of a perfect and of a known embedding.
    // Root at the origin, children at norm 0.5, grandchildren at norm 0.8,
    // 40 degrees either side of their parent: every node is nearer its
    // ancestors than anything else.
    Graph s = toy_tree(2, 2);  // root, root.0, root.1, root.0.0, root.0.1, root.1.0, root.1.1
    std::vector<double> e2(size_t{s.size()} * 2, 0.0);
    auto put = [&](const std::string& name, double x, double y) {
      e2[size_t{s.ids.at(name)} * 2] = x;
      e2[size_t{s.ids.at(name)} * 2 + 1] = y;
    };
    put("root", 0, 0);
    put("root.0", 0.5, 0);
    put("root.1", -0.5, 0);
    const double c40 = 0.8 * std::cos(0.698131700798), s40 = 0.8 * std::sin(0.698131700798);
    put("root.0.0", c40, s40);
    put("root.0.1", c40, -s40);
    put("root.1.0", -c40, s40);
    put("root.1.1", -c40, -s40);
    const EvalResult p = evaluate(s, e2, 2, 2, false);
    check(p.map == 1.0 && p.mean_rank == 1.0,
          fmt("hand-made layout: MAP %.4f, mean rank %.3f (expect 1, 1)", p.map, p.mean_rank));
    // Swap root.0 and root.1.0: the ranking must get worse.
    put("root.0", -c40, s40);
    put("root.1.0", 0.5, 0);
    const EvalResult q = evaluate(s, e2, 2, 1, false);
    check(q.map < 1.0 && q.mean_rank > 1.0, fmt("perturbed layout: MAP %.4f, mean rank %.3f", q.map, q.mean_rank));
  }
  std::fprintf(stderr, failures == 0 ? "self-test passed\n" : "self-test FAILED (%d)\n", failures);
  return failures == 0 ? 0 : 1;
}

// --- Command line -----------------------------------------------------------------

const char* kUsage =
    "usage: dxtext-poincare-train COMMAND [OPTIONS]\n"
    "\n"
    "  train --edges CLOSURE.tsv --output EMB.txt [--dim 10] [--epochs 100] [--burnin 10]\n"
    "        [--burnin-lr-factor 0.1] [--lr 1.0] [--lr-final X] [--negatives 50] [--batch 50]\n"
    "        [--seed 1] [--threads 2] [--init-range 0.001] [--burnin-sampling degree|uniform]\n"
    "        [--max-norm 0.99999] [--eval-every N] [--init EMB.txt]\n"
    "      train Poincare embeddings of the closure (TSV child<TAB>ancestor) by Riemannian SGD;\n"
    "      the loss is averaged over each mini-batch. Writes GloVe text (name v1 ... vD).\n"
    "      --init continues from an embedding instead of the random start (use --burnin 0).\n"
    "      --max-norm R: points are projected back to Euclidean norm R after each step\n"
    "      (paper: 1 - 1e-5); a smaller R keeps every point within 2 artanh(R) of the origin.\n"
    "  eval --edges CLOSURE.tsv --embedding EMB.txt [--threads 2] [--round f32|f16]\n"
    "      reconstruction mean rank and MAP (Nickel & Kiela 2017, section 4.1)\n"
    "  nearest --embedding EMB.txt [--k 10] WORD...\n"
    "      the K nearest words of each WORD in Poincare distance, with norms\n"
    "  --self-test\n"
    "      check the distance, the gradients and determinism on a toy tree\n";

struct Args {
  std::map<std::string, std::string> opts;
  std::vector<std::string> positional;
  Args(int argc, char** argv, int first) {
    for (int i = first; i < argc; ++i) {
      std::string a = argv[i];
      if (a.rfind("--", 0) == 0) {
        if (i + 1 >= argc) die("option " + a + " needs a value");
        opts[a.substr(2)] = argv[++i];
      } else {
        positional.push_back(a);
      }
    }
  }
  bool has(const std::string& k) const { return opts.count(k) != 0; }
  std::string str(const std::string& k) const {
    auto it = opts.find(k);
    if (it == opts.end()) die("missing --" + k);
    return it->second;
  }
  double num(const std::string& k, double def) const {
    auto it = opts.find(k);
    if (it == opts.end()) return def;
    char* end = nullptr;
    const double v = std::strtod(it->second.c_str(), &end);
    if (end == it->second.c_str() || *end != '\0' || !std::isfinite(v)) die("bad value for --" + k);
    return v;
  }
  uint64_t integer(const std::string& k, uint64_t def) const {
    auto it = opts.find(k);
    if (it == opts.end()) return def;
    char* end = nullptr;
    const unsigned long long v = std::strtoull(it->second.c_str(), &end, 10);
    if (end == it->second.c_str() || *end != '\0' || it->second[0] == '-') die("bad value for --" + k);
    return v;
  }
  void allow(std::initializer_list<const char*> names) const {
    for (const auto& kv : opts) {
      bool ok = false;
      for (const char* nm : names) ok = ok || kv.first == nm;
      if (!ok) die("unknown option --" + kv.first);
    }
  }
};

uint32_t to_u32(uint64_t v, const char* what, uint64_t lo, uint64_t hi) {
  if (v < lo || v > hi) die(std::string("--") + what + " must be in " + std::to_string(lo) + ".." + std::to_string(hi));
  return static_cast<uint32_t>(v);
}

void print_eval(const EvalResult& r, const Graph& g) {
  std::printf(
      "nodes %u\nedges %zu\nranked_edges %llu\nranked_nodes %llu\nmean_rank %.4f\nmap %.4f\n"
      "edges_rank_1 %llu\nedges_rank_le_10 %llu\nedges_rank_gt_100 %llu\n"
      "symmetric_mean_rank %.4f\nsymmetric_map %.4f\n",
      g.size(), g.edges.size(), static_cast<unsigned long long>(r.ranked_edges),
      static_cast<unsigned long long>(r.ranked_nodes), r.mean_rank, r.map, static_cast<unsigned long long>(r.rank_1),
      static_cast<unsigned long long>(r.rank_le_10), static_cast<unsigned long long>(r.rank_gt_100), r.sym_mean_rank,
      r.sym_map);
}

float round_f16(float x) {
  // Round to the nearest binary16 value (ties to even), returned as float.
  if (x == 0 || !std::isfinite(x)) return x;
  int e = 0;
  std::frexp(x, &e);                            // |x| in [2^(e-1), 2^e)
  const int exp_min = -14;                      // smallest normal exponent of f16 is 2^-14
  const int q = std::max(e - 1, exp_min) - 10;  // spacing 2^q
  return static_cast<float>(std::nearbyint(std::ldexp(double(x), -q)) * std::ldexp(1.0, q));
}

int cmd_train(const Args& a) {
  a.allow({"edges", "output", "dim", "epochs", "burnin", "burnin-lr-factor", "lr", "lr-final", "negatives", "batch",
           "seed", "threads", "init-range", "burnin-sampling", "eval-every", "init", "max-norm"});
  TrainOptions o;
  o.dim = to_u32(a.integer("dim", o.dim), "dim", 1, 4096);
  o.epochs = to_u32(a.integer("epochs", o.epochs), "epochs", 1, 1000000);
  o.burnin = to_u32(a.integer("burnin", o.burnin), "burnin", 0, 1000000);
  o.burnin_lr_factor = a.num("burnin-lr-factor", o.burnin_lr_factor);
  o.lr = a.num("lr", o.lr);
  o.lr_final = a.num("lr-final", o.lr_final);
  o.negatives = to_u32(a.integer("negatives", o.negatives), "negatives", 1, 100000);
  o.batch = to_u32(a.integer("batch", o.batch), "batch", 1, 1000000);
  o.seed = a.integer("seed", o.seed);
  o.threads = to_u32(a.integer("threads", o.threads), "threads", 1, 256);
  o.init_range = a.num("init-range", o.init_range);
  o.max_norm = a.num("max-norm", o.max_norm);
  if (!(o.max_norm > 0 && o.max_norm <= poincare::kMaxNorm))
    die("--max-norm must be in (0, 1 - 1e-5]: a smaller ball keeps leaves closer together in d_H");
  o.eval_every = to_u32(a.integer("eval-every", 0), "eval-every", 0, 1000000);
  if (a.has("burnin-sampling")) {
    const std::string s = a.str("burnin-sampling");
    if (s != "degree" && s != "uniform") die("--burnin-sampling must be degree or uniform");
    o.burnin_degree = s == "degree";
  }
  if (!(o.lr > 0) || !(o.init_range > 0 && o.init_range < 0.1)) die("bad --lr or --init-range");
  const auto t0 = Clock::now();
  Graph g = read_edges(a.str("edges"));
  std::fprintf(stderr, "read %u nodes and %zu edges in %.1fs\n", g.size(), g.edges.size(), seconds_since(t0));
  std::vector<double> emb;
  if (a.has("init")) {
    const Embedding e = read_embedding(a.str("init"));
    if (e.dim != o.dim) die("--init has dimension " + std::to_string(e.dim) + ", not --dim");
    emb = align_embedding(g, e);
    std::fprintf(stderr, "starting from %s\n", a.str("init").c_str());
  }
  const auto t1 = Clock::now();
  train(g, o, emb);
  std::fprintf(stderr, "trained in %.1fs\n", seconds_since(t1));
  write_embedding(a.str("output"), g, emb, o.dim);
  std::fprintf(stderr, "wrote %s\n", a.str("output").c_str());
  return 0;
}

int cmd_eval(const Args& a) {
  a.allow({"edges", "embedding", "threads", "round"});
  Graph g = read_edges(a.str("edges"));
  Embedding e = read_embedding(a.str("embedding"));
  if (a.has("round")) {
    const std::string r = a.str("round");
    if (r != "f32" && r != "f16") die("--round must be f32 or f16");
    for (double& x : e.vectors) x = r == "f32" ? double(float(x)) : double(round_f16(float(x)));
    size_t outside = 0;
    for (size_t i = 0; i < e.words.size(); ++i) {
      const double* x = e.vectors.data() + i * e.dim;
      if (poincare::dot(x, x, e.dim) >= 1.0) ++outside;
    }
    if (outside > 0)
      die(std::to_string(outside) + " of " + std::to_string(e.words.size()) +
          " vectors leave the unit ball when rounded to " + r + ": this embedding cannot be stored in " + r);
  }
  const unsigned threads = to_u32(a.integer("threads", 2), "threads", 1, 256);
  std::fprintf(stderr, "evaluating %u nodes, %zu edges, dimension %u on %u threads\n", g.size(), g.edges.size(), e.dim,
               threads);
  const auto t0 = Clock::now();
  const EvalResult r = evaluate(g, align_embedding(g, e), e.dim, threads, true);
  std::fprintf(stderr, "evaluated in %.1fs\n", seconds_since(t0));
  print_eval(r, g);
  return 0;
}

int cmd_nearest(const Args& a) {
  a.allow({"embedding", "k"});
  const Embedding e = read_embedding(a.str("embedding"));
  const size_t k = a.integer("k", 10);
  std::unordered_map<std::string, size_t> index;
  for (size_t i = 0; i < e.words.size(); ++i) index.emplace(e.words[i], i);
  for (const std::string& w : a.positional) {
    auto it = index.find(w);
    if (it == index.end()) {
      std::printf("%s: not in the embedding\n", w.c_str());
      continue;
    }
    const double* x = e.vectors.data() + it->second * e.dim;
    std::vector<std::pair<double, size_t>> d;
    d.reserve(e.words.size());
    for (size_t i = 0; i < e.words.size(); ++i)
      if (i != it->second) d.emplace_back(poincare::distance(x, e.vectors.data() + i * e.dim, e.dim), i);
    const size_t m = std::min(k, d.size());
    std::partial_sort(d.begin(), d.begin() + static_cast<std::ptrdiff_t>(m), d.end());
    std::printf("%s (norm %.4f):", w.c_str(), std::sqrt(poincare::dot(x, x, e.dim)));
    for (size_t i = 0; i < m; ++i) std::printf(" %s (%.2f)", e.words[d[i].second].c_str(), d[i].first);
    std::printf("\n");
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    if (argc < 2) {
      std::fputs(kUsage, stderr);
      return 2;
    }
    const std::string cmd = argv[1];
    if (cmd == "--self-test" || cmd == "self-test") return self_test();
    if (cmd == "help" || cmd == "--help" || cmd == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    }
    const Args args(argc, argv, 2);
    if (cmd == "train") return cmd_train(args);
    if (cmd == "eval") return cmd_eval(args);
    if (cmd == "nearest") return cmd_nearest(args);
    std::fprintf(stderr, "dxtext-poincare-train: unknown command '%s'\n%s", cmd.c_str(), kUsage);
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dxtext-poincare-train: %s\n", e.what());
    return 1;
  }
}
