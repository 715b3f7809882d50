// SPDX-License-Identifier: Apache-2.0
// A ledger kept as bytes that the caller stores (dxt_ledger_open_memory):
// the state lives in this object between calls, every call decodes it afresh
// (MAC first), and a commit replaces it with the newly encoded bytes, which
// the caller then reads (dxt_ledger_save) and stores where it likes:
// IndexedDB or localStorage in a browser, a file under Node. The bytes are
// those of a ledger file (privacy_ledger.hpp). Crash safety and concurrency
// are then the caller's part of the contract (docs/budgets.md, "A ledger in
// the caller's storage").
#pragma once

#include <cstdint>
#include <vector>

#include "accounting/ledger_store.hpp"

namespace dxt {

class LedgerMemory final : public LedgerStore {
 public:
  // `bytes` empty: no ledger yet (the first transaction with `create` makes
  // one). Otherwise the bytes are checked by the first transaction.
  LedgerMemory(std::vector<uint8_t> bytes, std::vector<uint8_t> app_key);

  void transact(bool create, const std::function<bool(LedgerState&, const LedgerKeys&)>& change) override;
  bool has_app_key() const override { return !app_key_.empty(); }

  // The committed state, as stored bytes (empty before the first commit of
  // a new ledger).
  const std::vector<uint8_t>& bytes() const { return bytes_; }
  // Commits since this object was made: a caller that stored the bytes
  // after commit n need not store them again until it changes.
  uint64_t commits() const { return commits_; }

 private:
  std::vector<uint8_t> bytes_;
  std::vector<uint8_t> app_key_;
  uint64_t commits_ = 0;
};

}  // namespace dxt
