// SPDX-License-Identifier: Apache-2.0
#include "model/model.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "errors/error.hpp"
#include "model/checked_math.hpp"
#include "model/context_prior.hpp"
#include "model/f16.hpp"
#include "model/format.hpp"
#include "model/typed_lists.hpp"
#include "unicode/fold.hpp"
#include "unicode/utf8.hpp"

namespace dxt {

// What a model reads: a read-only mapping of its file, a private copy
// (DXT_OPEN_PRIVATE_COPY), or neither (a caller's buffer used in place).
struct ModelBytes {
  void* mapping = nullptr;
  size_t mapping_size = 0;
  std::unique_ptr<uint64_t[]> copy;  // 8-byte aligned, as the format's arrays need
  ~ModelBytes() {
    if (mapping != nullptr) munmap(mapping, mapping_size);
  }
};

namespace {

// A squared norm as a message shows it ("1.8e+77").
std::string short_number(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3g", v);
  return buffer;
}

using format::load_u16;
using format::load_u32;
using format::load_u64;
using format::SectionKind;

[[noreturn]] void corrupt(const std::string& what) { fail(DXT_E_CORRUPT_MODEL, "corrupt model: " + what); }

bool all_zero(const uint8_t* p, size_t n) {
  return std::all_of(p, p + n, [](uint8_t b) { return b == 0; });
}

const char* kind_name(uint32_t kind) {
  switch (static_cast<SectionKind>(kind)) {
    case SectionKind::kMetadata: return "metadata";
    case SectionKind::kVocabOffsets: return "vocabulary offsets";
    case SectionKind::kVocabStrings: return "vocabulary strings";
    case SectionKind::kVocabHash: return "vocabulary hash table";
    case SectionKind::kMatrix: return "matrix";
    case SectionKind::kRowScales: return "row scales";
    case SectionKind::kRowNorms: return "row norms";
    case SectionKind::kFrequencies: return "frequencies";
    case SectionKind::kCovariance: return "covariance";
    case SectionKind::kSearchIndex: return "search index";
    case SectionKind::kOrderings: return "orderings";
    case SectionKind::kTypedClasses: return "typed classes";
    case SectionKind::kContextPrior: return "context prior";
  }
  return "unknown";
}

// Expected byte size of a section, or nullopt when its size is free-form.
std::optional<uint64_t> product(uint64_t a, uint64_t b, const char* what) {
  auto r = checked_mul(a, b);
  if (!r) corrupt(std::string("size of ") + what + " overflows");
  return r;
}

}  // namespace

Model::~Model() = default;

namespace {

struct FileDescriptor {
  int fd;
  ~FileDescriptor() {
    if (fd >= 0) ::close(fd);
  }
};

// The whole file into memory the model owns. A file that ends early changed
// while it was read: an I/O failure, not a short model.
uint8_t* read_whole(int fd, uint64_t size, const std::string& path, ModelBytes& bytes) {
  bytes.copy.reset(new uint64_t[size / 8 + 1]);
  auto* out = reinterpret_cast<uint8_t*>(bytes.copy.get());
  uint64_t done = 0;
  while (done < size) {
    const auto chunk = static_cast<size_t>(std::min<uint64_t>(size - done, uint64_t{1} << 30));
    const ssize_t n = ::pread(fd, out + done, chunk, static_cast<off_t>(done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail(DXT_E_IO, "cannot read model '" + path + "': " + std::strerror(errno));
    if (n == 0) fail(DXT_E_IO, "model '" + path + "' became shorter while it was read");
    done += static_cast<uint64_t>(n);
  }
  return out;
}

}  // namespace

std::shared_ptr<const Model> Model::open_file(const std::string& path, const ModelOpenOptions& options) {
  // O_NONBLOCK: opening a FIFO for reading would wait for a writer, forever
  // if none comes. It changes nothing for the regular files accepted below.
  const FileDescriptor file{::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK)};
  if (file.fd < 0) fail(DXT_E_IO, "cannot open model '" + path + "': " + std::strerror(errno));
  struct stat st {};
  if (fstat(file.fd, &st) != 0) fail(DXT_E_IO, "cannot stat model '" + path + "': " + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) fail(DXT_E_IO, "model '" + path + "' is not a regular file");
  const auto size = static_cast<uint64_t>(st.st_size);
  // mmap cannot map nothing; an empty file is simply not a model
  if (size == 0) fail(DXT_E_NOT_A_MODEL, "model '" + path + "' is empty");
  if (size > SIZE_MAX) fail(DXT_E_IO, "model '" + path + "' is larger than this process can address");
  std::shared_ptr<Model> m(new Model());
  m->bytes_ = std::make_unique<ModelBytes>();
  if (options.private_copy) {
    m->base_ = read_whole(file.fd, size, path, *m->bytes_);
  } else {
    void* map = mmap(nullptr, static_cast<size_t>(size), PROT_READ, MAP_PRIVATE, file.fd, 0);
    if (map == MAP_FAILED) fail(DXT_E_IO, "cannot map model '" + path + "': " + std::strerror(errno));
    m->bytes_->mapping = map;
    m->bytes_->mapping_size = static_cast<size_t>(size);
    m->base_ = static_cast<const uint8_t*>(map);
  }
  m->size_ = size;
  try {
    m->validate(options);
  } catch (const Error& e) {
    fail(e.status(), std::string(e.what()) + " (in '" + path + "')");
  }
  return m;
}

std::shared_ptr<const Model> Model::open_memory(const void* data, size_t size, const ModelOpenOptions& options) {
  if (data == nullptr) fail(DXT_E_INVALID_ARGUMENT, "model buffer is NULL");
  std::shared_ptr<Model> m(new Model());
  if (options.private_copy) {
    m->bytes_ = std::make_unique<ModelBytes>();
    m->bytes_->copy.reset(new uint64_t[size / 8 + 1]);
    std::memcpy(m->bytes_->copy.get(), data, size);
    m->base_ = reinterpret_cast<const uint8_t*>(m->bytes_->copy.get());
  } else {
    if (reinterpret_cast<uintptr_t>(data) % 8 != 0)
      fail(DXT_E_INVALID_ARGUMENT, "model buffer must be 8-byte aligned (or opened with DXT_OPEN_PRIVATE_COPY)");
    m->base_ = static_cast<const uint8_t*>(data);
  }
  m->size_ = size;
  m->validate(options);
  return m;
}

void Model::validate(const ModelOpenOptions& options) {
  const uint8_t* h = base_;
  if (size_ < sizeof format::kMagic || std::memcmp(h, format::kMagic, sizeof format::kMagic) != 0)
    fail(DXT_E_NOT_A_MODEL, "not a dxtext model: bad magic bytes");
  if (size_ < format::kHeaderFixedSize) fail(DXT_E_TRUNCATED_MODEL, "model truncated inside its header");
  format_major_ = load_u16(h + format::header::kVersionMajor);
  format_minor_ = load_u16(h + format::header::kVersionMinor);
  if (format_major_ != format::kVersionMajor)
    fail(DXT_E_UNSUPPORTED_VERSION, "model format version " + std::to_string(format_major_) + "." +
                                        std::to_string(format_minor_) + " is not supported (this library reads " +
                                        std::to_string(format::kVersionMajor) + ".x)");
  if (load_u32(h + format::header::kEndianTag) != format::kEndianTag)
    corrupt("endianness tag is wrong (a big-endian or damaged file)");
  const uint32_t section_count = load_u32(h + format::header::kSectionCount);
  if (section_count == 0 || section_count > format::kMaxSections)
    corrupt("section count " + std::to_string(section_count) + " is outside 1.." +
            std::to_string(format::kMaxSections));
  const uint64_t header_size = load_u32(h + format::header::kHeaderSize);
  if (header_size != format::kHeaderFixedSize + uint64_t{section_count} * format::kSectionEntrySize)
    corrupt("header size does not match the section count");
  const uint64_t declared_size = load_u64(h + format::header::kFileSize);
  if (declared_size > size_)
    fail(DXT_E_TRUNCATED_MODEL,
         "model is truncated: " + std::to_string(size_) + " bytes of " + std::to_string(declared_size));
  if (declared_size < size_) corrupt("file is longer than its header says");
  if (header_size > size_) fail(DXT_E_TRUNCATED_MODEL, "model truncated inside its section table");

  // The header digest covers [0, header_size) with the digest field zeroed.
  {
    std::vector<uint8_t> copy(h, h + header_size);
    std::fill_n(copy.begin() + format::header::kHeaderDigest, format::kDigestSize, 0);
    const Digest d = sha256(copy.data(), copy.size());
    if (std::memcmp(d.data(), h + format::header::kHeaderDigest, d.size()) != 0)
      fail(DXT_E_DIGEST_MISMATCH, "header digest does not match: the header or section table is damaged");
  }

  const uint64_t flags = load_u64(h + format::header::kFlags);
  if ((flags & ~format::kKnownFlags) != 0) corrupt("reserved header flags are set");
  lowercase_ = (flags & format::kFlagLowercase) != 0;
  if (!all_zero(h + format::header::kReserved, format::header::kHeaderDigest - format::header::kReserved))
    corrupt("reserved header bytes are not zero");
  vocabulary_size_ = load_u32(h + format::header::kVocabularySize);
  dimension_ = load_u32(h + format::header::kDimension);
  const uint32_t geometry = load_u32(h + format::header::kGeometry);
  const uint32_t quant = load_u32(h + format::header::kQuantization);
  if (vocabulary_size_ == 0) corrupt("vocabulary is empty");
  if (vocabulary_size_ == UINT32_MAX) corrupt("vocabulary size is too large");
  if (dimension_ == 0 || dimension_ > format::kMaxDimension)
    corrupt("dimension " + std::to_string(dimension_) + " is outside 1.." + std::to_string(format::kMaxDimension));
  if (geometry != DXT_GEOMETRY_EUCLIDEAN && geometry != DXT_GEOMETRY_POINCARE)
    corrupt("unknown geometry " + std::to_string(geometry));
  if (format::element_size(quant) == 0) corrupt("unknown quantisation " + std::to_string(quant));
  geometry_ = static_cast<dxt_geometry>(geometry);
  quantization_ = static_cast<dxt_quantization>(quant);

  // Section table: bounds, alignment, no overlap, each known kind once.
  struct Range {
    uint64_t begin, end;
    uint32_t kind;
  };
  std::vector<Range> ranges;
  SectionView* slot_for[format::kHighestKnownKind + 1] = {nullptr,
                                                          &metadata_section_,
                                                          &offsets_,
                                                          &strings_,
                                                          &hash_,
                                                          &matrix_,
                                                          &scales_,
                                                          &norms_,
                                                          &frequencies_,
                                                          &covariance_,
                                                          &search_index_section_,
                                                          &orderings_section_,
                                                          &typed_section_,
                                                          &prior_section_};
  for (uint32_t s = 0; s < section_count; ++s) {
    const uint8_t* e = h + format::kHeaderFixedSize + uint64_t{s} * format::kSectionEntrySize;
    const uint32_t kind = load_u32(e + format::entry::kKind);
    const uint64_t offset = load_u64(e + format::entry::kOffset);
    const uint64_t size = load_u64(e + format::entry::kSize);
    const std::string label = "section " + std::to_string(s) + " (" + kind_name(kind) + ")";
    if (load_u32(e + format::entry::kFlags) != 0 || !all_zero(e + format::entry::kReserved, 8))
      corrupt(label + " has reserved bits set");
    if (kind == 0) corrupt(label + " has kind 0");
    if (offset % format::kSectionAlignment != 0) corrupt(label + " is not 64-byte aligned");
    if (offset < header_size) corrupt(label + " overlaps the header");
    const auto end = checked_add(offset, size);
    if (!end) corrupt(label + " size overflows");
    if (*end > size_) fail(DXT_E_TRUNCATED_MODEL, "model is truncated: " + label + " runs past the end of the file");
    ranges.push_back({offset, *end, kind});
    if (kind <= format::kHighestKnownKind && slot_for[kind] != nullptr) {
      SectionView* v = slot_for[kind];
      if (v->data != nullptr || v->size != 0 || v->digest != Digest{}) corrupt(label + " appears twice");
      v->data = base_ + offset;
      v->size = size;
      std::memcpy(v->digest.data(), e + format::entry::kDigest, format::kDigestSize);
      if (size == 0) corrupt(label + " is empty");
    }
    // Unknown kinds belong to later minor versions: bounds-checked, then ignored.
  }
  // No section may start inside another: sort by start, longer first on a
  // tie, and compare each start with the furthest end seen so far.
  std::sort(ranges.begin(), ranges.end(),
            [](const Range& a, const Range& b) { return a.begin != b.begin ? a.begin < b.begin : a.end > b.end; });
  uint64_t furthest_end = 0;
  for (const Range& r : ranges) {
    if (r.begin < furthest_end) corrupt("sections overlap");
    furthest_end = std::max(furthest_end, r.end);
  }
  // No bytes outside the sections but alignment padding: each section starts
  // at the first multiple of 64 after the header or the section before it,
  // and the file ends less than 64 bytes after its last section, all padding
  // zero. So a file holds nothing the format does not account for, and
  // reading it whole (the fingerprint, DXT_OPEN_VERIFY_DIGESTS) costs what
  // its sections declare, not what a sparse tail claims.
  uint64_t cursor = header_size;
  auto padding = [&](uint64_t begin, uint64_t end, const std::string& where) {
    if (end - begin >= format::kSectionAlignment)
      corrupt(std::to_string(end - begin) + " bytes " + where + " belong to no section");
    if (!all_zero(base_ + begin, end - begin)) corrupt("padding " + where + " is not zero");
  };
  for (const Range& r : ranges) {
    if (r.begin > cursor) padding(cursor, r.begin, "before offset " + std::to_string(r.begin));
    cursor = std::max(cursor, r.end);
  }
  padding(cursor, size_, "after the last section");

  const uint64_t V = vocabulary_size_;
  const uint64_t D = dimension_;
  auto require = [&](SectionView& v, SectionKind kind, std::optional<uint64_t> expected) {
    const std::string name = kind_name(static_cast<uint32_t>(kind));
    if (v.data == nullptr) corrupt("required section '" + name + "' is missing");
    if (expected && v.size != *expected)
      corrupt("section '" + name + "' has " + std::to_string(v.size) + " bytes, expected " + std::to_string(*expected));
  };
  require(metadata_section_, SectionKind::kMetadata, std::nullopt);
  require(offsets_, SectionKind::kVocabOffsets, product(V + 1, 4, "vocabulary offsets"));
  require(strings_, SectionKind::kVocabStrings, std::nullopt);
  require(hash_, SectionKind::kVocabHash, std::nullopt);
  require(matrix_, SectionKind::kMatrix, product(*product(V, D, "matrix"), format::element_size(quant), "matrix"));
  require(norms_, SectionKind::kRowNorms, product(V, 4, "row norms"));
  if (quantization_ == DXT_QUANT_INT8) {
    require(scales_, SectionKind::kRowScales, product(V, 4, "row scales"));
  } else if (scales_.data != nullptr) {
    corrupt("row scales present in a model that is not int8");
  }
  if (frequencies_.data != nullptr && frequencies_.size != *product(V, 8, "frequencies"))
    corrupt("section 'frequencies' has the wrong size");
  if (covariance_.data != nullptr && covariance_.size != *product(*product(D, D, "covariance"), 8, "covariance"))
    corrupt("section 'covariance' has " + std::to_string(covariance_.size) +
            " bytes, expected D*D*8 = " + std::to_string(D * D * 8));
  if (search_index_section_.data != nullptr) parse_search_index();
  if (orderings_section_.data != nullptr) parse_orderings();
  // Check 18 (docs/format.md §10.4): the header and size now, in constant
  // time; the members on first use (typed_lists()).
  if (typed_section_.data != nullptr) check_typed_lists_header(typed_section_.data, typed_section_.size);
  if (prior_section_.data != nullptr)
    check_context_prior_header(prior_section_.data, prior_section_.size, vocabulary_size_);
  if (strings_.size > UINT32_MAX) corrupt("vocabulary strings exceed 4 GiB");
  const uint32_t* offsets = reinterpret_cast<const uint32_t*>(offsets_.data);
  if (offsets[0] != 0 || offsets[V] != strings_.size) corrupt("vocabulary offsets do not span the string section");
  hash_capacity_ = hash_.size / 4;
  if (hash_.size % 4 != 0 || hash_capacity_ <= V || (hash_capacity_ & (hash_capacity_ - 1)) != 0)
    corrupt("vocabulary hash table capacity must be a power of two above the vocabulary size");
  // At most 4 V slots (a writer needs fewer than 4 V for a load below 1/2):
  // a table cannot be a sparse region of any size.
  if (hash_capacity_ > 4 * V) corrupt("vocabulary hash table has more than 4 slots per word");
  // Sections of unknown kinds are bounded by the sections the counts size
  // (offsets, hash table, matrix, scales, norms, frequencies, covariance,
  // index: all fixed by V, D, C and K), so that reading the whole file (the
  // fingerprint, digest verification) costs a bounded multiple of what the
  // header's counts justify, never what a huge sparse section of a kind this
  // version does not know declares (docs/format.md §4, §13).
  {
    // Sections do not overlap and lie inside the file, so neither sum wraps.
    uint64_t counted = 0, unknown = 0;
    for (const Range& r : ranges) {
      if (r.kind > format::kHighestKnownKind || slot_for[r.kind] == nullptr)
        unknown += r.end - r.begin;
      else if (r.kind != static_cast<uint32_t>(SectionKind::kMetadata) &&
               r.kind != static_cast<uint32_t>(SectionKind::kVocabStrings) &&
               r.kind != static_cast<uint32_t>(SectionKind::kTypedClasses) &&
               r.kind != static_cast<uint32_t>(SectionKind::kContextPrior))
        counted += r.end - r.begin;
    }
    const auto scaled = checked_mul(counted, format::kUnknownSectionsFactor);
    const auto limit = scaled ? checked_add(*scaled, format::kUnknownSectionsAllowance) : std::nullopt;
    if (limit && unknown > *limit)
      corrupt("sections of unknown kinds hold " + std::to_string(unknown) + " bytes, more than 1 MiB + 4 x the " +
              std::to_string(counted) + " bytes of the sections sized by the header's counts");
  }

  if (metadata_section_.size > format::kMaxMetadataSize) corrupt("metadata section exceeds 1 MiB");
  if (sha256(metadata_section_.data, metadata_section_.size) != metadata_section_.digest)
    fail(DXT_E_DIGEST_MISMATCH, "metadata digest does not match");
  parse_metadata();

  if (options.verify_digests) {
    for (SectionView* v : {&offsets_, &strings_, &hash_, &matrix_, &scales_, &norms_, &frequencies_, &covariance_,
                           &search_index_section_, &orderings_section_, &typed_section_, &prior_section_}) {
      if (v->data == nullptr) continue;
      if (sha256(v->data, v->size) != v->digest) {
        const auto kind =
            static_cast<uint32_t>(std::find(std::begin(slot_for), std::end(slot_for), v) - std::begin(slot_for));
        fail(DXT_E_DIGEST_MISMATCH, std::string("digest of section '") + kind_name(kind) + "' does not match");
      }
    }
  }
}

// Check 18 for the search index (docs/format.md §10.2): the header fields
// and the exact size, in constant time. The cells are checked on first use.
void Model::parse_search_index() {
  namespace si = format::search_index;
  const SectionView& s = search_index_section_;
  if (s.size < si::kHeaderSize)
    corrupt("section 'search index' has " + std::to_string(s.size) + " bytes, less than its 64-byte header");
  const uint8_t* h = s.data;
  if (load_u32(h + si::kMethod) != si::kMethodIvf)
    corrupt("search index method " + std::to_string(load_u32(h + si::kMethod)) + " is unknown");
  if (geometry_ != DXT_GEOMETRY_EUCLIDEAN) corrupt("a search index is defined for Euclidean models only");
  const uint32_t K = load_u32(h + si::kCells);
  if (load_u32(h + si::kDimension) != dimension_) corrupt("search index dimension differs from the model's");
  if (load_u32(h + si::kVocabularySize) != vocabulary_size_)
    corrupt("search index vocabulary size differs from the model's");
  if (K == 0 || K > vocabulary_size_)
    corrupt("search index has " + std::to_string(K) + " cells; it needs 1 to " + std::to_string(vocabulary_size_));
  if (!all_zero(h + si::kReserved, si::kHeaderSize - si::kReserved)) corrupt("search index reserved bytes are set");
  // 64 + 4 K D + 4 K + 4 (K + 1) + 4 V, overflow-checked.
  const uint64_t V = vocabulary_size_;
  const auto centroids = *product(*product(K, dimension_, "search index"), 4, "search index");
  std::optional<uint64_t> expected = checked_add(si::kHeaderSize, centroids);
  for (uint64_t part : {uint64_t{4} * K, uint64_t{4} * (uint64_t{K} + 1), 4 * V})
    if (expected) expected = checked_add(*expected, part);
  if (!expected) corrupt("size of search index overflows");
  if (s.size != *expected)
    corrupt("section 'search index' has " + std::to_string(s.size) + " bytes, expected " + std::to_string(*expected) +
            " for " + std::to_string(K) + " cells");
  search_index_.cells = K;
  search_index_.iterations = load_u32(h + si::kIterations);
  search_index_.sample = load_u32(h + si::kSample);
  search_index_.seed = load_u64(h + si::kSeed);
  search_index_.centroids = reinterpret_cast<const float*>(h + si::kHeaderSize);
  search_index_.centroid_norms = search_index_.centroids + uint64_t{K} * dimension_;
  search_index_.offsets = reinterpret_cast<const uint32_t*>(search_index_.centroid_norms + K);
  search_index_.rows = search_index_.offsets + (uint64_t{K} + 1);
}

// Check 19 for the orderings (docs/format.md §10.3): the header fields and
// the exact size, in constant time. The orderings are checked on first use.
void Model::parse_orderings() {
  namespace od = format::orderings;
  const SectionView& s = orderings_section_;
  if (s.size < od::kHeaderSize)
    corrupt("section 'orderings' has " + std::to_string(s.size) + " bytes, less than its 64-byte header");
  const uint8_t* h = s.data;
  if (load_u32(h + od::kMethod) != od::kMethodTours)
    corrupt("orderings method " + std::to_string(load_u32(h + od::kMethod)) + " is unknown");
  const uint32_t K = load_u32(h + od::kCount);
  if (K == 0 || K > od::kMaxCount)
    corrupt("orderings count " + std::to_string(K) + " is outside 1 .. " + std::to_string(od::kMaxCount));
  if (load_u32(h + od::kVocabularySize) != vocabulary_size_)
    corrupt("orderings vocabulary size differs from the model's");
  if (!all_zero(h + od::kReserved, od::kHeaderSize - od::kReserved)) corrupt("orderings reserved bytes are set");
  const auto body = checked_mul(*product(K, vocabulary_size_, "orderings"), uint64_t{4});
  const auto expected = body ? checked_add(od::kHeaderSize, *body) : std::nullopt;
  if (!expected) corrupt("size of orderings overflows");
  if (s.size != *expected)
    corrupt("section 'orderings' has " + std::to_string(s.size) + " bytes, expected " + std::to_string(*expected) +
            " for " + std::to_string(K) + " orderings");
  orderings_header_.count = K;
  orderings_header_.vocabulary_size = vocabulary_size_;
  orderings_header_.neighbours = load_u32(h + od::kNeighbours);
  orderings_header_.seed = load_u64(h + od::kSeed);
}

void Model::parse_metadata() {
  const uint8_t* p = metadata_section_.data;
  const uint64_t n = metadata_section_.size;
  uint64_t at = 0;
  auto take_u32 = [&]() -> uint32_t {
    if (n - at < 4) corrupt("metadata is truncated");
    const uint32_t v = load_u32(p + at);
    at += 4;
    return v;
  };
  auto take_string = [&]() -> std::string {
    const uint32_t len = take_u32();
    if (n - at < len) corrupt("metadata string runs past its section");
    std::string s(reinterpret_cast<const char*>(p + at), len);
    at += len;
    if (!utf8::valid(s.data(), s.size()) || s.find('\0') != std::string::npos)
      corrupt("metadata string is not valid UTF-8");
    return s;
  };
  const uint32_t count = take_u32();
  for (uint32_t i = 0; i < count; ++i) {
    std::string key = take_string();
    std::string value = take_string();
    if (key.empty()) corrupt("metadata has an empty key");
    if (!metadata_.emplace(std::move(key), std::move(value)).second) corrupt("metadata has a duplicate key");
  }
  // Padding to the 64-byte boundary is allowed only as zero bytes.
  if (!all_zero(p + at, n - at)) corrupt("metadata has trailing bytes");
}

std::string_view Model::word(uint32_t index) const {
  if (index >= vocabulary_size_) fail(DXT_E_NOT_FOUND, "word index " + std::to_string(index) + " is out of range");
  const uint32_t begin = format::load_u32_once(offsets_.data + uint64_t{index} * 4);
  const uint32_t end = format::load_u32_once(offsets_.data + (uint64_t{index} + 1) * 4);
  if (begin >= end || end > strings_.size || end - begin < 2)
    corrupt("vocabulary offsets of word " + std::to_string(index) + " are invalid");
  const char* s = reinterpret_cast<const char*>(strings_.data) + begin;
  const size_t len = end - begin - 1;
  if (s[len] != '\0' || std::memchr(s, '\0', len) != nullptr || !utf8::valid(s, len))
    corrupt("vocabulary word " + std::to_string(index) + " is not a NUL-terminated UTF-8 string");
  return {s, len};
}

std::optional<uint32_t> Model::find_exact(std::string_view w) const {
  const uint64_t mask = hash_capacity_ - 1;
  uint64_t pos = format::fnv1a64(w.data(), w.size()) & mask;
  for (uint64_t probe = 0; probe < hash_capacity_; ++probe, pos = (pos + 1) & mask) {
    const uint32_t slot = format::load_u32_once(hash_.data + pos * 4);
    if (slot == 0) return std::nullopt;
    if (slot > vocabulary_size_) corrupt("vocabulary hash table holds an out-of-range index");
    if (word(slot - 1) == w) return slot - 1;
  }
  return std::nullopt;  // a table without empty slots: every slot was compared
}

std::optional<uint32_t> Model::lookup(std::string_view w) const {
  if (lowercase_) return find_exact(unicode::fold(w));
  if (auto hit = find_exact(w)) return hit;
  const std::string folded = unicode::fold(w);
  if (folded != w) return find_exact(folded);
  return std::nullopt;
}

void Model::check_rows() const {
  std::call_once(rows_once_, [this] {
    const uint64_t D = dimension_;
    const auto* norms = reinterpret_cast<const float*>(norms_.data);
    const auto* scales = reinterpret_cast<const float*>(scales_.data);
    auto element = [&](uint64_t v, uint64_t i) -> float {
      switch (quantization_) {
        case DXT_QUANT_F32: {
          float x;
          std::memcpy(&x, matrix_.data + (v * D + i) * 4, 4);
          return x;
        }
        case DXT_QUANT_F16: return f16_to_f32(load_u16(matrix_.data + (v * D + i) * 2));
        default: return scales[v] * static_cast<float>(static_cast<int8_t>(matrix_.data[v * D + i]));
      }
    };
    for (uint64_t v = 0; v < vocabulary_size_ && rows_error_.empty(); ++v) {
      const std::string row = "row " + std::to_string(v);
      if (scales != nullptr && !(std::isfinite(scales[v]) && scales[v] >= 0)) {
        rows_error_ = row + " has a scale that is negative or not finite";
        break;
      }
      double norm2 = 0;
      for (uint64_t i = 0; i < D; ++i) {
        const double x = element(v, i);
        if (!std::isfinite(x)) {
          rows_error_ = row + " has a value that is not finite";
          break;
        }
        norm2 += x * x;
      }
      if (!rows_error_.empty()) break;
      if (!(norm2 <= format::kMaxRowSquaredNorm) || (norm2 != 0 && norm2 < format::kMinRowSquaredNorm)) {
        rows_error_ = row + " has a squared norm of " + short_number(norm2) +
                      ", outside 0 or [1e-30, 1e30] (docs/format.md, section 9)";
        break;
      }
      if (geometry_ == DXT_GEOMETRY_POINCARE && !(norm2 < 1.0)) {
        rows_error_ = row + " lies outside the Poincare ball";
        break;
      }
      const double stored = norms[v];
      if (!std::isfinite(stored) || std::fabs(stored - norm2) > 1e-3 * norm2) {
        rows_error_ =
            row + " has a stored squared norm of " + short_number(stored) + ", not the row's " + short_number(norm2);
        break;
      }
    }
  });
  if (!rows_error_.empty()) corrupt(rows_error_);
}

void Model::row(uint32_t index, float* out) const {
  if (index >= vocabulary_size_) fail(DXT_E_NOT_FOUND, "row index out of range");
  check_rows();
  const uint64_t D = dimension_;
  switch (quantization_) {
    case DXT_QUANT_F32: std::memcpy(out, matrix_.data + index * D * 4, D * 4); break;
    case DXT_QUANT_F16: {
      const uint8_t* r = matrix_.data + index * D * 2;
      for (uint64_t i = 0; i < D; ++i) out[i] = f16_to_f32(load_u16(r + 2 * i));
      break;
    }
    case DXT_QUANT_INT8: {
      const auto* r = reinterpret_cast<const int8_t*>(matrix_.data + index * D);
      const float scale = row_scales()[index];
      for (uint64_t i = 0; i < D; ++i) out[i] = scale * static_cast<float>(r[i]);
      break;
    }
    default: fail(DXT_E_INTERNAL, "unknown quantisation");
  }
}

const float* Model::row_scales() const {
  check_rows();
  return reinterpret_cast<const float*>(scales_.data);
}
const float* Model::row_norms() const {
  check_rows();
  return reinterpret_cast<const float*>(norms_.data);
}

uint64_t Model::frequency(uint32_t index) const {
  if (index >= vocabulary_size_) fail(DXT_E_NOT_FOUND, "word index " + std::to_string(index) + " is out of range");
  if (frequencies_.data == nullptr) return 0;
  return load_u64(frequencies_.data + uint64_t{index} * 8);
}

const double* Model::covariance() const {
  if (covariance_.data == nullptr) return nullptr;
  std::call_once(covariance_once_, [this] {
    // Checked on a copy: values that change in the file after the check
    // cannot reach the mechanism.
    const uint64_t D = dimension_;
    covariance_copy_.resize(D * D);
    std::memcpy(covariance_copy_.data(), covariance_.data, D * D * sizeof(double));
    const double* c = covariance_copy_.data();
    for (uint64_t i = 0; i < D && covariance_error_.empty(); ++i)
      for (uint64_t j = 0; j < D; ++j) {
        if (!std::isfinite(c[i * D + j])) {
          covariance_error_ = "covariance element (" + std::to_string(i) + ", " + std::to_string(j) + ") is not finite";
          break;
        }
        if (c[i * D + j] != c[j * D + i]) {
          covariance_error_ = "covariance is not symmetric at (" + std::to_string(i) + ", " + std::to_string(j) + ")";
          break;
        }
      }
    if (!covariance_error_.empty()) std::vector<double>().swap(covariance_copy_);
  });
  if (!covariance_error_.empty()) corrupt(covariance_error_);
  return covariance_copy_.data();
}

const SearchIndexView* Model::search_index() const {
  if (search_index_section_.data == nullptr) return nullptr;
  std::call_once(search_index_once_, [this] {
    // The offsets and row ids bound every read of a search, so they are
    // copied out of the file and the copy is checked and used: a file
    // rewritten in place after this cannot make a search read out of bounds.
    const uint32_t K = search_index_.cells;
    const uint32_t V = vocabulary_size_;
    const auto* offsets_in_file = reinterpret_cast<const uint8_t*>(search_index_.offsets);
    const auto* rows_in_file = reinterpret_cast<const uint8_t*>(search_index_.rows);
    index_offsets_.resize(uint64_t{K} + 1);
    index_rows_.resize(V);
    std::memcpy(index_offsets_.data(), offsets_in_file, index_offsets_.size() * 4);
    std::memcpy(index_rows_.data(), rows_in_file, index_rows_.size() * 4);
    search_index_error_ = [&]() -> std::string {
      const std::vector<uint32_t>& o = index_offsets_;
      if (o[0] != 0) return "search index cell offsets do not start at 0";
      for (uint32_t c = 0; c < K; ++c)
        if (o[c + 1] < o[c] || o[c + 1] > V)
          return "search index offset of cell " + std::to_string(c + 1) + " is out of order or past V";
      if (o[K] != V) return "search index cells hold " + std::to_string(o[K]) + " rows, not V";
      std::vector<bool> seen(V, false);
      for (const uint32_t r : index_rows_) {
        if (r >= V) return "search index row id " + std::to_string(r) + " is out of range";
        if (seen[r]) return "search index lists row " + std::to_string(r) + " twice";
        seen[r] = true;
      }
      return {};
    }();
    if (!search_index_error_.empty()) {
      std::vector<uint32_t>().swap(index_offsets_);
      std::vector<uint32_t>().swap(index_rows_);
      return;
    }
    checked_index_ = search_index_;
    checked_index_.offsets = index_offsets_.data();
    checked_index_.rows = index_rows_.data();
  });
  if (!search_index_error_.empty()) corrupt(search_index_error_);
  return &checked_index_;
}

const OrderingsView* Model::orderings() const {
  if (orderings_section_.data == nullptr) return nullptr;
  std::call_once(orderings_once_, [this] {
    // Copied out of the file and checked on the copy, as the search index:
    // a file rewritten in place afterwards cannot send a draw out of bounds.
    const uint64_t K = orderings_header_.count, V = vocabulary_size_;
    ordering_words_.resize(K * V);
    std::memcpy(ordering_words_.data(), orderings_section_.data + format::orderings::kHeaderSize, K * V * 4);
    ordering_positions_.assign(K * V, UINT32_MAX);
    for (uint64_t L = 0; L < K && orderings_error_.empty(); ++L) {
      for (uint64_t p = 0; p < V; ++p) {
        const uint32_t w = ordering_words_[L * V + p];
        if (w >= V) {
          orderings_error_ = "ordering " + std::to_string(L) + " names word " + std::to_string(w) + ", past V";
          break;
        }
        if (ordering_positions_[L * V + w] != UINT32_MAX) {
          orderings_error_ = "ordering " + std::to_string(L) + " lists word " + std::to_string(w) + " twice";
          break;
        }
        ordering_positions_[L * V + w] = static_cast<uint32_t>(p);
      }
    }
    if (!orderings_error_.empty()) {
      std::vector<uint32_t>().swap(ordering_words_);
      std::vector<uint32_t>().swap(ordering_positions_);
      return;
    }
    checked_orderings_ = orderings_header_;
    checked_orderings_.words = ordering_words_.data();
    checked_orderings_.positions = ordering_positions_.data();
  });
  if (!orderings_error_.empty()) corrupt(orderings_error_);
  return &checked_orderings_;
}

const Digest& Model::fingerprint() const {
  std::call_once(fingerprint_once_, [this] { fingerprint_ = sha256(base_, size_); });
  return fingerprint_;
}

}  // namespace dxt

namespace dxt {

const TypedLists* Model::typed_lists() const {
  if (typed_section_.data == nullptr) return nullptr;
  std::call_once(typed_once_, [this] {
    // Copied out of the file once and checked on the copy (§12.4): later
    // writes to the file cannot reach the lists.
    const std::vector<uint8_t> copy(typed_section_.data, typed_section_.data + typed_section_.size);
    try {
      typed_lists_ = std::make_unique<TypedLists>(decode_typed_lists(copy.data(), copy.size()));
      for (uint32_t c = 0; c < DXT_TYPED_CLASS_COUNT; ++c) {
        const auto& members = typed_lists_->members[c];
        auto& pool = typed_lists_->replacements[c];
        for (uint32_t i = 0; i < members.size(); ++i)
          if (!members[i].common_word && lookup(members[i].word)) pool.push_back(i);
        if (pool.size() < typed_format::kMinClassMembers) {
          pool.resize(members.size());
          for (uint32_t i = 0; i < members.size(); ++i) pool[i] = i;
        }
      }
    } catch (const Error& e) {
      typed_error_ = e.what();
    }
  });
  if (!typed_error_.empty()) fail(DXT_E_CORRUPT_MODEL, typed_error_);
  return typed_lists_.get();
}

const ContextPrior* Model::context_prior() const {
  if (prior_section_.data == nullptr) return nullptr;
  std::call_once(prior_once_, [this] {
    // Copied out of the file once and checked on the copy (§12.4).
    const std::vector<uint8_t> copy(prior_section_.data, prior_section_.data + prior_section_.size);
    try {
      prior_ = std::make_unique<ContextPrior>(decode_context_prior(copy.data(), copy.size(), vocabulary_size_));
    } catch (const Error& e) {
      prior_error_ = e.what();
    }
  });
  if (!prior_error_.empty()) fail(DXT_E_CORRUPT_MODEL, prior_error_);
  return prior_.get();
}

}  // namespace dxt
