// SPDX-License-Identifier: Apache-2.0
// Converters: round trips (convert -> export -> compare within quantisation
// error) for every input format and quantisation, and every documented error.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "errors/error.hpp"
#include "model/converters.hpp"
#include "model/model.hpp"
#include "support/toy_models.hpp"

using namespace dxt;

namespace {

struct Embedding {
  std::vector<std::string> words;
  std::vector<std::vector<float>> vectors;
};

Embedding sample_embedding() {
  Embedding e;
  const char* words[] = {"the", "of", "and", "king", "queen", "café", "naïve", "x", "long-word", "end"};
  for (int i = 0; i < 10; ++i) {
    e.words.push_back(words[i]);
    std::vector<float> v;
    for (int d = 0; d < 6; ++d) v.push_back(std::sin(1.3f * i + 0.7f * d) * (1 + i) * 0.37f - 0.01f * d);
    e.vectors.push_back(v);
  }
  return e;
}

std::string text_lines(const Embedding& e) {
  std::ostringstream s;
  s.precision(9);
  for (size_t i = 0; i < e.words.size(); ++i) {
    s << e.words[i];
    for (float x : e.vectors[i]) s << ' ' << x;
    s << '\n';
  }
  return s.str();
}

std::string as_format(const Embedding& e, EmbeddingFormat f) {
  const std::string header = std::to_string(e.words.size()) + " " + std::to_string(e.vectors[0].size()) + "\n";
  switch (f) {
    case EmbeddingFormat::kGlove: return text_lines(e);
    case EmbeddingFormat::kWord2VecText:
    case EmbeddingFormat::kFastText: return header + text_lines(e);
    case EmbeddingFormat::kWord2VecBinary: {
      std::string s = header;
      for (size_t i = 0; i < e.words.size(); ++i) {
        s += e.words[i] + " ";
        s.append(reinterpret_cast<const char*>(e.vectors[i].data()), e.vectors[i].size() * 4);
        s += '\n';
      }
      return s;
    }
  }
  return {};
}

std::string convert(const std::string& input, ConvertOptions o, ConvertStats* stats = nullptr) {
  std::istringstream in(input);
  std::stringstream out(std::ios::in | std::ios::out | std::ios::binary);
  const ConvertStats s = convert_embeddings(in, out, o);
  if (stats) *stats = s;
  return out.str();
}

Embedding parse_export(const std::string& text) {
  std::istringstream in(text);
  size_t n = 0, d = 0;
  in >> n >> d;
  Embedding e;
  for (size_t i = 0; i < n; ++i) {
    std::string w;
    in >> w;
    std::vector<float> v(d);
    for (float& x : v) in >> x;
    e.words.push_back(w);
    e.vectors.push_back(v);
  }
  return e;
}

dxt_status convert_status(const std::string& input, EmbeddingFormat f, std::string* message = nullptr,
                          dxt_quantization q = DXT_QUANT_F32) {
  ConvertOptions o;
  o.format = f;
  o.quantization = q;
  try {
    (void)convert(input, o);
  } catch (const Error& e) {
    if (message) *message = e.what();
    return e.status();
  }
  return DXT_OK;
}

}  // namespace

