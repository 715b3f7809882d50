// SPDX-License-Identifier: Apache-2.0
// The C ABI: models, contexts, and privatisation of words, texts and bags.
// Every entry point runs its body through abi::guarded, the one place where
// exceptions become status codes.
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "abi/abi_support.hpp"
#include "accounting/privacy_report.hpp"
#include "dxtext/dxtext.h"
#include "errors/error.hpp"
#include "mechanisms/mechanism.hpp"
#include "model/format.hpp"
#include "model/model.hpp"
#include "model/model_locator.hpp"
#include "rng/random_stream.hpp"
#include "search/exact_scan.hpp"
#include "text/text_privatizer.hpp"
#include "unicode/utf8.hpp"

namespace {
using namespace dxt::abi;

// Checks the caller's struct, completes it with defaults past its
// struct_size, and copies its JSON and a NUL into the caller's buffer, or
// says how much room that needs.
template <typename T>
void write_json(const T* value, size_t minimum, const char* name, void (*init_sized)(T*, size_t),
                std::string (*to_json)(const T&), char* buffer, size_t capacity, size_t* required) {
  check_struct(value, minimum, name);
  require(buffer != nullptr || capacity == 0, "buffer is NULL");
  T full;
  init_sized(&full, sizeof full);
  std::memcpy(&full, value, value->struct_size < sizeof full ? value->struct_size : sizeof full);
  const std::string json = to_json(full);
  if (required != nullptr) *required = json.size() + 1;
  if (capacity < json.size() + 1)
    dxt::fail(DXT_E_INPUT_TOO_LARGE, "buffer holds " + std::to_string(capacity) + " bytes, the " + name + " needs " +
                                         std::to_string(json.size() + 1));
  std::memcpy(buffer, json.c_str(), json.size() + 1);
}
}  // namespace

