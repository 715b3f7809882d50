// SPDX-License-Identifier: Apache-2.0
// dxtext bench: how fast privatising is on this machine, next to what the
// machine allows and to naive implementations, all measured in one run and
// printed as one JSON object (docs/performance.md explains every field).
#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "accounting/privacy_report.hpp"
#include "cli_args.hpp"
#include "commands.hpp"
#include "errors/error.hpp"
#include "ivf_recall.hpp"
#include "mechanism_args.hpp"
#include "mechanisms/laplace_mechanism.hpp"
#include "mechanisms/mechanism.hpp"
#include "model/model.hpp"
#include "rng/byte_source.hpp"
#include "rng/random_stream.hpp"
#include "search/exact_scan.hpp"
#include "search/ivf_search.hpp"
#include "search/kernels.hpp"
#include "text/text_privatizer.hpp"
#include "text/tokenizer.hpp"

namespace dxt::cli {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// Runs f() until `budget` seconds have passed (at least `min_runs` times)
// and returns the duration of each run in seconds.
template <typename F>
std::vector<double> time_runs(double budget, size_t min_runs, F f) {
  std::vector<double> t;
  const Clock::time_point start = Clock::now();
  while (t.size() < min_runs || seconds_since(start) < budget) {
    const Clock::time_point t0 = Clock::now();
    f();
    t.push_back(seconds_since(t0));
  }
  return t;
}

double percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  const size_t i = static_cast<size_t>(std::ceil(p * static_cast<double>(v.size()))) - 1;
  return v[std::min(v.size() - 1, i)];
}

struct Rss {
  // file_pmd_kib: file pages mapped 2 MiB at a time. Recent kernels keep hot
  // files in large page-cache folios and map a whole 2 MiB folio when one
  // byte of it is read, so reading the header of a cached model can add up
  // to 2 MiB per page touched to the resident size, none of it copied.
  long total_kib = -1, anon_kib = -1, file_kib = -1, file_pmd_kib = 0;
};

Rss read_rss() {
  Rss r;
  std::string line;
  long value = 0;
  std::ifstream status("/proc/self/status");
  while (std::getline(status, line)) {
    if (std::sscanf(line.c_str(), "VmRSS: %ld", &value) == 1) r.total_kib = value;
    if (std::sscanf(line.c_str(), "RssAnon: %ld", &value) == 1) r.anon_kib = value;
    if (std::sscanf(line.c_str(), "RssFile: %ld", &value) == 1) r.file_kib = value;
  }
  std::ifstream rollup("/proc/self/smaps_rollup");  // absent on old kernels: 0
  while (std::getline(rollup, line))
    if (std::sscanf(line.c_str(), "FilePmdMapped: %ld", &value) == 1) r.file_pmd_kib = value;
  return r;
}

// A JSON object built field by field; values are already JSON.
class Json {
 public:
  Json& add(const std::string& key, const std::string& raw) {
    body_ += (body_.empty() ? "" : ",") + json_string(key) + ":" + raw;
    return *this;
  }
  Json& num(const std::string& key, double v) {
    if (!std::isfinite(v)) return add(key, "null");
    char b[64];
    std::snprintf(b, sizeof b, "%.6g", v);
    return add(key, b);
  }
  Json& str(const std::string& key, const std::string& v) { return add(key, json_string(v)); }
  std::string text() const { return "{" + body_ + "}"; }

 private:
  std::string body_;
};

uint64_t matrix_bytes(const Model& m) {
  const uint64_t element = m.quantization() == DXT_QUANT_F32 ? 4 : m.quantization() == DXT_QUANT_F16 ? 2 : 1;
  return uint64_t{m.vocabulary_size()} * m.dimension() * element;
}

std::unique_ptr<RandomStream> system_stream() { return std::make_unique<RandomStream>(make_system_byte_source()); }

