// SPDX-License-Identifier: Apache-2.0
// Shared pieces of the C glue: the handle structs, argument checks, and
// guarded(), which turns every exception into a status and a thread-local
// message. Used by every src/abi/*.cpp file and nothing else.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "accounting/ledger_store.hpp"
#include "accounting/privacy_report.hpp"
#include "dxtext/dxtext.h"
#include "errors/error.hpp"
#include "mechanisms/mechanism.hpp"
#include "mechanisms/output_set.hpp"
#include "model/model.hpp"
#include "model/sha256.hpp"
#include "rng/random_stream.hpp"
#include "text/negations.hpp"
#include "text/privatize_presets.hpp"
#include "text/text_privatizer.hpp"
#include "unicode/utf8.hpp"

struct dxt_model {
  std::shared_ptr<const dxt::Model> impl;
};

struct dxt_context {
  std::shared_ptr<const dxt::Model> model;  // keeps the model alive
  std::unique_ptr<dxt::RandomStream> rng;
  // What, besides the generator mode, decides its bytes: SHA-256 of the seed
  // of a deterministic generator (all zero for the system generator). The
  // ledger's memo key covers it, so a call with another seed never returns
  // the memoised output of this one.
  dxt::Digest rng_identity{};
  // The mechanism of the last call, reused while mechanism and epsilon match.
  std::unique_ptr<dxt::Mechanism> mechanism;
  // Set while a call runs on the context (dxt::abi::ContextUse).
  std::atomic<bool> busy{false};
  // The last top-N output vocabulary built (output_top), reused while N matches.
  std::shared_ptr<const dxt::OutputSet> output_top;
  // The last output vocabulary without negators (negations keep) and the
  // set it was made from (nullptr: the whole vocabulary), reused while that
  // set is the same.
  std::shared_ptr<const dxt::OutputSet> without_negators;
  std::shared_ptr<const dxt::OutputSet> without_negators_base;
};

struct dxt_output_set {
  std::shared_ptr<const dxt::Model> model;  // the model its rows index
  std::shared_ptr<const dxt::OutputSet> impl;
};

// A ledger handle: where its state is kept (a file read afresh under its
// lock by every call, or bytes the caller stores) and the scope selected in it.
struct dxt_ledger {
  std::unique_ptr<dxt::LedgerStore> store;
  std::string scope;
  // The anchor of the state this handle last read or wrote (or the one the
  // app gave at open): every call refuses a state older than it.
  std::optional<dxt::LedgerAnchor> anchor;
};

namespace dxt::abi {

// The calling thread's last error message (dxt_last_error_message).
std::string& last_error();

// The one place a failure's message is made: it is the whole message, to be
// shown as it is (bindings and programs print it alone; dxtext.h,
// dxt_last_error_message), and never empty after a failure.
inline dxt_status set_error(dxt_status status, const std::string& message) {
  last_error() = message.empty() ? std::string(dxt_status_string(status)) : message;
  return status;
}

// Runs `body`, mapping every exception to a status and a message.
template <typename F>
inline dxt_status guarded(F&& body) noexcept {
  try {
    last_error().clear();
    body();
    return DXT_OK;
  } catch (const dxt::Error& e) {
    return set_error(e.status(), e.what());
  } catch (const std::bad_alloc&) {
    return set_error(DXT_E_OUT_OF_MEMORY, "out of memory");
  } catch (const std::length_error& e) {
    // A size beyond what a container can hold comes from the caller's input.
    return set_error(DXT_E_INPUT_TOO_LARGE, std::string("input too large: ") + e.what());
  } catch (const std::exception& e) {
    return set_error(DXT_E_INTERNAL, std::string("internal error: ") + e.what());
  } catch (...) {
    return set_error(DXT_E_INTERNAL, "internal error: unknown exception");
  }
}

inline void require(bool ok, const char* what) {
  if (!ok) dxt::fail(DXT_E_INVALID_ARGUMENT, what);
}

// Marks a context in use for the whole of one call. A second thread that
// calls in meanwhile gets DXT_E_CONTEXT_BUSY and touches nothing else of the
// context, instead of racing on its random buffer and scratch memory (which
// crashed). One atomic exchange and one store per call.
class ContextUse {
 public:
  explicit ContextUse(dxt_context* ctx) : ctx_(ctx) {
    require(ctx != nullptr, "context is NULL");
    if (ctx->busy.exchange(true, std::memory_order_acquire))
      dxt::fail(DXT_E_CONTEXT_BUSY,
                "another thread is inside a call on this context; a context is for one thread at a time");
  }
  ~ContextUse() { ctx_->busy.store(false, std::memory_order_release); }
  ContextUse(const ContextUse&) = delete;
  ContextUse& operator=(const ContextUse&) = delete;

