// SPDX-License-Identifier: Apache-2.0
// Golden-file test: keeps docs/format.md, the writer and the reader equal.
//
// tests/data/golden_v1.dxe is a committed .dxe 1.0 file built from
// tests/data/golden_v1.txt (four words, dimension 4, int8, lowercase, with
// frequencies). "über" collides with "beta" in the hash table and wraps
// around to slot 0; its all-zero row has scale 0. This test
//   - rebuilds it with dxt::ModelWriter and requires the same bytes;
//   - pins its SHA-256, so any change to the file is a deliberate one;
//   - reads the header and section table at the literal offsets of
//     docs/format.md (not through model/format.hpp) and checks every digest
//     and the stored FNV-1a hash table;
//   - opens it with dxt::Model and checks words, lookups, frequencies, rows
//     and norms against the source text;
//   - checks a few damaged copies give the statuses of docs/format.md §12.1
//     (tests/format/read_dxe.py --check-rejects makes the same damage).
// tests/format/read_dxe.py decodes the same file independently.
//
// Regenerating the golden file is only right after a deliberate, documented
// format change (update docs/format.md and kGoldenSha256 below as well):
//   DXT_REGENERATE_GOLDEN=1 <build>/bin/test_model_golden
// writes tests/data/golden_v1.dxe from the writer, then runs the checks.
#include <doctest/doctest.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "dxtext/dxtext.h"
#include "errors/error.hpp"
#include "model/converters.hpp"
#include "model/format.hpp"
#include "model/model.hpp"
#include "model/model_writer.hpp"
#include "model/sha256.hpp"
#include "support/toy_models.hpp"

using namespace dxt;

namespace {

const std::string kDataDir = DXT_TEST_DATA_DIR;
const std::string kGoldenPath = kDataDir + "/golden_v1.dxe";
const std::string kSourcePath = kDataDir + "/golden_v1.txt";

// SHA-256 of tests/data/golden_v1.dxe (also its fingerprint, docs/format.md §13).
const std::string kGoldenSha256 = "81432c25c01814ce04cbbd61c02946984144c04c7bdd37e591d2cdd3c2569d62";

const uint64_t kFrequencies[] = {300, 20, 5000000000ull, 0};  // 5e9 needs all 64 bits; 0 = unknown

struct SourceWord {
  std::string word;
  std::vector<float> values;
};

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), "cannot read " << path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::vector<SourceWord> read_source() {
  std::istringstream in(read_bytes(kSourcePath));
  std::vector<SourceWord> words;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::istringstream fields(line);
    SourceWord w;
    fields >> w.word;
    std::string f;
    while (fields >> f) {
      float v = 0;
      const auto r = std::from_chars(f.data(), f.data() + f.size(), v);
      REQUIRE(r.ec == std::errc());
      w.values.push_back(v);
    }
    words.push_back(std::move(w));
  }
  REQUIRE(words.size() == 4);
  return words;
}

std::map<std::string, std::string> golden_metadata() {
  return {{"dxtext.source", "golden_v1.txt"},
          {"dxtext.source_format", "glove"},
          {"dxtext.license", "CC0-1.0"},
          {"dxtext.converted_by", "dxtext 0.1.0"}};
}

std::string build_golden() {
  const auto source = read_source();
  std::stringstream out(std::ios::in | std::ios::out | std::ios::binary);
  ModelWriterOptions o;
  o.dimension = 4;
  o.quantization = DXT_QUANT_INT8;
  o.geometry = DXT_GEOMETRY_EUCLIDEAN;
  o.lowercase = true;
  o.with_frequencies = true;
  o.metadata = golden_metadata();
  ModelWriter w(out, o);
  for (size_t i = 0; i < source.size(); ++i) {
    REQUIRE(source[i].values.size() == 4);
    w.add(source[i].word, source[i].values.data(), kFrequencies[i]);
  }
  w.finish();
  return out.str();
}

