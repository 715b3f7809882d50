// SPDX-License-Identifier: Apache-2.0
// dxt_syntf: synthetic term-frequency bags (Weggenmann & Kerschbaum 2018).
// The body runs in abi::guarded like every entry point.
#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "abi/abi_support.hpp"
#include "mechanisms/exponential_mechanism.hpp"
#include "mechanisms/syntf_mechanism.hpp"
#include "text/stopwords.hpp"
#include "text/tokenizer.hpp"
#include "unicode/fold.hpp"

namespace {

using namespace dxt::abi;

// One distinct input word: a vocabulary index, or an out-of-vocabulary word
// rated by its own bigrams.
struct Input {
  std::optional<uint32_t> index;
  std::string oov_word;
  dxt_token_class cls;
  uint64_t weight = 0;  // occurrences in the bag
  uint64_t draws = 0;   // how many of the n_out draws picked it
};

// The class of a bag word, as dxt_privatize_bag classifies it.
dxt_token_class classify(const dxt::Model& model, std::string_view word, std::optional<uint32_t>& index) {
  index = model.lookup(word);
  const std::vector<dxt::Token> t = dxt::tokenize(word);
  if (t.size() == 1 && t[0].kind == dxt::TokenKind::kNumber) return DXT_CLASS_NUMBER;
  if (dxt::is_stopword(dxt::unicode::fold(word))) return DXT_CLASS_STOPWORD;
  return index ? DXT_CLASS_IN_VOCABULARY : DXT_CLASS_OUT_OF_VOCABULARY;
}

}  // namespace