 private:
  dxt_context* ctx_;
};

// Accepts a struct from an older caller (smaller, at least `minimum`) or a
// newer one (larger) whose extra fields are all zero, i.e. unused.
template <typename T>
inline void check_struct(const T* s, size_t minimum, const char* name) {
  require(s != nullptr, (std::string(name) + " is NULL").c_str());
  if (s->struct_size < minimum)
    dxt::fail(DXT_E_INVALID_ARGUMENT, std::string(name) + ".struct_size is " + std::to_string(s->struct_size) +
                                          "; call the matching _init function first");
  if (s->struct_size > sizeof(T)) {
    const auto* extra = reinterpret_cast<const unsigned char*>(s) + sizeof(T);
    for (size_t i = 0; i < s->struct_size - sizeof(T); ++i)
      if (extra[i] != 0)
        dxt::fail(DXT_E_UNSUPPORTED, std::string(name) +
                                         " sets fields this version of dxtext does not know (struct_size " +
                                         std::to_string(s->struct_size) + " > " + std::to_string(sizeof(T)) + ")");
  }
}

// The body of every dxt_*_init_sized: writes `defaults` (with struct_size set
// to `size`) into the caller's first min(size, sizeof(T)) bytes and zeros
// into the caller's bytes beyond sizeof(T); never touches byte `size` or later.
template <typename T>
inline void init_sized(T* s, size_t size, T defaults) noexcept {
  static_assert(offsetof(T, struct_size) == 0, "struct_size leads every versioned struct");
  if (s == nullptr || size < sizeof(uint32_t)) return;
  auto* bytes = reinterpret_cast<unsigned char*>(s);
  if (size > UINT32_MAX) {
    const uint32_t zero = 0;
    std::memcpy(bytes, &zero, sizeof zero);
    return;
  }
  defaults.struct_size = static_cast<uint32_t>(size);
  const size_t known = size < sizeof(T) ? size : sizeof(T);
  std::memcpy(bytes, &defaults, known);
  if (size > known) std::memset(bytes + known, 0, size - known);
}

// A zero-filled T with struct_size = sizeof(T): the start of every default.
template <typename T>
inline T zeroed() noexcept {
  T value;
  std::memset(&value, 0, sizeof value);
  value.struct_size = static_cast<uint32_t>(sizeof value);
  return value;
}

inline dxt::TokenPolicies resolve_policies(const dxt_privatize_options& o) {
  dxt::TokenPolicies p;
  for (int c = 0; c < DXT_TOKEN_CLASS_COUNT; ++c) {
    const uint32_t v = o.policy[c];
    if (v > DXT_POLICY_KEEP) dxt::fail(DXT_E_INVALID_ARGUMENT, "unknown token policy " + std::to_string(v));
    p.policy[c] = v == DXT_POLICY_DEFAULT ? DXT_POLICY_PRIVATIZE : static_cast<dxt_token_policy>(v);
  }
  if (o.release_shape > DXT_SHAPE_STRICT)
    dxt::fail(DXT_E_INVALID_ARGUMENT, "unknown release_shape " + std::to_string(o.release_shape));
  p.shape = o.release_shape == DXT_SHAPE_DEFAULT ? DXT_SHAPE_KEEP : static_cast<dxt_release_shape>(o.release_shape);
  // strict promises an output that depends on the input only through the
  // mechanism's draws: a word copied verbatim would break that.
  if (p.shape == DXT_SHAPE_STRICT)
    for (const dxt_token_policy q : p.policy)
      if (q == DXT_POLICY_KEEP)
        dxt::fail(DXT_E_INVALID_ARGUMENT,
                  "the strict release shape cannot keep words verbatim: use another policy than keep, or the "
                  "normalize or keep shape");
  for (int f = 0; f < DXT_TYPED_FAMILY_COUNT; ++f) {
    const uint32_t v = o.typed[f];
    if (v > DXT_TYPED_DROP) dxt::fail(DXT_E_INVALID_ARGUMENT, "unknown typed policy " + std::to_string(v));
    p.typed[f] = v == DXT_TYPED_DEFAULT ? DXT_TYPED_PRIVATIZE : static_cast<dxt_typed_policy>(v);
    if (p.shape == DXT_SHAPE_STRICT && p.typed[f] == DXT_TYPED_KEEP)
      dxt::fail(DXT_E_INVALID_ARGUMENT,
                "the strict release shape cannot keep typed tokens verbatim: use replace, placeholder or privatize");
  }
  if (o.typed_consistent > 1)
    dxt::fail(DXT_E_INVALID_ARGUMENT, "typed_consistent must be 0 or 1, not " + std::to_string(o.typed_consistent));
  if (o.number_shape > DXT_NUMBER_SHAPE_KEEP)
    dxt::fail(DXT_E_INVALID_ARGUMENT, "unknown number_shape " + std::to_string(o.number_shape));
  p.typed_consistent = o.typed_consistent == 1;
  p.keep_number_shape = o.number_shape == DXT_NUMBER_SHAPE_KEEP;
  if (o.negations > DXT_NEGATIONS_KEEP)
    dxt::fail(DXT_E_INVALID_ARGUMENT, "unknown negations policy " + std::to_string(o.negations));
  p.keep_negations = o.negations == DXT_NEGATIONS_KEEP;
  if (p.shape == DXT_SHAPE_STRICT && p.keep_negations)
    dxt::fail(DXT_E_INVALID_ARGUMENT,
              "the strict release shape cannot keep negators verbatim: use negations privatize, or the normalize or "
              "keep shape");
  p.preset = static_cast<dxt_preset>(o.preset);  // reported in the release record
  if (o.placeholder != nullptr) {
    p.placeholder = o.placeholder;
    if (!dxt::utf8::valid(p.placeholder.data(), p.placeholder.size()))
      dxt::fail(DXT_E_INVALID_UTF8, "placeholder is not valid UTF-8");
  }
  return p;
}

inline dxt::MechanismParams mechanism_params(const dxt_privatize_options& o) {
  // Range checks before the casts: an enum may not hold values outside it.
  if (o.mechanism > dxt::DXT_MECHANISM_LAST)
    dxt::fail(DXT_E_UNSUPPORTED, "unknown mechanism " + std::to_string(o.mechanism));
  if (o.exponential_sampler > DXT_SAMPLER_PERMUTE_AND_FLIP)
    dxt::fail(DXT_E_INVALID_ARGUMENT, "unknown exponential sampler " + std::to_string(o.exponential_sampler));
  dxt::MechanismParams p;
  p.id = static_cast<dxt_mechanism>(o.mechanism == DXT_MECHANISM_UNKNOWN ? static_cast<uint32_t>(DXT_MECHANISM_LAPLACE)
                                                                         : o.mechanism);
  p.epsilon = o.epsilon;
  p.tem_gamma = o.tem_gamma;
  p.tem_beta = o.tem_beta;
  p.vickrey_t = o.vickrey_t;
  p.mahalanobis_lambda = o.mahalanobis_lambda;
  p.syntf_s = o.syntf_s;
  p.sampler = static_cast<dxt_exponential_sampler>(
      o.exponential_sampler == DXT_SAMPLER_DEFAULT ? static_cast<uint32_t>(DXT_SAMPLER_GUMBEL) : o.exponential_sampler);
  if (o.search > DXT_SEARCH_IVF) dxt::fail(DXT_E_INVALID_ARGUMENT, "unknown search " + std::to_string(o.search));
  p.search = static_cast<dxt_search>(o.search);
  if (p.search == DXT_SEARCH_EXACT && o.ivf_nprobe != 0)
    dxt::fail(DXT_E_INVALID_ARGUMENT,
              "ivf_nprobe is set but search is exact: set search to ivf, or leave ivf_nprobe at 0");
  p.ivf_nprobe = o.ivf_nprobe;
  if (!(o.uniform_floor >= 0 && o.uniform_floor < 1))
    dxt::fail(DXT_E_INVALID_ARGUMENT,
              "floor must be from 0 to below 1 (got " + dxt::format_number(o.uniform_floor) + ")");
  p.floor = o.uniform_floor;
  p.context_prior = o.context_prior;
  // strict releases words whatever separates them; the prior reads whether
  // punctuation does, so it would show through.
  if (o.context_prior != 0 && o.release_shape == DXT_SHAPE_STRICT)
    dxt::fail(DXT_E_INVALID_ARGUMENT,
              "the strict release shape cannot use a context prior (which words are neighbours shows through it): "
              "use the normalize or keep shape, or leave context_prior at 0");
  return p;
}

// The output vocabulary the options ask for (nullptr: the whole vocabulary).
inline std::shared_ptr<const dxt::OutputSet> output_for(dxt_context* ctx, const dxt_privatize_options& o) {
  if (o.output_top != 0 && o.output_set != nullptr)
    dxt::fail(DXT_E_INVALID_ARGUMENT, "output_top and output_set are both set; choose one output vocabulary");
  if (o.output_set != nullptr) {
    if (o.output_set->model.get() != ctx->model.get())
      dxt::fail(DXT_E_INVALID_ARGUMENT, "output_set was built for another model than the context's");
    return o.output_set->impl;
  }
  if (o.output_top == 0) return nullptr;
  if (!ctx->output_top || ctx->output_top->size() != o.output_top)
    ctx->output_top = dxt::output_top(*ctx->model, o.output_top);
  return ctx->output_top;
}

// The output vocabulary of a call: output_for's, without negators under
// negations keep (text/negations.hpp).
inline std::shared_ptr<const dxt::OutputSet> released_output(dxt_context* ctx, const dxt_privatize_options& o) {
  std::shared_ptr<const dxt::OutputSet> base = output_for(ctx, o);
  if (o.negations != DXT_NEGATIONS_KEEP) return base;
  if (!ctx->without_negators || !dxt::same_output(ctx->without_negators_base.get(), base.get())) {
    ctx->without_negators = dxt::output_without_negators(*ctx->model, base.get());
    ctx->without_negators_base = base;
  }
  return ctx->without_negators;
}

inline dxt::Mechanism& mechanism_for(dxt_context* ctx, const dxt_privatize_options& o) {
  dxt::MechanismParams p = mechanism_params(o);
  p.output = released_output(ctx, o);
  dxt::check_epsilon(p.epsilon);
  // Rows that are not finite or overflow are refused for every mechanism,
  // also those that read only the orderings (model.hpp, check_rows).
  ctx->model->check_rows();
  if (!ctx->mechanism || !(ctx->mechanism->params() == p)) {
    ctx->mechanism.reset();  // release the old scratch before building anew
    ctx->mechanism = dxt::make_mechanism(*ctx->model, p);
  }
  return *ctx->mechanism;
}

// Fills whichever of the caller's record and diagnostics were asked for.
inline void finish_report(dxt_release_record* record, dxt_local_diagnostics* diagnostics, dxt_context* ctx,
                          const dxt::Mechanism& m, const dxt::ReleaseShape& shape, const dxt::TokenTally& tally) {
  if (record != nullptr) dxt::fill_record(*record, m, *ctx->model, ctx->rng->mode(), shape);
  if (diagnostics != nullptr) dxt::fill_diagnostics(*diagnostics, tally);
}

// The shape of a release made with `policies` by the call `kind`.
inline dxt::ReleaseShape release_shape(dxt_release_kind kind, const dxt::TokenPolicies& policies, uint64_t draws = 0) {
  dxt::ReleaseShape shape;
  shape.kind = kind;
  for (int c = 0; c < DXT_TOKEN_CLASS_COUNT; ++c) shape.policy[c] = policies.policy[c];
  shape.text_shape = policies.shape;
  shape.preset = policies.preset;
  for (int f = 0; f < DXT_TYPED_FAMILY_COUNT; ++f) shape.typed[f] = policies.typed[f];
  shape.keep_negations = policies.keep_negations;
  shape.typed_flags = (policies.typed_consistent ? DXT_TYPED_FLAG_CONSISTENT : 0u) |
                      (policies.keep_number_shape ? DXT_TYPED_FLAG_NUMBER_SHAPE : 0u);
  shape.draws = draws;
  return shape;
}

inline char* copy_out(const std::string& s) {
  char* p = static_cast<char*>(std::malloc(s.size() + 1));
  if (p == nullptr) throw std::bad_alloc();
  std::memcpy(p, s.data(), s.size());
  p[s.size()] = '\0';
  return p;
}

inline constexpr size_t kOpenOptionsV1 = sizeof(dxt_model_open_options);
inline constexpr size_t kInfoV1 = sizeof(dxt_model_info);
inline constexpr size_t kContextOptionsV1 = sizeof(dxt_context_options);
// The first dxt_privatize_options ended with exponential_sampler; `search`
// and `ivf_nprobe` were appended (the first of them in what was its tail
// padding), so they are read only when struct_size covers both.
inline constexpr size_t kPrivatizeOptionsV1 =
    (offsetof(dxt_privatize_options, search) + alignof(dxt_privatize_options) - 1) / alignof(dxt_privatize_options) *
    alignof(dxt_privatize_options);
inline constexpr size_t kPrivatizeOptionsWithSearch = offsetof(dxt_privatize_options, ivf_nprobe) + sizeof(uint32_t);
// The first dxt_release_record ended with epsilon_vocabulary; release_shape
// was appended, and is written only when struct_size covers it; then the
// output vocabulary fields, likewise.
inline constexpr size_t kRecordV1 = offsetof(dxt_release_record, release_shape);
// The output fields were appended after release_shape; output_top may sit in
// what was tail padding before them, so both output fields are read only
// when struct_size covers them.
inline constexpr size_t kPrivatizeOptionsWithOutput =
    offsetof(dxt_privatize_options, output_set) + sizeof(const dxt_output_set*);
inline constexpr size_t kDiagnosticsV1 = sizeof(dxt_local_diagnostics);
// The typed class fields were appended after preset (typed[0] in what was
// its tail padding): read only when struct_size covers all of them.
inline constexpr size_t kPrivatizeOptionsWithTyped = offsetof(dxt_privatize_options, number_shape) + sizeof(uint32_t);

inline void check_outputs(const dxt_release_record* record, const dxt_local_diagnostics* diagnostics) {
  if (record != nullptr) check_struct(record, kRecordV1, "record");
  if (diagnostics != nullptr) check_struct(diagnostics, kDiagnosticsV1, "diagnostics");
}

// Checks the arguments every privatise call has and returns the options the
// call runs with: the caller's as a whole struct (fields beyond its
// struct_size take their defaults, never read from the caller's memory),
// with its preset applied (text/privatize_presets.hpp: the one place).
inline dxt_privatize_options check_common(dxt_context* ctx, const dxt_privatize_options* o,
                                          const dxt_release_record* record, const dxt_local_diagnostics* diagnostics) {
  require(ctx != nullptr, "context is NULL");
  check_struct(o, kPrivatizeOptionsV1, "options");
  check_outputs(record, diagnostics);
  dxt_privatize_options full;
  dxt_privatize_options_init(&full);
  if (o->struct_size < kPrivatizeOptionsWithSearch) {
    std::memcpy(&full, o, kPrivatizeOptionsV1);
    full.search = DXT_SEARCH_EXACT;  // the caller's bytes here were padding
    full.ivf_nprobe = 0;
  } else if (o->struct_size < kPrivatizeOptionsWithOutput) {
    std::memcpy(&full, o, kPrivatizeOptionsWithSearch);
  } else {
    std::memcpy(&full, o, o->struct_size < sizeof full ? o->struct_size : sizeof full);
    if (o->struct_size < kPrivatizeOptionsWithTyped) {
      // The caller's bytes there (if any) were padding: the defaults stand.
      dxt_privatize_options defaults;
      dxt_privatize_options_init(&defaults);
      std::memcpy(full.typed, defaults.typed, sizeof full.typed);
      full.typed_consistent = defaults.typed_consistent;
      full.number_shape = defaults.number_shape;
    }
  }
  full.struct_size = static_cast<uint32_t>(sizeof full);
  return dxt::resolve_preset(full, *ctx->model);
}

// A bag's entry array: every non-empty entry holds at least one word, so a
// count above DXT_MAX_BAG_WORDS is refused before any entry is read (a
// caller's SIZE_MAX would otherwise be the length of a read past its array).
inline void check_bag_entries(const dxt_bag_entry* entries, size_t entry_count) {
  require(entries != nullptr || entry_count == 0, "entries is NULL");
  if (entry_count > DXT_MAX_BAG_WORDS)
    dxt::fail(DXT_E_INPUT_TOO_LARGE, "the bag has " + std::to_string(entry_count) + " entries, more than " +
                                         std::to_string(DXT_MAX_BAG_WORDS));
}

// A library-owned dxt_bag in one allocation: the struct, its entries, then
// the NUL-terminated words. Freed by dxt_bag_free.
inline dxt_bag* make_bag(const std::vector<std::pair<std::string, uint64_t>>& result) {
  // One allocation: the dxt_bag, its entries, then the NUL-terminated words.
  size_t bytes = sizeof(dxt_bag) + result.size() * sizeof(dxt_bag_entry);
  for (const auto& [w, c] : result) bytes += w.size() + 1;
  auto* block = static_cast<unsigned char*>(std::malloc(bytes));
  if (block == nullptr) throw std::bad_alloc();
  auto* bagp = reinterpret_cast<dxt_bag*>(block);
  bagp->entries = reinterpret_cast<dxt_bag_entry*>(block + sizeof(dxt_bag));
  bagp->size = result.size();
  char* strings = reinterpret_cast<char*>(bagp->entries + result.size());
  for (size_t i = 0; i < result.size(); ++i) {
    std::memcpy(strings, result[i].first.c_str(), result[i].first.size() + 1);
    bagp->entries[i] = {strings, result[i].first.size(), result[i].second};
    strings += result[i].first.size() + 1;
  }
  return bagp;
}

}  // namespace dxt::abi
