// SPDX-License-Identifier: Apache-2.0
// dxtext tokenize: the library's own tokenizer as a filter, so that corpora
// for training embeddings are split exactly as privatize will split text.
#include <iostream>
#include <string>

#include "cli_args.hpp"
#include "commands.hpp"
#include "errors/error.hpp"
#include "output_format.hpp"
#include "text/text_privatizer.hpp"
#include "text/tokenizer.hpp"
#include "unicode/fold.hpp"

namespace dxt::cli {

int run_tokenize(int argc, char** argv) {
  Args args(argc, argv, 2, {"format"}, {"lowercase", "words-only"});
  const bool json = output_format(args, OutputFormat::kText) == OutputFormat::kJson;
  if (!args.positional().empty()) throw UsageError("tokenize reads standard input and takes no arguments");
  const bool lower = args.flag("lowercase");
  const bool words_only = args.flag("words-only");
  std::ios::sync_with_stdio(false);
  std::string line, out;
  uint64_t line_no = 0;
  while (std::getline(std::cin, line)) {
    ++line_no;
    out.clear();
    std::vector<Token> tokens;
    try {
      tokens = tokenize(line);
    } catch (const Error& e) {
      fail(e.status(), "line " + std::to_string(line_no) + ": " + e.what());
    }
    for (const Token& t : tokens) {
      if (!is_word_or_number(t.kind) || (words_only && t.kind == TokenKind::kNumber)) continue;
      const std::string_view piece(line.data() + t.begin, t.end - t.begin);
      if (!out.empty()) out += json ? "," : " ";
      // Fold apostrophes (and with --lowercase, case and Unicode forms) as
      // lookups in a lowercase model do, so corpora and vocabularies agree.
      const std::string folded = lower ? unicode::fold(fold_apostrophes(piece)) : fold_apostrophes(piece);
      out += json ? json_string(folded) : folded;
    }
    out = json ? "[" + out + "]\n" : out + '\n';
    std::cout.write(out.data(), static_cast<std::streamsize>(out.size()));
  }
  std::cout.flush();
  if (!std::cout) fail(DXT_E_IO, "writing to standard output failed");
  return 0;
}

}  // namespace dxt::cli
