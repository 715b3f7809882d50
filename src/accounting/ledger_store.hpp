// SPDX-License-Identifier: Apache-2.0
// Where a ledger's state is kept between calls. Every call of the C ABI on a
// ledger is one transaction: read the state (checking its MAC), let the call
// change it, and commit it if it changed. Two stores implement that:
// LedgerFile (ledger_file.hpp: a file under a lock, written atomically) and
// LedgerMemory (ledger_memory.hpp: bytes the caller stores, for WebAssembly
// and anywhere the app keeps its own storage). Both hold the same bytes
// (privacy_ledger.hpp), so a state saved by one can be opened by the other.
#pragma once

#include <functional>

#include "accounting/privacy_ledger.hpp"

namespace dxt {

class LedgerStore {
 public:
  virtual ~LedgerStore() = default;

  // Runs `change` on the state and commits it if `change` returns true (if
  // `change` throws, nothing is committed). With `create`, a store that holds
  // no ledger yet starts an empty one with a fresh random secret; without
  // it, a missing ledger is an error (it is never silently restarted).
  virtual void transact(bool create, const std::function<bool(LedgerState&, const LedgerKeys&)>& change) = 0;

  // Whether the ledger was opened with an app key. Without one the memo
  // key's secret is in the stored bytes, so whoever reads them could test
  // guesses of past inputs against the memo: such a ledger memoises nothing
  // (docs/budgets.md, "Memoisation").
  virtual bool has_app_key() const = 0;
};

}  // namespace dxt