// Little-endian loads written out byte by byte, independent of format.hpp.
uint64_t le(const std::string& b, size_t at, int bytes) {
  uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = v << 8 | static_cast<uint8_t>(b.at(at + static_cast<size_t>(i)));
  return v;
}
float le_f32(const std::string& b, size_t at) {
  const auto bits = static_cast<uint32_t>(le(b, at, 4));
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

std::string hex(const Digest& d) { return to_hex(d.data(), d.size()); }
Digest sha(const std::string& b, size_t at, size_t n) { return sha256(b.data() + at, n); }

// FNV-1a 64 as docs/format.md §7.2 writes it.
uint64_t fnv1a64(const std::string& s) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

dxt_status open_status(const std::string& bytes, bool verify) {
  test::AlignedBytes b(bytes);
  ModelOpenOptions o;
  o.verify_digests = verify;
  try {
    Model::open_memory(b.data(), b.size, o);
  } catch (const Error& e) {
    return e.status();
  }
  return DXT_OK;
}

void set_u32(std::string& b, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + static_cast<size_t>(i)] = static_cast<char>(v >> (8 * i) & 0xFF);
}
void rehash_header(std::string& b) {
  const auto header_size = static_cast<size_t>(le(b, 16, 4));
  std::string copy = b.substr(0, header_size);
  std::fill(copy.begin() + 96, copy.begin() + 128, '\0');
  const Digest d = sha(copy, 0, copy.size());
  std::memcpy(&b[96], d.data(), d.size());
}

}  // namespace

TEST_CASE("golden: the writer reproduces tests/data/golden_v1.dxe byte for byte") {
  const std::string built = build_golden();
  if (const char* regen = std::getenv("DXT_REGENERATE_GOLDEN"); regen != nullptr && std::string(regen) == "1") {
    std::ofstream out(kGoldenPath, std::ios::binary | std::ios::trunc);
    out.write(built.data(), static_cast<std::streamsize>(built.size()));
    out.close();
    REQUIRE(out.good());
    MESSAGE("regenerated " << kGoldenPath << " (sha256 " << hex(sha(built, 0, built.size())) << ")");
  }
  const std::string golden = read_bytes(kGoldenPath);
  CHECK(golden.size() == built.size());
  CHECK_MESSAGE(golden == built,
                "the writer no longer produces the golden file; if the format changed on "
                "purpose, update docs/format.md and regenerate (see the top of this file)");
  CHECK_MESSAGE(hex(sha(golden, 0, golden.size())) == kGoldenSha256,
                "golden file changed: sha256 " << hex(sha(golden, 0, golden.size())));
}

