// SPDX-License-Identifier: Apache-2.0
#include "model/model_writer.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>

#include "errors/error.hpp"
#include "model/f16.hpp"
#include "model/format.hpp"
#include "unicode/fold.hpp"
#include "unicode/utf8.hpp"

namespace dxt {

namespace {

// A squared norm as a message shows it ("1.8e+77").
std::string short_number(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3g", v);
  return buffer;
}
uint64_t round_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }
// Largest dimension for which the writer accumulates a covariance: the D x D
// doubles it keeps (and writes) are 128 MiB there.
constexpr uint32_t kMaxCovarianceDimension = 4096;
}  // namespace

// The sample covariance of the rows, accumulated while streaming. Rows are
// gathered in blocks; each block's mean and centred scatter matrix are merged
// into the running ones with the pairwise update of Chan, Golub & LeVeque
// (1979): M2 = M2_a + M2_b + delta delta^T n_a n_b / n, delta = mean_b - mean_a.
// Centring per block keeps the sums well conditioned (no large sum of x x^T
// minus n mean mean^T), and the block update is a rank-k product, so the cost
// is about V D^2 / 2 multiply-adds. Only the lower triangle is accumulated;
// finish() mirrors it, so the result is exactly symmetric.
struct CovarianceAccumulator {
  static constexpr Eigen::Index kBlock = 256;
  using RowBlock = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

  explicit CovarianceAccumulator(uint32_t dimension)
      : block(kBlock, dimension),
        mean(Eigen::VectorXd::Zero(dimension)),
        m2(Eigen::MatrixXd::Zero(dimension, dimension)) {}

  // Where the next row goes; it counts only after commit_row().
  double* next_row() { return block.row(filled).data(); }
  void commit_row() {
    if (++filled == kBlock) flush();
  }

  void flush() {
    if (filled == 0) return;
    const auto rows = block.topRows(filled);
    const Eigen::RowVectorXd block_mean = rows.colwise().mean();
    const Eigen::MatrixXd centred = rows.rowwise() - block_mean;
    m2.selfadjointView<Eigen::Lower>().rankUpdate(centred.transpose());
    const double nb = static_cast<double>(filled);
    const double total = count + nb;
    const Eigen::VectorXd delta = block_mean.transpose() - mean;
    if (count > 0) m2.selfadjointView<Eigen::Lower>().rankUpdate(delta, count * nb / total);
    mean += delta * (nb / total);
    count = total;
    filled = 0;
  }

  // Sigma = M2 / (V - 1), row-major, exactly symmetric (zero for V = 1).
  std::vector<double> finish() {
    flush();
    const Eigen::Index D = m2.rows();
    const double divisor = count > 1 ? count - 1 : 1;
    std::vector<double> out(static_cast<size_t>(D * D));
    for (Eigen::Index i = 0; i < D; ++i)
      for (Eigen::Index j = 0; j <= i; ++j) {
        const double v = m2(i, j) / divisor;
        out[static_cast<size_t>(i * D + j)] = v;
        out[static_cast<size_t>(j * D + i)] = v;
      }
    return out;
  }

  RowBlock block;
  Eigen::Index filled = 0;
  double count = 0;
  Eigen::VectorXd mean;
  Eigen::MatrixXd m2;
};

