// SPDX-License-Identifier: Apache-2.0
#include "mechanisms/output_set.hpp"

#include <algorithm>
#include <functional>
#include <numeric>
#include <string>

#include "errors/error.hpp"

namespace dxt {

namespace {

std::shared_ptr<const OutputSet> finish(const Model& model, dxt_output_kind kind, std::vector<uint32_t> rows) {
  auto set = std::make_shared<OutputSet>();
  set->kind = kind;
  std::sort(rows.begin(), rows.end());
  set->rows = std::move(rows);
  set->member.assign(model.vocabulary_size(), 0);
  Sha256 h;
  for (uint32_t v : set->rows) {
    set->member[v] = 1;
    const std::string_view w = model.word(v);
    h.update(w.data(), w.size());
    h.update("\n", 1);
  }
  set->digest = h.finish();
  return set;
}

}  // namespace

std::shared_ptr<const OutputSet> output_top(const Model& model, uint32_t n) {
  const uint32_t V = model.vocabulary_size();
  if (!model.has_frequencies())
    fail(DXT_E_UNSUPPORTED, "output_top needs word frequencies, and this model has no frequencies section");
  if (n == 0 || n > V)
    fail(DXT_E_INVALID_ARGUMENT, "output_top must be in 1 .. " + std::to_string(V) +
                                     " (the vocabulary size) for a top-n output vocabulary (got " + std::to_string(n) +
                                     ")");
  std::vector<uint32_t> order(V);
  std::iota(order.begin(), order.end(), 0u);
  std::vector<uint64_t> f(V);
  for (uint32_t v = 0; v < V; ++v) f[v] = model.frequency(v);
  auto more_frequent = [&f](uint32_t a, uint32_t b) { return f[a] > f[b] || (f[a] == f[b] && a < b); };
  std::nth_element(order.begin(), order.begin() + (n - 1), order.end(), more_frequent);
  order.resize(n);
  return finish(model, DXT_OUTPUT_TOP, std::move(order));
}

std::shared_ptr<const OutputSet> output_list(const Model& model, const std::vector<std::string_view>& words) {
  if (words.empty()) fail(DXT_E_INVALID_ARGUMENT, "an output word list needs at least one word");
  std::vector<uint8_t> seen(model.vocabulary_size(), 0);
  std::vector<uint32_t> rows;
  rows.reserve(words.size());
  for (size_t i = 0; i < words.size(); ++i) {
    const std::optional<uint32_t> v = model.lookup(words[i]);
    if (!v)
      fail(DXT_E_INVALID_ARGUMENT, "output word " + std::to_string(i) + " (\"" + std::string(words[i]) +
                                       "\") is not in the model's vocabulary");
    if (seen[*v] != 0)
      fail(DXT_E_INVALID_ARGUMENT, "output word " + std::to_string(i) + " (\"" + std::string(words[i]) +
                                       "\") repeats vocabulary word \"" + std::string(model.word(*v)) +
                                       "\": a word list is a set, give each word once");
    seen[*v] = 1;
    rows.push_back(*v);
  }
  return finish(model, DXT_OUTPUT_LIST, std::move(rows));
}

std::shared_ptr<const OutputSet> output_without(const Model& model, const OutputSet* base,
                                                const std::function<bool(std::string_view)>& leave_out) {
  std::vector<uint32_t> rows;
  const uint32_t V = model.vocabulary_size();
  rows.reserve(base != nullptr ? base->size() : V);
  auto consider = [&](uint32_t v) {
    if (!leave_out(model.word(v))) rows.push_back(v);
  };
  if (base != nullptr) {
    for (uint32_t v : base->rows) consider(v);
  } else {
    for (uint32_t v = 0; v < V; ++v) consider(v);
  }
  if (rows.empty()) fail(DXT_E_INVALID_ARGUMENT, "the output vocabulary has no word left once negators are left out");
  return finish(model, DXT_OUTPUT_LIST, std::move(rows));
}

bool same_output(const OutputSet* a, const OutputSet* b) {
  if (a == b) return true;
  if (a == nullptr || b == nullptr) return false;
  return a->kind == b->kind && a->rows == b->rows;
}

}  // namespace dxt