extern "C" {

uint32_t dxt_version_number(void) { return DXT_VERSION_NUMBER; }
const char* dxt_version_string(void) {
#define DXT_STR2(x) #x
#define DXT_STR(x) DXT_STR2(x)
  return DXT_STR(DXT_VERSION_MAJOR) "." DXT_STR(DXT_VERSION_MINOR) "." DXT_STR(DXT_VERSION_PATCH);
}
uint32_t dxt_abi_version(void) { return DXT_ABI_VERSION; }
double dxt_epsilon_min(void) { return DXT_EPSILON_MIN; }
double dxt_epsilon_max(void) { return DXT_EPSILON_MAX; }
uint32_t dxt_format_version(void) { return DXT_FORMAT_VERSION_MAJOR * 100 + DXT_FORMAT_VERSION_MINOR; }

const char* dxt_status_string(dxt_status s) {
  switch (s) {
    case DXT_OK: return "ok";
    case DXT_E_INVALID_ARGUMENT: return "invalid argument";
    case DXT_E_INVALID_EPSILON: return "invalid epsilon";
    case DXT_E_IO: return "input/output error";
    case DXT_E_NOT_A_MODEL: return "not a dxtext model";
    case DXT_E_UNSUPPORTED_VERSION: return "unsupported model format version";
    case DXT_E_CORRUPT_MODEL: return "corrupt model";
    case DXT_E_TRUNCATED_MODEL: return "truncated model";
    case DXT_E_DIGEST_MISMATCH: return "digest mismatch";
    case DXT_E_OUT_OF_MEMORY: return "out of memory";
    case DXT_E_RNG_FAILURE: return "random generator failure";
    case DXT_E_INVALID_UTF8: return "invalid UTF-8";
    case DXT_E_NOT_FOUND: return "not found";
    case DXT_E_UNSUPPORTED: return "unsupported";
    case DXT_E_INPUT_TOO_LARGE: return "input too large";
    case DXT_E_PARSE: return "parse error";
    case DXT_E_INTERNAL: return "internal error";
    case DXT_E_CONTEXT_BUSY: return "context in use by another thread";
    case DXT_E_BUDGET_EXCEEDED: return "privacy budget exceeded";
    case DXT_E_LEDGER_CORRUPT: return "corrupt ledger";
    case DXT_E_LEDGER_ROLLBACK: return "ledger rolled back";
    default: return "unknown status";
  }
}

const char* dxt_last_error_message(void) { return dxt::abi::last_error().c_str(); }

void dxt_model_open_options_init_sized(dxt_model_open_options* o, size_t struct_size) {
  init_sized(o, struct_size, zeroed<dxt_model_open_options>());
}

static dxt_status open_common(const dxt_model_open_options* options, dxt_model** out,
                              std::shared_ptr<const dxt::Model> (*opener)(const void*, size_t, const char*,
                                                                          const dxt::ModelOpenOptions&),
                              const void* data, size_t size, const char* path) {
  return guarded([&] {
    require(out != nullptr, "out is NULL");
    *out = nullptr;
    dxt::ModelOpenOptions mo;
    if (options != nullptr) {
      check_struct(options, kOpenOptionsV1, "options");
      if ((options->flags & ~(DXT_OPEN_VERIFY_DIGESTS | DXT_OPEN_PRIVATE_COPY)) != 0)
        dxt::fail(DXT_E_INVALID_ARGUMENT, "unknown model open flags");
      mo.verify_digests = (options->flags & DXT_OPEN_VERIFY_DIGESTS) != 0;
      mo.private_copy = (options->flags & DXT_OPEN_PRIVATE_COPY) != 0;
    }
    auto handle = std::make_unique<dxt_model>();
    handle->impl = opener(data, size, path, mo);
    *out = handle.release();
  });
}

dxt_status dxt_model_open_file(const char* path, const dxt_model_open_options* options, dxt_model** out) {
  return open_common(
      options, out,
      [](const void*, size_t, const char* p, const dxt::ModelOpenOptions& mo) {
        require(p != nullptr, "path is NULL");
        return dxt::Model::open_file(p, mo);
      },
      nullptr, 0, path);
}

dxt_status dxt_model_open_memory(const void* data, size_t size, const dxt_model_open_options* options,
                                 dxt_model** out) {
  return open_common(
      options, out,
      [](const void* d, size_t n, const char*, const dxt::ModelOpenOptions& mo) {
        return dxt::Model::open_memory(d, n, mo);
      },
      data, size, nullptr);
}

void dxt_model_close(dxt_model* model) { delete model; }

dxt_status dxt_default_model_path(uint32_t geometry, char* buffer, size_t capacity, size_t* required) {
  return guarded([&] {
    require(buffer != nullptr || capacity == 0, "buffer is NULL");
    if (geometry != DXT_GEOMETRY_EUCLIDEAN && geometry != DXT_GEOMETRY_POINCARE)
      dxt::fail(DXT_E_INVALID_ARGUMENT, "geometry must be euclidean or poincare");
    const std::string path = dxt::find_default_model(static_cast<dxt_geometry>(geometry));
    if (required != nullptr) *required = path.size() + 1;
    if (capacity < path.size() + 1)
      dxt::fail(DXT_E_INPUT_TOO_LARGE, "buffer holds " + std::to_string(capacity) + " bytes, the path needs " +
                                           std::to_string(path.size() + 1));
    std::memcpy(buffer, path.c_str(), path.size() + 1);
  });
}

void dxt_model_info_init_sized(dxt_model_info* info, size_t struct_size) {
  init_sized(info, struct_size, zeroed<dxt_model_info>());
}

dxt_status dxt_model_get_info(const dxt_model* model, dxt_model_info* info) {
  return guarded([&] {
    require(model != nullptr, "model is NULL");
    check_struct(info, kInfoV1, "info");
    const dxt::Model& m = *model->impl;
    dxt_model_info r;
    std::memset(&r, 0, sizeof r);
    r.struct_size = info->struct_size;
    r.format_major = m.format_major();
    r.format_minor = m.format_minor();
    r.dimension = m.dimension();
    r.vocabulary_size = m.vocabulary_size();
    r.geometry = m.geometry();
    r.quantization = m.quantization();
    r.lowercase = m.lowercase();
    r.has_frequencies = m.has_frequencies();
    std::memcpy(info, &r, info->struct_size < sizeof r ? info->struct_size : sizeof r);
  });
}

dxt_status dxt_model_fingerprint(const dxt_model* model, uint8_t out[32]) {
  return guarded([&] {
    require(model != nullptr && out != nullptr, "model or out is NULL");
    const dxt::Digest& d = model->impl->fingerprint();
    std::memcpy(out, d.data(), d.size());
  });
}

dxt_status dxt_model_lookup(const dxt_model* model, const char* word, size_t length, uint32_t* index) {
  return guarded([&] {
    require(model != nullptr && index != nullptr, "model or index is NULL");
    require(word != nullptr || length == 0, "word is NULL");
    const std::string_view w(word == nullptr ? "" : word, length);
    if (!dxt::utf8::valid(w.data(), w.size())) dxt::fail(DXT_E_INVALID_UTF8, "word is not valid UTF-8");
    const auto hit = model->impl->lookup(w);
    if (!hit) dxt::fail(DXT_E_NOT_FOUND, "word is not in the vocabulary");
    *index = *hit;
  });
}

dxt_status dxt_model_word(const dxt_model* model, uint32_t index, const char** word, size_t* length) {
  return guarded([&] {
    require(model != nullptr && word != nullptr, "model or word is NULL");
    const std::string_view w = model->impl->word(index);
    *word = w.data();
    if (length != nullptr) *length = w.size();
  });
}

dxt_status dxt_model_nearest(const dxt_model* model, const float* vector, size_t dimension, uint32_t* index) {
  return guarded([&] {
    require(model != nullptr && vector != nullptr && index != nullptr, "model, vector or index is NULL");
    const dxt::Model& m = *model->impl;
    if (dimension != m.dimension())
      dxt::fail(DXT_E_INVALID_ARGUMENT,
                "vector has dimension " + std::to_string(dimension) + ", the model " + std::to_string(m.dimension()));
    // NaN compares false with everything: the scan would return index 0 as if
    // it were the nearest word.
    for (size_t i = 0; i < dimension; ++i)
      if (!std::isfinite(vector[i]))
        dxt::fail(DXT_E_INVALID_ARGUMENT, "vector[" + std::to_string(i) + "] is not finite");
    if (m.geometry() == DXT_GEOMETRY_EUCLIDEAN) {
      *index = dxt::nearest_euclidean(m, vector);
      return;
    }
    // A point of the Poincare ball, decoded on the hyperboloid.
    double pp = 0;
    for (size_t i = 0; i < dimension; ++i) pp += double{vector[i]} * vector[i];
    if (!(pp < 1)) dxt::fail(DXT_E_INVALID_ARGUMENT, "the vector lies outside the Poincare ball");
    std::vector<double> ys(dimension);
    for (size_t i = 0; i < dimension; ++i) ys[i] = 2 * double{vector[i]} / (1 - pp);
    *index = dxt::nearest_hyperbolic(m, (1 + pp) / (1 - pp), ys.data());
  });
}

dxt_status dxt_model_ordering_count(const dxt_model* model, uint32_t* count) {
  return guarded([&] {
    require(model != nullptr && count != nullptr, "model or count is NULL");
    // orderings() checks the permutations on first use, so a damaged
    // section fails here rather than giving places that are not a cycle.
    const dxt::OrderingsView* o = model->impl->orderings();
    *count = o == nullptr ? 0 : o->count;
  });
}

dxt_status dxt_model_ordering_place(const dxt_model* model, uint32_t ordering, uint32_t index, uint32_t* place,
                                    uint32_t* cycle_length) {
  return guarded([&] {
    require(model != nullptr && place != nullptr, "model or place is NULL");
    const dxt::OrderingsView* o = model->impl->orderings();
    if (o == nullptr) dxt::fail(DXT_E_UNSUPPORTED, "the model has no orderings section; add one with `dxtext order`");
    if (ordering >= o->count)
      dxt::fail(DXT_E_NOT_FOUND, "ordering " + std::to_string(ordering) + " is out of range (the model has " +
                                     std::to_string(o->count) + ")");
    if (index >= o->vocabulary_size)
      dxt::fail(DXT_E_NOT_FOUND, "word index " + std::to_string(index) + " is out of range");
    *place = o->positions[uint64_t{ordering} * o->vocabulary_size + index];
    if (cycle_length != nullptr) *cycle_length = o->vocabulary_size;
  });
}

void dxt_context_options_init_sized(dxt_context_options* o, size_t struct_size) {
  dxt_context_options d = zeroed<dxt_context_options>();
  d.rng_mode = DXT_RNG_SYSTEM;
  init_sized(o, struct_size, d);
}

dxt_status dxt_context_create(dxt_model* model, const dxt_context_options* options, dxt_context** out) {
  return guarded([&] {
    require(out != nullptr, "out is NULL");
    *out = nullptr;
    require(model != nullptr, "model is NULL");
    std::unique_ptr<dxt::ByteSource> source;
    dxt::Digest identity{};
    if (options == nullptr) {
      source = dxt::make_system_byte_source();
    } else {
      check_struct(options, kContextOptionsV1, "options");
      switch (options->rng_mode) {
        case DXT_RNG_SYSTEM: source = dxt::make_system_byte_source(); break;
        case DXT_RNG_DETERMINISTIC: {
          std::array<uint8_t, 32> seed;
          std::memcpy(seed.data(), options->seed, seed.size());
          source = dxt::make_keyed_stream(seed);
          identity = dxt::sha256(seed.data(), seed.size());
          break;
        }
        default: dxt::fail(DXT_E_INVALID_ARGUMENT, "unknown rng_mode " + std::to_string(options->rng_mode));
      }
    }
    auto ctx = std::make_unique<dxt_context>();
    ctx->model = model->impl;
    ctx->rng = std::make_unique<dxt::RandomStream>(std::move(source));
    ctx->rng_identity = identity;
    *out = ctx.release();
  });
}

void dxt_context_destroy(dxt_context* context) { delete context; }

dxt_status dxt_output_set_create(const dxt_model* model, const char* const* words, size_t count, dxt_output_set** out) {
  return guarded([&] {
    require(out != nullptr, "out is NULL");
    *out = nullptr;
    require(model != nullptr, "model is NULL");
    require(words != nullptr || count == 0, "words is NULL");
    if (count > model->impl->vocabulary_size())
      dxt::fail(DXT_E_INVALID_ARGUMENT, "the output word list has " + std::to_string(count) +
                                            " entries, more than the vocabulary's " +
                                            std::to_string(model->impl->vocabulary_size()) + " words");
    std::vector<std::string_view> list(count);
    for (size_t i = 0; i < count; ++i) {
      if (words[i] == nullptr) dxt::fail(DXT_E_INVALID_ARGUMENT, "output word " + std::to_string(i) + " is NULL");
      list[i] = words[i];
      if (!dxt::utf8::valid(list[i].data(), list[i].size()))
        dxt::fail(DXT_E_INVALID_UTF8, "output word " + std::to_string(i) + " is not valid UTF-8");
    }
    auto set = std::make_unique<dxt_output_set>();
    set->model = model->impl;
    set->impl = dxt::output_list(*model->impl, list);
    *out = set.release();
  });
}

uint32_t dxt_output_set_size(const dxt_output_set* set) { return set != nullptr ? set->impl->size() : 0; }

void dxt_output_set_free(dxt_output_set* set) { delete set; }

void dxt_privatize_options_init_sized(dxt_privatize_options* o, size_t struct_size) {
  dxt_privatize_options d = zeroed<dxt_privatize_options>();
  d.mechanism = DXT_MECHANISM_LAPLACE;
  for (auto& p : d.policy) p = DXT_POLICY_PRIVATIZE;
  for (auto& p : d.typed) p = DXT_TYPED_PRIVATIZE;
  d.number_shape = DXT_NUMBER_SHAPE_HIDE;
  d.negations = DXT_NEGATIONS_PRIVATIZE;
  const dxt::MechanismParams defaults;
  d.tem_gamma = defaults.tem_gamma;
  d.tem_beta = defaults.tem_beta;
  d.vickrey_t = defaults.vickrey_t;
  d.mahalanobis_lambda = defaults.mahalanobis_lambda;
  d.syntf_s = defaults.syntf_s;
  d.exponential_sampler = DXT_SAMPLER_GUMBEL;
  d.release_shape = DXT_SHAPE_KEEP;
  init_sized(o, struct_size, d);
}

void dxt_release_record_init_sized(dxt_release_record* r, size_t struct_size) {
  init_sized(r, struct_size, zeroed<dxt_release_record>());
}

void dxt_local_diagnostics_init_sized(dxt_local_diagnostics* d, size_t struct_size) {
  init_sized(d, struct_size, zeroed<dxt_local_diagnostics>());
}

dxt_status dxt_release_record_to_json(const dxt_release_record* record, char* buffer, size_t capacity,
                                      size_t* required) {
  return guarded([&] {
    write_json(record, kRecordV1, "record", dxt_release_record_init_sized, dxt::record_to_json, buffer, capacity,
               required);
  });
}

dxt_status dxt_local_diagnostics_to_json(const dxt_local_diagnostics* diagnostics, char* buffer, size_t capacity,
                                         size_t* required) {
  return guarded([&] {
    write_json(diagnostics, kDiagnosticsV1, "diagnostics", dxt_local_diagnostics_init_sized, dxt::diagnostics_to_json,
               buffer, capacity, required);
  });
}

dxt_status dxt_privatize_index(dxt_context* ctx, const dxt_privatize_options* o, uint32_t index, uint32_t* out_index,
                               dxt_release_record* record, dxt_local_diagnostics* diagnostics) {
  return guarded([&] {
    const ContextUse in_use(ctx);
    const dxt_privatize_options opt = check_common(ctx, o, record, diagnostics);
    require(out_index != nullptr, "out_index is NULL");
    if (index >= ctx->model->vocabulary_size())
      dxt::fail(DXT_E_NOT_FOUND, "index " + std::to_string(index) + " is outside the vocabulary");
    dxt::Mechanism& m = mechanism_for(ctx, opt);
    *out_index = m.privatize(*ctx->rng, index);
    dxt::TokenTally tally;
    tally.add(DXT_CLASS_IN_VOCABULARY, DXT_POLICY_PRIVATIZE);
    // No token policies apply to an index, and no case shape is restored.
    dxt::ReleaseShape shape;
    shape.kind = DXT_RELEASE_WORD;
    shape.case_shape = false;
    const dxt::TokenPolicies policies = resolve_policies(opt);
    shape.text_shape = policies.shape;
    shape.preset = policies.preset;
    finish_report(record, diagnostics, ctx, m, shape, tally);
  });
}

dxt_status dxt_privatize_word(dxt_context* ctx, const dxt_privatize_options* o, const char* word, size_t length,
                              char** out, size_t* out_length, dxt_release_record* record,
                              dxt_local_diagnostics* diagnostics) {
  return guarded([&] {
    if (out != nullptr) *out = nullptr;  // first: no stale pointer survives any failure
    const ContextUse in_use(ctx);
    const dxt_privatize_options opt = check_common(ctx, o, record, diagnostics);
    require(out != nullptr, "out is NULL");
    require(word != nullptr || length == 0, "word is NULL");
    dxt::Mechanism& m = mechanism_for(ctx, opt);
    const dxt::TokenPolicies policies = resolve_policies(opt);
    dxt::TextPrivatizer p(*ctx->model, m, *ctx->rng, policies);
    const std::string result = p.privatize_word(std::string_view(word == nullptr ? "" : word, length)).value_or("");
    finish_report(record, diagnostics, ctx, m, release_shape(DXT_RELEASE_WORD, policies), p.tally());
    *out = copy_out(result);
    if (out_length != nullptr) *out_length = result.size();
  });
}

dxt_status dxt_privatize_text(dxt_context* ctx, const dxt_privatize_options* o, const char* text, size_t length,
                              char** out, size_t* out_length, dxt_release_record* record,
                              dxt_local_diagnostics* diagnostics) {
  return guarded([&] {
    if (out != nullptr) *out = nullptr;  // first: no stale pointer survives any failure
    const ContextUse in_use(ctx);
    const dxt_privatize_options opt = check_common(ctx, o, record, diagnostics);
    require(out != nullptr, "out is NULL");
    require(text != nullptr || length == 0, "text is NULL");
    dxt::Mechanism& m = mechanism_for(ctx, opt);
    const dxt::TokenPolicies policies = resolve_policies(opt);
    dxt::TextPrivatizer p(*ctx->model, m, *ctx->rng, policies);
    const std::string result = p.privatize_text(std::string_view(text == nullptr ? "" : text, length));
    finish_report(record, diagnostics, ctx, m, release_shape(DXT_RELEASE_TEXT, policies), p.tally());
    *out = copy_out(result);
    if (out_length != nullptr) *out_length = result.size();
  });
}

void dxt_text_free(char* text) { std::free(text); }

dxt_status dxt_privatize_bag(dxt_context* ctx, const dxt_privatize_options* o, const dxt_bag_entry* entries,
                             size_t entry_count, dxt_bag** out, dxt_release_record* record,
                             dxt_local_diagnostics* diagnostics) {
  return guarded([&] {
    if (out != nullptr) *out = nullptr;  // first: no stale pointer survives any failure
    const ContextUse in_use(ctx);
    const dxt_privatize_options opt = check_common(ctx, o, record, diagnostics);
    require(out != nullptr, "out is NULL");
    check_bag_entries(entries, entry_count);
    std::vector<std::pair<std::string_view, uint64_t>> bag;
    bag.reserve(entry_count);
    for (size_t i = 0; i < entry_count; ++i) {
      require(entries[i].word != nullptr || entries[i].length == 0, "a bag entry's word is NULL");
      bag.emplace_back(std::string_view(entries[i].word == nullptr ? "" : entries[i].word, entries[i].length),
                       entries[i].count);
    }
    dxt::Mechanism& m = mechanism_for(ctx, opt);
    const dxt::TokenPolicies policies = resolve_policies(opt);
    dxt::TextPrivatizer p(*ctx->model, m, *ctx->rng, policies);
    const auto result = p.privatize_bag(bag);
    finish_report(record, diagnostics, ctx, m, release_shape(DXT_RELEASE_BAG, policies), p.tally());

    *out = make_bag(result);
  });
}

void dxt_bag_free(dxt_bag* bag) { std::free(bag); }

}  // extern "C"
