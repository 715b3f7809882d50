// SPDX-License-Identifier: Apache-2.0
#include "ledger_command.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "commands.hpp"
#include "errors/error.hpp"
#include "regular_file.hpp"

namespace dxt::cli {
namespace {

// The app key of --ledger-key-file: the file's bytes, 16 to 64 of them.
std::vector<uint8_t> read_key_file(const std::string& path) {
  std::string bytes = read_regular_file(path, 64, "the ledger key file");
  if (bytes.size() < 16) throw UsageError("the ledger key file holds 16 to 64 bytes (e.g. head -c 32 /dev/urandom > FILE)");
  std::vector<uint8_t> key(bytes.begin(), bytes.end());
  std::fill(bytes.begin(), bytes.end(), '\0');
  return key;
}

}  // namespace

LedgerPtr open_ledger(const Args& args, const std::string& path, bool create) {
  struct stat st {};
  const bool exists = ::stat(path.c_str(), &st) == 0;
  const bool budget = args.get("budget").has_value();
  if (!exists && !create) fail(DXT_E_IO, "no ledger at " + path);
  if (!exists && !budget) throw UsageError("a new ledger needs --budget B (its cap, in epsilon summed over releases)");
  dxt_ledger_options lo;
  dxt_ledger_options_init(&lo);
  if (budget) lo.cap = args.number("budget");
  std::vector<uint8_t> key;
  if (const auto key_file = args.get("ledger-key-file")) {
    key = read_key_file(*key_file);
    lo.key = key.data();
    lo.key_length = key.size();
  }
  const std::string scope = args.get("scope").value_or("default");
  dxt_ledger* l = nullptr;
  const dxt_status s = dxt_ledger_open(path.c_str(), scope.c_str(), &lo, &l);
  std::fill(key.begin(), key.end(), uint8_t{0});
  check(s);
  LedgerPtr ledger(l);
  // --budget is the cap of a new scope; an existing scope keeps its own, in
  // every interface (docs/budgets.md, "Changing a cap"). Say so rather than
  // let a different --budget pass unnoticed.
  if (budget) {
    dxt_ledger_totals t;
    dxt_ledger_totals_init(&t);
    check(dxt_ledger_get_totals(ledger.get(), &t));
    if (t.cap != lo.cap)
      std::fprintf(stderr,
                   "dxtext: note: --budget applies to a new scope; scope \"%s\" keeps its cap %.10g "
                   "(change it with: dxtext ledger --scope S --set-cap B FILE)\n",
                   scope.c_str(), t.cap);
  }
  return ledger;
}

int run_ledger(int argc, char** argv) {
  Args args(argc, argv, 2, {"scope", "budget", "set-cap", "ledger-key-file"}, {});
  if (args.positional().size() != 1) throw UsageError("ledger takes one FILE");
  LedgerPtr ledger = open_ledger(args, args.positional()[0], false);
  if (args.get("set-cap")) check(dxt_ledger_set_cap(ledger.get(), args.number("set-cap")));
  size_t need = 0;
  const dxt_status probe = dxt_ledger_to_json(ledger.get(), nullptr, 0, &need);
  if (probe != DXT_E_INPUT_TOO_LARGE) check(probe);
  std::vector<char> json(need);
  check(dxt_ledger_to_json(ledger.get(), json.data(), json.size(), &need));
  std::printf("%s\n", json.data());
  if (std::fflush(stdout) != 0) fail(DXT_E_IO, "writing to standard output failed");
  return 0;
}

}  // namespace dxt::cli
