// SPDX-License-Identifier: Apache-2.0
// Applies a mechanism to text, single words and bags of words, following the
// token policies of DESIGN.md §8, and tallies what it did for the report.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "accounting/privacy_report.hpp"
#include "mechanisms/mechanism.hpp"
#include "model/model.hpp"
#include "rng/random_stream.hpp"
#include "text/text_shaper.hpp"
#include "text/tokenizer.hpp"
#include "text/typed_classes.hpp"

namespace dxt {

struct TokenPolicies {
  dxt_token_policy policy[DXT_TOKEN_CLASS_COUNT] = {DXT_POLICY_PRIVATIZE, DXT_POLICY_PRIVATIZE, DXT_POLICY_PRIVATIZE,
                                                    DXT_POLICY_PRIVATIZE};
  std::string placeholder = "[redacted]";
  // What of the input's form a text shows (text_shaper.hpp); resolved: no
  // DXT_SHAPE_DEFAULT.
  dxt_release_shape shape = DXT_SHAPE_KEEP;
  // The preset the options named (already applied to the fields above), for
  // the release record.
  dxt_preset preset = DXT_PRESET_NONE;
  // Typed classes (text/typed_classes.hpp): a policy per dxt_typed_family;
  // privatize = no typed handling.
  dxt_typed_policy typed[DXT_TYPED_FAMILY_COUNT] = {DXT_TYPED_PRIVATIZE, DXT_TYPED_PRIVATIZE, DXT_TYPED_PRIVATIZE,
                                                    DXT_TYPED_PRIVATIZE, DXT_TYPED_PRIVATIZE, DXT_TYPED_PRIVATIZE};
  bool typed_consistent = false;   // equal typed tokens, equal replacements
  bool keep_number_shape = false;  // dxt_number_shape keep
  bool keep_negations = false;     // dxt_negation_policy keep (text/negations.hpp)
  bool any_typed() const {
    for (dxt_typed_policy p : typed)
      if (p != DXT_TYPED_PRIVATIZE) return true;
    return false;
  }
};

// U+2019 (’) replaced by ASCII ' : how words are looked up.
std::string fold_apostrophes(std::string_view word);

class TextPrivatizer {
 public:
  TextPrivatizer(const Model& model, Mechanism& mechanism, RandomStream& rng, const TokenPolicies& policies)
      : model_(model), mechanism_(mechanism), rng_(rng), policies_(policies) {}

  // Whole text: words and numbers handled by policy, invisible code points
  // outside words dropped, everything else kept.
  std::string privatize_text(std::string_view text);

  // One word; nullopt = dropped. `is_number` comes from the tokenizer when the
  // word is part of a text; left empty, the word is classified on its own.
  std::optional<std::string> privatize_word(std::string_view word, std::optional<bool> is_number = std::nullopt);

  // A bag: N = sum of counts independent draws. Output merged by word:
  // vocabulary words sorted by index, then placeholder/kept words.
  std::vector<std::pair<std::string, uint64_t>> privatize_bag(
      const std::vector<std::pair<std::string_view, uint64_t>>& bag);

  const TokenTally& tally() const { return tally_; }

  // The typed class of every word and number of `text` as privatize_text
  // finds it (DXT_TYPED_NONE: none; needs a policy other than privatize for
  // some family, else nothing is typed): for the detection measurements.
  std::vector<std::pair<Token, dxt_typed_class>> detect_typed(std::string_view text);
  // What a release of `text` under the strict shape is a function of, as
  // bytes: for each word or number in order, how it is released (by the
  // mechanism from its vocabulary row or from the shared origin, as the
  // placeholder, or kept as it is), dropped words left out. Two texts with
  // the same bytes here have the same output law under strict (the ledger
  // keys its memo on this: two inputs that differ only in what strict does
  // not release share one entry, so the memo reveals no more than the
  // outputs do). Draws nothing. DXT_E_INVALID_UTF8 as privatize_text.
  std::string strict_release_input(std::string_view text);

 private:
  struct Decision {
    dxt_token_class cls;
    dxt_token_policy action;                 // as tallied: a typed replacement counts as privatize
    std::optional<uint32_t> index;           // vocabulary index, if any
    dxt_typed_class typed = DXT_TYPED_NONE;  // set when a typed policy handles the token
    dxt_typed_policy typed_action = DXT_TYPED_PRIVATIZE;
    dxt_typed_class detected = DXT_TYPED_NONE;  // the class found, whatever its policy
    bool uses_mechanism() const { return typed == DXT_TYPED_NONE && action == DXT_POLICY_PRIVATIZE; }
  };
  Decision decide(std::string_view word, std::optional<bool> is_number, const TypedContext& context = {});
  // The decision for every word and number of `tokens` (cut from `text`),
  // with the context the typed classifier reads.
  std::vector<Decision> decide_tokens(std::string_view text, const std::vector<Token>& tokens);
  // What a typed policy puts out for `word` (replace, placeholder, keep).
  std::string render_typed(const Decision& d, std::string_view word);
  // What the policy puts out for `word` under decision d, before shaping:
  // the model's word as stored when d privatises (`released` is the
  // mechanism's output), the placeholder, the word itself, or nothing.
  std::optional<std::string_view> render(const Decision& d, std::string_view word, uint32_t released) const;
  // Shapes the privatised piece of a text (valid UTF-8, cut between tokens).
  void privatize_piece(std::string_view text, TextShaper& shaper);

  const Model& model_;
  Mechanism& mechanism_;
  RandomStream& rng_;
  const TokenPolicies& policies_;
  TokenTally tally_;
  const TypedLists* lists_ = nullptr;
  bool lists_loaded_ = false;
  std::map<std::pair<dxt_typed_class, std::string>, std::string> consistent_;  // typed_consistent
};

}  // namespace dxt
