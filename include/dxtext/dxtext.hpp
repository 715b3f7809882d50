// SPDX-License-Identifier: Apache-2.0
/*
 * dxtext — C++17 interface.
 *
 * A header-only layer over the C ABI of <dxtext/dxtext.h>: it calls nothing
 * but the public C functions, so it works with the shared library as well as
 * the static one, and needs no C++ ABI compatibility with the build of dxtext.
 *
 *   dxt::Model    an opened .dxe model (move-only). Immutable; share one Model
 *                 between threads freely.
 *   dxt::Context  random-number state (move-only). One per thread: a Context
 *                 must not be used by two threads at the same time.
 *   dxt::Options  a builder for the privatisation options (epsilon,
 *                 mechanism, token policies, mechanism parameters).
 *   dxt::ReleaseRecord     what a call released and the guarantee it carries:
 *                          safe to send beside the text.
 *   dxt::LocalDiagnostics  what the call did to the input's tokens: describes
 *                          the input, so it stays on the device.
 *   dxt::error    thrown for every non-OK status; carries the dxt_status.
 *
 *   dxt::Model model = dxt::Model::open("model.dxe");
 *   dxt::Context context(model);
 *   dxt::ReleaseRecord record;
 *   std::string out = context.privatize_text("The quick brown fox", dxt::Options(5.0), &record);
 *
 * Strings are taken as std::string_view and passed to the C calls with their
 * length, so they need not be NUL-terminated and may contain NUL bytes.
 * Results are returned as std::string, with their exact length.
 */
#ifndef DXTEXT_HPP
#define DXTEXT_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dxtext/dxtext.h"

