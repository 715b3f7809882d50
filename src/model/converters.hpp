// SPDX-License-Identifier: Apache-2.0
// Streaming converters from the common text and binary embedding formats to
// .dxe, and an exporter back to word2vec text so any model can be checked by
// other tools.
#pragma once

#include <cstdint>
#include <functional>
#include <istream>
#include <map>
#include <ostream>
#include <string>
#include <unordered_map>

#include "dxtext/dxtext.h"

namespace dxt {

enum class EmbeddingFormat {
  kGlove,           // "word v1 .. vD" per line, no header
  kWord2VecText,    // header "V D", then GloVe-style lines
  kWord2VecBinary,  // header "V D\n", then "word " + D little-endian f32 (+ '\n')
  kFastText,        // .vec: the same as word2vec text
};

// Parses "glove", "word2vec", "word2vec-bin", "fasttext"; throws on others.
EmbeddingFormat parse_embedding_format(const std::string& name);

struct ConvertOptions {
  EmbeddingFormat format = EmbeddingFormat::kGlove;
  dxt_quantization quantization = DXT_QUANT_F32;
  dxt_geometry geometry = DXT_GEOMETRY_EUCLIDEAN;
  bool lowercase = false;
  uint64_t max_words = 0;  // 0 = all
  std::map<std::string, std::string> metadata;
  // Word frequencies to store (after lowercasing, when that is on); words
  // not listed get 0. Empty: no frequency section.
  std::unordered_map<std::string, uint64_t> frequencies;
  // Store the covariance of the rows (section kind 9, for the mahalanobis
  // mechanism; makes the file format 1.1).
  bool with_covariance = false;
  // Called now and then with (bytes consumed, total bytes or 0 if unknown).
  std::function<void(uint64_t, uint64_t)> progress;
  uint64_t input_size = 0;
};

struct ConvertStats {
  uint64_t words = 0;
  uint32_t dimension = 0;
  uint64_t case_duplicates_skipped = 0;  // with lowercase: later spellings dropped
  uint64_t special_tokens_skipped = 0;   // "</s>" of fastText / word2vec; words that fold to nothing
  uint64_t consumed() const { return words + case_duplicates_skipped + special_tokens_skipped; }
};

// Reads `in` to the end (or max_words) and writes a complete .dxe to `out`.
// Errors (DXT_E_PARSE) name the line: malformed numbers, NaN/inf, dimension
// changes, duplicate words, invalid UTF-8, a word count that disagrees with
// the header.
ConvertStats convert_embeddings(std::istream& in, std::ostream& out, const ConvertOptions& options);

class Model;
// Reads "word count" lines (e.g. from a corpus count) for
// ConvertOptions::frequencies. Errors name the line.
std::unordered_map<std::string, uint64_t> read_frequencies(std::istream& in, bool lowercase);

// Writes word2vec text ("V D" then one line per word, dequantised values in
// shortest round-trip form).
void export_word2vec_text(const Model& model, std::ostream& out);

}  // namespace dxt
