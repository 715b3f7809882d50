// SPDX-License-Identifier: Apache-2.0
// The interface every mechanism implements. A mechanism is built for one
// model and one set of parameters (validated at construction) and owns its
// scratch buffers, so privatising a word allocates nothing.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dxtext/dxtext.h"
#include "mechanisms/output_set.hpp"
#include "model/model.hpp"
#include "rng/random_stream.hpp"
#include "search/euclidean_decoder.hpp"
#include "search/exact_scan.hpp"

namespace dxt {

// The highest dxt_mechanism value this library knows.
inline constexpr dxt_mechanism DXT_MECHANISM_LAST = DXT_MECHANISM_ORDERING;

struct MechanismParams {
  dxt_mechanism id = DXT_MECHANISM_LAPLACE;
  double epsilon = 0;
  double tem_gamma = 0;
  double tem_beta = 0.001;
  double vickrey_t = 0.75;
  double mahalanobis_lambda = 0.75;
  double syntf_s = 0.3;
  dxt_exponential_sampler sampler = DXT_SAMPLER_GUMBEL;
  // How laplace, vickrey and mahalanobis decode (search/euclidean_decoder.hpp).
  dxt_search search = DXT_SEARCH_EXACT;
  uint32_t ivf_nprobe = 0;  // 0 = the default
  // Exponential (Gumbel), tem and syntf: members per candidate list and
  // lists cached per mechanism (mechanisms/candidate_selector.hpp); 0 = the
  // defaults. Not part of the C ABI: they change speed and memory, never
  // the law, and the tests set them small to exercise the lazy race.
  uint32_t candidate_list_size = 0;
  uint32_t candidate_cache_entries = 0;
  // The words the mechanism may release (mechanisms/output_set.hpp);
  // nullptr: the whole vocabulary.
  std::shared_ptr<const OutputSet> output;
  // The uniform floor p in [0, 1): with probability p the released word is
  // uniform over the output vocabulary (mechanisms/uniform_floor.hpp).
  double floor = 0;
  // The context prior's strength B >= 0 (ordering only; 0: none): each
  // candidate's probability is weighted by min(1 + B, its lift after the
  // word released before it) and renormalised
  // (mechanisms/ordering_mechanism.hpp, docs/guarantees.md "The context
  // prior").
  double context_prior = 0;

  bool operator==(const MechanismParams& o) const {
    return id == o.id && epsilon == o.epsilon && tem_gamma == o.tem_gamma && tem_beta == o.tem_beta &&
           vickrey_t == o.vickrey_t && mahalanobis_lambda == o.mahalanobis_lambda && syntf_s == o.syntf_s &&
           sampler == o.sampler && search == o.search && ivf_nprobe == o.ivf_nprobe &&
           candidate_list_size == o.candidate_list_size && candidate_cache_entries == o.candidate_cache_entries &&
           floor == o.floor && context_prior == o.context_prior && same_output(output.get(), o.output.get());
  }
};

class Mechanism {
 public:
  explicit Mechanism(const MechanismParams& params) : params_(params) {}
  virtual ~Mechanism() = default;
  Mechanism(const Mechanism&) = delete;
  Mechanism& operator=(const Mechanism&) = delete;