std::vector<std::optional<uint32_t>> random_words(RandomStream& rng, uint32_t vocabulary, size_t n) {
  std::vector<std::optional<uint32_t>> w(n);
  for (auto& x : w) x = static_cast<uint32_t>(rng.next_u64() % vocabulary);
  return w;
}

// Best single- or multi-threaded read bandwidth over a buffer far larger
// than the caches, in GB/s.
double memory_read_gbps(unsigned threads, double budget) {
  const size_t words = (size_t{512} << 20) / sizeof(uint64_t);
  std::vector<uint64_t> buffer(words);
  for (size_t i = 0; i < words; ++i) buffer[i] = i;
  std::atomic<uint64_t> sink{0};
  auto pass = [&] {
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t)
      pool.emplace_back([&, t] {
        const size_t begin = words / threads * t, end = t + 1 == threads ? words : words / threads * (t + 1);
        uint64_t a = 0, b = 0, c = 0, d = 0;
        for (size_t i = begin; i + 4 <= end; i += 4)
          a += buffer[i], b += buffer[i + 1], c += buffer[i + 2], d += buffer[i + 3];
        sink += a + b + c + d;
      });
    for (auto& th : pool) th.join();
  };
  const std::vector<double> t = time_runs(budget, 3, pass);
  return static_cast<double>(words * sizeof(uint64_t)) / *std::min_element(t.begin(), t.end()) / 1e9;
}

double peak_gmacs(const ScanKernels& k, double budget) {
  float sink = 0;
  uint64_t macs = 0;
  const std::vector<double> t = time_runs(budget, 3, [&] { macs = k.peak_madd(20'000'000, &sink); });
  if (sink == 1234.5f) std::fputs("", stderr);  // keeps the loop's result alive
  return static_cast<double>(macs) / *std::min_element(t.begin(), t.end()) / 1e9;
}

// The plain exact decoder of published code: every row dequantised and its
// squared distance to z summed in one scalar loop.
uint32_t naive_nearest(const Model& m, const float* z, std::vector<float>& row) {
  uint32_t best = 0;
  double best_d = std::numeric_limits<double>::infinity();
  for (uint32_t v = 0; v < m.vocabulary_size(); ++v) {
    m.row(v, row.data());
    double d = 0;
    for (uint32_t i = 0; i < m.dimension(); ++i) d += (double{row[i]} - z[i]) * (double{row[i]} - z[i]);
    if (d < best_d) best_d = d, best = v;
  }
  return best;
}

// Runs the numpy reference and returns its JSON line (or nullopt).
std::optional<std::string> run_numpy(const std::string& python, const std::string& script, const std::string& model,
                                     double epsilon, double budget, size_t batch) {
  for (const std::string& s : {python, script, model})
    if (s.find('\'') != std::string::npos) return std::nullopt;  // keep the shell command simple
  char cmd[8192];
  std::snprintf(cmd, sizeof cmd, "'%s' '%s' --model '%s' --epsilon %.17g --seconds %.3g --batch %zu", python.c_str(),
                script.c_str(), model.c_str(), epsilon, budget, batch);
  FILE* p = popen(cmd, "r");
  if (p == nullptr) return std::nullopt;
  std::string out;
  char buf[4096];
  while (std::fgets(buf, sizeof buf, p) != nullptr) out += buf;
  if (pclose(p) != 0) return std::nullopt;
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  if (out.empty() || out.front() != '{') return std::nullopt;
  return out;
}