TEST_CASE("round trip: convert -> export -> compare, every format and quantisation") {
  const Embedding e = sample_embedding();
  for (auto f : {EmbeddingFormat::kGlove, EmbeddingFormat::kWord2VecText, EmbeddingFormat::kWord2VecBinary,
                 EmbeddingFormat::kFastText}) {
    for (auto q : {DXT_QUANT_F32, DXT_QUANT_F16, DXT_QUANT_INT8}) {
      CAPTURE(static_cast<int>(f));
      CAPTURE(static_cast<int>(q));
      ConvertOptions o;
      o.format = f;
      o.quantization = q;
      const test::AlignedBytes bytes(convert(as_format(e, f), o));
      const auto model = test::open_bytes(bytes);
      REQUIRE(model->vocabulary_size() == e.words.size());
      REQUIRE(model->dimension() == 6);
      std::ostringstream exported;
      export_word2vec_text(*model, exported);
      const Embedding back = parse_export(exported.str());
      REQUIRE(back.words == e.words);
      for (size_t i = 0; i < e.words.size(); ++i) {
        float max_abs = 0;
        for (float x : e.vectors[i]) max_abs = std::max(max_abs, std::fabs(x));
        for (size_t d = 0; d < 6; ++d) {
          const float want = e.vectors[i][d], got = back.vectors[i][d];
          // f32 text loses nothing beyond the printed 9 significant digits;
          // f16 keeps 11 significant bits; int8 is within half a step.
          const double tol = q == DXT_QUANT_F32   ? 1e-6 * std::fabs(want) + 1e-30
                             : q == DXT_QUANT_F16 ? std::ldexp(std::fabs(want), -11) + 1e-7
                                                  : max_abs / 127.0 / 2 * 1.0001;
          CHECK(std::fabs(got - want) <= tol);
        }
        // Stored norms are those of the dequantised rows.
        double n2 = 0;
        for (float x : back.vectors[i]) n2 += double{x} * x;
        CHECK(model->row_norms()[i] == doctest::Approx(n2).epsilon(1e-5));
      }
    }
  }
}

TEST_CASE("export of an f32 model converts back bit-exactly") {
  const Embedding e = sample_embedding();
  ConvertOptions o;
  o.format = EmbeddingFormat::kGlove;
  const std::string first = convert(as_format(e, EmbeddingFormat::kGlove), o);
  const test::AlignedBytes bytes(first);
  std::ostringstream exported;
  export_word2vec_text(*test::open_bytes(bytes), exported);
  o.format = EmbeddingFormat::kWord2VecText;
  // Same words, same floats, same metadata: the same file.
  CHECK(convert(exported.str(), o) == first);
}

TEST_CASE("lowercase: later case variants are skipped, exact duplicates are errors") {
  ConvertOptions o;
  o.format = EmbeddingFormat::kGlove;
  o.lowercase = true;
  ConvertStats stats;
  const test::AlignedBytes bytes(convert("The 1 2\nthe 3 4\nCAT 5 6\n", o, &stats));
  CHECK(stats.words == 2);
  CHECK(stats.case_duplicates_skipped == 1);
  const auto m = test::open_bytes(bytes);
  CHECK(m->lowercase());
  CHECK(m->word(0) == "the");
  CHECK(m->word(1) == "cat");
  CHECK(m->lookup("CaT") == std::optional<uint32_t>(1));
  float row[2];
  m->row(0, row);
  CHECK(row[0] == 1.0f);  // the first spelling wins
  CHECK_THROWS_AS(convert("the 1 2\nthe 3 4\n", o), Error);
}

