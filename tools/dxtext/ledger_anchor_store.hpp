// SPDX-License-Identifier: Apache-2.0
// Where the command line keeps the anchors of ledgers (docs/budgets.md,
// "Rollback"): under $XDG_STATE_HOME/dxtext/ledger-anchors (else
// ~/.local/state/dxtext/ledger-anchors), one file per ledger named by the
// ledger's identity (its anchor after 0 events, the same for every copy of
// its file wherever it is put) and one per path naming the ledger last kept
// there (so that a deleted or replaced ledger is not taken for a new one);
// and in --ledger-anchor FILE when it is given. Each is written whole to a
// temporary of its own (mkstemp) and renamed over the old one, under an
// exclusive lock that the ledger call holds from reading its anchors to
// storing the new one, so that processes sharing a ledger neither trip over
// each other's temporaries nor put back an older anchor.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "dxtext/dxtext.h"

namespace dxt::cli {

using LedgerId = std::array<uint8_t, 16>;

// An exclusive flock() on `path` (made if missing), held until destroyed.
class FileLock {
 public:
  explicit FileLock(const std::string& path);
  ~FileLock();
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  int fd_ = -1;
};

// The default store's directory, or empty when there is no home to keep it
// in ($XDG_STATE_HOME and $HOME unset or not absolute).
std::string default_anchor_directory();

// Makes `directory` and every missing directory above it (mode 0700).
void make_directories(const std::string& directory);

// The anchor stored in `file`, if there is one (DXT_E_PARSE for a file
// dxtext did not write).
std::optional<dxt_ledger_anchor> read_anchor_file(const std::string& file);
// Stores `anchor` in `file` (nothing is written when it holds it already).
void write_anchor_file(const std::string& file, const dxt_ledger_anchor& anchor);

// The anchor after 0 events: the identity of a ledger, which every copy of
// it, of any age, passes (and no other ledger).
dxt_ledger_anchor identity_anchor(const LedgerId& id);

// The files of the default store in `directory`: the anchor of ledger `id`;
// the record of which ledger is kept at `ledger_path` (links resolved); and
// the anchor an earlier dxtext kept for that path.
std::string anchor_file_for(const std::string& directory, const LedgerId& id);
std::string path_record_for(const std::string& directory, const std::string& ledger_path);
std::string legacy_anchor_file_for(const std::string& directory, const std::string& ledger_path);

std::optional<LedgerId> read_path_record(const std::string& file);
void write_path_record(const std::string& file, const LedgerId& id);

std::string ledger_id_hex(const LedgerId& id);

}  // namespace dxt::cli
