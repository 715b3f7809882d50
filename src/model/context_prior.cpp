// SPDX-License-Identifier: Apache-2.0
#include "model/context_prior.hpp"

#include <algorithm>
#include <cmath>

#include "errors/error.hpp"
#include "model/format.hpp"

namespace dxt {

namespace pf = prior_format;
using format::load_u32;
using format::store_u32;

namespace {

[[noreturn]] void corrupt(const std::string& what) { fail(DXT_E_CORRUPT_MODEL, "context prior section: " + what); }

// 64 + 4 (V + 1) + 4 P + P, rounded up to a multiple of 4.
uint64_t section_size(uint32_t V, uint32_t P) {
  const uint64_t bytes = pf::kHeaderSize + 4 * (uint64_t{V} + 1) + 5 * uint64_t{P};
  return (bytes + 3) / 4 * 4;
}

}  // namespace

double prior_lift(uint8_t code) { return std::exp2(code / pf::kCodesPerDoubling); }

uint8_t prior_code(double lift) {
  const double code = std::round(pf::kCodesPerDoubling * std::log2(lift));
  return static_cast<uint8_t>(std::clamp(code, 1.0, 255.0));
}

std::vector<uint8_t> encode_context_prior(uint32_t vocabulary_size, const std::vector<PriorPair>& pairs,
                                          uint32_t max_successors) {
  if (max_successors == 0 || max_successors > pf::kMaxSuccessorsLimit)
    fail(DXT_E_PARSE, "a context prior keeps 1 to 64 successors per word, not " + std::to_string(max_successors));
  std::vector<std::vector<std::pair<uint32_t, uint8_t>>> by_context(vocabulary_size);
  for (const PriorPair& p : pairs) {
    if (p.context >= vocabulary_size || p.successor >= vocabulary_size)
      fail(DXT_E_PARSE, "a context prior pair names a word outside the vocabulary");
    if (!std::isfinite(p.lift) || p.lift < 1) fail(DXT_E_PARSE, "a context prior lift must be finite and at least 1");
    auto& list = by_context[p.context];
    for (const auto& [s, code] : list)
      if (s == p.successor) fail(DXT_E_PARSE, "a context prior pair is given twice");
    if (list.size() < max_successors) list.emplace_back(p.successor, prior_code(p.lift));
  }
  uint64_t P = 0;
  for (auto& list : by_context) {
    std::sort(list.begin(), list.end());
    P += list.size();
  }
  if (P == 0) fail(DXT_E_PARSE, "a context prior needs at least one pair");
  if (P > pf::kMaxPairs) fail(DXT_E_PARSE, "a context prior holds at most 16 777 216 pairs");
  const uint32_t pair_count = static_cast<uint32_t>(P);
  std::vector<uint8_t> out(section_size(vocabulary_size, pair_count), 0);
  store_u32(out.data() + pf::kMethod, pf::kMethodBigramLift);
  store_u32(out.data() + pf::kVocabularySize, vocabulary_size);
  store_u32(out.data() + pf::kPairCount, pair_count);
  store_u32(out.data() + pf::kMaxSuccessors, max_successors);
  uint8_t* first = out.data() + pf::kHeaderSize;
  uint8_t* successors = first + 4 * (uint64_t{vocabulary_size} + 1);
  uint8_t* codes = successors + 4 * P;
  uint32_t at = 0;
  for (uint32_t c = 0; c < vocabulary_size; ++c) {
    store_u32(first + 4 * uint64_t{c}, at);
    for (const auto& [s, code] : by_context[c]) {
      store_u32(successors + 4 * uint64_t{at}, s);
      codes[at++] = code;
    }
  }
  store_u32(first + 4 * uint64_t{vocabulary_size}, at);
  return out;
}

void check_context_prior_header(const uint8_t* data, uint64_t size, uint32_t vocabulary_size) {
  if (size < pf::kHeaderSize) corrupt("shorter than its 64-byte header");
  for (size_t i = pf::kReserved; i < pf::kHeaderSize; ++i)
    if (data[i] != 0) corrupt("reserved header bytes are set");
  if (load_u32(data + pf::kMethod) != pf::kMethodBigramLift) corrupt("method is not 1 (bigram lift)");
  if (load_u32(data + pf::kVocabularySize) != vocabulary_size)
    corrupt("vocabulary size " + std::to_string(load_u32(data + pf::kVocabularySize)) + " is not the model's " +
            std::to_string(vocabulary_size));
  const uint32_t P = load_u32(data + pf::kPairCount), M = load_u32(data + pf::kMaxSuccessors);
  if (P == 0 || P > pf::kMaxPairs) corrupt("pair count " + std::to_string(P) + " is outside 1..16777216");
  if (M == 0 || M > pf::kMaxSuccessorsLimit) corrupt("successors per word " + std::to_string(M) + " is outside 1..64");
  if (size != section_size(vocabulary_size, P)) corrupt("size is not 64 + 4 (V + 1) + 5 P rounded up to 4");
}

ContextPrior decode_context_prior(const uint8_t* data, uint64_t size, uint32_t vocabulary_size) {
  check_context_prior_header(data, size, vocabulary_size);
  const uint32_t V = vocabulary_size, P = load_u32(data + pf::kPairCount);
  ContextPrior prior;
  prior.max_successors = load_u32(data + pf::kMaxSuccessors);
  const uint8_t* first = data + pf::kHeaderSize;
  const uint8_t* successors = first + 4 * (uint64_t{V} + 1);
  const uint8_t* codes = successors + 4 * uint64_t{P};
  prior.first.resize(uint64_t{V} + 1);
  for (uint64_t c = 0; c <= V; ++c) prior.first[c] = load_u32(first + 4 * c);
  if (prior.first[0] != 0 || prior.first[V] != P) corrupt("the successor lists do not span the pairs");
  prior.successors.resize(P);
  prior.codes.assign(codes, codes + P);
  for (uint32_t p = 0; p < P; ++p) prior.successors[p] = load_u32(successors + 4 * uint64_t{p});
  for (uint32_t c = 0; c < V; ++c) {
    const uint32_t b = prior.first[c], e = prior.first[c + 1];
    if (e < b || e > P) corrupt("the successor list of word " + std::to_string(c) + " is out of order");
    if (e - b > prior.max_successors)
      corrupt("word " + std::to_string(c) + " has more successors than the header's " +
              std::to_string(prior.max_successors));
    for (uint32_t p = b; p < e; ++p) {
      if (prior.successors[p] >= V) corrupt("a successor is outside the vocabulary");
      if (p > b && prior.successors[p] <= prior.successors[p - 1])
        corrupt("the successors of word " + std::to_string(c) + " are not in increasing order");
      if (prior.codes[p] == 0) corrupt("a lift code is 0 (a lift of 1 is no weight; leave the pair out)");
    }
  }
  for (uint64_t i = pf::kHeaderSize + 4 * (uint64_t{V} + 1) + 5 * uint64_t{P}; i < size; ++i)
    if (data[i] != 0) corrupt("padding is not zero");
  return prior;
}

}  // namespace dxt
