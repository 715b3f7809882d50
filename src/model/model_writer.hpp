// SPDX-License-Identifier: Apache-2.0
// Streaming writer of .dxe files (docs/format.md). Rows are quantised and
// written as they arrive; only per-row scalars and the words stay in memory.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "dxtext/dxtext.h"
#include "model/sha256.hpp"

namespace dxt {

struct ModelWriterOptions {
  uint32_t dimension = 0;
  dxt_quantization quantization = DXT_QUANT_F32;
  dxt_geometry geometry = DXT_GEOMETRY_EUCLIDEAN;
  bool lowercase = false;
  bool with_frequencies = false;
  // Also write the covariance section (kind 9, format 1.1): the sample
  // covariance of the dequantised rows, accumulated while streaming.
  bool with_covariance = false;
  std::map<std::string, std::string> metadata;  // namespaced keys, e.g. dxtext.source
};

struct CovarianceAccumulator;  // model_writer.cpp

class ModelWriter {
 public:
  // Writes to `out`, which must be seekable and empty.
  ModelWriter(std::ostream& out, ModelWriterOptions options);
  ~ModelWriter();

  bool contains(std::string_view word) const { return index_.count(std::string(word)) != 0; }
  uint32_t size() const { return static_cast<uint32_t>(words_.size()); }

  // Appends a word; throws DXT_E_PARSE on a duplicate, an invalid word or a
  // non-finite value (or one f16 cannot hold).
  void add(std::string_view word, const float* vector, uint64_t frequency = 0);

  // Writes the remaining sections and the header. The stream is complete after.
  void finish();

 private:
  struct Section {
    uint32_t kind;
    uint64_t offset;
    uint64_t size;
    Digest digest;
  };
  void pad_to_alignment();
  void write_section(uint32_t kind, const void* data, uint64_t size);
  void accumulate_covariance(const float* dequantised);
  void flush_covariance_block();

  std::ostream& out_;
  ModelWriterOptions options_;
  uint32_t section_count_;
  uint64_t position_ = 0;
  uint64_t matrix_offset_ = 0;
  Sha256 matrix_hash_;
  std::vector<std::string> words_;
  std::unordered_map<std::string, uint32_t> index_;
  std::vector<float> scales_, norms_;
  std::vector<uint64_t> frequencies_;
  std::vector<uint8_t> row_buffer_;
  std::vector<Section> sections_;
  std::unique_ptr<CovarianceAccumulator> covariance_;
  bool finished_ = false;
};

// Writes to PATH.partial and renames to PATH on commit(); the partial file is
// removed if the object is destroyed without commit(), so a failed conversion
// never leaves a half-written model behind. A PATH that is a symbolic link is
// followed (the file it names is replaced, not the link: renaming over the
// link left its target as it was, often empty); a PATH that exists and is not
// a regular file (/dev/stdout, a FIFO, a terminal) is written directly, as
// rename would replace the device node instead of writing to it.
class AtomicFile {
 public:
  explicit AtomicFile(std::string path);
  ~AtomicFile();
  std::ostream& stream();
  void commit();

 private:
  std::string path_, partial_;  // partial_ empty: written directly
  std::unique_ptr<std::ostream> stream_;
  bool committed_ = false;
};

}  // namespace dxt