// A text of `tokens` words drawn by the model's word frequencies (Zipf's
// law by rank when the model has none), joined by spaces: the repeats of a
// real text without needing one. Seeded, so every run benches the same texts.
std::vector<std::string> frequency_texts(const Model& m, size_t count, size_t tokens) {
  const uint32_t V = m.vocabulary_size();
  std::vector<double> cumulative(V);
  double total = 0;
  for (uint32_t v = 0; v < V; ++v)
    cumulative[v] = total += m.has_frequencies() ? static_cast<double>(m.frequency(v)) + 1 : 1.0 / (v + 1.0);
  std::array<uint8_t, 32> seed{};
  seed[0] = 0x7e;
  RandomStream rng(make_keyed_stream(seed));
  std::vector<std::string> texts(count);
  for (std::string& text : texts)
    for (size_t t = 0; t < tokens; ++t) {
      const double u = rng.uniform() * total;
      const auto v =
          static_cast<uint32_t>(std::lower_bound(cumulative.begin(), cumulative.end(), u) - cumulative.begin());
      if (t > 0) text += ' ';
      text += m.word(std::min(v, V - 1));
    }
  return texts;
}

// Microseconds per privatised token of TextPrivatizer::privatize_text over
// `texts` in turn, each call on `mechanism` (nullptr: a new mechanism for
// every text, as a new context would have), and the cache it holds after.
struct TextFigures {
  double us_per_token = std::nan(""), cache_kib = 0;
};
TextFigures time_texts(const Model& m, const MechanismParams& p, const std::vector<std::string>& texts, bool fresh,
                       double budget) {
  std::unique_ptr<RandomStream> rng = system_stream();
  std::unique_ptr<Mechanism> warm = fresh ? nullptr : make_mechanism(m, p);
  const TokenPolicies policies;  // every word and number privatised
  std::vector<size_t> words(texts.size());
  for (size_t i = 0; i < texts.size(); ++i)
    for (const Token& token : tokenize(texts[i])) words[i] += token.kind != TokenKind::kSpan;
  size_t next = 0, tokens = 0;
  const std::vector<double> t = time_runs(budget, 3, [&] {
    std::unique_ptr<Mechanism> own = fresh ? make_mechanism(m, p) : nullptr;
    TextPrivatizer privatizer(m, fresh ? *own : *warm, *rng, policies);
    privatizer.privatize_text(texts[next % texts.size()]);
    tokens += words[next++ % texts.size()];
  });
  double total = 0;
  for (double x : t) total += x;
  TextFigures f;
  f.us_per_token = total / static_cast<double>(std::max<size_t>(tokens, 1)) * 1e6;
  if (warm) f.cache_kib = static_cast<double>(warm->cache_bytes()) / 1024;
  return f;
}

double json_number(const std::string& json, const std::string& key) {
  const std::string k = "\"" + key + "\":";
  const size_t at = json.find(k);
  if (at == std::string::npos) return std::nan("");
  return std::strtod(json.c_str() + at + k.size(), nullptr);
}

}  // namespace