ModelWriter::ModelWriter(std::ostream& out, ModelWriterOptions options) : out_(out), options_(std::move(options)) {
  if (options_.dimension == 0 || options_.dimension > format::kMaxDimension)
    fail(DXT_E_INVALID_ARGUMENT, "dimension must be in 1.." + std::to_string(format::kMaxDimension));
  if (format::element_size(options_.quantization) == 0) fail(DXT_E_INVALID_ARGUMENT, "unknown quantisation");
  uint64_t metadata_bytes = 4;
  for (const auto& [k, v] : options_.metadata) {
    for (const std::string* str : {&k, &v})
      if (!utf8::valid(str->data(), str->size()) || str->find('\0') != std::string::npos)
        fail(DXT_E_INVALID_ARGUMENT, "metadata must be UTF-8 without NUL bytes: '" + k + "'");
    if (k.empty()) fail(DXT_E_INVALID_ARGUMENT, "metadata keys must not be empty");
    metadata_bytes += 8 + k.size() + v.size();
  }
  if (metadata_bytes > format::kMaxMetadataSize) fail(DXT_E_INVALID_ARGUMENT, "metadata exceeds 1 MiB");
  if (options_.with_covariance) {
    if (options_.dimension > kMaxCovarianceDimension)
      fail(DXT_E_INVALID_ARGUMENT,
           "a covariance section is written only up to dimension " + std::to_string(kMaxCovarianceDimension));
    covariance_ = std::make_unique<CovarianceAccumulator>(options_.dimension);
  }
  section_count_ = 6 + (options_.quantization == DXT_QUANT_INT8 ? 1 : 0) + (options_.with_frequencies ? 1 : 0) +
                   (options_.with_covariance ? 1 : 0);
  const uint64_t header = format::kHeaderFixedSize + uint64_t{section_count_} * format::kSectionEntrySize;
  matrix_offset_ = round_up(header, format::kSectionAlignment);
  const std::vector<char> zeros(matrix_offset_, 0);
  out_.write(zeros.data(), static_cast<std::streamsize>(zeros.size()));
  position_ = matrix_offset_;
  row_buffer_.resize(uint64_t{options_.dimension} * format::element_size(options_.quantization));
}

ModelWriter::~ModelWriter() = default;

void ModelWriter::add(std::string_view word, const float* v, uint64_t frequency) {
  if (finished_) fail(DXT_E_INTERNAL, "ModelWriter::add after finish");
  if (word.empty()) fail(DXT_E_PARSE, "empty word");
  if (!utf8::valid(word.data(), word.size()) || word.find('\0') != std::string_view::npos)
    fail(DXT_E_PARSE, "word is not valid UTF-8");
  if (words_.size() >= UINT32_MAX - 1) fail(DXT_E_INPUT_TOO_LARGE, "too many words");
  if (contains(word)) fail(DXT_E_PARSE, "duplicate word '" + std::string(word) + "'");
  // In a lowercase vocabulary every lookup is folded first (unicode::fold),
  // so a word outside the folded form could never be found.
  if (options_.lowercase && !unicode::is_folded(word))
    fail(DXT_E_PARSE, "'" + std::string(word) +
                          "' is not in folded form (lower case, NFKC, no invisible characters), but the vocabulary is "
                          "declared lowercase");
  const uint32_t D = options_.dimension;
  for (uint32_t i = 0; i < D; ++i)
    if (!std::isfinite(v[i])) fail(DXT_E_PARSE, "non-finite value in the vector of '" + std::string(word) + "'");

  double norm2 = 0;
  // The dequantised row, for the covariance (committed once the row is accepted).
  double* dequantised = covariance_ ? covariance_->next_row() : nullptr;
  switch (options_.quantization) {
    case DXT_QUANT_F32:
      std::memcpy(row_buffer_.data(), v, D * 4ull);
      for (uint32_t i = 0; i < D; ++i) norm2 += double{v[i]} * v[i];
      if (dequantised != nullptr)
        for (uint32_t i = 0; i < D; ++i) dequantised[i] = v[i];
      break;
    case DXT_QUANT_F16:
      for (uint32_t i = 0; i < D; ++i) {
        const uint16_t h = f32_to_f16(v[i]);
        const float back = f16_to_f32(h);
        if (!std::isfinite(back))
          fail(DXT_E_PARSE, "value " + std::to_string(v[i]) + " of '" + std::string(word) + "' exceeds the f16 range");
        format::store_u16(row_buffer_.data() + 2 * i, h);
        norm2 += double{back} * back;
        if (dequantised != nullptr) dequantised[i] = back;
      }
      break;
    case DXT_QUANT_INT8: {
      float max_abs = 0;
      for (uint32_t i = 0; i < D; ++i) max_abs = std::max(max_abs, std::fabs(v[i]));
      const float scale = max_abs / 127.0f;
      for (uint32_t i = 0; i < D; ++i) {
        const long q = scale > 0 ? std::lround(v[i] / scale) : 0;
        const auto c = static_cast<int8_t>(std::clamp(q, -127L, 127L));
        row_buffer_[i] = static_cast<uint8_t>(c);
        const float back = scale * static_cast<float>(c);
        norm2 += double{back} * back;
        if (dequantised != nullptr) dequantised[i] = back;
      }
      scales_.push_back(scale);
      break;
    }
    default: fail(DXT_E_INTERNAL, "unknown quantisation");
  }
  // A row whose squared norm overflows binary32 (or nearly: rows of 3e38)
  // would make norms, products and cosines infinite or NaN in every
  // mechanism; one of subnormal elements would have a norm that rounds to 0.
  if (!(norm2 <= format::kMaxRowSquaredNorm))
    fail(DXT_E_PARSE, "the vector of '" + std::string(word) + "' has a squared norm of " + short_number(norm2) +
                          ", above the format's bound of 1e30 (docs/format.md, section 9)");
  if (norm2 != 0 && norm2 < format::kMinRowSquaredNorm)
    fail(DXT_E_PARSE, "the vector of '" + std::string(word) +
                          "' is non-zero with a squared norm below the format's bound of 1e-30 (subnormal values; "
                          "docs/format.md, section 9)");
  if (options_.geometry == DXT_GEOMETRY_POINCARE && !(norm2 < 1.0))
    fail(DXT_E_PARSE, "'" + std::string(word) + "' lies outside the Poincare ball (norm >= 1)");
  out_.write(reinterpret_cast<const char*>(row_buffer_.data()), static_cast<std::streamsize>(row_buffer_.size()));
  if (!out_) fail(DXT_E_IO, "write failed");
  matrix_hash_.update(row_buffer_.data(), row_buffer_.size());
  position_ += row_buffer_.size();
  norms_.push_back(static_cast<float>(norm2));
  frequencies_.push_back(frequency);
  if (covariance_) covariance_->commit_row();
  index_.emplace(std::string(word), static_cast<uint32_t>(words_.size()));
  words_.emplace_back(word);
}

