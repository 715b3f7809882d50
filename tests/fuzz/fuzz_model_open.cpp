// SPDX-License-Identifier: Apache-2.0
// Fuzz target: dxt_model_open_memory on arbitrary bytes, then every read
// call on whatever opened. A hostile file may fail (with a status and a
// message) but must never read out of bounds, also when its bytes change
// after the model used them (a file rewritten in place): every read call is
// made again after the buffer is overwritten with 0xFF, which makes every
// offset, count, slot and row id that is read again out of range.
#include <cstring>
#include <vector>

#include "fuzz_support.hpp"

namespace {

// Every read call on an opened model.
void exercise(dxt_model* m) {
  using namespace dxt::fuzz;
  dxt_model_info info;
  dxt_model_info_init(&info);
  DXT_FUZZ_CHECK(dxt_model_get_info(m, &info) == DXT_OK);
  DXT_FUZZ_CHECK(info.dimension > 0 && info.vocabulary_size > 0);
  uint8_t fp[32];
  DXT_FUZZ_CHECK(dxt_model_fingerprint(m, fp) == DXT_OK);

  // Every word, looked up by its own spelling; a corrupt per-word field
  // may fail the call, never more.
  const uint32_t limit = info.vocabulary_size < 64 ? info.vocabulary_size : 64;
  for (uint32_t i = 0; i < limit; ++i) {
    const char* w = nullptr;
    size_t len = 0;
    dxt_status ws = dxt_model_word(m, i, &w, &len);
    if (ws != DXT_OK) {
      check_failure(ws);
      continue;
    }
    DXT_FUZZ_CHECK(w != nullptr && std::strlen(w) == len);
    uint32_t index = 0;
    ws = dxt_model_lookup(m, w, len, &index);
    if (ws != DXT_OK) check_failure(ws);
    if (ws == DXT_OK) DXT_FUZZ_CHECK(index < info.vocabulary_size);
  }
  uint32_t index = 0;
  const dxt_status ls = dxt_model_lookup(m, "w3", 2, &index);
  if (ls != DXT_OK) check_failure(ls);

  // Decoding and privatisation read the matrix, norms, scales and
  // covariance: a file that opened must not make them crash either.
  if (info.dimension <= 4096) {
    std::vector<float> v(info.dimension, 0.0f);
    v[0] = 0.25f;
    const dxt_status ns = dxt_model_nearest(m, v.data(), v.size(), &index);
    if (ns != DXT_OK) check_failure(ns);
    if (ns == DXT_OK) DXT_FUZZ_CHECK(index < info.vocabulary_size);
  }
  // The orderings: checked on first use, so a damaged permutation fails
  // both calls; a place is always inside its cycle.
  uint32_t orderings = 0;
  const dxt_status os = dxt_model_ordering_count(m, &orderings);
  if (os != DXT_OK) check_failure(os);
  for (uint32_t L = 0; os == DXT_OK && L < orderings; ++L) {
    uint32_t place = 0, length = 0;
    const dxt_status ps = dxt_model_ordering_place(m, L, info.vocabulary_size - 1, &place, &length);
    if (ps != DXT_OK) check_failure(ps);
    if (ps == DXT_OK) DXT_FUZZ_CHECK(length == info.vocabulary_size && place < length);
  }
  if (info.vocabulary_size <= 4096 && info.dimension <= 256) {
    dxt_context* ctx = deterministic_context(m, 1);
    for (uint32_t mech = DXT_MECHANISM_LAPLACE; mech <= DXT_MECHANISM_TEM; ++mech) {
      dxt_privatize_options po;
      dxt_privatize_options_init(&po);
      po.mechanism = mech;
      po.epsilon = info.geometry == DXT_GEOMETRY_POINCARE ? info.dimension + 2.0 : 2.0;
      uint32_t out = 0;
      const dxt_status ps = dxt_privatize_index(ctx, &po, 0, &out, nullptr, nullptr);
      if (ps != DXT_OK) check_failure(ps);
      if (ps == DXT_OK) DXT_FUZZ_CHECK(out < info.vocabulary_size);
      // Through the search index, where the model has one: its cells are
      // checked on first use.
      po.search = DXT_SEARCH_IVF;
      const dxt_status is = dxt_privatize_index(ctx, &po, 0, &out, nullptr, nullptr);
      if (is != DXT_OK) check_failure(is);
      if (is == DXT_OK) DXT_FUZZ_CHECK(out < info.vocabulary_size);
    }
    dxt_context_destroy(ctx);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace dxt::fuzz;
  // The API asks for an 8-byte aligned buffer; give it exactly `size` bytes
  // so that reads past the end are caught by AddressSanitizer.
  std::vector<uint64_t> storage(size / 8 + 1);
  if (size > 0) std::memcpy(storage.data(), data, size);
  const void* bytes = size == 0 ? nullptr : storage.data();

  for (const uint32_t flags : {0u, uint32_t{DXT_OPEN_VERIFY_DIGESTS}, uint32_t{DXT_OPEN_PRIVATE_COPY}}) {
    dxt_model_open_options o;
    dxt_model_open_options_init(&o);
    o.flags = flags;
    dxt_model* m = nullptr;
    const dxt_status s = dxt_model_open_memory(bytes, size, &o, &m);
    if (s != DXT_OK) {
      check_failure(s);
      DXT_FUZZ_CHECK(m == nullptr);
      continue;
    }
    exercise(m);
    // The bytes change under the model; with DXT_OPEN_PRIVATE_COPY they do
    // not reach it, without it they may change the results, never where the
    // model reads.
    std::memset(storage.data(), 0xFF, size);
    exercise(m);
    if (size > 0) std::memcpy(storage.data(), data, size);
    dxt_model_close(m);
  }
  return 0;
}