int run_bench(int argc, char** argv) {
  std::vector<std::string> options = {"model",   "geometry",     "epsilon",       "batch",       "threads",
                                      "seconds", "numpy-script", "recall-points", "text-tokens", "python"};
  const std::vector<std::string> mechanism_options = privatize_option_flags(false);
  options.insert(options.end(), mechanism_options.begin(), mechanism_options.end());
  Args args(argc, argv, 2, options, {"no-baselines"});
  MechanismParams p = parse_mechanism_params(args);
  if (args.get("epsilon")) args.number("epsilon");  // a malformed --epsilon fails before the model is opened
  const auto batch = static_cast<size_t>(args.count("batch", 64));
  const auto threads = static_cast<unsigned>(args.count("threads", 2));
  const double budget = args.number("seconds", 1.0);
  if (batch == 0 || batch > 65536) throw UsageError("--batch must be in 1..65536");
  if (threads == 0 || threads > 256) throw UsageError("--threads must be in 1..256");
  if (!(budget > 0 && budget <= 600)) throw UsageError("--seconds must be in (0, 600]");
  const std::string path = model_path_for(args, p);
  const ScanKernels& kernels = scan_kernels();
  Json out;
  auto progress = [](const char* what) { std::fprintf(stderr, "bench: %s\n", what); };

  // Open: time and memory. One open and close first, so that one-time
  // initialisation (OpenSSL, the library's code pages) is not counted as the
  // model's memory. The model then stays open for everything below.
  Model::open_file(path, ModelOpenOptions{});
  const Rss before_open = read_rss();
  std::shared_ptr<const Model> model = Model::open_file(path, ModelOpenOptions{});
  // --epsilon, else a preset's, else the default for the mechanism.
  if (apply_model_options(args, *model, p) == 0) p.epsilon = p.id == DXT_MECHANISM_HYPERBOLIC ? 20.0 : 10.0;
  const Rss after_open = read_rss();
  const std::vector<double> opens = time_runs(budget / 4, 20, [&] { Model::open_file(path, ModelOpenOptions{}); });
  const Model& m = *model;
  const bool euclidean = m.geometry() == DXT_GEOMETRY_EUCLIDEAN;
  const double V = m.vocabulary_size(), D = m.dimension();
  out.add("model", Json()
                       .str("path", path)
                       .num("vocabulary_size", V)
                       .num("dimension", D)
                       .str("quantization", quantization_name(m.quantization()))
                       .num("matrix_bytes", static_cast<double>(matrix_bytes(m)))
                       .text());
  out.str("kernel", kernels.name).str("mechanism", mechanism_name(p.id)).num("epsilon", p.epsilon);
  out.add("open_us",
          Json().num("median", percentile(opens, 0.5) * 1e6).num("max", percentile(opens, 1.0) * 1e6).text());

  // Single words through the mechanism, one call each.
  progress("single words");
  std::unique_ptr<RandomStream> rng = system_stream();
  std::unique_ptr<Mechanism> mech = make_mechanism(m, p);
  const std::vector<std::optional<uint32_t>> words = random_words(*rng, m.vocabulary_size(), 4096);
  size_t next = 0;
  const std::vector<double> single =
      time_runs(budget, 10, [&] { mech->privatize(*rng, words[next++ % words.size()]); });
  const double single_p50 = percentile(single, 0.5);
  double single_total = 0;
  for (double t : single) single_total += t;
  out.add("single", Json()
                        .num("words", static_cast<double>(single.size()))
                        .num("words_per_s", static_cast<double>(single.size()) / single_total)
                        .num("latency_ms_p50", single_p50 * 1e3)
                        .num("latency_ms_p99", percentile(single, 0.99) * 1e3)
                        .text());

  // Batches of words through the mechanism.
  progress("batches");
  std::vector<uint32_t> released(batch);
  std::vector<std::optional<uint32_t>> batch_words(batch);
  const std::vector<double> batched = time_runs(budget, 3, [&] {
    for (auto& w : batch_words) w = words[next++ % words.size()];
    mech->privatize_batch(*rng, batch_words.data(), batch, released.data());
  });
  double batched_total = 0;
  for (double t : batched) batched_total += t;
  const double batch_p50 = percentile(batched, 0.5) / static_cast<double>(batch);
  out.add("batch", Json()
                       .num("size", static_cast<double>(batch))
                       .num("calls", static_cast<double>(batched.size()))
                       .num("words_per_s", static_cast<double>(batched.size() * batch) / batched_total)
                       .num("latency_ms_per_word_p50", batch_p50 * 1e3)
                       .num("latency_ms_per_word_p99", percentile(batched, 0.99) / static_cast<double>(batch) * 1e3)
                       .num("speedup_per_word_vs_single", single_p50 / batch_p50)
                       .text());
  const Rss after_privatize = read_rss();
  out.add("rss_kib", Json()
                         .num("before_open", static_cast<double>(before_open.total_kib))
                         .num("after_open", static_cast<double>(after_open.total_kib))
                         .num("after_privatize", static_cast<double>(after_privatize.total_kib))
                         .num("anonymous_before_open", static_cast<double>(before_open.anon_kib))
                         .num("anonymous_after_open", static_cast<double>(after_open.anon_kib))
                         .num("anonymous_after_privatize", static_cast<double>(after_privatize.anon_kib))
                         .num("file_after_privatize", static_cast<double>(after_privatize.file_kib))
                         .num("file_2mib_mapped_before_open", static_cast<double>(before_open.file_pmd_kib))
                         .num("file_2mib_mapped_after_open", static_cast<double>(after_open.file_pmd_kib))
                         .text());

  // IVF decoding: the same workloads decoded exactly, in the same run, and
  // the recall against exact decoding on the same noisy points.
  if (p.search == DXT_SEARCH_IVF) {
    progress("exact decoding, for comparison with ivf");
    MechanismParams exact_params = p;
    exact_params.search = DXT_SEARCH_EXACT;
    exact_params.ivf_nprobe = 0;
    std::unique_ptr<Mechanism> exact = make_mechanism(m, exact_params);
    const std::vector<double> exact_single =
        time_runs(budget, 10, [&] { exact->privatize(*rng, words[next++ % words.size()]); });
    const std::vector<double> exact_batched = time_runs(budget, 3, [&] {
      for (auto& w : batch_words) w = words[next++ % words.size()];
      exact->privatize_batch(*rng, batch_words.data(), batch, released.data());
    });
    double exact_single_total = 0, exact_batched_total = 0;
    for (double t : exact_single) exact_single_total += t;
    for (double t : exact_batched) exact_batched_total += t;
    const double exact_single_wps = static_cast<double>(exact_single.size()) / exact_single_total;
    const double exact_batch_wps = static_cast<double>(exact_batched.size() * batch) / exact_batched_total;
    const double ivf_single_wps = static_cast<double>(single.size()) / single_total;
    const double ivf_batch_wps = static_cast<double>(batched.size() * batch) / batched_total;
    progress("ivf recall");
    const IvfSearch probe(m, p.ivf_nprobe);
    const RecallReport recall =
        measure_ivf_recall(m, p.epsilon, static_cast<size_t>(args.count("recall-points", 1000)), 1, {probe.nprobe()});
    out.add("search", Json()
                          .str("method", "ivf")
                          .num("cells", probe.cells())
                          .num("nprobe", probe.nprobe())
                          .num("recall", recall.probes.at(0).recall)
                          .num("exact_single_words_per_s", exact_single_wps)
                          .num("exact_batch_words_per_s", exact_batch_wps)
                          .num("single_speedup_vs_exact", ivf_single_wps / exact_single_wps)
                          .num("batch_speedup_vs_exact", ivf_batch_wps / exact_batch_wps)
                          .add("recall_detail", recall_json(recall))
                          .text());
  }

  // The decoding scan alone, on laplace noisy points (Euclidean models).
  double scan_single_s = std::nan(""), scan_batch_gmacs = std::nan("");
  if (euclidean) {
    progress("decoding scan");
    const size_t n_points = std::max<size_t>(batch, 64);
    std::vector<float> points(n_points * m.dimension());
    std::vector<double> direction(m.dimension());
    for (size_t j = 0; j < n_points; ++j)
      LaplaceMechanism::noisy_point(m, p.epsilon, *rng, words[j % words.size()], points.data() + j * m.dimension(),
                                    direction.data());
    size_t k = 0;
    const std::vector<double> scan1 =
        time_runs(budget, 5, [&] { nearest_euclidean(m, points.data() + (k++ % n_points) * m.dimension()); });
    scan_single_s = percentile(scan1, 0.5);
    BatchScratch scratch;
    std::vector<uint32_t> nearest(batch);
    const std::vector<double> scanb =
        time_runs(budget, 3, [&] { nearest_euclidean_batch(m, points.data(), batch, nearest.data(), scratch); });
    scan_batch_gmacs = V * D * static_cast<double>(batch) / percentile(scanb, 0.5) / 1e9;
    out.add("scan", Json()
                        .num("single_ms_p50", scan_single_s * 1e3)
                        .num("single_gb_per_s", static_cast<double>(matrix_bytes(m)) / scan_single_s / 1e9)
                        .num("single_gmac_per_s", V * D / scan_single_s / 1e9)
                        .num("batch_ms_per_word_p50", percentile(scanb, 0.5) / static_cast<double>(batch) * 1e3)
                        .num("batch_gmac_per_s", scan_batch_gmacs)
                        .text());
  }

  // Threads: each with its own mechanism and generator, the model shared.
  progress("threads");
  auto throughput = [&](unsigned n) {
    std::atomic<bool> go{false}, stop{false};
    std::atomic<uint64_t> done{0};
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < n; ++t)
      pool.emplace_back([&] {
        std::unique_ptr<RandomStream> r = system_stream();
        std::unique_ptr<Mechanism> mt = make_mechanism(m, p);
        std::vector<uint32_t> o(batch);
        std::vector<std::optional<uint32_t>> in(batch);
        size_t i = 0;
        while (!go) std::this_thread::yield();
        uint64_t count = 0;
        while (!stop) {
          for (auto& w : in) w = words[i++ % words.size()];
          mt->privatize_batch(*r, in.data(), batch, o.data());
          count += batch;
        }
        done += count;
      });
    const Clock::time_point t0 = Clock::now();
    go = true;
    std::this_thread::sleep_for(std::chrono::duration<double>(budget));
    stop = true;
    for (auto& th : pool) th.join();
    return static_cast<double>(done) / seconds_since(t0);
  };
  const double one = throughput(1), many = throughput(threads);

  // Beside laplace, measured here in the same run: single words (drawn at
  // random from the vocabulary, so nearly every call builds its candidate
  // list) and texts of --text-tokens words, with a new mechanism for every
  // text (an empty cache) and with one mechanism for a stream of different
  // texts (64 of them, so that the stream seldom comes back to one).
  if (p.id != DXT_MECHANISM_LAPLACE && euclidean) {
    progress("beside laplace: single words and texts");
    MechanismParams lp;
    lp.id = DXT_MECHANISM_LAPLACE;
    lp.epsilon = p.epsilon;
    std::unique_ptr<Mechanism> laplace = make_mechanism(m, lp), own = make_mechanism(m, p);
    const std::vector<std::optional<uint32_t>> fresh_words = random_words(*rng, m.vocabulary_size(), 100000);
    size_t a = 0, b = 0;
    const std::vector<double> own_single =
        time_runs(budget, 10, [&] { own->privatize(*rng, fresh_words[a++ % fresh_words.size()]); });
    const std::vector<double> laplace_single =
        time_runs(budget, 10, [&] { laplace->privatize(*rng, fresh_words[b++ % fresh_words.size()]); });
    const double own_single_us = percentile(own_single, 0.5) * 1e6,
                 laplace_single_us = percentile(laplace_single, 0.5) * 1e6;
    const auto tokens = static_cast<size_t>(args.count("text-tokens", 1000));
    const std::vector<std::string> texts = frequency_texts(m, 64, tokens);
    const TextFigures own_fresh = time_texts(m, p, texts, true, budget),
                      own_warm = time_texts(m, p, texts, false, budget);
    const TextFigures laplace_text = time_texts(m, lp, texts, false, budget);
    out.add("beside_laplace",
            Json()
                .num("single_us_per_word_p50", own_single_us)
                .num("laplace_single_us_per_word_p50", laplace_single_us)
                .num("single_ratio_to_laplace", own_single_us / laplace_single_us)
                .num("text_tokens", static_cast<double>(tokens))
                .num("text_us_per_token_new_context", own_fresh.us_per_token)
                .num("text_us_per_token_warm_context", own_warm.us_per_token)
                .num("laplace_text_us_per_token", laplace_text.us_per_token)
                .num("text_ratio_to_laplace_new_context", own_fresh.us_per_token / laplace_text.us_per_token)
                .num("text_ratio_to_laplace_warm_context", own_warm.us_per_token / laplace_text.us_per_token)
                .num("cache_kib_after_warm_texts", own_warm.cache_kib)
                .text());
  }
  out.add("threads", Json()
                         .num("count", threads)
                         .num("batch", static_cast<double>(batch))
                         .num("words_per_s_one_thread", one)
                         .num("words_per_s", many)
                         .num("speedup", many / one)
                         .text());

  // The machine's limits.
  progress("machine limits");
  const double bw1 = memory_read_gbps(1, budget), bwn = memory_read_gbps(threads, budget);
  const double peak = peak_gmacs(kernels, budget);
  out.add("machine", Json()
                         .num("memory_read_gb_per_s", bw1)
                         .num("memory_read_gb_per_s_all_threads", bwn)
                         .num("peak_gmac_per_s", peak)
                         .num("hardware_threads", std::thread::hardware_concurrency())
                         .text());

  // Baselines, exact both sides.
  double naive_wps = std::nan(""), numpy_wps = std::nan(""), numpy_batch_wps = std::nan("");
  Json baselines;
  if (!args.flag("no-baselines") && euclidean) {
    progress("naive C++ baseline");
    std::vector<float> point(m.dimension()), row(m.dimension());
    std::vector<double> direction(m.dimension());
    const std::vector<double> naive = time_runs(budget, 3, [&] {
      LaplaceMechanism::noisy_point(m, p.epsilon, *rng, words[next++ % words.size()], point.data(), direction.data());
      naive_nearest(m, point.data(), row);
    });
    double naive_total = 0;
    for (double t : naive) naive_total += t;
    naive_wps = static_cast<double>(naive.size()) / naive_total;
    baselines.num("naive_cpp_words_per_s", naive_wps);
    const std::string script = args.get("numpy-script").value_or(DXT_NUMPY_REFERENCE);
    progress("numpy baseline");
    const std::string python = args.get("python").value_or("/usr/bin/python3");
    if (auto numpy = run_numpy(python, script, path, p.epsilon, budget, batch)) {
      numpy_wps = json_number(*numpy, "words_per_s");
      numpy_batch_wps = json_number(*numpy, "batch_words_per_s");
      baselines.add("numpy", *numpy);
    } else {
      baselines.add("numpy", "null").str("numpy_error", "could not run " + python + " " + script + " (numpy needed)");
    }
  }
  out.add("baselines", baselines.text());

  // The ratios the targets are stated in (docs/performance.md).
  const double single_wps = static_cast<double>(single.size()) / single_total;
  const double batch_wps = static_cast<double>(batched.size() * batch) / batched_total;
  out.add("ratios",
          Json()
              .num("scan_single_over_stream_time", scan_single_s / (static_cast<double>(matrix_bytes(m)) / (bw1 * 1e9)))
              .num("scan_batch_over_peak_macs", scan_batch_gmacs / peak)
              .num("batch_speedup_per_word", single_p50 / batch_p50)
              .num("single_over_naive_cpp", single_wps / naive_wps)
              .num("single_over_numpy", single_wps / numpy_wps)
              .num("batch_over_numpy", batch_wps / numpy_wps)
              .num("batch_over_numpy_batch", batch_wps / numpy_batch_wps)
              .num("threads_speedup", many / one)
              .num("open_ms", percentile(opens, 0.5) * 1e3)
              .num("rss_growth_from_open_kib", static_cast<double>(after_open.total_kib - before_open.total_kib))
              .num("rss_growth_from_open_in_4kib_pages_kib",
                   static_cast<double>((after_open.total_kib - after_open.file_pmd_kib) -
                                       (before_open.total_kib - before_open.file_pmd_kib)))
              .num("anonymous_growth_from_privatize_kib",
                   static_cast<double>(after_privatize.anon_kib - after_open.anon_kib))
              .text());
  std::puts(out.text().c_str());
  return 0;
}

}  // namespace dxt::cli
