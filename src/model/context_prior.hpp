// SPDX-License-Identifier: Apache-2.0
// The context prior section (kind 13, format 1.5, docs/format.md §10.5): for
// each word c of the vocabulary, up to M words y that often follow it in
// public text, each with its lift Pr[y | c] / Pr[y] (a bigram model's
// ratio, >= 1), stored as a code: lift = 2^(code / 16). The ordering
// mechanism's option context_prior weights its candidates by it
// (mechanisms/ordering_mechanism.hpp); models/prior/ builds the default
// model's from its public texts.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace dxt {

namespace prior_format {
inline constexpr size_t kHeaderSize = 64;
inline constexpr size_t kMethod = 0;          // u32, 1 = bigram lift
inline constexpr size_t kVocabularySize = 4;  // u32, = the model's V
inline constexpr size_t kPairCount = 8;       // u32 P
inline constexpr size_t kMaxSuccessors = 12;  // u32 M, 1 .. kMaxSuccessorsLimit
inline constexpr size_t kReserved = 16;       // 48 bytes, zero
inline constexpr uint32_t kMethodBigramLift = 1;
inline constexpr uint32_t kMaxSuccessorsLimit = 64;
inline constexpr uint32_t kMaxPairs = 1u << 24;
// lift = 2^(code / kCodesPerDoubling); code 1 .. 255.
inline constexpr double kCodesPerDoubling = 16;
}  // namespace prior_format

// The decoded section: successors of word c are successors[first[c] ..
// first[c + 1]), in increasing order, with lift codes codes[...] alike.
struct ContextPrior {
  uint32_t max_successors = 0;
  std::vector<uint32_t> first;  // V + 1
  std::vector<uint32_t> successors;
  std::vector<uint8_t> codes;
  uint32_t vocabulary_size() const { return static_cast<uint32_t>(first.size() - 1); }
};

// The lift a code stands for: 2^(code / 16).
double prior_lift(uint8_t code);

// The code of a lift >= 1: round(16 log2 lift) clamped to 1 .. 255.
uint8_t prior_code(double lift);

// One pair of a prior to encode: word ids and lift.
struct PriorPair {
  uint32_t context = 0, successor = 0;
  double lift = 1;
};

// The section's bytes for a vocabulary of V words. Pairs may come in any
// order; each context keeps its first `max_successors` pairs in the order
// given. Throws DXT_E_PARSE for an id out of range, a pair given twice, a
// lift below 1 or not finite, or no pairs.
std::vector<uint8_t> encode_context_prior(uint32_t vocabulary_size, const std::vector<PriorPair>& pairs,
                                          uint32_t max_successors);

// Checks the header alone (constant time, at open) against the model's V.
void check_context_prior_header(const uint8_t* data, uint64_t size, uint32_t vocabulary_size);

// Decodes and checks the section's bytes (docs/format.md §10.5): throws
// DXT_E_CORRUPT_MODEL naming the first fault.
ContextPrior decode_context_prior(const uint8_t* data, uint64_t size, uint32_t vocabulary_size);

}  // namespace dxt
