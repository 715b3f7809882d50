// SPDX-License-Identifier: Apache-2.0
// Model files that change under an open model, and model paths that are not
// regular files (docs/format.md §12.1 and §12.4): a file rewritten in place
// after its search index was used is never read out of bounds; with
// DXT_OPEN_PRIVATE_COPY truncating, rewriting or freeing the source changes
// nothing; a FIFO gives DXT_E_IO at once instead of waiting for a writer.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "dxtext/dxtext.h"
#include "model/format.hpp"
#include "model/model.hpp"
#include "model/search_index_writer.hpp"
#include "model/sha256.hpp"
#include "search/ivf_build.hpp"
#include "support/corrupt_models.hpp"
#include "support/toy_models.hpp"

using namespace dxt;
namespace fmt = dxt::format;

namespace {

// A scratch directory, removed with its files.
struct ScratchDir {
  std::string path;
  ScratchDir() {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/dxt-changes-XXXXXX";
    REQUIRE(mkdtemp(pattern.data()) != nullptr);
    path = pattern;
  }
  ~ScratchDir() { (void)std::system(("rm -rf '" + path + "'").c_str()); }
  std::string file(const std::string& name, const std::string& bytes) const {
    const std::string p = path + "/" + name;
    const int fd = ::open(p.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    REQUIRE(fd >= 0);
    REQUIRE(::write(fd, bytes.data(), bytes.size()) == static_cast<ssize_t>(bytes.size()));
    ::close(fd);
    return p;
  }
};

// Writes `n` copies of the u32 `v` at byte `at` of the file, in place (the
// same inode, so a mapping of it sees the new bytes).
void overwrite_u32s(const std::string& path, uint64_t at, uint64_t n, uint32_t v) {
  const int fd = ::open(path.c_str(), O_WRONLY);
  REQUIRE(fd >= 0);
  const std::vector<uint32_t> values(n, v);
  REQUIRE(::pwrite(fd, values.data(), 4 * n, static_cast<off_t>(at)) == static_cast<ssize_t>(4 * n));
  ::close(fd);
}

// The corruption base model (20 words, int8) with a 4-cell search index.
std::string indexed_model() {
  const std::string plain = test::corrupt::valid_model();
  test::AlignedBytes b(plain);
  const auto m = Model::open_memory(b.data(), b.size, ModelOpenOptions{});
  IvfBuildOptions o;
  o.cells = 4;
  const SearchIndexData x = build_ivf_index(*m, o);
  std::stringstream out(std::ios::in | std::ios::out | std::ios::binary);
  write_model_with_search_index(*m, x, out);
  return out.str();
}

dxt_context* seeded_context(dxt_model* m, uint8_t seed) {
  dxt_context_options co;
  dxt_context_options_init(&co);
  co.rng_mode = DXT_RNG_DETERMINISTIC;
  co.seed[0] = seed;
  dxt_context* c = nullptr;
  REQUIRE(dxt_context_create(m, &co, &c) == DXT_OK);
  return c;
}

dxt_model* open_path(const std::string& path, uint32_t flags, dxt_status expected = DXT_OK) {
  dxt_model_open_options o;
  dxt_model_open_options_init(&o);
  o.flags = flags;
  dxt_model* m = nullptr;
  const dxt_status s = dxt_model_open_file(path.c_str(), &o, &m);
  CHECK_MESSAGE(s == expected, dxt_last_error_message());
  return m;
}

// Releases of every vocabulary index (IVF search when `ivf`) on a fresh
// context with a fixed seed, as one string.
std::string releases(dxt_model* m, bool ivf) {
  dxt_context* c = seeded_context(m, 7);
  dxt_privatize_options o;
  dxt_privatize_options_init(&o);
  o.epsilon = 2;
  if (ivf) o.search = DXT_SEARCH_IVF;
  std::string s;
  for (uint32_t i = 0; i < 20; ++i) {
    uint32_t out = 0;
    REQUIRE(dxt_privatize_index(c, &o, i, &out, nullptr, nullptr) == DXT_OK);
    s += std::to_string(out) + " ";
  }
  char* text = nullptr;
  REQUIRE(dxt_privatize_text(c, &o, "w1 w2, w3 and w19.", 18, &text, nullptr, nullptr, nullptr) == DXT_OK);
  s += text;
  dxt_text_free(text);
  dxt_context_destroy(c);
  return s;
}

}  // namespace

TEST_CASE("a model file rewritten in place after its search index was used is never read out of bounds") {
  ScratchDir dir;
  std::string bytes = indexed_model();
  const std::string path = dir.file("indexed.dxe", bytes);
  const uint64_t index_at = test::corrupt::section_offset(bytes, fmt::SectionKind::kSearchIndex);
  const uint32_t K = 4, V = 20, D = 2;
  const uint64_t cell_offsets = index_at + 64 + 4 * (uint64_t{K} * D + K);
  const uint64_t cell_rows = cell_offsets + 4 * (K + 1);

  dxt_model* m = open_path(path, 0);  // mapped, the default
  REQUIRE(m != nullptr);
  dxt_context* c = seeded_context(m, 1);
  dxt_privatize_options o;
  dxt_privatize_options_init(&o);
  o.epsilon = 2;
  o.search = DXT_SEARCH_IVF;
  uint32_t out = 0;
  REQUIRE(dxt_privatize_index(c, &o, 3, &out, nullptr, nullptr) == DXT_OK);  // the index is checked and in use

  // Another process rewrites the file in place with hostile values: cell
  // offsets and row ids far outside the vocabulary, every word offset and
  // hash slot out of range.
  overwrite_u32s(path, cell_offsets + 4, K, 0xFFFFFFF0u);
  overwrite_u32s(path, cell_rows, V, 0xFFFFFFF0u);
  overwrite_u32s(path, test::corrupt::section_offset(bytes, fmt::SectionKind::kVocabOffsets) + 4, V, 0x7FFFFFF0u);
  const size_t hash_entry = test::corrupt::entry_at(test::corrupt::find_section(bytes, fmt::SectionKind::kVocabHash));
  const uint64_t hash_slots = fmt::load_u64(test::corrupt::u8(bytes, hash_entry + fmt::entry::kSize)) / 4;
  overwrite_u32s(path, test::corrupt::section_offset(bytes, fmt::SectionKind::kVocabHash), hash_slots, V + 9);

  // The mapping sees the new bytes (else this test would prove nothing).
  const char* w = nullptr;
  CHECK(dxt_model_word(m, 3, &w, nullptr) == DXT_E_CORRUPT_MODEL);

  // Searches use the cells checked at first use; every release is a word.
  for (uint32_t i = 0; i < V; ++i) {
    CAPTURE(i);
    out = UINT32_MAX;
    CHECK(dxt_privatize_index(c, &o, i, &out, nullptr, nullptr) == DXT_OK);
    CHECK(out < V);
  }
  // Text needs the words: the calls fail cleanly.
  char* text = reinterpret_cast<char*>(0x1);
  CHECK(dxt_privatize_text(c, &o, "w1 w2", 5, &text, nullptr, nullptr, nullptr) == DXT_E_CORRUPT_MODEL);
  CHECK(text == nullptr);
  uint32_t index = 0;
  CHECK(dxt_model_lookup(m, "w1", 2, &index) == DXT_E_CORRUPT_MODEL);
  dxt_context_destroy(c);
  dxt_model_close(m);
}

TEST_CASE("the search index and the covariance are copied at first use, and the copies are what is used") {
  // An indexed model with a covariance section, in a caller's buffer that is
  // changed after first use (the same as a mapped file rewritten in place).
  test::ToyModelSpec spec = test::grid_2d_spec();
  spec.with_covariance = true;
  test::AlignedBytes plain(test::build_model_bytes(spec));
  const auto base = Model::open_memory(plain.data(), plain.size, ModelOpenOptions{});
  IvfBuildOptions io;
  io.cells = 4;
  std::stringstream s(std::ios::in | std::ios::out | std::ios::binary);
  write_model_with_search_index(*base, build_ivf_index(*base, io), s);
  std::string bytes = s.str();
  test::AlignedBytes b(bytes);
  const auto m = Model::open_memory(b.data(), b.size, ModelOpenOptions{});

  const SearchIndexView* index = m->search_index();
  REQUIRE(index != nullptr);
  const std::vector<uint32_t> offsets(index->offsets, index->offsets + index->cells + 1);
  const std::vector<uint32_t> rows(index->rows, index->rows + 20);
  const double* cov = m->covariance();
  REQUIRE(cov != nullptr);
  const std::vector<double> cov_before(cov, cov + 4);

  const uint64_t index_at = test::corrupt::section_offset(bytes, fmt::SectionKind::kSearchIndex);
  const uint64_t cov_at = test::corrupt::section_offset(bytes, fmt::SectionKind::kCovariance);
  std::memset(b.data() + index_at + 64, 0xFF, 4 * (4 * 2 + 4 + 5 + 20));                         // centroids .. rows
  for (int i = 0; i < 4; ++i) fmt::store_u64(b.data() + cov_at + 8 * i, 0x7FF8000000000001ull);  // NaN

  const SearchIndexView* again = m->search_index();
  CHECK(std::vector<uint32_t>(again->offsets, again->offsets + again->cells + 1) == offsets);
  CHECK(std::vector<uint32_t>(again->rows, again->rows + 20) == rows);
  CHECK(std::vector<double>(m->covariance(), m->covariance() + 4) == cov_before);
}

TEST_CASE("DXT_OPEN_PRIVATE_COPY: truncating or rewriting the file after open changes nothing") {
  ScratchDir dir;
  const std::string bytes = indexed_model();
  const std::string path = dir.file("model.dxe", bytes);

  dxt_model* mapped = open_path(path, 0);
  REQUIRE(mapped != nullptr);
  const std::string expected_exact = releases(mapped, false);
  const std::string expected_ivf = releases(mapped, true);
  dxt_model_close(mapped);

  dxt_model* m = open_path(path, DXT_OPEN_PRIVATE_COPY);
  REQUIRE(m != nullptr);
  CHECK(releases(m, true) == expected_ivf);  // first use of the index on the copy

  // Truncated to nothing: a mapping would take SIGBUS here.
  REQUIRE(::truncate(path.c_str(), 0) == 0);
  CHECK(releases(m, false) == expected_exact);
  CHECK(releases(m, true) == expected_ivf);
  // Refilled with other bytes of the same size.
  dir.file("model.dxe", std::string(bytes.size(), '\xFF'));
  CHECK(releases(m, false) == expected_exact);

  uint8_t fingerprint[32];
  REQUIRE(dxt_model_fingerprint(m, fingerprint) == DXT_OK);
  const Digest d = sha256(bytes.data(), bytes.size());
  CHECK(std::memcmp(fingerprint, d.data(), 32) == 0);  // of the bytes read at open
  dxt_model_close(m);

  // Both flags together: digests verified on the private copy.
  const std::string again = dir.file("again.dxe", bytes);
  dxt_model* verified = open_path(again, DXT_OPEN_PRIVATE_COPY | DXT_OPEN_VERIFY_DIGESTS);
  REQUIRE(verified != nullptr);
  dxt_model_close(verified);

  // A damaged file is refused as without the flag.
  std::string cut = bytes;
  cut.pop_back();
  (void)open_path(dir.file("cut.dxe", cut), DXT_OPEN_PRIVATE_COPY, DXT_E_TRUNCATED_MODEL);
  (void)open_path(dir.file("empty.dxe", ""), DXT_OPEN_PRIVATE_COPY, DXT_E_NOT_A_MODEL);
}

TEST_CASE("DXT_OPEN_PRIVATE_COPY on a buffer: any alignment, and the buffer may go at once") {
  const std::string bytes = indexed_model();
  test::AlignedBytes aligned(bytes);
  dxt_model* reference = nullptr;
  REQUIRE(dxt_model_open_memory(aligned.data(), aligned.size, nullptr, &reference) == DXT_OK);
  const std::string expected = releases(reference, true);
  dxt_model_close(reference);

  dxt_model_open_options o;
  dxt_model_open_options_init(&o);
  o.flags = DXT_OPEN_PRIVATE_COPY;
  std::vector<char> buffer(bytes.size() + 1);
  char* odd = buffer.data() + (reinterpret_cast<uintptr_t>(buffer.data()) % 8 == 0 ? 1 : 0);
  std::memcpy(odd, bytes.data(), bytes.size());
  dxt_model* unaligned = nullptr;
  CHECK(dxt_model_open_memory(odd, bytes.size(), nullptr, &unaligned) == DXT_E_INVALID_ARGUMENT);
  REQUIRE(dxt_model_open_memory(odd, bytes.size(), &o, &unaligned) == DXT_OK);
  std::memset(buffer.data(), 0, buffer.size());
  std::vector<char>().swap(buffer);
  CHECK(releases(unaligned, true) == expected);
  dxt_model_close(unaligned);
}

TEST_CASE("a model path that is not a regular file gives DXT_E_IO at once") {
  ScratchDir dir;
  const std::string fifo = dir.path + "/model.fifo";
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);

  // Were the open to wait for a writer, this watchdog would release it (and
  // the test would fail on `released`) rather than let the suite hang.
  std::mutex mu;
  std::condition_variable cv;
  bool done = false;
  std::atomic<bool> released{false};
  std::thread watchdog([&] {
    std::unique_lock<std::mutex> lock(mu);
    if (cv.wait_for(lock, std::chrono::seconds(60), [&] { return done; })) return;
    released = true;
    const int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
    if (fd >= 0) ::close(fd);
  });
  for (uint32_t flags : {0u, static_cast<uint32_t>(DXT_OPEN_PRIVATE_COPY)}) {
    CAPTURE(flags);
    dxt_model* m = open_path(fifo, flags, DXT_E_IO);
    CHECK(m == nullptr);
    CHECK(std::string(dxt_last_error_message()).find("not a regular file") != std::string::npos);
  }
  {
    std::lock_guard<std::mutex> lock(mu);
    done = true;
  }
  cv.notify_all();
  watchdog.join();
  CHECK_FALSE(released.load());

  for (const std::string& other : {dir.path, std::string("/dev/null")}) {
    CAPTURE(other);
    CHECK(open_path(other, 0, DXT_E_IO) == nullptr);
  }
}