TEST_CASE("lowercase folds words as lookups do: case, NFKC, composition, invisible code points") {
  ConvertOptions o;
  o.format = EmbeddingFormat::kGlove;
  o.lowercase = true;
  ConvertStats stats;
  // STRAẞE, then straße and Strasse (variants, skipped); café with a
  // combining accent, then precomposed and full-width upper case; a ligature;
  // a word of a zero-width space only; ΟΔΟΣ with its final-sigma twin.
  const std::string in =
      "STRA\xE1\xBA\x9E"
      "E 1 2\nstra\xC3\x9F"
      "e 3 4\nStrasse 5 6\n"
      "cafe\xCC\x81 7 8\ncaf\xC3\xA9 9 10\n\xEF\xBC\xA3\xEF\xBC\xA1\xEF\xBC\xA6\xC3\x89 11 12\n"
      "\xEF\xAC\x81sh 13 14\n\xE2\x80\x8B 15 16\n\xCE\x9F\xCE\x94\xCE\x9F\xCE\xA3 17 "
      "18\n\xCE\xBF\xCE\xB4\xCE\xBF\xCF\x82 19 20\n";
  const test::AlignedBytes bytes(convert(in, o, &stats));
  CHECK(stats.words == 4);
  CHECK(stats.case_duplicates_skipped == 5);
  CHECK(stats.special_tokens_skipped == 1);
  const auto m = test::open_bytes(bytes);
  CHECK(m->word(0) == "strasse");
  CHECK(m->word(1) == "caf\xC3\xA9");
  CHECK(m->word(2) == "fish");
  CHECK(m->word(3) == "\xCE\xBF\xCE\xB4\xCE\xBF\xCF\x83");
  CHECK(m->lookup("Stra\xC3\x9F"
                  "e") == std::optional<uint32_t>(0));
  CHECK(m->lookup("CAFE\xCC\x81") == std::optional<uint32_t>(1));
  CHECK(m->lookup("FI\xC2\xAD"
                  "SH") == std::optional<uint32_t>(2));
  CHECK(m->lookup("\xCE\xBF\xCE\xB4\xCE\xBF\xCF\x82") == std::optional<uint32_t>(3));
  // Frequencies fold the same way and add up.
  std::istringstream counts(
      "STRASSE 3\nstra\xC3\x9F"
      "e 4\nfish 1\n\xE2\x80\x8B 5\n");
  const auto f = read_frequencies(counts, true);
  CHECK(f.at("strasse") == 7);
  CHECK(f.size() == 2);  // a word of a zero-width space only folds to nothing: skipped
  // A writer refuses a word outside the folded form in a lowercase vocabulary.
  std::stringstream out;
  ModelWriterOptions wo;
  wo.dimension = 1;
  wo.lowercase = true;
  ModelWriter w(out, wo);
  const float v = 1.0f;
  CHECK_THROWS_AS(w.add("stra\xC3\x9F"
                        "e",
                        &v, 0),
                  Error);
  CHECK_THROWS_AS(w.add("\xEF\xAC\x81sh", &v, 0), Error);
  CHECK_THROWS_AS(w.add("hel\xE2\x80\x8Dlo", &v, 0), Error);
  w.add("strasse", &v, 0);
}

TEST_CASE("max-words stops early, also before the header's count") {
  ConvertOptions o;
  o.format = EmbeddingFormat::kWord2VecText;
  o.max_words = 3;
  ConvertStats stats;
  const Embedding e = sample_embedding();
  const test::AlignedBytes bytes(convert(as_format(e, EmbeddingFormat::kWord2VecText), o, &stats));
  CHECK(stats.words == 3);
  CHECK(test::open_bytes(bytes)->vocabulary_size() == 3);
}

TEST_CASE("malformed input is an error that names the line") {
  using F = EmbeddingFormat;
  struct Bad {
    const char* name;
    std::string input;
    F format;
    const char* must_mention;
  };
  const std::vector<Bad> table = {
      {"malformed number", "a 1 2\nb 1 x2\n", F::kGlove, "line 2"},
      {"NaN", "a 1 2\nb nan 2\n", F::kGlove, "line 2"},
      {"infinity", "a 1 2\nb 1 inf\n", F::kGlove, "line 2"},
      {"overflowing number", "a 1 1e39\n", F::kGlove, "line 1"},
      {"too few values", "a 1 2 3\nb 1 2\n", F::kGlove, "line 2"},
      {"too many values", "a 1 2\nb 1 2 3\n", F::kGlove, "line 2"},
      {"duplicate word", "a 1 2\nb 3 4\na 5 6\n", F::kGlove, "line 3"},
      {"invalid UTF-8 word", "a 1 2\n\xC3\x28 3 4\n", F::kGlove, "line 2"},
      {"word without vector", "a\n", F::kGlove, "line 1"},
      {"empty line inside", "a 1 2\n\nb 3 4\n", F::kGlove, "line 2"},
      {"empty input", "", F::kGlove, "no words"},
      {"header not numbers", "x y\na 1 2\n", F::kWord2VecText, "line 1"},
      {"header dimension 0", "1 0\na\n", F::kWord2VecText, "line 1"},
      {"fewer words than the header", "3 2\na 1 2\nb 3 4\n", F::kWord2VecText, "2 of the header's 3"},
      {"more words than the header", "1 2\na 1 2\nb 3 4\n", F::kWord2VecText, "line 3"},
      {"dimension differs from the header", "2 3\na 1 2\nb 3 4\n", F::kFastText, "line 2"},
      {"binary vector truncated", std::string("1 4\na ") + std::string(7, '\0'), F::kWord2VecBinary, "truncated"},
      {"binary fewer words", std::string("2 1\na \x00\x00\x80\x3f\n", 11), F::kWord2VecBinary, "1 of the header's 2"},
  };
  for (const Bad& b : table) {
    const std::string name = b.name;
    CAPTURE(name);
    std::string message;
    CHECK(convert_status(b.input, b.format, &message) == DXT_E_PARSE);
    CAPTURE(message);
    CHECK(message.find(b.must_mention) != std::string::npos);
  }
}