extern "C" {

dxt_status dxt_syntf(dxt_context* ctx, const dxt_privatize_options* o, const dxt_bag_entry* entries, size_t entry_count,
                     uint32_t n_out, dxt_bag** out, dxt_release_record* record, dxt_local_diagnostics* diagnostics) {
  return guarded([&] {
    if (out != nullptr) *out = nullptr;  // first: no stale pointer survives any failure
    const ContextUse in_use(ctx);
    const dxt_privatize_options opt = check_common(ctx, o, record, diagnostics);
    require(out != nullptr, "out is NULL");
    check_bag_entries(entries, entry_count);
    if (n_out == 0) dxt::fail(DXT_E_INVALID_ARGUMENT, "n_out must be at least 1");
    if (n_out > DXT_MAX_BAG_WORDS)
      dxt::fail(DXT_E_INPUT_TOO_LARGE, "n_out is above the largest bag (" + std::to_string(DXT_MAX_BAG_WORDS) + ")");

    dxt_privatize_options forced = opt;  // options->mechanism is ignored
    forced.mechanism = DXT_MECHANISM_SYNTF;
    // A preset's uniform floor bounds the worst case of its own mechanism;
    // SynTF's draws are bounded between any two documents already, so the
    // preset's floor does not apply. A floor the caller set is refused
    // (make_mechanism), never ignored.
    if (o->struct_size < offsetof(dxt_privatize_options, uniform_floor) + sizeof(double) || o->uniform_floor == 0)
      forced.uniform_floor = 0;
    // Likewise a preset's negations keep: SynTF draws every released word
    // from the document's bag, so it keeps nothing as written; the caller's
    // own negations keep is refused.
    if (o->struct_size >= offsetof(dxt_privatize_options, negations) + sizeof(uint32_t) &&
        o->negations == DXT_NEGATIONS_KEEP)
      dxt::fail(DXT_E_UNSUPPORTED, "dxt_syntf keeps no word as written: negations keep is not for syntf");
    forced.negations = DXT_NEGATIONS_PRIVATIZE;
    // And a preset's context prior, which weights the ordering mechanism's
    // law only; the caller's own is refused (make_mechanism).
    if (o->struct_size < offsetof(dxt_privatize_options, context_prior) + sizeof(double) || o->context_prior == 0)
      forced.context_prior = 0;
    auto& m = static_cast<dxt::SyntfMechanism&>(mechanism_for(ctx, forced));
    const dxt::TokenPolicies policies = resolve_policies(forced);
    for (int c = 0; c < DXT_TOKEN_CLASS_COUNT; ++c)
      if (policies.policy[c] == DXT_POLICY_PLACEHOLDER || policies.policy[c] == DXT_POLICY_KEEP)
        dxt::fail(DXT_E_UNSUPPORTED,
                  "dxt_syntf privatises or drops words; a placeholder or keep policy would reveal the class of "
                  "the drawn word");

    // The input bag: merged by vocabulary index or by OOV spelling.
    const dxt::Model& model = *ctx->model;
    std::vector<Input> inputs;
    std::map<uint32_t, size_t> by_index;
    std::map<std::string, size_t> by_oov;
    dxt::TokenTally tally;
    uint64_t total = 0, all = 0;
    for (size_t i = 0; i < entry_count; ++i) {
      require(entries[i].word != nullptr || entries[i].length == 0, "a bag entry's word is NULL");
      const std::string_view word(entries[i].word == nullptr ? "" : entries[i].word, entries[i].length);
      if (!dxt::utf8::valid(word.data(), word.size())) dxt::fail(DXT_E_INVALID_UTF8, "a bag word is not valid UTF-8");
      const uint64_t count = entries[i].count;
      if (count > DXT_MAX_BAG_WORDS || (all += count) > DXT_MAX_BAG_WORDS)
        dxt::fail(DXT_E_INPUT_TOO_LARGE, "the bag holds more than " + std::to_string(DXT_MAX_BAG_WORDS) + " words");
      if (count == 0) continue;
      std::optional<uint32_t> index;
      const dxt_token_class cls = classify(model, word, index);
      if (policies.policy[cls] == DXT_POLICY_DROP) {
        for (uint64_t k = 0; k < count; ++k) tally.add(cls, DXT_POLICY_DROP);
        continue;
      }
      size_t slot;
      if (index) {
        const auto [it, fresh] = by_index.emplace(*index, inputs.size());
        if (fresh) inputs.push_back({index, {}, cls});
        slot = it->second;
      } else {
        const auto [it, fresh] = by_oov.emplace(std::string(word), inputs.size());
        if (fresh) inputs.push_back({std::nullopt, std::string(word), cls});
        slot = it->second;
      }
      inputs[slot].weight += count;
      total += count;
    }
    if (total == 0) dxt::fail(DXT_E_INVALID_ARGUMENT, "the bag holds no words to draw from");

    // n_out draws from the term distribution: an exactly uniform position
    // among the `total` occurrences (total <= 2^24 fits uniform_index).
    std::vector<uint64_t> cumulative(inputs.size());
    uint64_t running = 0;
    for (size_t k = 0; k < inputs.size(); ++k) cumulative[k] = running += inputs[k].weight;
    for (uint32_t k = 0; k < n_out; ++k) {
      const uint64_t position = dxt::uniform_index(*ctx->rng, static_cast<uint32_t>(total));
      const auto it = std::upper_bound(cumulative.begin(), cumulative.end(), position);
      ++inputs[static_cast<size_t>(it - cumulative.begin())].draws;
    }

    // The draws of vocabulary words go through the batched path (their
    // candidate lists are built together, a few thousand draws at a time);
    // an out-of-vocabulary word is rated by its own bigrams, all its draws
    // at once.
    std::map<uint32_t, uint64_t> released;
    constexpr size_t kChunk = 4096;
    std::vector<std::optional<uint32_t>> pending;
    std::vector<uint32_t> drawn;
    auto flush = [&] {
      drawn.resize(pending.size());
      m.privatize_batch(*ctx->rng, pending.data(), pending.size(), drawn.data());
      for (uint32_t w : drawn) ++released[w];
      pending.clear();
    };
    for (const Input& in : inputs) {
      for (uint64_t k = 0; k < in.draws; ++k) tally.add(in.cls, DXT_POLICY_PRIVATIZE);
      if (!in.index) {
        m.privatize_repeated(*ctx->rng, std::nullopt, in.oov_word, in.draws, [&](uint32_t w) { ++released[w]; });
        continue;
      }
      for (uint64_t k = 0; k < in.draws; ++k) {
        pending.push_back(in.index);
        if (pending.size() == kChunk) flush();
      }
    }
    flush();
    finish_report(record, diagnostics, ctx, m, release_shape(DXT_RELEASE_SYNTHETIC_BAG, policies, n_out), tally);

    std::vector<std::pair<std::string, uint64_t>> result;
    result.reserve(released.size());
    for (const auto& [index, count] : released) result.emplace_back(std::string(model.word(index)), count);
    *out = make_bag(result);
  });
}

}  // extern "C"
