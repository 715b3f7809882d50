// SPDX-License-Identifier: Apache-2.0
#include "model/converters.hpp"

#include <charconv>
#include <cmath>
#include <cstring>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "errors/error.hpp"
#include "model/model.hpp"
#include "model/model_writer.hpp"
#include "unicode/fold.hpp"
#include "unicode/utf8.hpp"

namespace dxt {

namespace {

[[noreturn]] void parse_error(uint64_t line, const std::string& what) {
  fail(DXT_E_PARSE, "line " + std::to_string(line) + ": " + what);
}

bool is_space(char c) { return c == ' ' || c == '\t'; }

std::string_view next_field(std::string_view& rest) {
  size_t i = 0;
  while (i < rest.size() && is_space(rest[i])) ++i;
  size_t j = i;
  while (j < rest.size() && !is_space(rest[j])) ++j;
  const std::string_view field = rest.substr(i, j - i);
  rest.remove_prefix(j);
  return field;
}

uint64_t parse_count(std::string_view s, uint64_t line, const char* what) {
  uint64_t v = 0;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size())
    parse_error(line, std::string("bad ") + what + " '" + std::string(s) + "' in the header");
  return v;
}

float parse_value(std::string_view s, uint64_t line, const std::string& word) {
  float v = 0;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (r.ec == std::errc::result_out_of_range)
    parse_error(line, "value '" + std::string(s) + "' of '" + word + "' is out of range");
  if (r.ec != std::errc() || r.ptr != s.data() + s.size())
    parse_error(line, "malformed number '" + std::string(s) + "' in the vector of '" + word + "'");
  if (!std::isfinite(v)) parse_error(line, "non-finite value '" + std::string(s) + "' in the vector of '" + word + "'");
  return v;
}

// Adds words to the writer, applying lowercasing and the duplicate rules.
class WordSink {
 public:
  WordSink(ModelWriter& writer, const ConvertOptions& options, ConvertStats& stats)
      : writer_(writer), options_(options), stats_(stats) {}

  bool full() const { return options_.max_words != 0 && stats_.words >= options_.max_words; }

  void add(std::string_view raw, const float* v, uint64_t line) {
    if (raw.empty()) parse_error(line, "empty word");
    // The end-of-sentence token of fastText and word2vec is not a word:
    // privatize must never output it.
    if (raw == "</s>") {
      ++stats_.special_tokens_skipped;
      return;
    }
    if (!utf8::valid(raw.data(), raw.size())) parse_error(line, "word is not valid UTF-8");
    std::string word(raw);
    if (options_.lowercase) {
      if (!originals_.insert(word).second) parse_error(line, "duplicate word '" + word + "'");
      word = unicode::fold(word);
      if (word.empty()) {  // invisible characters only: no text can spell it
        ++stats_.special_tokens_skipped;
        return;
      }
      if (writer_.contains(word)) {  // "The" after "the": keep the first
        ++stats_.case_duplicates_skipped;
        return;
      }
    } else if (writer_.contains(word)) {
      parse_error(line, "duplicate word '" + word + "'");
    }
    uint64_t frequency = 0;
    if (!options_.frequencies.empty()) {
      const auto it = options_.frequencies.find(word);
      if (it != options_.frequencies.end()) frequency = it->second;
    }
    try {
      writer_.add(word, v, frequency);
    } catch (const Error& e) {
      parse_error(line, e.what());
    }
    ++stats_.words;
  }