TEST_CASE("golden: header and section table at the offsets of docs/format.md") {
  const std::string b = read_bytes(kGoldenPath);
  REQUIRE(b.size() >= 640);
  const std::string magic(
      "\x89"
      "DXE\r\n\x1A\n",
      8);
  CHECK(b.substr(0, 8) == magic);
  CHECK(le(b, 8, 2) == 1);            // version_major
  CHECK(le(b, 10, 2) == 0);           // version_minor
  CHECK(le(b, 12, 4) == 0x0A0B0C0D);  // endian_tag
  CHECK(b.substr(12, 4) == std::string("\x0D\x0C\x0B\x0A", 4));
  CHECK(le(b, 20, 4) == 8);                       // section_count
  CHECK(le(b, 16, 4) == 128 + 64 * 8);            // header_size
  CHECK(le(b, 24, 8) == b.size());                // file_size
  CHECK(b.size() % 64 == 0);                      // the writer pads the end
  CHECK(le(b, 32, 8) == 1);                       // flags: lowercase
  CHECK(le(b, 40, 4) == 4);                       // V
  CHECK(le(b, 44, 4) == 4);                       // D
  CHECK(le(b, 48, 4) == DXT_GEOMETRY_EUCLIDEAN);  // 1
  CHECK(le(b, 52, 4) == DXT_QUANT_INT8);          // 3
  CHECK(b.substr(56, 40) == std::string(40, '\0'));

  std::string zeroed = b.substr(0, 640);
  std::fill(zeroed.begin() + 96, zeroed.begin() + 128, '\0');
  CHECK(hex(sha(zeroed, 0, zeroed.size())) == to_hex(reinterpret_cast<const uint8_t*>(b.data()) + 96, 32));

  // Appendix A: the writer's layout. (kind, offset, size); metadata size below.
  struct Expected {
    uint32_t kind;
    uint64_t offset, size;
  };
  const Expected layout[] = {{5, 640, 16}, {6, 704, 16}, {7, 768, 16},  {8, 832, 32},
                             {2, 896, 20}, {3, 960, 23}, {4, 1024, 32}, {1, 1088, 139}};
  std::map<uint32_t, std::pair<uint64_t, uint64_t>> sections;
  for (size_t s = 0; s < 8; ++s) {
    const size_t e = 128 + 64 * s;
    CAPTURE(s);
    const auto kind = static_cast<uint32_t>(le(b, e, 4));
    const uint64_t offset = le(b, e + 8, 8), size = le(b, e + 16, 8);
    CHECK(kind == layout[s].kind);
    CHECK(offset == layout[s].offset);
    CHECK(size == layout[s].size);
    CHECK(le(b, e + 4, 4) == 0);
    CHECK(b.substr(e + 56, 8) == std::string(8, '\0'));
    CHECK(offset % 64 == 0);
    REQUIRE(offset + size <= b.size());
    CHECK(to_hex(reinterpret_cast<const uint8_t*>(b.data()) + e + 24, 32) == hex(sha(b, offset, size)));
    sections[kind] = {offset, size};
  }

  // Metadata: u32 count, then (u32 length, bytes) key/value pairs, sorted.
  {
    const auto [off, size] = sections.at(1);
    size_t at = off;
    REQUIRE(le(b, at, 4) == 4);
    at += 4;
    std::map<std::string, std::string> meta;
    for (int i = 0; i < 4; ++i) {
      const auto kl = static_cast<size_t>(le(b, at, 4));
      const std::string k = b.substr(at + 4, kl);
      at += 4 + kl;
      const auto vl = static_cast<size_t>(le(b, at, 4));
      meta[k] = b.substr(at + 4, vl);
      at += 4 + vl;
    }
    CHECK(at == off + size);
    CHECK(meta == golden_metadata());
  }

  // Vocabulary: V+1 u32 offsets into NUL-terminated strings.
  const auto source = read_source();
  const auto [offs, offs_size] = sections.at(2);
  const auto [strs, strs_size] = sections.at(3);
  CHECK(b.substr(strs, strs_size) == std::string("alpha\0beta\0gamma\0\xC3\xBC"
                                                 "ber\0",
                                                 23));
  const uint64_t expected_offsets[] = {0, 6, 11, 17, 23};
  CHECK(offs_size == 20);
  for (size_t i = 0; i < 5; ++i) CHECK(le(b, offs + 4 * i, 4) == expected_offsets[i]);

  // Hash table: FNV-1a 64, C = 8 (smallest power of two >= 2V), linear probing,
  // slot = index + 1.
  CHECK(fnv1a64("") == 0xcbf29ce484222325ull);  // published FNV-1a test vectors
  CHECK(fnv1a64("a") == 0xaf63dc4c8601ec8cull);
  CHECK(fnv1a64("foobar") == 0x85944171f73967e8ull);
  for (const char* w : {"", "a", "alpha", "beta", "gamma",
                        "\xC3\xBC"
                        "ber"})
    CHECK(format::fnv1a64(w, std::strlen(w)) == fnv1a64(w));
  const auto [hash, hash_size] = sections.at(4);
  const uint64_t C = hash_size / 4;
  REQUIRE(C == 8);
  std::vector<uint32_t> expected_slots(C, 0);
  for (uint32_t i = 0; i < 4; ++i) {
    uint64_t p = fnv1a64(source[i].word) & (C - 1);
    while (expected_slots[p] != 0) p = (p + 1) & (C - 1);
    expected_slots[p] = i + 1;
  }
  for (uint64_t p = 0; p < C; ++p) CHECK(le(b, hash + 4 * p, 4) == expected_slots[p]);
  // The collision docs/format.md Appendix A describes: beta and über share home
  // slot 7, so über wraps around to slot 0.
  CHECK((fnv1a64(source[1].word) & 7) == 7);
  CHECK((fnv1a64(source[3].word) & 7) == 7);
  CHECK(expected_slots[7] == 2);
  CHECK(expected_slots[0] == 4);

  // Matrix, scales, norms, frequencies.
  const auto [mat, mat_size] = sections.at(5);
  const auto scales = sections.at(6).first, norms = sections.at(7).first, freqs = sections.at(8).first;
  for (uint32_t i = 0; i < 4; ++i) {
    CAPTURE(i);
    const float scale = le_f32(b, scales + 4 * i);
    float max_abs = 0;
    for (float v : source[i].values) max_abs = std::max(max_abs, std::fabs(v));
    CHECK(scale == max_abs / 127.0f);
    double norm2 = 0;
    for (uint32_t j = 0; j < 4; ++j) {
      const auto q = static_cast<int8_t>(static_cast<uint8_t>(b[mat + 4 * i + j]));
      CHECK(q >= -127);
      const float x = scale * static_cast<float>(q);
      CHECK(std::fabs(x - source[i].values[j]) <= scale / 2 + 1e-6f);
      norm2 += double{x} * x;
    }
    CHECK(le_f32(b, norms + 4 * i) == static_cast<float>(norm2));
    CHECK(le(b, freqs + 8 * i, 8) == kFrequencies[i]);
  }
  CHECK(mat_size == 16);
}

