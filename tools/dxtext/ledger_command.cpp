// SPDX-License-Identifier: Apache-2.0
#include "ledger_command.hpp"

#include <sys/stat.h>

#include <cstdio>
#include <string>
#include <vector>

#include "commands.hpp"
#include "errors/error.hpp"

namespace dxt::cli {

LedgerPtr open_ledger(const Args& args, const std::string& path, bool create) {
  struct stat st {};
  const bool exists = ::stat(path.c_str(), &st) == 0;
  const bool budget = args.get("budget").has_value();
  if (!exists && !create) fail(DXT_E_IO, "no ledger at " + path);
  if (!exists && !budget) throw UsageError("a new ledger needs --budget B (its cap, in epsilon summed over releases)");
  dxt_ledger_options lo;
  dxt_ledger_options_init(&lo);
  if (budget) lo.cap = args.number("budget");
  const std::string scope = args.get("scope").value_or("default");
  dxt_ledger* l = nullptr;
  check(dxt_ledger_open(path.c_str(), scope.c_str(), &lo, &l));
  LedgerPtr ledger(l);
  if (budget && exists) check(dxt_ledger_set_cap(ledger.get(), lo.cap));
  return ledger;
}

int run_ledger(int argc, char** argv) {
  Args args(argc, argv, 2, {"scope", "budget"}, {});
  if (args.positional().size() != 1) throw UsageError("ledger takes one FILE");
  LedgerPtr ledger = open_ledger(args, args.positional()[0], false);
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
