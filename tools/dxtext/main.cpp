// SPDX-License-Identifier: Apache-2.0
// The dxtext command-line program.
#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

#include "cli_args.hpp"
#include "command_help.hpp"
#include "commands.hpp"
#include "dxtext/dxtext.h"
#include "errors/error.hpp"
#include "suggestion.hpp"

namespace {

// `COMMAND --help` or `COMMAND -h` anywhere before a `--`.
bool asks_for_help(int argc, char** argv) {
  for (int i = 2; i < argc; ++i) {
    if (std::strcmp(argv[i], "--") == 0) return false;
    if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) return true;
  }
  return false;
}

int print_version(int argc, char** argv) {
  dxt::cli::Args args(argc, argv, 2, {"format"}, {});
  const std::string format = args.get("format").value_or("text");
  if (format == "json") {
    std::printf("{\"version\":\"%s\",\"format_version\":\"%u.%u\",\"abi_version\":%u}\n", dxt_version_string(),
                DXT_FORMAT_VERSION_MAJOR, DXT_FORMAT_VERSION_MINOR, dxt_abi_version());
  } else if (format == "text") {
    std::printf("dxtext %s (model format %u.%u)\n", dxt_version_string(), DXT_FORMAT_VERSION_MAJOR,
                DXT_FORMAT_VERSION_MINOR);
  } else {
    throw dxt::cli::UsageError(dxt::cli::unknown_value("format", format, {"text", "json"}));
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace dxt::cli;
  // Past the file size limit (ulimit -f) a write then fails with EFBIG and
  // is reported, on every write path (the ledger's anchor, the output),
  // instead of SIGXFSZ killing the program (issue 34, item 14).
  std::signal(SIGXFSZ, SIG_IGN);
  if (argc < 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0 ||
      (std::strcmp(argv[1], "help") == 0 && argc == 2)) {
    std::fputs(overall_usage().c_str(), argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  const std::string command = argv[1];
  const std::string topic = command == "help" ? argv[2] : command;
  if (command == "help" || asks_for_help(argc, argv)) {
    const std::string usage = usage_of(topic);
    if (usage.empty()) {
      std::fprintf(stderr, "dxtext: no command '%s'%s (see 'dxtext help')\n", topic.c_str(),
                   did_you_mean(topic, command_names()).c_str());
      return 2;
    }
    std::fputs(usage.c_str(), stdout);
    return 0;
  }
  try {
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
    if (command == "order") return run_order(argc, argv);
    if (command == "orderings") return run_orderings(argc, argv);
    if (command == "typed-classes") return run_typed_classes(argc, argv);
    if (command == "context-prior") return run_context_prior(argc, argv);
    if (command == "ledger") return run_ledger(argc, argv);
    if (command == "presets") return run_presets(argc, argv);
    if (command == "loss") return run_loss(argc, argv);
    if (command == "version" || command == "--version") return print_version(argc, argv);
    throw UsageError("unknown command '" + command + "'" + did_you_mean(command, command_names()));
  } catch (const dxt::cli::UsageError& e) {
    const std::string help = usage_of(command).empty() ? "dxtext help" : "dxtext help " + command;
    std::fprintf(stderr, "dxtext: %s (see '%s')\n", e.what(), help.c_str());
    return 2;
  } catch (const dxt::Error& e) {
    // A value the library refuses (an epsilon out of range, options that
    // conflict) is a usage mistake like any other: exit 2, as the README says.
    if (e.status() == DXT_E_INVALID_EPSILON || e.status() == DXT_E_INVALID_ARGUMENT) {
      const std::string help = usage_of(command).empty() ? "dxtext help" : "dxtext help " + command;
      std::fprintf(stderr, "dxtext: %s (see '%s')\n", e.what(), help.c_str());
      return 2;
    }
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