  dxt_mechanism id() const { return params_.id; }
  double epsilon() const { return params_.epsilon; }
  const MechanismParams& params() const { return params_; }
  // The metric d of the guarantee: outputs for w and w' differ in
  // probability by at most a factor exp(epsilon * d(w, w')).
  virtual dxt_metric metric() const = 0;
  // Privatise the word at `index`; nullopt privatises the fixed point that
  // stands for every out-of-vocabulary word. Returns the released word.
  virtual uint32_t privatize(RandomStream& rng, std::optional<uint32_t> index) = 0;
  // Privatise the word at `index` right after the release of the word
  // `previous` (nullopt: none, or not a vocabulary word). Only a mechanism
  // with a context prior reads `previous` (reads_context()); the others
  // privatise as privatize() does.
  virtual uint32_t privatize_after(RandomStream& rng, std::optional<uint32_t> index,
                                   std::optional<uint32_t> /*previous*/) {
    return privatize(rng, index);
  }
  virtual bool reads_context() const { return false; }
  // out[j] is privatize(rng, indices[j]) for j < count, drawn independently
  // in order. Mechanisms that decode noisy points override it to decode the
  // whole batch in one pass over the matrix.
  virtual void privatize_batch(RandomStream& rng, const std::optional<uint32_t>* indices, size_t count, uint32_t* out) {
    for (size_t j = 0; j < count; ++j) out[j] = privatize(rng, indices[j]);
  }
  // Heap bytes of what the mechanism keeps between calls beyond scratch
  // buffers: the candidate-list cache of exponential, tem and syntf (with
  // its scanner); 0 for the others, which keep no cache.
  virtual size_t cache_bytes() const { return 0; }

  // Whether the model's geometry makes this mechanism return its input at
  // its epsilon (mechanisms/input_keeping_check.hpp); set by make_mechanism.
  bool keeps_input() const { return keeps_input_; }
  void set_keeps_input(bool keeps) { keeps_input_ = keeps; }

  // The largest privacy loss in nats between any two inputs for one word
  // (mechanisms/worst_case.hpp); set by make_mechanism.
  double worst_case_per_word() const { return worst_case_per_word_; }
  void set_worst_case_per_word(double nats) { worst_case_per_word_ = nats; }

 private:
  MechanismParams params_;
  bool keeps_input_ = false;
  double worst_case_per_word_ = 0;
};

// Decodes batches of noisy points to their nearest words (Euclidean, exactly
// or through the model's search index, as the decoder says), 256 points at a
// time. Keeps its buffers between calls.
class BatchDecoder {
 public:
  static constexpr size_t kChunk = 256;

  // fill(j, point) writes the j-th noisy point (the model's dimension).
  template <typename Fill>
  void run(EuclideanDecoder& decoder, size_t count, uint32_t* out, Fill fill) {
    const uint32_t D = decoder.model().dimension();
    for (size_t done = 0; done < count; done += kChunk) {
      const size_t n = std::min(kChunk, count - done);
      points_.resize(n * D);
      for (size_t j = 0; j < n; ++j) fill(done + j, points_.data() + j * D);
      decoder.nearest_batch(points_.data(), n, out + done);
    }
  }

 private:
  std::vector<float> points_;
};

// The rows of the output vocabulary, or nullptr for the whole vocabulary.
inline const std::vector<uint32_t>* output_rows(const MechanismParams& p) {
  return p.output ? &p.output->rows : nullptr;
}

// The number of words the mechanism may release: |S|, or the vocabulary size.
inline uint32_t output_count(const Model& model, const MechanismParams& p) {
  return p.output ? p.output->size() : model.vocabulary_size();
}

// Validates the parameters against the model and builds the mechanism.
// Throws DXT_E_INVALID_EPSILON, DXT_E_INVALID_ARGUMENT or DXT_E_UNSUPPORTED.
std::unique_ptr<Mechanism> make_mechanism(const Model& model, const MechanismParams& params);

// A number for messages, with all its significant digits ("1e-09", not
// "0.000000").
std::string format_number(double v);

// Rejects epsilon outside [DXT_EPSILON_MIN, DXT_EPSILON_MAX], naming the range.
void check_epsilon(double epsilon);

// The metric of the model's own geometry: Euclidean or hyperbolic.
dxt_metric geometry_metric(const Model& model);

// distances[v] = d(phi(w), phi(v)) for every word v, in double, in the
// model's geometry; from the origin when `index` is empty (out of
// vocabulary). `row` and `point` are scratch of the model's dimension.
void word_distances(const Model& model, std::optional<uint32_t> index, std::vector<float>& row,
                    std::vector<double>& point, std::vector<double>& distances);

// Rejects a model whose geometry the mechanism cannot use.
void require_geometry(const Model& model, dxt_geometry geometry, const char* mechanism);

}  // namespace dxt