TEST_CASE("golden: dxt::Model reads the golden file") {
  const auto source = read_source();
  const std::string bytes = read_bytes(kGoldenPath);
  for (bool verify : {false, true}) {
    CAPTURE(verify);
    ModelOpenOptions o;
    o.verify_digests = verify;
    const auto m = Model::open_file(kGoldenPath, o);
    CHECK(m->format_major() == 1);
    CHECK(m->format_minor() == 0);
    CHECK(m->vocabulary_size() == 4);
    CHECK(m->dimension() == 4);
    CHECK(m->geometry() == DXT_GEOMETRY_EUCLIDEAN);
    CHECK(m->quantization() == DXT_QUANT_INT8);
    CHECK(m->lowercase());
    CHECK(m->has_frequencies());
    CHECK(m->metadata() == golden_metadata());
    CHECK(m->file_size() == bytes.size());
    CHECK(m->fingerprint() == sha256(bytes.data(), bytes.size()));
    CHECK(hex(m->fingerprint()) == kGoldenSha256);

    for (uint32_t i = 0; i < 4; ++i) {
      CAPTURE(i);
      CHECK(m->word(i) == source[i].word);
      CHECK(m->find_exact(source[i].word) == i);
      CHECK(m->lookup(source[i].word) == i);
      CHECK(m->frequency(i) == kFrequencies[i]);
      float row[4];
      m->row(i, row);
      double norm2 = 0;
      const float scale = m->row_scales()[i];
      for (int j = 0; j < 4; ++j) {
        CHECK(std::fabs(row[j] - source[i].values[static_cast<size_t>(j)]) <= scale / 2 + 1e-6f);
        norm2 += double{row[j]} * row[j];
      }
      CHECK(m->row_norms()[i] == static_cast<float>(norm2));
    }
    // Case folding follows the lowercase flag (docs/format.md §7.3).
    CHECK(m->lookup("ALPHA") == 0u);
    CHECK(m->lookup("Gamma") == 2u);
    CHECK_FALSE(m->find_exact("Alpha").has_value());
    CHECK_FALSE(m->lookup("delta").has_value());
    CHECK(m->lookup("\xC3\x9C"
                    "BER") == 3u);  // ÜBER: U+00DC folds to U+00FC
    CHECK_FALSE(m->find_exact("\xC3\x9C"
                              "ber")
                    .has_value());
    CHECK_FALSE(m->lookup("alph").has_value());
    CHECK(m->row_scales()[3] == 0.0f);  // the all-zero row
    CHECK(m->row_norms()[3] == 0.0f);
    CHECK_THROWS_AS(m->frequency(4), Error);
    float row[4];
    CHECK_THROWS_AS(m->row(4, row), Error);
    CHECK_THROWS_AS(m->word(4), Error);
  }
}

