// SPDX-License-Identifier: Apache-2.0
// The privacy ledger on the command line: `privatize --ledger FILE` and
// `dxtext ledger FILE`, written against the public C API only.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli_args.hpp"
#include "dxtext/dxtext.h"
#include "ledger_anchor_store.hpp"

namespace dxt::cli {

struct LedgerCloser {
  void operator()(dxt_ledger* l) const { dxt_ledger_close(l); }
};
using LedgerPtr = std::unique_ptr<dxt_ledger, LedgerCloser>;

// The options privatize takes with --ledger, and the flag.
inline constexpr const char* kLedgerOptions[] = {"ledger", "budget", "scope", "ledger-key-file", "ledger-anchor"};
inline constexpr const char* kFreshFlag = "fresh";

// A ledger opened by the command line, with where its anchor is kept and
// the lock on those places, held until it is destroyed.
struct OpenLedger {
  LedgerPtr handle;
  std::string given_anchor;      // --ledger-anchor FILE, or empty
  std::string anchor_directory;  // the default store, or empty without a home
  std::string resolved_path;     // the ledger's path, links resolved
  std::optional<LedgerId> id;    // the ledger's identity
  std::vector<std::unique_ptr<FileLock>> locks;
  dxt_ledger* get() const { return handle.get(); }
};

// Opens --ledger FILE (scope --scope, default "default") with the app key
// in --ledger-key-file, if any (without one nothing is memoised); --budget B
// is the cap of a new scope (an existing scope keeps its cap: a different B
// is noted on standard error). A new ledger needs --budget, unless `create`
// is false, when a missing file is an error.
// The ledger's anchors (docs/budgets.md, "Rollback") are read from
// --ledger-anchor FILE, if given (an empty FILE is a usage error), and from
// the default store (ledger_anchor_store.hpp) by the ledger's identity, or
// for a file that is missing by the ledger last kept at its path; the file
// is opened against each of them, and the anchor stored again once it is
// open. The store's lock is held until the OpenLedger is destroyed.
OpenLedger open_ledger(const Args& args, const std::string& path, bool create);

// Stores the ledger's anchor now, in --ledger-anchor FILE and in the default
// store; throws if it cannot.
void store_ledger_anchor(OpenLedger& ledger);
// The same after a release, before its output is shown: the budget is spent
// then, so a failure is a warning on standard error, and the output is
// shown all the same (never spent and lost); the next call stores it.
void store_ledger_anchor_after_release(OpenLedger& ledger);

}  // namespace dxt::cli
