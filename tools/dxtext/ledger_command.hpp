// SPDX-License-Identifier: Apache-2.0
// The privacy ledger on the command line: `privatize --ledger FILE` and
// `dxtext ledger FILE`, written against the public C API only.
#pragma once

#include <memory>
#include <string>

#include "cli_args.hpp"
#include "dxtext/dxtext.h"

namespace dxt::cli {

struct LedgerCloser {
  void operator()(dxt_ledger* l) const { dxt_ledger_close(l); }
};
using LedgerPtr = std::unique_ptr<dxt_ledger, LedgerCloser>;

// The options privatize takes with --ledger, and the flag.
inline constexpr const char* kLedgerOptions[] = {"ledger", "budget", "scope", "ledger-key-file", "ledger-anchor"};
inline constexpr const char* kFreshFlag = "fresh";

// Opens --ledger FILE (scope --scope, default "default") with the app key
// in --ledger-key-file, if any (without one nothing is memoised); --budget B
// is the cap of a new scope (an existing scope keeps its cap: a different B
// is noted on standard error). A new ledger needs --budget, unless `create`
// is false, when a missing file is an error.
// The ledger's anchor (docs/budgets.md, "Rollback") is read from
// --ledger-anchor FILE, or by default from a file named after the ledger's
// path under $XDG_STATE_HOME/dxtext/ledger-anchors (~/.local/state without
// it), given to dxt_ledger_open, and stored again once it is open.
LedgerPtr open_ledger(const Args& args, const std::string& path, bool create);

// Stores the ledger's anchor now; after every commit, before its output is shown.
void store_ledger_anchor(const Args& args, const std::string& path, dxt_ledger* ledger);

}  // namespace dxt::cli
