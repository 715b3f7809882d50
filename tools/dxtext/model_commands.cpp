// SPDX-License-Identifier: Apache-2.0
// dxtext convert | synth | inspect | export
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <random>

#include "accounting/privacy_report.hpp"
#include "cli_args.hpp"
#include "commands.hpp"
#include "errors/error.hpp"
#include "model/converters.hpp"
#include "model/model.hpp"
#include "model/model_writer.hpp"
#include "model/search_index_writer.hpp"
#include "progress_bar.hpp"
#include "search/ivf_build.hpp"
#include "suggestion.hpp"

namespace dxt::cli {

namespace {

dxt_quantization parse_quantization(const std::string& q) {
  if (q == "f32") return DXT_QUANT_F32;
  if (q == "f16") return DXT_QUANT_F16;
  if (q == "int8") return DXT_QUANT_INT8;
  throw UsageError(unknown_value("quant", q, {"f32", "f16", "int8"}));
}

std::string base_name(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

int run_convert(int argc, char** argv) {
  Args args(argc, argv, 2, {"format", "quant", "max-words", "geometry", "source", "license", "frequencies"},
            {"lowercase", "covariance", "no-covariance", "index"});
  if (args.positional().size() != 2) throw UsageError("convert needs IN and OUT.dxe");
  const std::string in_path = args.positional()[0], out_path = args.positional()[1];
  ConvertOptions o;
  o.format = parse_embedding_format(args.require("format"));
  o.quantization = parse_quantization(args.get("quant").value_or("f32"));
  o.lowercase = args.flag("lowercase");
  o.max_words = args.count("max-words", 0);
  const std::string geometry = args.get("geometry").value_or("euclidean");
  if (geometry == "euclidean") {
    o.geometry = DXT_GEOMETRY_EUCLIDEAN;
  } else if (geometry == "poincare") {
    o.geometry = DXT_GEOMETRY_POINCARE;
  } else {
    throw UsageError(unknown_value("geometry", geometry, {"euclidean", "poincare"}));
  }
  // The covariance (for the mahalanobis mechanism) costs about V*D^2/2
  // multiply-adds, small next to parsing the text: on by default for
  // Euclidean models, where the mechanism can use it.
  if (args.flag("covariance") && args.flag("no-covariance"))
    throw UsageError("--covariance and --no-covariance exclude each other");
  o.with_covariance = args.flag("covariance") || (o.geometry == DXT_GEOMETRY_EUCLIDEAN && !args.flag("no-covariance"));
  if (args.flag("index") && o.geometry != DXT_GEOMETRY_EUCLIDEAN)
    throw UsageError("--index is for euclidean models: Poincare models are decoded exactly");
  o.metadata["dxtext.source"] = args.get("source").value_or(base_name(in_path));
  o.metadata["dxtext.source_format"] = args.require("format");
  if (auto lic = args.get("license")) o.metadata["dxtext.license"] = *lic;
  o.metadata["dxtext.converted_by"] = std::string("dxtext ") + dxt_version_string();

  if (auto freq_path = args.get("frequencies")) {
    std::ifstream f(*freq_path);
    if (!f) fail(DXT_E_IO, "cannot open '" + *freq_path + "'");
    try {
      o.frequencies = read_frequencies(f, o.lowercase);
    } catch (const Error& e) {
      fail(e.status(), "'" + *freq_path + "' " + e.what());
    }
    if (o.frequencies.empty()) fail(DXT_E_PARSE, "'" + *freq_path + "' holds no frequencies");
  }

  std::ifstream in(in_path, std::ios::binary);
  if (!in) fail(DXT_E_IO, "cannot open '" + in_path + "'");
  in.seekg(0, std::ios::end);
  const auto size = in.tellg();
  in.seekg(0);
  o.input_size = size > 0 ? static_cast<uint64_t>(size) : 0;
  ProgressBar bar("converting");
  o.progress = [&bar](uint64_t done, uint64_t total) { bar.update(done, total); };

  AtomicFile out(out_path);
  ConvertStats stats;
  try {
    stats = convert_embeddings(in, out.stream(), o);
  } catch (const Error& e) {
    fail(e.status(), "'" + in_path + "' " + e.what());
  }
  out.commit();
  bar.finish();
  if (args.flag("index")) {
    // The search index with its default parameters, built from the file
    // just written and swapped in whole (dxtext index for other parameters).
    const auto converted = Model::open_file(out_path, ModelOpenOptions{});
    ProgressBar indexing("indexing", ProgressBar::Unit::kCount);
    IvfBuildOptions io;
    io.progress = [&indexing](const char*, uint64_t done, uint64_t total) { indexing.update(done, total); };
    const SearchIndexData index = build_ivf_index(*converted, io);
    AtomicFile indexed(out_path);
    write_model_with_search_index(*converted, index, indexed.stream());
    indexed.commit();
    indexing.finish();
    std::fprintf(stderr, "search index: %u cells\n", index.cells);
  }
  std::fprintf(stderr, "wrote %s: %llu words x %u dimensions (%s)", out_path.c_str(),
               static_cast<unsigned long long>(stats.words), stats.dimension, quantization_name(o.quantization));
  if (stats.case_duplicates_skipped > 0)
    std::fprintf(stderr, "; %llu later spellings that lowercase to an earlier word were skipped",
                 static_cast<unsigned long long>(stats.case_duplicates_skipped));
  std::fputc('\n', stderr);
  std::cout << "{\"output\":" << json_string(out_path) << ",\"words\":" << stats.words
            << ",\"dimension\":" << stats.dimension << ",\"quantization\":\"" << quantization_name(o.quantization)
            << "\",\"case_duplicates_skipped\":" << stats.case_duplicates_skipped
            << ",\"search_index\":" << (args.flag("index") ? "true" : "false") << "}\n";
  return 0;
}

namespace {

// A pronounceable, unique word for index i: its digits in base 70 spelled as
// consonant-vowel syllables ("ba", "kizo", ...).
std::string synthetic_word(uint64_t i) {
  static const char consonants[] = "bdfgklmnprstvz";
  static const char vowels[] = "aeiou";
  std::string w;
  do {
    const uint64_t digit = i % 70;  // 14 consonants x 5 vowels
    w += consonants[digit / 5];
    w += vowels[digit % 5];
    i /= 70;
  } while (i != 0);
  return w;
}

}  // namespace

int run_synth(int argc, char** argv) {
  Args args(argc, argv, 2, {"vocab", "dim", "quant", "clusters", "seed"}, {"covariance"});
  if (args.positional().size() != 1) throw UsageError("synth needs OUT.dxe");
  const uint64_t V = args.count("vocab");
  const uint64_t D = args.count("dim");
  if (V == 0 || V > 50'000'000) throw UsageError("--vocab must be in 1..50000000");
  if (D == 0 || D > 4096) throw UsageError("--dim must be in 1..4096");
  const uint64_t K = args.count("clusters", std::max<uint64_t>(1, static_cast<uint64_t>(std::sqrt(double(V)))));
  if (K == 0 || K > V) throw UsageError("--clusters must be in 1..vocab");
  ModelWriterOptions o;
  o.dimension = static_cast<uint32_t>(D);
  o.quantization = parse_quantization(args.get("quant").value_or("f32"));
  o.lowercase = true;
  o.with_frequencies = true;
  o.with_covariance = args.flag("covariance");
  o.metadata["dxtext.source"] = "synthetic: dxtext synth, " + std::to_string(K) + " clusters";
  o.metadata["dxtext.converted_by"] = std::string("dxtext ") + dxt_version_string();

  // Clustered vectors, as real embeddings are: K centres drawn from N(0, I),
  // cluster sizes following a power law, each word its centre plus
  // N(0, 0.35^2 I). Frequencies fall as 1/rank (Zipf). Reproducible from
  // --seed with this build's standard library; not for privacy.
  std::mt19937_64 gen(args.count("seed", 1));
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::vector<float> centres(K * D);
  for (float& c : centres) c = normal(gen);
  std::vector<double> weight(K);
  for (uint64_t k = 0; k < K; ++k) weight[k] = 1.0 / std::pow(double(k + 1), 0.8);
  std::discrete_distribution<uint64_t> cluster(weight.begin(), weight.end());

  AtomicFile out(args.positional()[0]);
  ModelWriter w(out.stream(), o);
  ProgressBar bar("synthesising", ProgressBar::Unit::kCount);
  std::vector<float> x(D);
  for (uint64_t i = 0; i < V; ++i) {
    const float* c = centres.data() + cluster(gen) * D;
    for (uint64_t j = 0; j < D; ++j) x[j] = c[j] + 0.35f * normal(gen);
    w.add(synthetic_word(i), x.data(), static_cast<uint64_t>(1e9 / double(i + 1)) + 1);
    if (i % 4096 == 0) bar.update(i, V);
  }
  bar.update(V, V);
  w.finish();
  out.commit();
  bar.finish();
  std::fprintf(stderr, "wrote %s: %llu words x %llu dimensions (%s), %llu clusters\n", args.positional()[0].c_str(),
               static_cast<unsigned long long>(V), static_cast<unsigned long long>(D),
               quantization_name(o.quantization), static_cast<unsigned long long>(K));
  std::cout << "{\"output\":" << json_string(args.positional()[0]) << ",\"words\":" << V << ",\"dimension\":" << D
            << ",\"quantization\":\"" << quantization_name(o.quantization) << "\",\"clusters\":" << K << "}\n";
  return 0;
}

int run_inspect(int argc, char** argv) {
  Args args(argc, argv, 2, {}, {"no-verify"});
  if (args.positional().size() != 1) throw UsageError("inspect needs MODEL");
  ModelOpenOptions mo;
  mo.verify_digests = !args.flag("no-verify");
  const auto model = Model::open_file(args.positional()[0], mo);
  const Digest& d = model->fingerprint();
  std::string s = "{\"format_version\":\"" + std::to_string(model->format_major()) + "." +
                  std::to_string(model->format_minor()) + "\"";
  s += ",\"dimension\":" + std::to_string(model->dimension());
  s += ",\"vocabulary_size\":" + std::to_string(model->vocabulary_size());
  s += ",\"geometry\":\"" + std::string(geometry_name(model->geometry())) + "\"";
  s += ",\"quantization\":\"" + std::string(quantization_name(model->quantization())) + "\"";
  s += std::string(",\"lowercase\":") + (model->lowercase() ? "true" : "false");
  s += std::string(",\"has_frequencies\":") + (model->has_frequencies() ? "true" : "false");
  s += std::string(",\"has_covariance\":") + (model->has_covariance() ? "true" : "false");
  if (const SearchIndexView* index = model->search_index())
    s += ",\"search_index\":{\"cells\":" + std::to_string(index->cells) +
         ",\"sample\":" + std::to_string(index->sample) + ",\"iterations\":" + std::to_string(index->iterations) +
         ",\"seed\":" + std::to_string(index->seed) + "}";
  s += ",\"file_size\":" + std::to_string(model->file_size());
  s += ",\"sha256\":\"" + to_hex(d.data(), d.size()) + "\"";
  s += std::string(",\"digests_verified\":") + (mo.verify_digests ? "true" : "false");
  s += ",\"metadata\":{";
  bool first = true;
  for (const auto& [k, v] : model->metadata()) {
    if (!first) s += ',';
    first = false;
    s += json_string(k) + ":" + json_string(v);
  }
  s += "}}";
  std::cout << s << '\n';
  return 0;
}

int run_export(int argc, char** argv) {
  Args args(argc, argv, 2, {"output"}, {});
  if (args.positional().size() != 1) throw UsageError("export needs MODEL");
  const auto model = Model::open_file(args.positional()[0], ModelOpenOptions{});
  if (auto path = args.get("output")) {
    AtomicFile out(*path);
    export_word2vec_text(*model, out.stream());
    out.commit();
  } else {
    std::ios::sync_with_stdio(false);
    export_word2vec_text(*model, std::cout);
    std::cout.flush();
    if (!std::cout) fail(DXT_E_IO, "writing to standard output failed");
  }
  return 0;
}

}  // namespace dxt::cli