TEST_CASE("values beyond the f16 range are errors for --quant f16 only") {
  std::string message;
  CHECK(convert_status("a 1 70000\n", EmbeddingFormat::kGlove, &message, DXT_QUANT_F16) == DXT_E_PARSE);
  CHECK(message.find("f16") != std::string::npos);
  CHECK(convert_status("a 1 70000\n", EmbeddingFormat::kGlove, nullptr, DXT_QUANT_INT8) == DXT_OK);
}

TEST_CASE("CRLF line endings are accepted") {
  ConvertOptions o;
  o.format = EmbeddingFormat::kWord2VecText;
  const test::AlignedBytes bytes(convert("2 2\r\na 1 2\r\nb 3 4\r\n", o));
  CHECK(test::open_bytes(bytes)->word(1) == "b");
}

TEST_CASE("poincare geometry: every vector must lie inside the unit ball") {
  ConvertOptions o;
  o.format = EmbeddingFormat::kGlove;
  o.geometry = DXT_GEOMETRY_POINCARE;
  const test::AlignedBytes bytes(convert("a 0.1 0.2\nb -0.5 0.5\n", o));
  CHECK(test::open_bytes(bytes)->geometry() == DXT_GEOMETRY_POINCARE);
  CHECK_THROWS_AS(convert("a 0.1 0.2\nb 0.8 0.6\n", o), Error);
}

TEST_CASE("format names") {
  CHECK(parse_embedding_format("glove") == EmbeddingFormat::kGlove);
  CHECK(parse_embedding_format("word2vec-bin") == EmbeddingFormat::kWord2VecBinary);
  CHECK_THROWS_AS(parse_embedding_format("bert"), Error);
}

TEST_CASE("frequencies: read, folded with lowercase, stored per word") {
  std::istringstream f("the 10\nThe 5\ncat 3\n");
  ConvertOptions o;
  o.format = EmbeddingFormat::kGlove;
  o.lowercase = true;
  o.frequencies = read_frequencies(f, true);
  CHECK(o.frequencies.at("the") == 15);
  const test::AlignedBytes bytes(convert("the 1 2\ncat 3 4\ndog 5 6\n", o));
  const auto m = test::open_bytes(bytes);
  REQUIRE(m->has_frequencies());
  CHECK(m->frequency(0) == 15);
  CHECK(m->frequency(1) == 3);
  CHECK(m->frequency(2) == 0);
  std::istringstream bad("the ten\n");
  CHECK_THROWS_AS(read_frequencies(bad, false), Error);
}

TEST_CASE("the end-of-sentence token </s> is never a vocabulary word") {
  ConvertOptions o;
  o.format = EmbeddingFormat::kFastText;
  ConvertStats stats;
  const test::AlignedBytes bytes(convert("3 2\n</s> 1 1\na 1 2\nb 3 4\n", o, &stats));
  CHECK(stats.words == 2);
  CHECK(stats.special_tokens_skipped == 1);
  const auto m = test::open_bytes(bytes);
  CHECK(m->vocabulary_size() == 2);
  CHECK_FALSE(m->find_exact("</s>").has_value());
}