 private:
  ModelWriter& writer_;
  const ConvertOptions& options_;
  ConvertStats& stats_;
  std::unordered_set<std::string> originals_;
};

void report_progress(const ConvertOptions& o, std::istream& in, uint64_t& last) {
  if (!o.progress) return;
  const auto pos = in.tellg();
  const uint64_t at = pos < 0 ? last : static_cast<uint64_t>(pos);
  if (at - last >= (1u << 20)) {
    o.progress(at, o.input_size);
    last = at;
  }
}

ConvertStats convert_text(std::istream& in, std::ostream& out, const ConvertOptions& o) {
  ConvertStats stats;
  std::string line;
  uint64_t line_no = 0;
  uint64_t declared_words = 0;
  const bool has_header = o.format != EmbeddingFormat::kGlove;
  std::unique_ptr<ModelWriter> writer;
  std::unique_ptr<WordSink> sink;
  std::vector<float> values;
  uint64_t progress_at = 0;
  auto start_writer = [&](uint32_t dim) {
    ModelWriterOptions wo;
    wo.dimension = dim;
    wo.quantization = o.quantization;
    wo.geometry = o.geometry;
    wo.lowercase = o.lowercase;
    wo.metadata = o.metadata;
    wo.with_frequencies = !o.frequencies.empty();
    wo.with_covariance = o.with_covariance;
    writer = std::make_unique<ModelWriter>(out, wo);
    sink = std::make_unique<WordSink>(*writer, o, stats);
    stats.dimension = dim;
    values.resize(dim);
  };
  while (std::getline(in, line)) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::string_view rest(line);
    if (line_no == 1 && has_header) {
      declared_words = parse_count(next_field(rest), 1, "word count");
      const uint64_t dim = parse_count(next_field(rest), 1, "dimension");
      if (!next_field(rest).empty()) parse_error(1, "the header must be 'WORDS DIMENSION'");
      if (dim == 0 || dim > 65536) parse_error(1, "dimension " + std::to_string(dim) + " is outside 1..65536");
      start_writer(static_cast<uint32_t>(dim));
      continue;
    }
    if (rest.find_first_not_of(" \t") == std::string_view::npos) {
      if (in.peek() == std::char_traits<char>::eof()) break;  // trailing blank line
      parse_error(line_no, "empty line");
    }
    const std::string_view word = next_field(rest);
    if (!writer) {  // GloVe: the first line fixes the dimension
      std::string_view probe = rest;
      uint32_t dim = 0;
      while (!next_field(probe).empty()) {
        if (++dim > 65536) parse_error(line_no, "more than 65536 values");
      }
      if (dim == 0) parse_error(line_no, "word without a vector");
      start_writer(dim);
    }
    if (has_header && stats.consumed() >= declared_words)
      parse_error(line_no, "more words than the header's " + std::to_string(declared_words));
    const std::string w(word);
    uint32_t n = 0;
    for (std::string_view f = next_field(rest); !f.empty(); f = next_field(rest)) {
      if (n == stats.dimension)
        parse_error(line_no, "'" + w + "' has more than " + std::to_string(stats.dimension) + " values");
      values[n++] = parse_value(f, line_no, w);
    }
    if (n != stats.dimension)
      parse_error(line_no,
                  "'" + w + "' has " + std::to_string(n) + " values, expected " + std::to_string(stats.dimension));
    sink->add(word, values.data(), line_no);
    report_progress(o, in, progress_at);
    if (sink->full()) break;
  }
  if (in.bad()) fail(DXT_E_IO, "reading the input failed");
  if (!writer) fail(DXT_E_PARSE, "the input holds no words");
  if (has_header && !sink->full() && stats.consumed() != declared_words)
    fail(DXT_E_PARSE, "the input ends after " + std::to_string(stats.consumed()) + " of the header's " +
                          std::to_string(declared_words) + " words");
  writer->finish();
  return stats;
}