namespace dxt {
/*
 * Everything lives in an inline namespace: users write dxt::Model, but the
 * symbols are dxt::cxx_v0::..., apart from the library's internal C++
 * classes (also in namespace dxt), which a static libdxtext.a carries.
 */
inline namespace cxx_v0 {

/* ------------------------------------------------------------------------ */
/* Errors                                                                    */
/* ------------------------------------------------------------------------ */

/** Thrown for every non-OK dxt_status. what() is "<status name>: <details>". */
class error : public std::runtime_error {
 public:
  error(dxt_status status, const std::string& message) : std::runtime_error(message), status_(status) {}
  /** The dxt_status of the failed call (never DXT_OK). */
  dxt_status status() const noexcept { return status_; }
  /** The static name of the status, e.g. "invalid epsilon". */
  const char* status_string() const noexcept { return dxt_status_string(status_); }

 private:
  dxt_status status_;
};

namespace detail {

/** Throws dxt::error for a non-OK status, with the thread's last message. */
inline void check(dxt_status status) {
  if (status == DXT_OK) return;
  // Copy the message first: it is valid only until the next dxtext call.
  std::string details = dxt_last_error_message();
  std::string message = dxt_status_string(status);
  if (!details.empty()) message += ": " + details;
  throw error(status, message);
}

/** A pointer the C API accepts for @p s: never NULL, even for an empty view. */
inline const char* data_of(std::string_view s) noexcept { return s.data() == nullptr ? "" : s.data(); }

struct text_deleter {
  void operator()(char* p) const noexcept { dxt_text_free(p); }
};
struct bag_deleter {
  void operator()(dxt_bag* p) const noexcept { dxt_bag_free(p); }
};
using owned_text = std::unique_ptr<char, text_deleter>;
using owned_bag = std::unique_ptr<dxt_bag, bag_deleter>;

/**
 * A struct filled by its dxt_*_init_sized function with the size this header
 * knows: a newer library writes only that many bytes.
 */
template <typename T>
T initialised(void (*init_sized)(T*, size_t)) noexcept {
  T value;
  init_sized(&value, sizeof value);
  return value;
}

}  // namespace detail

/* ------------------------------------------------------------------------ */
/* Enumerations (same numbers as the C enums)                                */
/* ------------------------------------------------------------------------ */

enum class Geometry : uint32_t {
  unknown = DXT_GEOMETRY_UNKNOWN,
  euclidean = DXT_GEOMETRY_EUCLIDEAN,
  poincare = DXT_GEOMETRY_POINCARE
};

enum class Quantization : uint32_t {
  unknown = DXT_QUANT_UNKNOWN,
  f32 = DXT_QUANT_F32,
  f16 = DXT_QUANT_F16,
  int8 = DXT_QUANT_INT8
};

/** The mechanisms; docs/guarantees.md states and proves each guarantee. */
enum class Mechanism : uint32_t {
  unknown = DXT_MECHANISM_UNKNOWN,
  laplace = DXT_MECHANISM_LAPLACE,
  hyperbolic = DXT_MECHANISM_HYPERBOLIC,
  exponential = DXT_MECHANISM_EXPONENTIAL,
  syntf = DXT_MECHANISM_SYNTF,
  mahalanobis = DXT_MECHANISM_MAHALANOBIS,
  vickrey = DXT_MECHANISM_VICKREY,
  tem = DXT_MECHANISM_TEM,
  ordering = DXT_MECHANISM_ORDERING
};

enum class Metric : uint32_t {
  unknown = DXT_METRIC_UNKNOWN,
  euclidean = DXT_METRIC_EUCLIDEAN,
  hyperbolic = DXT_METRIC_HYPERBOLIC,
  mahalanobis = DXT_METRIC_MAHALANOBIS,
  discrete = DXT_METRIC_DISCRETE,
  ordering = DXT_METRIC_ORDERING
};

enum class Sampler : uint32_t {
  default_sampler = DXT_SAMPLER_DEFAULT,
  gumbel = DXT_SAMPLER_GUMBEL,
  permute_and_flip = DXT_SAMPLER_PERMUTE_AND_FLIP
};

/** How laplace, vickrey and mahalanobis decode (dxt_search). */
enum class Search : uint32_t { exact = DXT_SEARCH_EXACT, ivf = DXT_SEARCH_IVF };

/** What of a text's form a release copies (dxt_release_shape). */
enum class ReleaseShape : uint32_t {
  keep = DXT_SHAPE_KEEP,
  normalize = DXT_SHAPE_NORMALIZE,
  strict = DXT_SHAPE_STRICT
};

/** A named preset (dxt_preset): the mechanism, epsilon, release shape,
    output vocabulary and policies for a common job (docs/options.md). */
enum class Preset : uint32_t {
  none = DXT_PRESET_NONE,
  readable = DXT_PRESET_READABLE,
  features = DXT_PRESET_FEATURES,
  strongest = DXT_PRESET_STRONGEST
};

enum class RngMode : uint32_t {
  unknown = DXT_RNG_UNKNOWN,
  system = DXT_RNG_SYSTEM,
  deterministic = DXT_RNG_DETERMINISTIC
};

/** What to do with one class of token. */
enum class Policy : uint32_t {
  default_policy = DXT_POLICY_DEFAULT,
  privatize = DXT_POLICY_PRIVATIZE,
  placeholder = DXT_POLICY_PLACEHOLDER,
  drop = DXT_POLICY_DROP,
  keep = DXT_POLICY_KEEP /**< pass through verbatim: a leak the record names */
};

enum class TokenClass : uint32_t {
  in_vocabulary = DXT_CLASS_IN_VOCABULARY,
  out_of_vocabulary = DXT_CLASS_OUT_OF_VOCABULARY,
  number = DXT_CLASS_NUMBER,
  stopword = DXT_CLASS_STOPWORD
};

/** A bag of words: (word, count) pairs. */
using Bag = std::vector<std::pair<std::string, uint64_t>>;

/** A 32-byte SHA-256 digest or deterministic seed. */
using Bytes32 = std::array<uint8_t, 32>;

/** "major.minor.patch" of the library actually loaded. */
inline std::string version() { return dxt_version_string(); }

/* ------------------------------------------------------------------------ */
/* Release records and local diagnostics                                     */
/* ------------------------------------------------------------------------ */

/** Which call made a release (dxt_release_kind). */
enum class ReleaseKind : uint32_t {
  unknown = DXT_RELEASE_UNKNOWN,
  word = DXT_RELEASE_WORD,
  text = DXT_RELEASE_TEXT,
  bag = DXT_RELEASE_BAG,
  synthetic_bag = DXT_RELEASE_SYNTHETIC_BAG
};

/** The form of a release's guarantee (dxt_bound). */
enum class Bound : uint32_t {
  unknown = DXT_BOUND_UNKNOWN,
  word = DXT_BOUND_WORD,                 /**< eps * d(w, w') */
  positionwise = DXT_BOUND_POSITIONWISE, /**< ordered text: eps * sum_i d(x_i, x'_i) */
  bag_emd = DXT_BOUND_BAG_EMD,           /**< bags of equal size N: eps * N * EMD(b, b') */
  any_inputs = DXT_BOUND_ANY_INPUTS      /**< epsilon_total-DP between any two inputs */
};

namespace detail {
/** Calls to_json(p, buffer, capacity, &required) until the buffer is big enough. */
template <typename T>
std::string to_json(const T* p, dxt_status (*to_json)(const T*, char*, size_t, size_t*)) {
  size_t required = 0;
  std::string json(512, '\0');
  for (;;) {
    const dxt_status s = to_json(p, &json[0], json.size(), &required);
    if (s == DXT_OK) break;
    if (s != DXT_E_INPUT_TOO_LARGE || required <= json.size()) check(s);
    json.assign(required, '\0');
  }
  json.resize(required - 1);
  return json;
}
}  // namespace detail

/** What a call released and the guarantee it carries (a value). Every field
    depends only on the options, the model and the generator mode: safe to
    transmit with the output. */
class ReleaseRecord {
 public:
  ReleaseRecord() noexcept : r_(detail::initialised(dxt_release_record_init_sized)) {}
  explicit ReleaseRecord(const dxt_release_record& r) noexcept : r_(r) {}

  ReleaseKind release() const noexcept { return static_cast<ReleaseKind>(r_.release); }
  Mechanism mechanism() const noexcept { return static_cast<Mechanism>(r_.mechanism); }
  /** Per word, per unit of the metric. */
  double epsilon() const noexcept { return r_.epsilon; }
  /** The distance d of the bound. */
  Metric metric() const noexcept { return static_cast<Metric>(r_.metric); }
  RngMode rng_mode() const noexcept { return static_cast<RngMode>(r_.rng_mode); }
  /** False when the noise came from a seeded (deterministic) context. */
  bool is_private() const noexcept { return r_.is_private; }
  /** SHA-256 of the model file, when the record carries it. */
  std::optional<Bytes32> model_fingerprint() const {
    if (!r_.fingerprint_valid) return std::nullopt;
    Bytes32 d{};
    for (size_t i = 0; i < d.size(); ++i) d[i] = r_.model_fingerprint[i];
    return d;
  }
  /** The form of the guarantee. */
  Bound bound() const noexcept { return static_cast<Bound>(r_.bound); }
  /** DXT_REVEALS_* bits: features of the input the output shows as they are. */
  uint32_t reveals() const noexcept { return r_.reveals; }
  /** Bound::any_inputs: the number of draws; 0 otherwise. */
  uint64_t draws() const noexcept { return r_.draws; }
  /** Bound::any_inputs: epsilon * draws; 0 otherwise. */
  double epsilon_total() const noexcept { return r_.epsilon_total; }
  /** SynTF only (0 otherwise): eps + ln eta(eps, V) <= eps, usable in place of epsilon. */
  double epsilon_vocabulary() const noexcept { return r_.epsilon_vocabulary; }
  /** What of the input's form the release copied. */
  ReleaseShape release_shape() const noexcept {
    return r_.release_shape == DXT_SHAPE_DEFAULT ? ReleaseShape::keep : static_cast<ReleaseShape>(r_.release_shape);
  }

  /** The record as one line of JSON (dxt_release_record_to_json). */
  std::string to_json() const { return detail::to_json(&r_, dxt_release_record_to_json); }

  const dxt_release_record& c_record() const noexcept { return r_; }
  dxt_release_record* c_record_ptr() noexcept { return &r_; }

 private:
  dxt_release_record r_{};
};

/** What a call did to the tokens of its input (a value). It describes the
    input and no guarantee covers it: keep it on the device. */
class LocalDiagnostics {
 public:
  LocalDiagnostics() noexcept : d_(detail::initialised(dxt_local_diagnostics_init_sized)) {}
  explicit LocalDiagnostics(const dxt_local_diagnostics& d) noexcept : d_(d) {}

  /** Tokens of class @p c handled by policy @p p (privatize..keep). */
  uint64_t count(TokenClass c, Policy p) const noexcept {
    const auto row = static_cast<uint32_t>(c);
    const auto column = static_cast<uint32_t>(p);
    if (row >= DXT_TOKEN_CLASS_COUNT || column < 1 || column > DXT_TOKEN_ACTION_COUNT) return 0;
    return d_.counts[row][column - 1];
  }
  /** The number of noise draws made. */
  uint64_t words_privatized() const noexcept { return d_.words_privatized; }
  /** Tokens passed through verbatim by a keep policy. */
  uint64_t words_leaked() const noexcept { return d_.words_leaked; }

  /** As one line of JSON (dxt_local_diagnostics_to_json). */
  std::string to_json() const { return detail::to_json(&d_, dxt_local_diagnostics_to_json); }

  const dxt_local_diagnostics& c_diagnostics() const noexcept { return d_; }
  dxt_local_diagnostics* c_diagnostics_ptr() noexcept { return &d_; }

 private:
  dxt_local_diagnostics d_{};
};

/* ------------------------------------------------------------------------ */
/* Options                                                                   */
/* ------------------------------------------------------------------------ */

/**
 * Privatisation options, built by chaining:
 *   dxt::Options().epsilon(8).mechanism(dxt::Mechanism::vickrey).vickrey_t(0.5)
 * Setters do not validate; the library checks the options on each call
 * (an invalid epsilon throws dxt::error with DXT_E_INVALID_EPSILON).
 */
class Options {
 public:
  Options() noexcept : o_(detail::initialised(dxt_privatize_options_init_sized)) {}
  explicit Options(double epsilon) noexcept : Options() { o_.epsilon = epsilon; }
  /** A preset's options: its epsilon unless epsilon() overrides it. */
  explicit Options(Preset p) noexcept : Options() { o_.preset = static_cast<uint32_t>(p); }

  Options& epsilon(double value) noexcept {
    o_.epsilon = value;
    return *this;
  }
  Options& mechanism(Mechanism value) noexcept {
    o_.mechanism = static_cast<uint32_t>(value);
    return *this;
  }
  /** The policy for one class of token. */
  Options& policy(TokenClass c, Policy p) noexcept {
    o_.policy[static_cast<uint32_t>(c) % DXT_TOKEN_CLASS_COUNT] = static_cast<uint32_t>(p);
    return *this;
  }
  /** Replacement used by Policy::placeholder (default "[redacted]"). The C API
      takes a NUL-terminated string, so a NUL byte is refused (DXT_E_INVALID_ARGUMENT). */
  Options& placeholder(std::string_view text) {
    if (text.find('\0') != std::string_view::npos)
      throw error(DXT_E_INVALID_ARGUMENT, "invalid argument: the placeholder contains a NUL byte");
    placeholder_ = std::string(text);
    return *this;
  }
  /** Back to the default placeholder. */
  Options& default_placeholder() noexcept {
    placeholder_.reset();
    return *this;
  }
  Options& tem_gamma(double value) noexcept {
    o_.tem_gamma = value;
    return *this;
  }
  Options& tem_beta(double value) noexcept {
    o_.tem_beta = value;
    return *this;
  }
  Options& vickrey_t(double value) noexcept {
    o_.vickrey_t = value;
    return *this;
  }
  Options& mahalanobis_lambda(double value) noexcept {
    o_.mahalanobis_lambda = value;
    return *this;
  }
  Options& syntf_s(double value) noexcept {
    o_.syntf_s = value;
    return *this;
  }
  Options& exponential_sampler(Sampler value) noexcept {
    o_.exponential_sampler = static_cast<uint32_t>(value);
    return *this;
  }
  /** Search::ivf decodes through the model's search index, scanning
      `nprobe` cells (0 = the library's default); Search::exact resets nprobe. */
  Options& search(Search value, uint32_t nprobe = 0) noexcept {
    o_.search = static_cast<uint32_t>(value);
    o_.ivf_nprobe = value == Search::ivf ? nprobe : 0;
    return *this;
  }

  /** A named preset; the options it fixes may be left alone or set to its values. */
  Options& preset(Preset value) noexcept {
    o_.preset = static_cast<uint32_t>(value);
    return *this;
  }
  Preset preset() const noexcept { return static_cast<Preset>(o_.preset); }

  /** What of a text's form shows: keep (default), normalize or strict. */
  Options& release_shape(ReleaseShape value) noexcept {
    o_.release_shape = static_cast<uint32_t>(value);
    return *this;
  }

  double epsilon() const noexcept { return o_.epsilon; }
  Mechanism mechanism() const noexcept { return static_cast<Mechanism>(o_.mechanism); }
  Policy policy(TokenClass c) const noexcept {
    return static_cast<Policy>(o_.policy[static_cast<uint32_t>(c) % DXT_TOKEN_CLASS_COUNT]);
  }
  const std::optional<std::string>& placeholder() const noexcept { return placeholder_; }
  double tem_gamma() const noexcept { return o_.tem_gamma; }
  double tem_beta() const noexcept { return o_.tem_beta; }
  double vickrey_t() const noexcept { return o_.vickrey_t; }
  double mahalanobis_lambda() const noexcept { return o_.mahalanobis_lambda; }
  double syntf_s() const noexcept { return o_.syntf_s; }
  Sampler exponential_sampler() const noexcept { return static_cast<Sampler>(o_.exponential_sampler); }
  Search search() const noexcept { return static_cast<Search>(o_.search); }
  uint32_t ivf_nprobe() const noexcept { return o_.ivf_nprobe; }
  ReleaseShape release_shape() const noexcept { return static_cast<ReleaseShape>(o_.release_shape); }

  /** The C struct; its placeholder points into this object. */
  dxt_privatize_options c_options() const noexcept {
    dxt_privatize_options o = o_;
    o.placeholder = placeholder_ ? placeholder_->c_str() : nullptr;
    return o;
  }

 private:
  dxt_privatize_options o_{};
  std::optional<std::string> placeholder_;
};

/* ------------------------------------------------------------------------ */
/* Models                                                                    */
/* ------------------------------------------------------------------------ */

struct ModelInfo {
  uint32_t format_major = 0;
  uint32_t format_minor = 0;
  uint32_t dimension = 0;
  uint32_t vocabulary_size = 0;
  Geometry geometry = Geometry::unknown;
  Quantization quantization = Quantization::unknown;
  bool lowercase = false; /**< lookups fold case */
  bool has_frequencies = false;
};

class Context;

/** An opened .dxe model. Move-only; safe to share between threads. */
class Model {
 public:
  /** Memory-map and validate @p path; @p verify_digests also checks every
      section's SHA-256 (reads the whole file). */
  static Model open(const std::string& path, bool verify_digests = false) {
    if (path.find('\0') != std::string::npos)
      throw error(DXT_E_INVALID_ARGUMENT, "invalid argument: the path contains a NUL byte");
    const dxt_model_open_options o = open_options(verify_digests);
    dxt_model* m = nullptr;
    detail::check(dxt_model_open_file(path.c_str(), &o, &m));
    return Model(m, nullptr);
  }

  /** Open a model in a caller's buffer, which must be 8-byte aligned and stay
      valid and unchanged until this Model and all its Contexts are gone. */
  static Model open_memory(const void* data, size_t size, bool verify_digests = false) {
    const dxt_model_open_options o = open_options(verify_digests);
    dxt_model* m = nullptr;
    detail::check(dxt_model_open_memory(data, size, &o, &m));
    return Model(m, nullptr);
  }

  /** Open a model from bytes the Model keeps (aligned copy); no lifetime
      rules for the caller. */
  static Model from_bytes(const void* data, size_t size, bool verify_digests = false) {
    // uint64_t storage is 8-byte aligned, as dxt_model_open_memory requires.
    auto buffer = std::make_shared<std::vector<uint64_t>>(size / 8 + 1);
    if (size != 0) {
      if (data == nullptr) throw error(DXT_E_INVALID_ARGUMENT, "invalid argument: data is NULL");
      std::memcpy(buffer->data(), data, size);
    }
    const dxt_model_open_options o = open_options(verify_digests);
    dxt_model* m = nullptr;
    detail::check(dxt_model_open_memory(buffer->data(), size, &o, &m));
    return Model(m, std::shared_ptr<const void>(buffer, buffer->data()));
  }
  static Model from_bytes(std::string_view bytes, bool verify_digests = false) {
    return from_bytes(bytes.data(), bytes.size(), verify_digests);
  }

  /** The default model for @p geometry ($DXTEXT_MODEL, then the models of
      the tree the library sits in; dxt_default_model_path). DXT_E_NOT_FOUND
      without one. */
  static std::string default_path(Geometry geometry = Geometry::euclidean) {
    size_t required = 0;
    std::string path(256, '\0');
    for (;;) {
      const dxt_status s = dxt_default_model_path(static_cast<uint32_t>(geometry), &path[0], path.size(), &required);
      if (s == DXT_OK) break;
      if (s != DXT_E_INPUT_TOO_LARGE || required <= path.size()) detail::check(s);
      path.assign(required, '\0');
    }
    path.resize(required - 1);
    return path;
  }

  /** Open the default model for @p geometry. */
  static Model open_default(Geometry geometry = Geometry::euclidean) { return open(default_path(geometry)); }

  Model(Model&& other) noexcept : m_(std::exchange(other.m_, nullptr)), keep_(std::move(other.keep_)) {}
  Model& operator=(Model&& other) noexcept {
    if (this != &other) {
      dxt_model_close(m_);
      m_ = std::exchange(other.m_, nullptr);
      keep_ = std::move(other.keep_);
    }
    return *this;
  }
  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;
  ~Model() { dxt_model_close(m_); }

  /** False after the Model was moved from. */
  explicit operator bool() const noexcept { return m_ != nullptr; }

  ModelInfo info() const {
    dxt_model_info i = detail::initialised(dxt_model_info_init_sized);
    detail::check(dxt_model_get_info(m_, &i));
    ModelInfo r;
    r.format_major = i.format_major;
    r.format_minor = i.format_minor;
    r.dimension = i.dimension;
    r.vocabulary_size = i.vocabulary_size;
    r.geometry = static_cast<Geometry>(i.geometry);
    r.quantization = static_cast<Quantization>(i.quantization);
    r.lowercase = i.lowercase;
    r.has_frequencies = i.has_frequencies;
    return r;
  }

  /** SHA-256 of the whole model file (computed once, then cached). */
  Bytes32 fingerprint() const {
    Bytes32 d{};
    detail::check(dxt_model_fingerprint(m_, d.data()));
    return d;
  }

  /** The index of @p word, looked up as the text functions do; throws
      dxt::error with DXT_E_NOT_FOUND when it is not in the vocabulary. */
  uint32_t lookup(std::string_view word) const {
    uint32_t index = 0;
    detail::check(dxt_model_lookup(m_, detail::data_of(word), word.size(), &index));
    return index;
  }

  /** As lookup(), but std::nullopt when the word is not in the vocabulary. */
  std::optional<uint32_t> find(std::string_view word) const {
    uint32_t index = 0;
    const dxt_status s = dxt_model_lookup(m_, detail::data_of(word), word.size(), &index);
    if (s == DXT_E_NOT_FOUND) return std::nullopt;
    detail::check(s);
    return index;
  }

  /** The word at @p index; points into the model and lives as long as it. */
  std::string_view word(uint32_t index) const {
    const char* w = nullptr;
    size_t length = 0;
    detail::check(dxt_model_word(m_, index, &w, &length));
    return std::string_view(w, length);
  }

  /** The exact nearest vocabulary word to @p vector (of the model's dimension). */
  uint32_t nearest(const float* vector, size_t dimension) const {
    uint32_t index = 0;
    detail::check(dxt_model_nearest(m_, vector, dimension, &index));
    return index;
  }
  uint32_t nearest(const std::vector<float>& vector) const { return nearest(vector.data(), vector.size()); }

  /** The number of public orderings of the vocabulary (0 without them). */
  uint32_t ordering_count() const {
    uint32_t count = 0;
    detail::check(dxt_model_ordering_count(m_, &count));
    return count;
  }

  /** The place of the word at @p index along ordering @p ordering, a cycle
      of vocabulary_size places (dxt_model_ordering_place). */
  uint32_t ordering_place(uint32_t ordering, uint32_t index) const {
    uint32_t place = 0;
    detail::check(dxt_model_ordering_place(m_, ordering, index, &place, nullptr));
    return place;
  }

  /** The C handle, still owned by this Model. */
  dxt_model* get() const noexcept { return m_; }

 private:
  friend class Context;
  Model(dxt_model* m, std::shared_ptr<const void> keep) noexcept : m_(m), keep_(std::move(keep)) {}

  static dxt_model_open_options open_options(bool verify_digests) noexcept {
    dxt_model_open_options o = detail::initialised(dxt_model_open_options_init_sized);
    o.flags = verify_digests ? DXT_OPEN_VERIFY_DIGESTS : 0u;
    return o;
  }

  dxt_model* m_ = nullptr;
  std::shared_ptr<const void> keep_;  // the buffer of from_bytes(), if any
};

/* ------------------------------------------------------------------------ */
/* Contexts and privatisation                                                */
/* ------------------------------------------------------------------------ */

/** Plausible-deniability statistics (Feyisetan et al. 2020). */
struct Calibration {
  uint32_t words = 0;  /**< words sampled */
  uint32_t trials = 0; /**< privatisations per word */
  /** N_w: fraction of trials in which the word came back unchanged. */
  double keep_mean = 0, keep_median = 0, keep_max = 0;
  /** S_w: number of distinct outputs in the trials. */
  double distinct_mean = 0, distinct_median = 0, distinct_max = 0;
};

/**
 * Random-number state for one model. One per thread. Keeps the model alive:
 * a Context may outlive the Model it was made from.
 */
class Context {
 public:
  /** A context drawing from the operating system's CSPRNG (OpenSSL): the
      private mode. */
  explicit Context(const Model& model) : keep_(model.keep_) {
    detail::check(dxt_context_create(model.m_, nullptr, &c_));
  }

  /** A context whose noise is an AES-CTR stream keyed by @p seed:
      reproducible and NOT private. For tests and research only; records say
      is_private() == false. */
  static Context seeded(const Model& model, const Bytes32& seed) {
    dxt_context_options o = detail::initialised(dxt_context_options_init_sized);
    o.rng_mode = DXT_RNG_DETERMINISTIC;
    for (size_t i = 0; i < seed.size(); ++i) o.seed[i] = seed[i];
    dxt_context* c = nullptr;
    detail::check(dxt_context_create(model.m_, &o, &c));
    return Context(c, model.keep_);
  }

  Context(Context&& other) noexcept : c_(std::exchange(other.c_, nullptr)), keep_(std::move(other.keep_)) {}
  Context& operator=(Context&& other) noexcept {
    if (this != &other) {
      dxt_context_destroy(c_);
      c_ = std::exchange(other.c_, nullptr);
      keep_ = std::move(other.keep_);
    }
    return *this;
  }
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;
  ~Context() { dxt_context_destroy(c_); }

  /** False after the Context was moved from. */
  explicit operator bool() const noexcept { return c_ != nullptr; }

  /** Privatise UTF-8 text: words replaced, spacing and punctuation kept.
      The record's bound is positionwise (eps * sum_i d(x_i, x'_i)). */
  std::string privatize_text(std::string_view text, const Options& options, ReleaseRecord* record = nullptr,
                             LocalDiagnostics* diagnostics = nullptr) {
    const dxt_privatize_options o = options.c_options();
    char* out = nullptr;
    size_t length = 0;
    const dxt_status s = dxt_privatize_text(c_, &o, detail::data_of(text), text.size(), &out, &length,
                                            record_ptr(record), diagnostics_ptr(diagnostics));
    return take_text(s, out, length);
  }

  /** Privatise one word (no tokenisation); "" when its policy drops it. */
  std::string privatize_word(std::string_view word, const Options& options, ReleaseRecord* record = nullptr,
                             LocalDiagnostics* diagnostics = nullptr) {
    const dxt_privatize_options o = options.c_options();
    char* out = nullptr;
    size_t length = 0;
    const dxt_status s = dxt_privatize_word(c_, &o, detail::data_of(word), word.size(), &out, &length,
                                            record_ptr(record), diagnostics_ptr(diagnostics));
    return take_text(s, out, length);
  }

  /** Privatise the vocabulary word at @p index; returns the released index. */
  uint32_t privatize_index(uint32_t index, const Options& options, ReleaseRecord* record = nullptr,
                           LocalDiagnostics* diagnostics = nullptr) {
    const dxt_privatize_options o = options.c_options();
    uint32_t out = 0;
    detail::check(dxt_privatize_index(c_, &o, index, &out, record_ptr(record), diagnostics_ptr(diagnostics)));
    return out;
  }

  /** Privatise every occurrence of a bag independently (eps * N * EMD). The
      result is merged and sorted by vocabulary index. */
  Bag privatize_bag(const Bag& bag, const Options& options, ReleaseRecord* record = nullptr,
                    LocalDiagnostics* diagnostics = nullptr) {
    const dxt_privatize_options o = options.c_options();
    const std::vector<dxt_bag_entry> entries = to_entries(bag);
    dxt_bag* out = nullptr;
    const dxt_status s = dxt_privatize_bag(c_, &o, entries.data(), entries.size(), &out, record_ptr(record),
                                           diagnostics_ptr(diagnostics));
    return take_bag(s, out);
  }

  /** SynTF: a synthetic bag of exactly @p n_out words (the mechanism of
      @p options is ignored; epsilon and syntf_s are used). */
  Bag syntf(const Bag& bag, uint32_t n_out, const Options& options, ReleaseRecord* record = nullptr,
            LocalDiagnostics* diagnostics = nullptr) {
    const dxt_privatize_options o = options.c_options();
    const std::vector<dxt_bag_entry> entries = to_entries(bag);
    dxt_bag* out = nullptr;
    const dxt_status s = dxt_syntf(c_, &o, entries.data(), entries.size(), n_out, &out, record_ptr(record),
                                   diagnostics_ptr(diagnostics));
    return take_bag(s, out);
  }

  /** N_w and S_w of the mechanism of @p options over @p words sampled
      vocabulary words, @p trials privatisations each. */
  Calibration calibrate(const Options& options, uint32_t words, uint32_t trials) {
    const dxt_privatize_options o = options.c_options();
    dxt_calibration c = detail::initialised(dxt_calibration_init_sized);
    detail::check(dxt_calibrate(c_, &o, words, trials, &c));
    Calibration r;
    r.words = c.words;
    r.trials = c.trials;
    r.keep_mean = c.keep_mean;
    r.keep_median = c.keep_median;
    r.keep_max = c.keep_max;
    r.distinct_mean = c.distinct_mean;
    r.distinct_median = c.distinct_median;
    r.distinct_max = c.distinct_max;
    return r;
  }

  /** The C handle, still owned by this Context. */
  dxt_context* get() const noexcept { return c_; }

 private:
  Context(dxt_context* c, std::shared_ptr<const void> keep) noexcept : c_(c), keep_(std::move(keep)) {}

  static dxt_release_record* record_ptr(ReleaseRecord* record) noexcept {
    if (record == nullptr) return nullptr;
    *record = ReleaseRecord();
    return record->c_record_ptr();
  }
  static dxt_local_diagnostics* diagnostics_ptr(LocalDiagnostics* diagnostics) noexcept {
    if (diagnostics == nullptr) return nullptr;
    *diagnostics = LocalDiagnostics();
    return diagnostics->c_diagnostics_ptr();
  }

  static std::string take_text(dxt_status s, char* out, size_t length) {
    const detail::owned_text owned(out);
    detail::check(s);
    return std::string(out, length);
  }

  static std::vector<dxt_bag_entry> to_entries(const Bag& bag) {
    std::vector<dxt_bag_entry> entries;
    entries.reserve(bag.size());
    for (const auto& [word, count] : bag) entries.push_back(dxt_bag_entry{word.data(), word.size(), count});
    return entries;
  }

  static Bag take_bag(dxt_status s, dxt_bag* out) {
    const detail::owned_bag owned(out);
    detail::check(s);
    Bag bag;
    bag.reserve(out->size);
    for (size_t i = 0; i < out->size; ++i)
      bag.emplace_back(std::string(out->entries[i].word, out->entries[i].length), out->entries[i].count);
    return bag;
  }

  dxt_context* c_ = nullptr;
  std::shared_ptr<const void> keep_;  // the model's from_bytes() buffer, if any
};

/* ------------------------------------------------------------------------ */
/* Privacy ledger                                                            */
/* ------------------------------------------------------------------------ */

/** A scope of a privacy ledger file (docs/budgets.md). Move-only; one
    thread at a time; any number of Ledgers may share one file. */
class Ledger {
 public:
  /** Opens (or creates) @p path and selects @p scope; @p cap and
      @p memo_capacity apply to a new scope (an existing one keeps its cap:
      set_cap changes it). @p key is the optional app key (16 to 64 bytes;
      without one nothing is memoised); @p anchor the one stored after the
      last call (see dxt_ledger_anchor), or null. */
  Ledger(const std::string& path, const std::string& scope, double cap,
         uint32_t memo_capacity = DXT_LEDGER_MEMO_DEFAULT, std::string_view key = {},
         const dxt_ledger_anchor* anchor = nullptr) {
    if (path.find('\0') != std::string::npos)
      throw error(DXT_E_INVALID_ARGUMENT, "invalid argument: the path contains a NUL byte");
    // The C call reads the scope up to its first NUL: "user\0day1" would open "user".
    if (scope.find('\0') != std::string::npos)
      throw error(DXT_E_INVALID_ARGUMENT, "invalid argument: the scope contains a NUL byte");
    dxt_ledger_options o = detail::initialised(dxt_ledger_options_init_sized);
    o.cap = cap;
    o.memo_capacity = memo_capacity;
    o.key = reinterpret_cast<const uint8_t*>(key.data());
    o.key_length = key.size();
    o.anchor = anchor;
    detail::check(dxt_ledger_open(path.c_str(), scope.c_str(), &o, &c_));
  }
  ~Ledger() { dxt_ledger_close(c_); }
  Ledger(Ledger&& other) noexcept : c_(other.c_) { other.c_ = nullptr; }
  Ledger& operator=(Ledger&& other) noexcept {
    if (this != &other) {
      dxt_ledger_close(c_);
      c_ = other.c_;
      other.c_ = nullptr;
    }
    return *this;
  }
  Ledger(const Ledger&) = delete;
  Ledger& operator=(const Ledger&) = delete;

  /** Context::privatize_text through the ledger. Throws dxt::error with
      DXT_E_BUDGET_EXCEEDED, before any draw, past the cap. @p memoised
      (may be null) says whether the memo answered (nothing spent). */
  std::string privatize_text(Context& context, std::string_view text, const Options& options, bool fresh = false,
                             bool* memoised = nullptr, ReleaseRecord* record = nullptr) {
    const dxt_privatize_options o = options.c_options();
    char* out = nullptr;
    size_t length = 0;
    dxt_release_record r = detail::initialised(dxt_release_record_init_sized);
    const dxt_status s = dxt_ledger_privatize_text(c_, context.get(), &o, detail::data_of(text), text.size(),
                                                   fresh ? DXT_LEDGER_FRESH : 0u, &out, &length, memoised, &r, nullptr);
    const detail::owned_text owned(out);
    detail::check(s);
    if (record != nullptr) *record = ReleaseRecord(r);
    return std::string(out, length);
  }

  /** The ledger's anchor now (dxt_ledger_get_anchor): store it after every call. */
  dxt_ledger_anchor anchor() {
    dxt_ledger_anchor a = detail::initialised(dxt_ledger_anchor_init_sized);
    detail::check(dxt_ledger_get_anchor(c_, &a));
    return a;
  }

  /** The scope's totals, read from the file. */
  dxt_ledger_totals totals() const {
    dxt_ledger_totals t = detail::initialised(dxt_ledger_totals_init_sized);
    detail::check(dxt_ledger_get_totals(c_, &t));
    return t;
  }

  /** The scope as one line of JSON, as `dxtext ledger` prints it. */
  std::string to_json() const {
    size_t required = 0;
    const dxt_status probe = dxt_ledger_to_json(c_, nullptr, 0, &required);
    if (probe != DXT_E_INPUT_TOO_LARGE) detail::check(probe);
    std::string json(required, '\0');
    detail::check(dxt_ledger_to_json(c_, json.data(), json.size(), &required));
    json.resize(required - 1);
    return json;
  }

  void set_cap(double cap) { detail::check(dxt_ledger_set_cap(c_, cap)); }

  /** The C handle, still owned by this Ledger. */
  dxt_ledger* get() const noexcept { return c_; }

 private:
  dxt_ledger* c_ = nullptr;
};

}  // namespace cxx_v0
}  // namespace dxt

#endif /* DXTEXT_HPP */
