// SPDX-License-Identifier: Apache-2.0
#include "command_help.hpp"

#include <cctype>
#include <string>

#include "dxtext/dxtext.h"
#include "presets_text.hpp"
#include "privatize_option_table.hpp"

namespace dxt::cli {

namespace {

const char kNotes[] =
    "docs/guarantees.md states each guarantee; docs/options.md lists every option.\n"
    "exponential and tem work on Poincare models too (--geometry poincare): epsilon * d_H for\n"
    "any epsilon, the route below the hyperbolic mechanism's epsilon > n-1.\n"
    "Every epsilon must lie in [1e-6, 1e6].\n"
    "--search ivf (laplace, vickrey, mahalanobis) decodes through the model's search index\n"
    "(dxtext index): faster on large vocabularies, approximate; exact is the default.\n"
    "Without --model, the default model for --geometry euclidean|poincare (else the mechanism's\n"
    "geometry) is used: $DXTEXT_MODEL, then the models of the tree the program sits in\n"
    "(<dir>/models or <prefix>/share/dxtext/models; README, \"Models\").\n"
    "--seed makes the noise reproducible and the output NOT private (testing only).\n"
    "--output-top N releases only the model's N most frequent words; --output-words FILE only the\n"
    "words of FILE (one per line): an output vocabulary, which must be public and never made from\n"
    "the text being privatised (docs/guarantees.md, \"Output vocabularies\").\n";

const char kOutput[] =
    "Output: JSON, except where a person reads the result: privatize, decode, tokenize and\n"
    "version print text unless given --format json; calibrate, index, loss and presets print JSON unless given\n"
    "--format text (a table); convert and synth print a JSON summary of the file they wrote;\n"
    "export writes word2vec text. Long work shows a progress bar with an estimate of the time left\n"
    "on standard error when it is a terminal. 'dxtext help COMMAND' or 'dxtext COMMAND --help'\n"
    "prints one command's help.\n";

}  // namespace

const std::vector<CommandHelp>& command_help() {
  static const std::vector<CommandHelp> table = {
      {"privatize",
       "  privatize [--model M | --geometry euclidean|poincare] --epsilon E [--mechanism NAME]\n"
       "            [--preset NAME] [--seed HEX64] [--report] [--local-diagnostics]\n"
       "            [--search exact|ivf [--ivf-nprobe P]]\n"
       "            [--oov|--numbers|--stopwords|--in-vocabulary privatize|placeholder|drop|keep]\n"
       "            [--placeholder S] [--release-shape keep|normalize|strict] [--verify]\n"
       "            [--output-top N | --output-words FILE] [--format text|json] [TEXT...]\n"
       "      sanitise TEXT (or standard input); --release-shape says what of the input's form\n"
       "      shows: keep (default: spacing, punctuation, case shape), normalize (one '.', ','\n"
       "      or ' ' between words, sentence capitals) or strict (the words, one space apart;\n"
       "      refuses a keep policy); --output-top/--output-words release only words of a\n"
       "      public set; --report prints the release record (the\n"
       "      guarantee and what the output still reveals: safe to keep with the output) as\n"
       "      JSON on standard error; --local-diagnostics prints token counts that describe\n"
       "      the input (keep them on the device) as a second JSON line there; --format json\n"
       "      prints {\"text\": ..., \"record\": ...}\n"
       "  privatize --preset NAME [--epsilon E] [--model M] [...] [TEXT...]\n"
       "      privatise with a preset: its mechanism, epsilon, release shape, output vocabulary\n"
       "      and token policies ('dxtext presets' lists them); --epsilon overrides its epsilon,\n"
       "      and an option it fixes may only be given its default or the preset's value\n"
       "  privatize --ledger FILE [--budget B] [--scope S] [--ledger-key-file K] [--ledger-anchor A]\n"
       "            [--fresh] [privatize options] [TEXT...]\n"
       "      privatise through the privacy ledger FILE (docs/budgets.md): the release is\n"
       "      refused, before any noise is drawn, if it would take the scope's spent epsilon\n"
       "      past its cap; with an app key (K: a file of 16 to 64 secret bytes kept apart\n"
       "      from FILE) the same text with the same options gives the memoised output again\n"
       "      and spends nothing (--fresh draws anew and spends). B, the cap of a new scope,\n"
       "      is in epsilon summed over releases; a new ledger needs it; an existing scope\n"
       "      keeps its cap ('dxtext ledger --set-cap' changes it). Scope S defaults to \"default\".\n"
       "      After every call the ledger's anchor is stored outside FILE's directory (under\n"
       "      $XDG_STATE_HOME or ~/.local/state/dxtext/ledger-anchors/ by the ledger's identity,\n"
       "      and in A if given), and an older copy of FILE, under any name, is refused as\n"
       "      rolled back\n"
       "  privatize --jsonl [--field NAME] [--on-error stop|skip] [--threads N] [privatize options]\n"
       "      JSON lines on standard input: privatise the string member NAME (default text)\n"
       "      of each record, copy everything else; a bad record stops the run or is skipped;\n"
       "      N threads privatise records in parallel, output stays in input order\n",
       true},
      {"sample",
       "  sample [--model M | --geometry G] (--epsilon E | --preset NAME) --word W --trials N\n"
       "         [--mechanism NAME] [--seed HEX64] [--search exact|ivf [--ivf-nprobe P]]\n"
       "         [--output-top N | --output-words FILE]\n"
       "      privatise W N times and print {output word: count} as JSON\n",
       true},
      {"calibrate",
       "  calibrate [--model M | --geometry euclidean|poincare] [--mechanism NAME] [--preset NAME]\n"
       "            (--epsilon E | --epsilons A,B,C | --target-keep F) [--output-top N]\n"
       "            [--words K] [--trials T] [--seed HEX64] [--format json|text]\n"
       "      N_w (how often a word survives) and S_w (distinct outputs) over K words sampled from\n"
       "      the output vocabulary (the words the options can release: the only ones they can keep);\n"
       "      --target-keep finds the epsilon whose median (--target-stat mean|max) N_w is F,\n"
       "      with a 95% bootstrap interval over the words; every epsilon of a run uses the same\n"
       "      words and draws (K defaults to 50, 400 with --target-keep); --format text prints a table;\n"
       "      with --preset, the preset's mechanism and output vocabulary, at its epsilon unless given\n",
       true},
      {"syntf",
       "  syntf --model M --epsilon E --n-out K [--s S] [--text] [--seed HEX64] [--report]\n"
       "        [--local-diagnostics]\n"
       "      SynTF: a synthetic bag of K words from the bag on standard input (\"word count\"\n"
       "      lines, or plain text with --text), printed as {word: count} JSON; --report and\n"
       "      --local-diagnostics print the release record and the token counts on standard error\n",
       false},
      {"account",
       "  account syntf --model M --epsilon E [--s S] [--threads N]\n"
       "      the exact per-draw privacy loss of syntf on the model's vocabulary (O(V^2)), as JSON\n",
       false},
      {"decode",
       "  decode --model M [--format text|json]\n"
       "      read one whitespace-separated vector per line, print its nearest word (with\n"
       "      --format json: {\"word\": ..., \"index\": ...} per line)\n",
       false},
      {"convert",
       "  convert --format glove|word2vec|word2vec-bin|fasttext [--quant f32|f16|int8]\n"
       "          [--lowercase] [--max-words N] [--geometry euclidean|poincare]\n"
       "          [--frequencies WORD_COUNTS] [--covariance|--no-covariance] [--source TEXT]\n"
       "          [--license TEXT] [--index] IN OUT.dxe\n"
       "      --format names the input's format; --covariance stores the covariance the\n"
       "      mahalanobis mechanism needs (default for euclidean); --index adds a search index\n"
       "      with default parameters (dxtext index); --lowercase stores every word folded\n"
       "      (case, NFKC, invisible characters dropped), keeping the first of words that\n"
       "      fold alike\n",
       false},
      {"tokenize",
       "  tokenize [--lowercase] [--words-only] [--format text|json]\n"
       "      split standard input into words and numbers as privatize does, one line per line\n"
       "      (with --format json: a JSON array of the tokens per line); --lowercase folds\n"
       "      them as a lowercase model's lookups do (case, NFKC, invisible characters)\n",
       false},
      {"inspect", "  inspect [--no-verify] MODEL     print the model's header, digests and metadata as JSON\n", false},
      {"export", "  export [--output FILE] MODEL    write the model as word2vec text\n", false},
      {"synth",
       "  synth --vocab V --dim D [--quant f32|f16|int8] [--clusters K] [--seed N] OUT.dxe\n"
       "      write a synthetic model with clustered vectors, for scale tests\n",
       false},
      {"index",
       "  index [--cells K] [--sample N] [--iterations I] [--seed S] [--threads T]\n"
       "        [--epsilon E] [--queries Q] [--format json|text] IN.dxe OUT.dxe\n"
       "      copy IN with a search index (k-means cells, default K = 4*sqrt(V)) for\n"
       "      --search ivf, then print its recall against exact decoding on Q laplace\n"
       "      noisy points at epsilon E (default 10) for several nprobe values\n",
       false},
      {"order",
       "  order [--orderings K] [--neighbours N] [--seed S] [--common C | --no-groups] IN.dxe OUT.dxe\n"
       "      copy IN with K public orderings of its vocabulary (default 8): cycles through the\n"
       "      word vectors, nearest-neighbour tours improved by 2-opt over N neighbours (default\n"
       "      16), reproducible from S, the stopwords toured apart from the other words (and with\n"
       "      --common, the C most frequent other words apart from the rest) unless --no-groups;\n"
       "      the ordering mechanism needs them. Prints JSON statistics\n",
       false},
      {"orderings",
       "  orderings MODEL\n"
       "      print each vocabulary word's place in each of the model's orderings (TSV)\n",
       false},
      {"typed-classes",
       "  typed-classes LISTS.tsv IN.dxe OUT.dxe\n"
       "      copy IN with the typed classes section (names, places, organisations, health\n"
       "      terms) built from LISTS (class<TAB>word<TAB>common a line; models/typed/)\n",
       false},
      {"context-prior",
       "  context-prior PAIRS.tsv IN.dxe OUT.dxe [--successors M]\n"
       "      copy IN with the context prior section (the words that follow each word in\n"
       "      public text, with their lift) built from PAIRS (context<TAB>successor<TAB>lift\n"
       "      a line; the first M of each context kept, default 16; models/prior/)\n",
       false},
      {"bench",
       "  bench [--model M | --geometry G] [--mechanism NAME | --preset NAME] [--epsilon E] [--batch B]\n"
       "        [--threads T] [--seconds S] [--numpy-script PATH] [--python PATH] [--no-baselines]\n"
       "        [--search exact|ivf [--ivf-nprobe P] [--recall-points N]] [--text-tokens N]\n"
       "      measure words/s, latency, open time, memory, scan GB/s and MAC/s next to the\n"
       "      machine's limits and naive baselines; prints JSON (docs/performance.md);\n"
       "      with --search ivf also the recall against exact decoding on the same points;\n"
       "      a mechanism other than laplace is also timed beside laplace, in the same run,\n"
       "      on single words and on texts of N words (default 1000)\n",
       true},
      {"ledger",
       "  ledger [--scope S] [--budget B] [--set-cap C] [--ledger-key-file K] [--ledger-anchor A] FILE\n"
       "      print the ledger's scope S (default \"default\") as JSON: cap, spent, remaining,\n"
       "      releases, memoised entries, spent epsilon per metric, the composed guarantee;\n"
       "      a scope not yet in FILE is added with cap B (0 without --budget); an existing\n"
       "      scope keeps its cap, which only --set-cap C changes\n",
       false},
      {"presets",
       "  presets [--format json|text]\n"
       "      the named presets (--preset NAME) and the values each sets: mechanism, epsilon,\n"
       "      release shape, output vocabulary, token policies; JSON unless --format text\n",
       false},
      {"loss",
       "  loss [--model M] (--presets | --preset P | --mechanism X --epsilon E [options]) [--floor P]\n"
       "       [--words N] [--pairs FILE] [--format json|text]\n"
       "      privacy loss on one scale, in nats: the worst case per word between any two inputs\n"
       "      (the record's worst_case_per_word), and from the exact law the median loss between\n"
       "      each of the N (200) most frequent words and its nearest neighbour, and over the word\n"
       "      pairs of FILE (two words a line, e.g. eval/data/antonym-pairs.tsv); every preset with\n"
       "      --presets; JSON unless --format text (docs/guarantees.md, \"Worst case per word\")\n",
       false},
      {"version", "  version [--format text|json]   print the library version\n", false},
      {"help", "  help [COMMAND]                  print this help, or one command's\n", false},
  };
  return table;
}

std::vector<std::string> command_names() {
  std::vector<std::string> names;
  for (const CommandHelp& c : command_help()) names.emplace_back(c.name);
  return names;
}

namespace {

// What a mechanism's list entry adds beyond its parameters (which come from
// the option table). A mechanism missing here is listed all the same.
const char* mechanism_remark(const std::string& name) {
  if (name == "laplace") return "(default)";
  if (name == "hyperbolic") return "(Poincare models, epsilon > n-1)";
  if (name == "ordering") return "(along the model's public orderings, 'dxtext order')";
  return "";
}

// "Mechanisms (--mechanism): ..." made from the library's description of
// the options (tools/options/privatize_options.table): every value of
// `mechanism`, each with the options whose meaning starts "<mechanism>:",
// so that a mechanism added to the table shows up here by itself.
std::string mechanism_notes() {
  const uint32_t n = dxt_option_count();
  std::vector<dxt_option_info> infos;
  for (uint32_t i = 0; i < n; ++i) {
    dxt_option_info info{};
    info.struct_size = sizeof info;
    if (dxt_option_describe(i, &info) == DXT_OK) infos.push_back(info);
  }
  std::vector<std::string> mechanisms;
  for (const dxt_option_info& info : infos) {
    if (std::string(info.name) != "mechanism") continue;
    std::string values = info.values;  // "laplace, hyperbolic, ..."
    size_t start = 0;
    while (start <= values.size()) {
      size_t end = values.find(", ", start);
      if (end == std::string::npos) end = values.size();
      if (end > start) mechanisms.push_back(values.substr(start, end - start));
      start = end + 2;
    }
  }
  auto flag_of = [](std::string name) {
    for (char& c : name)
      if (c == '_') c = '-';
    return name;
  };
  std::vector<std::string> entries;
  for (const std::string& m : mechanisms) {
    std::string entry = m;
    const std::string remark = mechanism_remark(m);
    if (!remark.empty()) entry += " " + remark;
    for (const dxt_option_info& info : infos) {
      const std::string meaning = info.meaning;
      if (meaning.compare(0, m.size() + 1, m + ":") != 0) continue;
      std::string value;
      if (info.kind == DXT_OPTION_TYPE_ENUM) {
        value = info.values;
        for (size_t at; (at = value.find(", ")) != std::string::npos;) value.replace(at, 2, "|");
      } else {
        const std::string name = info.name;
        const size_t us = name.rfind('_');
        value = std::string(
            1, static_cast<char>(std::toupper(static_cast<unsigned char>(name[us == std::string::npos ? 0 : us + 1]))));
      }
      entry += " [--" + flag_of(info.name) + " " + value + "]";
    }
    entries.push_back(entry);
  }
  std::string aliases;
  for (const PrivatizeOptionRow& row : kPrivatizeOptionRows)
    if (row.alias != nullptr)
      aliases += std::string(aliases.empty() ? "" : ", ") + "--" + row.alias + " for --" + row.flag;

  // Wrapped at 90 columns, like the rest of the help.
  std::string out, line = "Mechanisms (--mechanism):";
  auto add = [&](const std::string& word) {
    if (line.size() + 1 + word.size() > 90) {
      out += line + "\n";
      line = word;
    } else {
      line += " " + word;
    }
  };
  for (size_t i = 0; i < entries.size(); ++i) {
    std::string entry = entries[i] + (i + 1 < entries.size() ? "," : ".");
    // Break only between words, keeping "[--flag VALUE]" together.
    size_t start = 0;
    while (start < entry.size()) {
      size_t end = entry.find(' ', start);
      if (end == std::string::npos) end = entry.size();
      std::string word = entry.substr(start, end - start);
      if (word.compare(0, 3, "[--") == 0 && end < entry.size()) {
        const size_t close = entry.find(']', end);
        end = close == std::string::npos ? entry.size() : close + 1;
        if (end < entry.size() && entry[end] == ',') ++end;
        word = entry.substr(start, end - start);
      }
      add(word);
      start = end + 1;
    }
  }
  if (!aliases.empty()) {
    std::string rest = "Older spellings: " + aliases + ".";
    size_t start = 0;
    while (start < rest.size()) {
      size_t end = rest.find(' ', start);
      if (end == std::string::npos) end = rest.size();
      add(rest.substr(start, end - start));
      start = end + 1;
    }
  }
  return out + line + "\n";
}

// The notes on presets: their names come from the library's table.
std::string preset_notes() {
  return "--preset " + preset_names() +
         " sets the mechanism, epsilon, release shape, output vocabulary and token\n"
         "policies for a common job at once ('dxtext presets' or 'dxtext help presets' prints their values;\n"
         "docs/options.md, \"Presets\"); --epsilon then overrides only the epsilon, and an option the\n"
         "preset fixes may only be left at its default or given the preset's value.\n";
}

}  // namespace

std::string overall_usage() {
  std::string s = "usage: dxtext COMMAND [OPTIONS]\n\n";
  for (const CommandHelp& c : command_help()) s += c.usage;
  return s + "\n" + kOutput + "\n" + mechanism_notes() + kNotes + preset_notes();
}

std::string usage_of(const std::string& command) {
  for (const CommandHelp& c : command_help()) {
    if (command != c.name) continue;
    std::string s = std::string("usage:\n") + c.usage;
    if (c.mechanism_notes) s += std::string("\n") + mechanism_notes() + kNotes + preset_notes();
    if (command == "presets") s += "\n" + presets_text();
    return s;
  }
  return {};
}

}  // namespace dxt::cli