ConvertStats convert_binary(std::istream& in, std::ostream& out, const ConvertOptions& o) {
  ConvertStats stats;
  std::string header;
  if (!std::getline(in, header)) fail(DXT_E_PARSE, "line 1: missing header");
  if (!header.empty() && header.back() == '\r') header.pop_back();
  std::string_view rest(header);
  const uint64_t declared = parse_count(next_field(rest), 1, "word count");
  const uint64_t dim = parse_count(next_field(rest), 1, "dimension");
  if (dim == 0 || dim > 65536) parse_error(1, "dimension " + std::to_string(dim) + " is outside 1..65536");
  ModelWriterOptions wo;
  wo.dimension = static_cast<uint32_t>(dim);
  wo.quantization = o.quantization;
  wo.geometry = o.geometry;
  wo.lowercase = o.lowercase;
  wo.metadata = o.metadata;
  wo.with_frequencies = !o.frequencies.empty();
  wo.with_covariance = o.with_covariance;
  ModelWriter writer(out, wo);
  WordSink sink(writer, o, stats);
  stats.dimension = static_cast<uint32_t>(dim);
  std::vector<float> values(dim);
  uint64_t progress_at = 0;
  for (uint64_t k = 0; k < declared && !sink.full(); ++k) {
    const uint64_t record = k + 1;  // errors name the record, counted like lines
    std::string word;
    int c;
    while ((c = in.get()) == '\n' || c == '\r') {
    }
    while (c != std::char_traits<char>::eof() && c != ' ') {
      word += static_cast<char>(c);
      if (word.size() > 4096) parse_error(record + 1, "word longer than 4096 bytes");
      c = in.get();
    }
    if (c == std::char_traits<char>::eof())
      fail(DXT_E_PARSE,
           "the input ends after " + std::to_string(k) + " of the header's " + std::to_string(declared) + " words");
    in.read(reinterpret_cast<char*>(values.data()), static_cast<std::streamsize>(dim * 4));
    if (in.gcount() != static_cast<std::streamsize>(dim * 4))
      parse_error(record + 1, "the vector of '" + word + "' is truncated");
    for (float v : values)
      if (!std::isfinite(v)) parse_error(record + 1, "non-finite value in the vector of '" + word + "'");
    sink.add(word, values.data(), record + 1);
    report_progress(o, in, progress_at);
  }
  writer.finish();
  return stats;
}

}  // namespace

EmbeddingFormat parse_embedding_format(const std::string& name) {
  if (name == "glove") return EmbeddingFormat::kGlove;
  if (name == "word2vec") return EmbeddingFormat::kWord2VecText;
  if (name == "word2vec-bin") return EmbeddingFormat::kWord2VecBinary;
  if (name == "fasttext") return EmbeddingFormat::kFastText;
  fail(DXT_E_INVALID_ARGUMENT, "unknown input format '" + name + "' (glove, word2vec, word2vec-bin, fasttext)");
}

ConvertStats convert_embeddings(std::istream& in, std::ostream& out, const ConvertOptions& options) {
  ConvertStats stats = options.format == EmbeddingFormat::kWord2VecBinary ? convert_binary(in, out, options)
                                                                          : convert_text(in, out, options);
  if (options.progress) options.progress(options.input_size, options.input_size);
  return stats;
}

std::unordered_map<std::string, uint64_t> read_frequencies(std::istream& in, bool lowercase) {
  std::unordered_map<std::string, uint64_t> out;
  std::string line;
  uint64_t line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::string_view rest(line);
    const std::string_view word = next_field(rest);
    if (word.empty()) continue;
    const std::string_view count = next_field(rest);
    uint64_t n = 0;
    const auto r = std::from_chars(count.data(), count.data() + count.size(), n);
    if (count.empty() || r.ec != std::errc() || r.ptr != count.data() + count.size() || !next_field(rest).empty())
      parse_error(line_no, "expected 'word count' in the frequency file");
    if (!utf8::valid(word.data(), word.size())) parse_error(line_no, "word is not valid UTF-8");
    const std::string key = lowercase ? unicode::fold(word) : std::string(word);
    if (key.empty()) continue;  // invisible characters only: no vocabulary word
    out[key] += n;              // variants of one folded word add up
  }
  if (in.bad()) fail(DXT_E_IO, "reading the frequency file failed");
  return out;
}

void export_word2vec_text(const Model& model, std::ostream& out) {
  const uint32_t D = model.dimension();
  out << model.vocabulary_size() << ' ' << D << '\n';
  std::vector<float> row(D);
  std::string line;
  char buf[32];
  for (uint32_t i = 0; i < model.vocabulary_size(); ++i) {
    model.row(i, row.data());
    line.assign(model.word(i));
    for (float v : row) {
      const auto r = std::to_chars(buf, buf + sizeof buf, v);
      line += ' ';
      line.append(buf, r.ptr);
    }
    line += '\n';
    out.write(line.data(), static_cast<std::streamsize>(line.size()));
  }
  if (!out) fail(DXT_E_IO, "writing the export failed");
}

}  // namespace dxt
