// The dxtext command-line program.
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

#include "cli_args.hpp"
#include "commands.hpp"
#include "dxtext/dxtext.h"
#include "errors/error.hpp"

namespace {

const char kUsage[] =
    "usage: dxtext COMMAND [OPTIONS]\n"
    "\n"
    "  privatize [--model M] --epsilon E [--mechanism NAME] [--seed HEX64] [--report]\n"
    "            [--search exact|ivf [--nprobe P]]\n"
    "            [--oov|--numbers|--stopwords|--in-vocabulary privatize|placeholder|drop|keep]\n"
    "            [--placeholder S] [--verify] [TEXT...]\n"
    "      sanitise TEXT (or standard input); --report prints the privacy report\n"
    "      as JSON on standard error\n"
    "  privatize --jsonl [--field NAME] [--on-error stop|skip] [privatize options]\n"
    "      JSON lines on standard input: privatise the string member NAME (default text)\n"
    "      of each record, copy everything else; a bad record stops the run or is skipped\n"
    "  sample [--model M] --epsilon E --word W --trials N [--mechanism NAME] [--seed HEX64]\n"
    "         [--search exact|ivf [--nprobe P]]\n"
    "      privatise W N times and print {output word: count} as JSON\n"
    "  calibrate [--model M] [--mechanism NAME] (--epsilon E | --epsilons A,B,C | --target-keep F)\n"
    "            [--words K] [--trials T] [--seed HEX64]\n"
    "      N_w (how often a word survives) and S_w (distinct outputs) over K sampled words;\n"
    "      --target-keep finds the epsilon whose median (--target-stat mean|max) N_w is F\n"
    "  syntf --model M --epsilon E --n-out K [--s S] [--text] [--seed HEX64] [--report]\n"
    "      SynTF: a synthetic bag of K words from the bag on standard input (\"word count\"\n"
    "      lines, or plain text with --text), printed as {word: count} JSON\n"
    "  account syntf --model M --epsilon E [--s S] [--threads N]\n"
    "      the exact per-draw privacy loss of syntf on the model's vocabulary (O(V^2))\n"
    "  decode --model M\n"
    "      read one whitespace-separated vector per line, print its nearest word\n"
    "  convert --format glove|word2vec|word2vec-bin|fasttext [--quant f32|f16|int8]\n"
    "          [--lowercase] [--max-words N] [--geometry euclidean|poincare]\n"
    "          [--frequencies WORD_COUNTS] [--covariance|--no-covariance] [--source TEXT]\n"
    "          [--license TEXT] [--index] IN OUT.dxe\n"
    "      --covariance stores the covariance the mahalanobis mechanism needs (default for\n"
    "      euclidean); --index adds a search index with default parameters (dxtext index)\n"
    "  tokenize [--lowercase] [--words-only]\n"
    "      split standard input into words and numbers as privatize does, one line per line\n"
    "  inspect [--no-verify] MODEL     print the model's header, digests and metadata as JSON\n"
    "  export [--output FILE] MODEL    write the model as word2vec text\n"
    "  synth --vocab V --dim D [--quant f32|f16|int8] [--clusters K] [--seed N] OUT.dxe\n"
    "      write a synthetic model with clustered vectors, for scale tests\n"
    "  index [--cells K] [--sample N] [--iterations I] [--seed S] [--threads T]\n"
    "        [--epsilon E] [--queries Q] IN.dxe OUT.dxe\n"
    "      copy IN with a search index (k-means cells, default K = 4*sqrt(V)) for\n"
    "      --search ivf, then print its recall against exact decoding on Q laplace\n"
    "      noisy points at epsilon E (default 10) for several nprobe values\n"
    "  bench [--model M] [--mechanism NAME] [--epsilon E] [--batch B] [--threads T]\n"
    "        [--seconds S] [--numpy-script PATH] [--python PATH] [--no-baselines]\n"
    "        [--search exact|ivf [--nprobe P] [--recall-points N]]\n"
    "      measure words/s, latency, open time, memory, scan GB/s and MAC/s next to the\n"
    "      machine's limits and naive baselines; prints JSON (docs/performance.md);\n"
    "      with --search ivf also the recall against exact decoding on the same points\n"
    "  version                         print the library version\n"
    "\n"
    "\n"
    "Mechanisms (--mechanism): laplace (default), hyperbolic (Poincare models, epsilon > n-1),\n"
    "exponential [--sampler gumbel|permute-and-flip], syntf [--s S], mahalanobis [--lambda L],\n"
    "vickrey [--t T], tem [--gamma G | --beta B]. docs/guarantees.md states each guarantee.\n"
    "--search ivf (laplace, vickrey, mahalanobis) decodes through the model's search index\n"
    "(dxtext index): faster on large vocabularies, approximate; exact is the default.\n"
    "Without --model, the default model for the mechanism's geometry is used: $DXTEXT_MODEL,\n"
    "then the installed models directory, then the source tree's models/ (see README).\n"
    "--seed makes the noise reproducible and the output NOT private (testing only).\n";

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || std::strcmp(argv[1], "help") == 0 || std::strcmp(argv[1], "--help") == 0 ||
      std::strcmp(argv[1], "-h") == 0) {
    std::fputs(kUsage, argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  const std::string command = argv[1];
  try {
    using namespace dxt::cli;
    if (command == "privatize") return run_privatize(argc, argv);
    if (command == "sample") return run_sample(argc, argv);
    if (command == "decode") return run_decode(argc, argv);
    if (command == "tokenize") return run_tokenize(argc, argv);
    if (command == "syntf") return run_syntf(argc, argv);
    if (command == "account") return run_account(argc, argv);
    if (command == "calibrate") return run_calibrate(argc, argv);
    if (command == "convert") return run_convert(argc, argv);
    if (command == "inspect") return run_inspect(argc, argv);
    if (command == "export") return run_export(argc, argv);
    if (command == "bench") return run_bench(argc, argv);
    if (command == "synth") return run_synth(argc, argv);
    if (command == "index") return run_index(argc, argv);
    if (command == "version" || command == "--version") {
      std::printf("dxtext %s (model format %u.%u)\n", dxt_version_string(), DXT_FORMAT_VERSION_MAJOR,
                  DXT_FORMAT_VERSION_MINOR);
      return 0;
    }
    throw UsageError("unknown command '" + command + "'");
  } catch (const dxt::cli::UsageError& e) {
    std::fprintf(stderr, "dxtext: %s (see 'dxtext help')\n", e.what());
    return 2;
  } catch (const dxt::Error& e) {
    std::fprintf(stderr, "dxtext: error: %s\n", e.what());
    return 1;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "dxtext: error: out of memory\n");
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dxtext: error: %s\n", e.what());
    return 1;
  }
}
