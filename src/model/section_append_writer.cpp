// SPDX-License-Identifier: Apache-2.0
#include "model/section_append_writer.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "errors/error.hpp"
#include "model/format.hpp"
#include "model/sha256.hpp"

namespace dxt {

namespace {
uint64_t round_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }
}  // namespace

void write_model_with_section(const Model& model, uint32_t kind, const std::vector<uint8_t>& section, uint16_t minor,
                              std::ostream& out) {
  const uint8_t* base = model.file_data();
  const uint32_t old_count = format::load_u32(base + format::header::kSectionCount);
  struct Entry {
    uint32_t kind;
    const uint8_t* data;
    uint64_t size;
    uint8_t digest[format::kDigestSize];
    uint64_t offset = 0;
  };
  std::vector<Entry> entries;
  for (uint32_t s = 0; s < old_count; ++s) {
    const uint8_t* e = base + format::kHeaderFixedSize + uint64_t{s} * format::kSectionEntrySize;
    Entry x{format::load_u32(e + format::entry::kKind),
            base + format::load_u64(e + format::entry::kOffset),
            format::load_u64(e + format::entry::kSize),
            {}};
    if (x.kind == kind) continue;  // replaced
    std::memcpy(x.digest, e + format::entry::kDigest, format::kDigestSize);
    entries.push_back(x);
  }
  Entry added{kind, section.data(), section.size(), {}};
  const Digest d = sha256(section.data(), section.size());
  std::memcpy(added.digest, d.data(), d.size());
  entries.push_back(added);
  if (entries.size() > format::kMaxSections) fail(DXT_E_UNSUPPORTED, "the model has too many sections to add one");

  const uint64_t header_size = format::kHeaderFixedSize + entries.size() * format::kSectionEntrySize;
  uint64_t position = round_up(header_size, format::kSectionAlignment);
  for (Entry& e : entries) {
    e.offset = position;
    position = round_up(position + e.size, format::kSectionAlignment);
  }
  const uint64_t file_size = position;

  std::vector<uint8_t> header(header_size, 0);
  uint8_t* h = header.data();
  std::memcpy(h, base, format::kHeaderFixedSize);  // magic, version, V, D, flags, ...
  format::store_u16(h + format::header::kVersionMinor,
                    std::max(format::load_u16(base + format::header::kVersionMinor), minor));
  format::store_u32(h + format::header::kHeaderSize, static_cast<uint32_t>(header_size));
  format::store_u32(h + format::header::kSectionCount, static_cast<uint32_t>(entries.size()));
  format::store_u64(h + format::header::kFileSize, file_size);
  std::memset(h + format::header::kHeaderDigest, 0, format::kDigestSize);
  for (size_t s = 0; s < entries.size(); ++s) {
    uint8_t* e = h + format::kHeaderFixedSize + s * format::kSectionEntrySize;
    format::store_u32(e + format::entry::kKind, entries[s].kind);
    format::store_u64(e + format::entry::kOffset, entries[s].offset);
    format::store_u64(e + format::entry::kSize, entries[s].size);
    std::memcpy(e + format::entry::kDigest, entries[s].digest, format::kDigestSize);
  }
  const Digest hd = sha256(header.data(), header.size());
  std::memcpy(h + format::header::kHeaderDigest, hd.data(), hd.size());

  static const char kZeros[format::kSectionAlignment] = {};
  out.write(reinterpret_cast<const char*>(header.data()), static_cast<std::streamsize>(header.size()));
  uint64_t written = header.size();
  for (const Entry& e : entries) {
    out.write(kZeros, static_cast<std::streamsize>(e.offset - written));
    // Large sections (the matrix) in pieces, so a stream error shows early.
    for (uint64_t done = 0; done < e.size;) {
      const uint64_t n = std::min<uint64_t>(e.size - done, uint64_t{1} << 26);
      out.write(reinterpret_cast<const char*>(e.data + done), static_cast<std::streamsize>(n));
      done += n;
    }
    written = e.offset + e.size;
    if (!out) fail(DXT_E_IO, "writing the model failed");
  }
  out.write(kZeros, static_cast<std::streamsize>(file_size - written));
  out.flush();
  if (!out) fail(DXT_E_IO, "writing the model failed");
}

}  // namespace dxt
