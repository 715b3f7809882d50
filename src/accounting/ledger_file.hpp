// SPDX-License-Identifier: Apache-2.0
// The ledger on disk: one transaction at a time under an exclusive flock()
// on "<path>.lock" (flock, not fcntl, so that two handles in one process
// also exclude each other), <path> being the file's own path with every
// symbolic link resolved (a link to a ledger is that ledger; a file with
// two names, hard links, is refused), the state read, from a regular file
// of bounded size only, and MAC-checked afresh each time,
// and every change written atomically: a temporary "<path>.tmp" written in
// full, fsync'd, renamed over the ledger, and the directory fsync'd. A crash
// at any step leaves either the old file or the new one (POSIX rename is
// atomic), never a mixture; a commit that fails (a full disk, the file
// size limit, whose SIGXFSZ is blocked while it writes) removes its
// temporary and reports a status. WebAssembly builds refuse with DXT_E_UNSUPPORTED
// (they keep a ledger in the caller's storage instead: ledger_memory.hpp).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "accounting/ledger_store.hpp"
#include "accounting/privacy_ledger.hpp"

namespace dxt {

// The points of a commit at which tests kill the process
// (tests/unit/test_ledger.cpp, "kill -9 at every write step").
enum class LedgerWriteStep {
  temp_half_written,
  temp_written,
  temp_synced,
  renamed,
  directory_synced,
};

// The name of the ledger in the file at `path` (its anchor after 0 events,
// ledger_identity_from_header), read from its header without the lock:
// nullopt when there is no file there; DXT_E_LEDGER_CORRUPT when there is
// one but its header is not a ledger's opened with this app key (or
// DXT_E_IO when it cannot be read). The CLI names its anchors by it.
std::optional<std::array<uint8_t, 16>> ledger_file_identity(const std::string& path,
                                                            const std::vector<uint8_t>& app_key);

class LedgerFile final : public LedgerStore {
 public:
  LedgerFile(std::string path, std::vector<uint8_t> app_key);

  // Runs `change` on the state under the lock and commits it if `change`
  // returns true. With `create`, a missing file starts as an empty ledger
  // with a fresh secret; without it, a missing file is DXT_E_IO (a ledger
  // that vanished after it was opened is never silently restarted).
  void transact(bool create, const std::function<bool(LedgerState&, const LedgerKeys&)>& change) override;

  const std::vector<uint8_t>& app_key() const { return app_key_; }
  bool has_app_key() const override { return !app_key_.empty(); }

  // Test hook, called at each step of a commit.
  std::function<void(LedgerWriteStep)> on_write_step;

 private:
  void commit(const std::string& path, const LedgerState& state);

  std::string path_;
  std::vector<uint8_t> app_key_;
};

}  // namespace dxt