TEST_CASE("golden: the GloVe converter yields the same rows as the golden file") {
  std::ifstream in(kSourcePath, std::ios::binary);
  REQUIRE(in.good());
  std::stringstream out(std::ios::in | std::ios::out | std::ios::binary);
  ConvertOptions co;
  co.format = EmbeddingFormat::kGlove;
  co.quantization = DXT_QUANT_INT8;
  co.lowercase = true;
  co.metadata = golden_metadata();
  const ConvertStats stats = convert_embeddings(in, out, co);
  CHECK(stats.words == 4);
  CHECK(stats.dimension == 4);
  const test::AlignedBytes converted(out.str());
  const auto c = Model::open_memory(converted.data(), converted.size, ModelOpenOptions{true});
  const auto g = Model::open_file(kGoldenPath, ModelOpenOptions{});
  CHECK_FALSE(c->has_frequencies());  // the converter has no frequencies to write
  REQUIRE(c->vocabulary_size() == g->vocabulary_size());
  CHECK(c->metadata() == g->metadata());
  for (uint32_t i = 0; i < 4; ++i) {
    CHECK(c->word(i) == g->word(i));
    float a[4], b[4];
    c->row(i, a);
    g->row(i, b);
    CHECK(std::memcmp(a, b, sizeof a) == 0);
    CHECK(c->row_scales()[i] == g->row_scales()[i]);
    CHECK(c->row_norms()[i] == g->row_norms()[i]);
  }
}

TEST_CASE("golden: damaged copies give the statuses of docs/format.md §12.1") {
  const std::string good = read_bytes(kGoldenPath);
  const uint64_t matrix_offset = le(good, 128 + 8, 8);  // entry 0 is the matrix
  REQUIRE(le(good, 128, 4) == 5);
  uint64_t metadata_offset = 0;
  for (size_t s = 0; s < 8; ++s)
    if (le(good, 128 + 64 * s, 4) == 1) metadata_offset = le(good, 128 + 64 * s + 8, 8);
  REQUIRE(metadata_offset != 0);

  struct Case {
    const char* name;
    std::function<void(std::string&)> damage;
    bool verify;
    dxt_status expected;
  };
  const Case cases[] = {
      {"intact", [](std::string&) {}, true, DXT_OK},
      {"bad magic", [](std::string& b) { b[1] = 'd'; }, false, DXT_E_NOT_A_MODEL},
      {"cut to 100 bytes", [](std::string& b) { b.resize(100); }, false, DXT_E_TRUNCATED_MODEL},
      {"major version 2", [](std::string& b) { b[8] = 2; }, false, DXT_E_UNSUPPORTED_VERSION},
      {"last 64 bytes cut", [](std::string& b) { b.resize(b.size() - 64); }, false, DXT_E_TRUNCATED_MODEL},
      {"64 bytes appended", [](std::string& b) { b.append(64, '\0'); }, false, DXT_E_CORRUPT_MODEL},
      {"reserved header byte set", [](std::string& b) { b[60] = 1; }, false, DXT_E_DIGEST_MISMATCH},
      {"reserved header byte set, digest fixed",
       [](std::string& b) {
         b[60] = 1;
         rehash_header(b);
       },
       false, DXT_E_CORRUPT_MODEL},
      {"unknown flag bit, digest fixed",
       [](std::string& b) {
         b[32] = 3;
         rehash_header(b);
       },
       false, DXT_E_CORRUPT_MODEL},
      {"matrix byte flipped, not verified", [&](std::string& b) { b[matrix_offset] ^= 1; }, false, DXT_OK},
      {"matrix byte flipped, verified", [&](std::string& b) { b[matrix_offset] ^= 1; }, true, DXT_E_DIGEST_MISMATCH},
      {"metadata byte flipped", [&](std::string& b) { b[metadata_offset + 8] ^= 1; }, false, DXT_E_DIGEST_MISMATCH},
      {"unknown section kind, digest fixed",  // turns the frequencies entry into kind 100: ignored
       [](std::string& b) {
         for (size_t s = 0; s < 8; ++s)
           if (le(b, 128 + 64 * s, 4) == 8) set_u32(b, 128 + 64 * s, 100);
         rehash_header(b);
       },
       true, DXT_OK},
      {"covariance of the wrong size, digest fixed",  // kind 9 (format 1.1) must hold D*D*8 = 128 bytes
       [](std::string& b) {
         for (size_t s = 0; s < 8; ++s)
           if (le(b, 128 + 64 * s, 4) == 8) set_u32(b, 128 + 64 * s, 9);
         rehash_header(b);
       },
       false, DXT_E_CORRUPT_MODEL},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    std::string b = good;
    c.damage(b);
    CHECK(open_status(b, c.verify) == c.expected);
  }
}
