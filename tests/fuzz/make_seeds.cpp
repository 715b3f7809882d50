// SPDX-License-Identifier: Apache-2.0
// Writes the seed corpus of every fuzz target into OUTDIR/<target>/:
//   make_fuzz_seeds OUTDIR
// The committed tests/fuzz/corpus/ was made by this program; rerun it when
// the input layout of a target (fuzz_support.hpp) or the corrupt-model table
// changes. Seeds are valid inputs and hand-made bad ones, so that fuzzing
// starts from every branch the tests already know.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "model/search_index_writer.hpp"
#include "search/ivf_build.hpp"
#include "support/corrupt_models.hpp"

namespace fs = std::filesystem;

namespace {

void write(const fs::path& dir, const std::string& name, const std::string& bytes) {
  fs::create_directories(dir);
  std::ofstream out(dir / name, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("cannot write " + (dir / name).string());
}

// A file-name-safe version of a description.
std::string slug(std::string s) {
  for (char& c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) c = '-';
  return s;
}

std::string bytes(std::initializer_list<int> v) {
  std::string s;
  for (int b : v) s.push_back(static_cast<char>(b));
  return s;
}

void model_open_seeds(const fs::path& dir) {
  const dxt::fuzz::Models& m = dxt::fuzz::models();
  for (size_t i = 0; i < m.bytes.size(); ++i)
    write(dir, "valid-" + std::to_string(i),
          std::string(reinterpret_cast<const char*>(m.bytes[i].data()), m.bytes[i].size));
  using namespace dxt::test::corrupt;
  const std::string good = valid_model();
  write(dir, "valid-int8-grid", good);
  for (const Corruption& c : table()) {
    std::string b = good;
    c.apply(b);
    write(dir, "corrupt-" + slug(c.name), b);
  }
  for (const LazyCorruption& c : lazy_table()) {
    std::string b = good;
    c.apply(b);
    write(dir, "lazy-" + slug(c.name), b);
  }
  for (size_t n = 64; n < good.size(); n += 256) write(dir, "truncated-" + std::to_string(n), good.substr(0, n));

  // With a search index (format 1.2): valid, then damaged in the fields
  // checked at open and in the cells checked on first use (re-signed, so
  // that each reaches its check).
  std::string indexed;
  {
    dxt::test::AlignedBytes b(good);
    const auto model = dxt::Model::open_memory(b.data(), b.size, dxt::ModelOpenOptions{});
    dxt::IvfBuildOptions o;
    o.cells = 4;
    std::stringstream out(std::ios::in | std::ios::out | std::ios::binary);
    dxt::write_model_with_search_index(*model, dxt::build_ivf_index(*model, o), out);
    indexed = out.str();
  }
  write(dir, "valid-indexed", indexed);
  using K = dxt::format::SectionKind;
  const uint64_t at = section_offset(indexed, K::kSearchIndex);
  const uint64_t offsets = at + 64 + 4 * (4 * 2 + 4), rows = offsets + 4 * 5;
  const std::vector<std::pair<std::string, std::pair<uint64_t, uint32_t>>> damage = {
      {"index-cells-0", {at + 4, 0}},         {"index-cells-above-v", {at + 4, 21}},
      {"index-dimension", {at + 8, 3}},       {"index-reserved", {at + 40, 1}},
      {"index-first-offset", {offsets, 1}},   {"index-offset-past-v", {offsets + 8, 99}},
      {"index-row-out-of-range", {rows, 20}}, {"index-row-huge", {rows + 4, 0xFFFFFFFFu}},
  };
  for (const auto& [name, change] : damage) {
    std::string b = indexed;
    set_u32(b, change.first, change.second);
    fix_section_digest(b, K::kSearchIndex);
    write(dir, "corrupt-" + name, b);
  }
  std::string twice = indexed;
  set_u32(twice, rows + 4, dxt::format::load_u32(reinterpret_cast<const uint8_t*>(&twice[rows])));
  fix_section_digest(twice, K::kSearchIndex);
  write(dir, "corrupt-index-row-twice", twice);
}

// Header of the privatisation targets (see pick_options): model, mechanism,
// epsilon, policies (2 bytes), placeholder (choice, then length and bytes for
// a custom one), parameter mask.
std::string options_header(int model, int mechanism, int epsilon_byte, int policies = 0x55, int keep = 0,
                           const std::string& placeholder = "", int params = 0) {
  std::string s = bytes({model, mechanism, epsilon_byte, policies, keep});
  if (placeholder.empty()) {
    s += bytes({0});
  } else {
    s += bytes({3, static_cast<int>(placeholder.size())}) + placeholder;
  }
  return s + bytes({params});
}

void text_seeds(const fs::path& dir) {
  const std::vector<std::pair<std::string, std::string>> texts = {
      {"sentence", "The quick brown fox jumps over the lazy dog."},
      {"mixed",
       "W3 w7, Fox-dog: don\xE2\x80\x99t 3.14 1,000 STRASSE Stra\xC3\x9F"
       "e na\xC3\xAFve!"},
      {"overlong", "fox \xC0\xAF dog"},
      {"surrogate", "fox \xED\xA0\x80 dog"},
      {"truncated", "fox \xE2\x82"},
      {"nul", std::string("fox\0dog the", 11)},
      {"emoji", "w1 \xF0\x9F\x98\x80 w2 \xE2\x80\x94 w3"},
      {"long-word", std::string(300, 'a') + " w4"},
      // Letter-like symbols, digits of other scripts, invisible carriers
      // (tags, variation selectors, ZWJ/ZWNJ, bidi controls, BOM), Braille,
      // regional indicators, private use.
      {"letterlike",
       "\xE2\x92\xB6\xE2\x93\x91 \xE2\x84\xA1 x\xC2\xB2 \xD9\xA1\xD9\xA2 \xE2\x91\xA0 \xF0\x9D\x90\x80 "
       "\xE2\xA0\x93\xE2\xA0\x91 \xF0\x9F\x87\xAB\xF0\x9F\x87\xB7 \xEE\x80\x80 \xF0\x9F\x85\xB0"},
      {"invisible",
       "fox\xF3\xA0\x81\xA8\xF3\xA0\x81\xA9 \xE2\x9D\xA4\xEF\xB8\x8F \xE2\x80\xAE"
       "dog\xE2\x80\xAC \xEF\xBB\xBF"
       "a\xE2\x80\x8D"
       "b \xF0\x9F\x91\xA8\xE2\x80\x8D\xF0\x9F\x92\xBB \xCC\x81 w1\xC2\xAD"
       "w2"},
      {"empty", ""},
      // Tokens that ordinary writing hides from the patterns, read folded
      // (structured_tokens.hpp): an address and a handle beside non-ASCII
      // marks, a full-width '@', a spelled-out address, a URL with a non-ASCII
      // path before an ellipsis, one without a scheme.
      {"hidden-addresses",
       "to anna.lee@mail.de\xE2\x80\x99s desk, \xE2\x80\x9C@bridge\xE2\x80\x9D, anna.lee\xEF\xBC\xA0mail.de, "
       "an\xE2\x80\x8Bna\xC2\xA0@\tmail.de, anna dot lee at gmail dot com, j(at)x(dot)org, x&#64;y.io, "
       "https://x.org/caf\xC3\xA9\xE2\x80\xA6 reddit.com/r/grief-support"},
      // Number words beside numbers, ordinals, magnitudes; a street address.
      {"hidden-numbers",
       "five five five, zero one one oh; the seventh of October, May first; two hundred thousand; one of them; "
       "412 Spring Road, apartment 4; 5 W 42nd St, Apt. 4B; 12B Elm Grove Avenue #12 "
       "\xEF\xBC\x94\xEF\xBC\x91\xEF\xBC\x92 Oak St"},
      // Names before a verb of a person, in a signature, in compatibility letters.
      {"hidden-names",
       "Rose has diabetes. Bill's test.\nThanks,\nRose\nI met \xEF\xBC\xA2\xEF\xBD\x89\xEF\xBD\x8C\xEF\xBD\x8C "
       "and \xF0\x9D\x90\x81\xF0\x9D\x90\xA2\xF0\x9D\x90\xA5\xF0\x9D\x90\xA5"},
      // Half-made patterns that must stay bounded.
      {"hidden-hostile",
       "a.a.a.a.a.a.a.a.a.a.com x dot x dot x dot at at at \xEF\xBC\xA0\xEF\xBC\xA0\xEF\xBC\xA0 %40%40 &#64;&#64; "
       "1 2 3 4 Street 5 a b c d Road ( ( ( +1 www. http:// @"},
  };
  // Every mechanism on a model it suits, one text each; the epsilon byte 40
  // means 64*(40-13)/64 = 27 (above n-1 for the 2-D Poincare model).
  const int model_for[8] = {0, 0, 2, 1, 0, 3, 0, 0};
  for (int mech = 1; mech <= 7; ++mech)
    write(dir, "mechanism-" + std::to_string(mech),
          options_header(model_for[mech], mech, 40) + bytes({0}) + texts[1].second);
  for (const auto& [name, t] : texts) write(dir, "text-" + name, options_header(0, 1, 20) + bytes({1}) + t);
  // Policies: placeholder everywhere, drop, keep, an unknown one.
  write(dir, "policy-placeholder", options_header(1, 3, 30, 0xAA, 0, "[x]") + bytes({1}) + texts[0].second);
  write(dir, "policy-drop", options_header(1, 3, 30, 0xFF) + bytes({1}) + texts[1].second);
  write(dir, "policy-keep", options_header(0, 6, 30, 0, 0x0F) + bytes({1}) + texts[1].second);
  write(dir, "policy-unknown", options_header(0, 1, 30, 0, 0xF0) + bytes({0}) + texts[0].second);
  // Bad epsilons (the special values 0..10 of pick_double) and bad parameters.
  for (int e = 0; e <= 10; ++e)
    write(dir, "epsilon-" + std::to_string(e), options_header(e % 4, 1 + e % 7, e) + bytes({0}) + texts[0].second);
  write(dir, "hyperbolic-epsilon-at-bound", options_header(2, 2, 11) + bytes({0}) + texts[0].second);
  write(dir, "bad-params", options_header(0, 7, 30, 0x55, 0, "", 0x3F) + bytes({3, 3, 3, 3, 3, 3}) + texts[0].second);
  write(dir, "struct-size", options_header(0, 1, 30, 0x55, 0, "", 0x40) + bytes({0, 0, 0, 8, 0}) + texts[0].second);
  // The release shapes (parameter bit 128, then the shape byte).
  for (int shape = 0; shape < 5; ++shape)
    write(dir, "shape-" + std::to_string(shape),
          options_header(0, 1, 30, 0x55, 0, "", 0x80) + bytes({shape, 1}) + texts[1].second);
}

void bag_seeds(const fs::path& dir) {
  auto bag = [](std::initializer_list<std::pair<std::string, int>> entries) {
    std::string s;
    for (const auto& [w, count] : entries) s += static_cast<char>(w.size()) + w + static_cast<char>(count);
    return s;
  };
  const int model_for[8] = {0, 0, 2, 1, 0, 3, 0, 0};
  for (int mech = 1; mech <= 7; ++mech)
    write(
        dir, "mechanism-" + std::to_string(mech),
        options_header(model_for[mech], mech, 40) + bytes({3}) + bag({{"w1", 3}, {"fox", 2}, {"the", 1}, {"zzz", 1}}));
  write(dir, "zero-counts", options_header(0, 1, 30) + bytes({2}) + bag({{"w1", 0}, {"w2", 0}}));
  write(dir, "huge-count", options_header(0, 1, 30) + bytes({2}) + bag({{"w1", 0xFF}}));
  write(dir, "over-limit", options_header(0, 1, 30) + bytes({2}) + bag({{"w1", 0xFD}, {"w2", 1}}));
  write(dir, "sum-overflow", options_header(0, 1, 30) + bytes({2}) + bag({{"w1", 0xFC}, {"w2", 0xFC}}));
  write(dir, "invalid-utf8", options_header(0, 1, 30) + bytes({2}) + bag({{"\xC0\xAF", 1}, {"w2", 1}}));
  write(dir, "empty-word", options_header(0, 1, 30) + bytes({2}) + bag({{"", 2}}));
  write(dir, "placeholder-keep",
        options_header(1, 3, 30, 0xAA, 0x02, "[x]") + bytes({2}) + bag({{"w1", 2}, {"unknown", 2}, {"42", 1}}));
  write(dir, "syntf-drop-all", options_header(0, 4, 30, 0xFF) + bytes({2}) + bag({{"w1", 2}}));
}

void convert_seeds(const fs::path& dir) {
  const std::string glove = "the 0.1 0.2 0.3\nfox -1 2.5 3e-2\nThe 1 1 1\ndog 0 0 0\n";
  write(dir, "glove", bytes({0x00}) + glove);
  write(dir, "glove-lowercase-int8", bytes({0x18}) + glove);
  write(dir, "glove-poincare-f16", bytes({0x44}) + "a 0.1 0.2\nb -0.3 0.4\n");
  write(dir, "glove-poincare-outside", bytes({0x40}) + "a 0.9 0.9\n");
  write(dir, "glove-covariance", bytes({0x20}) + glove);
  write(dir, "word2vec", bytes({0x01}) + "3 2\n</s> 0 0\nfox 1 2\ndog 3 4\n");
  write(dir, "word2vec-bad-count", bytes({0x01}) + "5 2\nfox 1 2\n");
  write(dir, "word2vec-crlf", bytes({0x01}) + "1 2\r\nfox 1 2\r\n");
  write(dir, "fasttext-max-words", bytes({0x83}) + "4 2\na 1 2\nb 3 4\nc 5 6\nd 7 8\n");
  std::string bin = "2 2\nfox ";
  const float v[4] = {1.0f, 2.0f, -3.0f, 0.5f};
  bin.append(reinterpret_cast<const char*>(v), 8);
  bin += "\ndog ";
  bin.append(reinterpret_cast<const char*>(v + 2), 8);
  bin += "\n";
  write(dir, "word2vec-bin", bytes({0x02}) + bin);
  write(dir, "word2vec-bin-truncated", bytes({0x06}) + bin.substr(0, bin.size() - 5));
  write(dir, "bad-values", bytes({0x00}) + "fox nan 1\ndog 1e99 2\n");
  write(dir, "dimension-change", bytes({0x00}) + "fox 1 2\ndog 1 2 3\n");
  write(dir, "invalid-utf8", bytes({0x00}) + "fo\xC0\xAFx 1 2\n");
}

void frequency_seeds(const fs::path& dir) {
  write(dir, "plain", bytes({0}) + "the 100\nfox 3\nThe 7\n");
  write(dir, "lowercase", bytes({1}) + "the 100\nfox 3\nThe 7\r\n\n");
  write(dir, "bad", bytes({0}) + "fox three\n");
  write(dir, "overflow", bytes({1}) + "a 18446744073709551615\nA 18446744073709551615\n");
  write(dir, "invalid-utf8", bytes({0}) + "\xED\xA0\x80 1\n");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_fuzz_seeds OUTDIR\n");
    return 2;
  }
  const fs::path out(argv[1]);
  model_open_seeds(out / "model_open");
  text_seeds(out / "privatize_text");
  bag_seeds(out / "privatize_bag");
  convert_seeds(out / "convert");
  frequency_seeds(out / "frequencies");
  return 0;
}
