// Shared pieces of the C glue: the handle structs, argument checks, and
// guarded(), which turns every exception into a status and a thread-local
// message. Used by every src/abi/*.cpp file and nothing else.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "accounting/privacy_report.hpp"
#include "dxtext/dxtext.h"
#include "errors/error.hpp"
#include "mechanisms/mechanism.hpp"
#include "model/model.hpp"
#include "rng/random_stream.hpp"
#include "text/text_privatizer.hpp"
#include "unicode/utf8.hpp"

struct dxt_model {
  std::shared_ptr<const dxt::Model> impl;
};

struct dxt_context {
  std::shared_ptr<const dxt::Model> model;  // keeps the model alive
  std::unique_ptr<dxt::RandomStream> rng;
  // The mechanism of the last call, reused while mechanism and epsilon match.
  std::unique_ptr<dxt::Mechanism> mechanism;
};

namespace dxt::abi {

// The calling thread's last error message (dxt_last_error_message).
std::string& last_error();

inline dxt_status set_error(dxt_status status, const std::string& message) {
  last_error() = message;
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
  } catch (const std::exception& e) {
    return set_error(DXT_E_INTERNAL, std::string("internal error: ") + e.what());
  } catch (...) {
    return set_error(DXT_E_INTERNAL, "internal error: unknown exception");
  }
}

inline void require(bool ok, const char* what) {
  if (!ok) dxt::fail(DXT_E_INVALID_ARGUMENT, what);
}

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
  if (o.placeholder != nullptr) {
    p.placeholder = o.placeholder;
    if (!dxt::utf8::valid(p.placeholder.data(), p.placeholder.size()))
      dxt::fail(DXT_E_INVALID_UTF8, "placeholder is not valid UTF-8");
  }
  return p;
}

inline dxt::MechanismParams mechanism_params(const dxt_privatize_options& o) {
  // Range checks before the casts: an enum may not hold values outside it.
  if (o.mechanism > DXT_MECHANISM_TEM) dxt::fail(DXT_E_UNSUPPORTED, "unknown mechanism " + std::to_string(o.mechanism));
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
    dxt::fail(DXT_E_INVALID_ARGUMENT, "ivf_nprobe is set but search is DXT_SEARCH_EXACT");
  p.ivf_nprobe = o.ivf_nprobe;
  return p;
}

inline dxt::Mechanism& mechanism_for(dxt_context* ctx, const dxt_privatize_options& o) {
  const dxt::MechanismParams p = mechanism_params(o);
  dxt::check_epsilon(p.epsilon);
  if (!ctx->mechanism || !(ctx->mechanism->params() == p)) {
    ctx->mechanism.reset();  // release the old scratch before building anew
    ctx->mechanism = dxt::make_mechanism(*ctx->model, p);
  }
  return *ctx->mechanism;
}

inline void finish_report(dxt_report* report, dxt_context* ctx, const dxt::Mechanism& m, const dxt::TokenTally& tally) {
  if (report == nullptr) return;
  dxt::fill_report(*report, m, *ctx->model, ctx->rng->mode(), tally);
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
// The first dxt_report ended with epsilon_document (a double, so no tail
// padding); epsilon_document_vocabulary was appended. Older callers' reports
// get the fields they have.
inline constexpr size_t kReportV1 = offsetof(dxt_report, epsilon_document_vocabulary);

inline void check_report(dxt_report* report) {
  if (report != nullptr) check_struct(report, kReportV1, "report");
}

// Checks the arguments every privatise call has and returns the caller's
// options as a whole struct: fields beyond its struct_size take their
// defaults (never read from the caller's memory).
inline dxt_privatize_options check_common(dxt_context* ctx, const dxt_privatize_options* o, dxt_report* report) {
  require(ctx != nullptr, "context is NULL");
  check_struct(o, kPrivatizeOptionsV1, "options");
  check_report(report);
  dxt_privatize_options full;
  dxt_privatize_options_init(&full);
  if (o->struct_size < kPrivatizeOptionsWithSearch) {
    std::memcpy(&full, o, kPrivatizeOptionsV1);
    full.search = DXT_SEARCH_EXACT;  // the caller's bytes here were padding
    full.ivf_nprobe = 0;
  } else {
    std::memcpy(&full, o, o->struct_size < sizeof full ? o->struct_size : sizeof full);
  }
  full.struct_size = static_cast<uint32_t>(sizeof full);
  return full;
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
