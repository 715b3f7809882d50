// SPDX-License-Identifier: Apache-2.0
// Hand-made corrupt model files (tests/support/corrupt_models.hpp), each with
// the status it must produce (DESIGN.md §3, §10); every truncation and every
// single-byte flip.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <unistd.h>

#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "dxtext/dxtext.h"
#include "model/format.hpp"
#include "model/sha256.hpp"
#include "support/corrupt_models.hpp"
#include "support/toy_models.hpp"

using namespace dxt;
using namespace dxt::test::corrupt;

namespace {

dxt_status open_status(const std::string& bytes, uint32_t flags = 0) {
  test::AlignedBytes buf(bytes);
  dxt_model_open_options o;
  dxt_model_open_options_init(&o);
  o.flags = flags;
  dxt_model* m = nullptr;
  const dxt_status s = dxt_model_open_memory(buf.data(), buf.size, &o, &m);
  if (s != DXT_OK) {
    CHECK(m == nullptr);
    CHECK(std::strlen(dxt_last_error_message()) > 0);
  }
  dxt_model_close(m);
  return s;
}

}  // namespace

TEST_CASE("the valid toy model opens, with and without digest verification") {
  const std::string b = valid_model();
  CHECK(open_status(b) == DXT_OK);
  CHECK(open_status(b, DXT_OPEN_VERIFY_DIGESTS) == DXT_OK);
}

TEST_CASE("table of corrupt models") {
  for (const Corruption& c : table()) {
    std::string b = valid_model();
    c.apply(b);
    const dxt_status s = open_status(b);
    const std::string got = std::string(dxt_status_string(s)) + " (" + dxt_last_error_message() + ")";
    const std::string message = std::string(c.name) + ": got " + got;
    CHECK_MESSAGE(s == c.expected, message);
  }
}

TEST_CASE("sections of unknown kinds: up to the limit they open and are ignored, past it they are refused") {
  std::string b = valid_model();
  const uint64_t limit = unknown_sections_limit(b);
  CHECK(limit > (uint64_t{1} << 20));
  std::string at_limit = b;
  with_unknown_section(at_limit, limit);
  CHECK(open_status(at_limit) == DXT_OK);
  CHECK(open_status(at_limit, DXT_OPEN_VERIFY_DIGESTS) == DXT_OK);
  std::string small = b;
  with_unknown_section(small, 0);  // unknown kinds may be empty
  CHECK(open_status(small) == DXT_OK);
  std::string over = b;
  with_unknown_section(over, limit + 1);
  CHECK(open_status(over) == DXT_E_CORRUPT_MODEL);
  CHECK(std::string(dxt_last_error_message()).find("unknown kinds") != std::string::npos);
}

TEST_CASE("a sparse file declaring a 1 TiB section of unknown kind is refused at open, before anything reads it") {
  // Written sparse, as an attacker would: the header and sections are real,
  // the terabyte is a hole. Without the bound the file opens and the first
  // fingerprint hashes the whole terabyte (hours).
  std::string b = valid_model();
  const uint64_t tib = uint64_t{1} << 40;
  with_unknown_section(b, tib, /*materialize=*/false);
  const uint64_t file_size = fmt::load_u64(u8(b, fmt::header::kFileSize));
  char path[] = "/tmp/dxtext-sparse-XXXXXX";
  const int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  const bool written = write(fd, b.data(), b.size()) == static_cast<ssize_t>(b.size());
  const bool sized = written && ftruncate(fd, static_cast<off_t>(file_size)) == 0;
  close(fd);
  if (!sized) {
    unlink(path);
    MESSAGE("this file system cannot hold a sparse 1 TiB file; skipped");
    return;
  }
  // The refusal comes from the section table alone (no byte of the hole is
  // read before it), so it takes constant time; no timing is asserted here
  // (tests must not depend on the machine's speed, and emulators map such a
  // file slowly).
  dxt_model* m = nullptr;
  const dxt_status s = dxt_model_open_file(path, nullptr, &m);
  dxt_model_close(m);
  unlink(path);
  CHECK(s == DXT_E_CORRUPT_MODEL);
  CHECK(std::string(dxt_last_error_message()).find("unknown kinds") != std::string::npos);
}

namespace {

// Opens `bytes` (which must open) and returns the status of looking up and
// reading every word.
dxt_status touch_every_word(const std::string& bytes, uint32_t flags = 0) {
  test::AlignedBytes buf(bytes);
  dxt_model_open_options o;
  dxt_model_open_options_init(&o);
  o.flags = flags;
  dxt_model* m = nullptr;
  dxt_status s = dxt_model_open_memory(buf.data(), buf.size, &o, &m);
  if (s != DXT_OK) return s;
  dxt_status worst = DXT_OK;
  for (uint32_t i = 0; i < 20; ++i) {
    const char* w = nullptr;
    size_t len = 0;
    s = dxt_model_word(m, i, &w, &len);
    if (s != DXT_OK) worst = s;
    const std::string word = "w" + std::to_string(i);
    uint32_t idx = 0;
    s = dxt_model_lookup(m, word.data(), word.size(), &idx);
    if (s != DXT_OK) worst = s;
  }
  dxt_model_close(m);
  return worst;
}

}  // namespace

TEST_CASE("per-word corruption is caught where it is used, or at open with verification") {
  for (const LazyCorruption& c : lazy_table()) {
    const std::string name = c.name;
    CAPTURE(name);
    std::string b = valid_model();
    c.apply(b);
    CHECK(touch_every_word(b) == DXT_E_CORRUPT_MODEL);
    CHECK(open_status(b, DXT_OPEN_VERIFY_DIGESTS) == DXT_E_DIGEST_MISMATCH);
  }
}

TEST_CASE("every truncation fails to open") {
  const std::string b = valid_model();
  for (size_t n = 0; n < b.size(); ++n) {
    CAPTURE(n);
    REQUIRE(open_status(b.substr(0, n)) != DXT_OK);
  }
}

TEST_CASE("every single-byte flip: no crash; with verification, flips inside sections fail") {
  const std::string good = valid_model();
  size_t rejected = 0;
  for (size_t i = 0; i < good.size(); ++i) {
    std::string b = good;
    b[i] = static_cast<char>(b[i] ^ 0x5A);
    (void)touch_every_word(b);  // must not crash or read out of bounds (ASan build)
    if (open_status(b, DXT_OPEN_VERIFY_DIGESTS) != DXT_OK) ++rejected;
  }
  // Only the zero padding between sections is not covered by a digest.
  CHECK(rejected > good.size() * 3 / 4);
}
