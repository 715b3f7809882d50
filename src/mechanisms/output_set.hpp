// SPDX-License-Identifier: Apache-2.0
// Output vocabularies: a public set S of vocabulary words that a mechanism
// may release, instead of the whole vocabulary. Decoding mechanisms release
// the word of S nearest to the noisy point; exponential, tem and syntf range
// over S (docs/guarantees.md, "Output vocabularies", proves each guarantee
// unchanged). Inputs are still any vocabulary word or the out-of-vocabulary
// fixed point: S restricts outputs only.
//
// S must not depend on the text being privatised. What can be checked is
// checked (not empty, every word in the model, no duplicates); where S came
// from cannot be, and is the caller's promise.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "dxtext/dxtext.h"
#include "model/model.hpp"
#include "model/sha256.hpp"

namespace dxt {

struct OutputSet {
  dxt_output_kind kind = DXT_OUTPUT_VOCABULARY;
  std::vector<uint32_t> rows;  // ascending, distinct, non-empty
  // SHA-256 of the words of S in index order, each followed by "\n": the
  // release record carries it so a reader can check the set is public.
  Digest digest{};
  // member[v] != 0 iff v is in S (one byte per vocabulary word).
  std::vector<uint8_t> member;

  uint32_t size() const { return static_cast<uint32_t>(rows.size()); }
  bool contains(uint32_t v) const { return member[v] != 0; }
};

// The n most frequent words of the model (its frequencies section), ties to
// the lower index. Throws DXT_E_UNSUPPORTED without a frequencies section,
// DXT_E_INVALID_ARGUMENT for n = 0 or n > V.
std::shared_ptr<const OutputSet> output_top(const Model& model, uint32_t n);

// The words of a list the application supplies, each looked up as the text
// calls look words up (Model::lookup). Throws DXT_E_INVALID_ARGUMENT for an
// empty list, a word not in the model, or a word given twice (two spellings
// of one vocabulary word included), naming the first such entry.
std::shared_ptr<const OutputSet> output_list(const Model& model, const std::vector<std::string_view>& words);

// The words of `base` (nullptr: the whole vocabulary) without those for
// which `leave_out` is true, as a list (its digest names the words left):
// the output vocabulary of negations keep (text/negations.hpp). Throws
// DXT_E_INVALID_ARGUMENT when no word is left.
std::shared_ptr<const OutputSet> output_without(const Model& model, const OutputSet* base,
                                                const std::function<bool(std::string_view)>& leave_out);

// Whether two optional sets are the same set of rows (nullptr: the whole
// vocabulary).
bool same_output(const OutputSet* a, const OutputSet* b);

}  // namespace dxt
