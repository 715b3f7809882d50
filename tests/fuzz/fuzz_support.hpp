// SPDX-License-Identifier: Apache-2.0
// Shared pieces of the fuzz targets: a reader that turns the fuzzer's bytes
// into choices, the fixed models the privatisation targets run on, and the
// contract checks that make a violation visible to the fuzzer (abort).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "dxtext/dxtext.h"
#include "model/model_writer.hpp"
#include "support/toy_models.hpp"
#include "unicode/utf8.hpp"

namespace dxt::fuzz {

// A contract of the C ABI was broken: stop so the fuzzer keeps the input.
#define DXT_FUZZ_CHECK(cond)                                                                  \
  do {                                                                                        \
    if (!(cond)) {                                                                            \
      std::fprintf(stderr, "%s:%d: fuzz contract violated: %s\n", __FILE__, __LINE__, #cond); \
      std::abort();                                                                           \
    }                                                                                         \
  } while (0)

// Consumes the input from the front; past the end every read yields zero.
class Input {
 public:
  Input(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  uint8_t u8() { return at_ < size_ ? data_[at_++] : 0; }
  uint32_t u32() {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v = (v << 8) | u8();
    return v;
  }
  uint64_t u64() { return (uint64_t{u32()} << 32) | u32(); }
  // The next min(n, remaining) bytes.
  std::string_view bytes(size_t n) {
    const size_t k = n < size_ - at_ ? n : size_ - at_;
    const std::string_view s(reinterpret_cast<const char*>(data_ + at_), k);
    at_ += k;
    return s;
  }
  std::string_view rest() { return bytes(size_ - at_); }
  bool empty() const { return at_ >= size_; }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t at_ = 0;
};

// Values at and around every bound the ABI checks, then ordinary ones.
inline double pick_double(uint8_t b, double ordinary_scale) {
  static const double kSpecial[] = {0.0,
                                    -0.0,
                                    -1.0,
                                    std::numeric_limits<double>::quiet_NaN(),
                                    std::numeric_limits<double>::infinity(),
                                    -std::numeric_limits<double>::infinity(),
                                    std::numeric_limits<double>::denorm_min(),
                                    std::numeric_limits<double>::min(),
                                    1e-300,
                                    1e300,
                                    std::numeric_limits<double>::max(),
                                    1.0,
                                    0.5,
                                    2.0};
  constexpr size_t n = sizeof kSpecial / sizeof kSpecial[0];
  if (b < n) return kSpecial[b];
  return ordinary_scale * (static_cast<double>(b) - static_cast<double>(n) + 1) / 64.0;
}

// The fixed models of the privatisation targets: every geometry and
// quantisation, one with a covariance (mahalanobis) and a case-sensitive one.
struct Models {
  std::vector<test::AlignedBytes> bytes;
  std::vector<dxt_model*> models;
  Models() {
    // The first and the last with typed lists, so that the typed policies,
    // their context rules and the replacements are reached.
    add(with(test::grid_2d_spec(), DXT_QUANT_F32, true), false, true);
    add(with(test::grid_2d_spec(), DXT_QUANT_INT8, false), false, false);
    add(with(test::poincare_2d_spec(), DXT_QUANT_F32, true), false, false);
    add(with(test::grid_2d_spec(), DXT_QUANT_F16, true), true, true);
    models.reserve(bytes.size());
    for (const auto& b : bytes) {
      dxt_model* m = nullptr;
      if (dxt_model_open_memory(b.data(), b.size, nullptr, &m) != DXT_OK) std::abort();
      models.push_back(m);
    }
  }
  ~Models() {
    for (dxt_model* m : models) dxt_model_close(m);
  }
  Models(const Models&) = delete;
  Models& operator=(const Models&) = delete;
  static test::ToyModelSpec with(test::ToyModelSpec s, dxt_quantization q, bool lowercase) {
    s.quantization = q;
    s.lowercase = lowercase;
    // Words a text can hit: real-looking ones, a stopword and a number.
    const char* extra[] = {"fox", "dog", "the", "42", "über", "naïve", "not", "don't", "paris", "tom"};
    for (size_t i = 0; i < sizeof extra / sizeof extra[0]; ++i) {
      s.words.push_back(extra[i]);
      const float r = s.geometry == DXT_GEOMETRY_POINCARE ? 0.1f * static_cast<float>(i + 1) : static_cast<float>(i);
      s.vectors.push_back({r * 0.5f, -r * 0.25f});
    }
    return s;
  }
  void add(const test::ToyModelSpec& s, bool covariance, bool typed) {
    std::stringstream out(std::ios::in | std::ios::out | std::ios::binary);
    ModelWriterOptions o;
    o.dimension = static_cast<uint32_t>(s.vectors.at(0).size());
    o.quantization = s.quantization;
    o.geometry = s.geometry;
    o.lowercase = s.lowercase;
    o.with_frequencies = true;
    o.with_covariance = covariance;
    ModelWriter w(out, o);
    for (size_t i = 0; i < s.words.size(); ++i) w.add(s.words[i], s.vectors[i].data(), 100 + i);
    w.finish();
    if (!typed) {
      bytes.emplace_back(out.str());
      return;
    }
    // With typed lists also orderings and a context prior (every word
    // followed by the next three, with growing lifts), so that the ordering
    // mechanism and its prior are reached.
    std::vector<PriorPair> pairs;
    const auto V = static_cast<uint32_t>(s.words.size());
    for (uint32_t c = 0; c < V; ++c)
      for (uint32_t k = 1; k <= 3; ++k) pairs.push_back({c, (c + k) % V, 1.5 * k * k});
    bytes.emplace_back(test::with_context_prior(
        test::with_orderings_section(test::with_typed_section(out.str(), test::toy_typed_lists())), pairs));
  }
};

inline const Models& models() {
  static const Models m;
  return m;
}

// A deterministic context, so that every finding replays exactly.
inline dxt_context* deterministic_context(dxt_model* model, uint8_t seed_byte) {
  dxt_context_options o;
  dxt_context_options_init(&o);
  o.rng_mode = DXT_RNG_DETERMINISTIC;
  o.seed[0] = seed_byte;
  dxt_context* ctx = nullptr;
  if (dxt_context_create(model, &o, &ctx) != DXT_OK) std::abort();
  return ctx;
}

// Privatisation options drawn from the input: every field, valid or not.
inline dxt_privatize_options pick_options(Input& in, std::string& placeholder_storage) {
  dxt_privatize_options o;
  dxt_privatize_options_init(&o);
  const uint8_t mech = in.u8();
  o.mechanism = mech < 240 ? mech % 9u : mech;  // mostly known ones (0 = the default), sometimes unknown
  o.epsilon = pick_double(in.u8(), 64.0);
  const uint8_t pol = in.u8(), pol2 = in.u8();
  for (int c = 0; c < DXT_TOKEN_CLASS_COUNT; ++c) {
    // 0..4 are policies; the top bit of pol2 sometimes gives an unknown one.
    o.policy[c] = (pol >> (2 * c)) & 3u;
    if (pol2 & (1u << c)) o.policy[c] = DXT_POLICY_KEEP;
    if ((pol2 & 0xF0u) == 0xF0u && c == 0) o.policy[c] = 9;
  }
  switch (in.u8() % 5) {
    case 0: o.placeholder = nullptr; break;
    case 1:
      placeholder_storage = "";
      o.placeholder = placeholder_storage.c_str();
      break;
    case 2:
      placeholder_storage = "\xC3\x28";
      o.placeholder = placeholder_storage.c_str();
      break;  // invalid UTF-8
    default:
      placeholder_storage = std::string(in.bytes(in.u8() % 16));
      // A C string ends at the first NUL, as it would for a caller.
      placeholder_storage.resize(std::strlen(placeholder_storage.c_str()));
      o.placeholder = placeholder_storage.c_str();
  }
  const uint8_t params = in.u8();
  if (params & 1) o.tem_gamma = pick_double(in.u8(), 2.0);
  if (params & 2) o.tem_beta = pick_double(in.u8(), 0.01);
  if (params & 4) o.vickrey_t = pick_double(in.u8(), 0.01);
  if (params & 8) o.mahalanobis_lambda = pick_double(in.u8(), 0.01);
  if (params & 16) o.syntf_s = pick_double(in.u8(), 0.1);
  if (params & 32) o.exponential_sampler = in.u8() % 4u;
  if (params & 128) o.release_shape = in.u8() % 5u;  // 4 is unknown
  // Typed classes and negations: every policy, sometimes an unknown one.
  const uint8_t typed = in.u8();
  if (typed & 1) {
    const uint8_t a = in.u8(), b = in.u8();
    const uint32_t bits = a | (uint32_t{b} << 8);
    for (int f = 0; f < DXT_TYPED_FAMILY_COUNT; ++f) o.typed[f] = (bits >> (2 * f + (f > 3 ? 1 : 0))) % 7u;
    o.typed_consistent = (typed >> 1) & 1u;
    o.number_shape = (typed >> 2) & 1u;
  }
  if (typed & 8) o.negations = (typed >> 4) % 4u;  // 3 is unknown
  if (typed & 64) o.uniform_floor = pick_double(in.u8(), 0.01);
  if (typed & 128) o.context_prior = pick_double(in.u8(), 4.0);
  // Wrong sizes must be refused (larger ones would make the caller, not
  // dxtext, read past the struct).
  if (params & 64) o.struct_size = in.u32() % static_cast<uint32_t>(sizeof o + 1);
  return o;
}

// What every failed call must leave behind: a named status and a message.
inline void check_failure(dxt_status s) {
  DXT_FUZZ_CHECK(s > 0 && s <= DXT_E_INTERNAL);
  DXT_FUZZ_CHECK(s != DXT_E_INTERNAL);  // an internal error is a bug
  DXT_FUZZ_CHECK(std::strlen(dxt_last_error_message()) > 0);
}

}  // namespace dxt::fuzz