void ModelWriter::pad_to_alignment() {
  const uint64_t next = round_up(position_, format::kSectionAlignment);
  static const char kZeros[format::kSectionAlignment] = {};
  out_.write(kZeros, static_cast<std::streamsize>(next - position_));
  position_ = next;
}

void ModelWriter::write_section(uint32_t kind, const void* data, uint64_t size) {
  pad_to_alignment();
  sections_.push_back({kind, position_, size, sha256(data, size)});
  out_.write(static_cast<const char*>(data), static_cast<std::streamsize>(size));
  position_ += size;
}

void ModelWriter::finish() {
  if (finished_) return;
  if (words_.empty()) fail(DXT_E_PARSE, "the model has no words");
  finished_ = true;
  const uint64_t V = words_.size();
  using K = format::SectionKind;
  sections_.push_back(
      {static_cast<uint32_t>(K::kMatrix), matrix_offset_, position_ - matrix_offset_, matrix_hash_.finish()});
  if (options_.quantization == DXT_QUANT_INT8)
    write_section(static_cast<uint32_t>(K::kRowScales), scales_.data(), V * 4);
  write_section(static_cast<uint32_t>(K::kRowNorms), norms_.data(), V * 4);
  if (options_.with_frequencies) write_section(static_cast<uint32_t>(K::kFrequencies), frequencies_.data(), V * 8);
  if (covariance_) {
    const std::vector<double> sigma = covariance_->finish();
    write_section(static_cast<uint32_t>(K::kCovariance), sigma.data(), sigma.size() * 8);
    covariance_.reset();
  }

  // Vocabulary: NUL-terminated strings, V+1 offsets, open-addressing table.
  std::string blob;
  std::vector<uint32_t> offsets;
  offsets.reserve(V + 1);
  for (const auto& w : words_) {
    offsets.push_back(static_cast<uint32_t>(blob.size()));
    blob += w;
    blob += '\0';
    if (blob.size() > UINT32_MAX) fail(DXT_E_INPUT_TOO_LARGE, "vocabulary strings exceed 4 GiB");
  }
  offsets.push_back(static_cast<uint32_t>(blob.size()));
  uint64_t capacity = 1;
  while (capacity < 2 * V) capacity <<= 1;
  std::vector<uint32_t> slots(capacity, 0);
  for (uint32_t i = 0; i < V; ++i) {
    uint64_t pos = format::fnv1a64(words_[i].data(), words_[i].size()) & (capacity - 1);
    while (slots[pos] != 0) pos = (pos + 1) & (capacity - 1);
    slots[pos] = i + 1;
  }
  write_section(static_cast<uint32_t>(K::kVocabOffsets), offsets.data(), offsets.size() * 4);
  write_section(static_cast<uint32_t>(K::kVocabStrings), blob.data(), blob.size());
  write_section(static_cast<uint32_t>(K::kVocabHash), slots.data(), slots.size() * 4);

  std::string meta;
  auto put_u32 = [&meta](uint32_t v) {
    char b[4];
    std::memcpy(b, &v, 4);
    meta.append(b, 4);
  };
  put_u32(static_cast<uint32_t>(options_.metadata.size()));
  for (const auto& [k, v] : options_.metadata) {
    put_u32(static_cast<uint32_t>(k.size()));
    meta += k;
    put_u32(static_cast<uint32_t>(v.size()));
    meta += v;
  }
  write_section(static_cast<uint32_t>(K::kMetadata), meta.data(), meta.size());
  pad_to_alignment();
  if (sections_.size() != section_count_) fail(DXT_E_INTERNAL, "section count mismatch");

  std::vector<uint8_t> header(format::kHeaderFixedSize + section_count_ * format::kSectionEntrySize, 0);
  uint8_t* h = header.data();
  std::memcpy(h, format::kMagic, sizeof format::kMagic);
  format::store_u16(h + format::header::kVersionMajor, format::kVersionMajor);
  // The oldest minor version that has every section written (docs/format.md §11).
  format::store_u16(h + format::header::kVersionMinor, options_.with_covariance ? format::kMinorCovariance : 0);
  format::store_u32(h + format::header::kEndianTag, format::kEndianTag);
  format::store_u32(h + format::header::kHeaderSize, static_cast<uint32_t>(header.size()));
  format::store_u32(h + format::header::kSectionCount, section_count_);
  format::store_u64(h + format::header::kFileSize, position_);
  format::store_u64(h + format::header::kFlags, options_.lowercase ? format::kFlagLowercase : 0);
  format::store_u32(h + format::header::kVocabularySize, static_cast<uint32_t>(V));
  format::store_u32(h + format::header::kDimension, options_.dimension);
  format::store_u32(h + format::header::kGeometry, options_.geometry);
  format::store_u32(h + format::header::kQuantization, options_.quantization);
  for (size_t s = 0; s < sections_.size(); ++s) {
    uint8_t* e = h + format::kHeaderFixedSize + s * format::kSectionEntrySize;
    format::store_u32(e + format::entry::kKind, sections_[s].kind);
    format::store_u64(e + format::entry::kOffset, sections_[s].offset);
    format::store_u64(e + format::entry::kSize, sections_[s].size);
    std::memcpy(e + format::entry::kDigest, sections_[s].digest.data(), format::kDigestSize);
  }
  const Digest d = sha256(header.data(), header.size());
  std::memcpy(h + format::header::kHeaderDigest, d.data(), d.size());
  out_.seekp(0);
  out_.write(reinterpret_cast<const char*>(header.data()), static_cast<std::streamsize>(header.size()));
  out_.seekp(static_cast<std::streamoff>(position_));
  out_.flush();
  if (!out_) fail(DXT_E_IO, "writing the model failed");
}

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)), partial_(path_ + ".partial") {
  auto f = std::make_unique<std::ofstream>(partial_, std::ios::binary | std::ios::trunc);
  if (!*f) fail(DXT_E_IO, "cannot create '" + partial_ + "'");
  stream_ = std::move(f);
}

AtomicFile::~AtomicFile() {
  stream_.reset();
  if (!committed_) std::remove(partial_.c_str());
}

std::ostream& AtomicFile::stream() { return *stream_; }

void AtomicFile::commit() {
  auto* f = static_cast<std::ofstream*>(stream_.get());
  f->close();
  if (f->fail()) fail(DXT_E_IO, "writing '" + partial_ + "' failed");
  if (std::rename(partial_.c_str(), path_.c_str()) != 0) fail(DXT_E_IO, "cannot rename to '" + path_ + "'");
  committed_ = true;
}

}  // namespace dxt
