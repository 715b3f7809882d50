// SPDX-License-Identifier: Apache-2.0
// The privacy ledger's state and its file format (docs/budgets.md; the
// composition it rests on is proved in docs/guarantees.md, "Composition and
// the ledger"). This file knows nothing of files on disk: ledger_file.cpp
// locks, reads and writes; src/abi/ledger_abi.cpp privatises through it.
//
// File layout (little-endian), every count checked against the bytes left:
//   "DXTLEDG1"  u32 version (2)  u32 flags (bit 0: made with an app key)
//   u8 secret[32]
//   u64 commits (version 2 only; version 1 files, still read, count 0)
//   u32 scope_count, then per scope:
//     u32 name_length, name, f64 cap, u32 memo_capacity, u64 clock,
//     u64 release_count, releases: u32 mechanism, u32 metric, u32 release,
//       u32 bound, f64 epsilon, f64 cost, u64 words
//     u32 memo_count, entries: u8 key[32], u64 last_use, u32 length, output
//   u8 mac[32]: HMAC-SHA-256 under the MAC key of every byte before it
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "dxtext/dxtext.h"
#include "model/sha256.hpp"

namespace dxt {

// Size limits, checked before a commit so that a ledger is never left
// unreadable: no commit writes more than kLedgerMaxBytes (a release that
// could pass it is refused before any draw, src/abi/ledger_abi.cpp), and
// files are read up to kLedgerMaxReadBytes, above it. An output longer than
// kLedgerMemoMaxOutput is released and charged but not memoised.
inline constexpr size_t kLedgerMaxBytes = size_t{256} << 20;
inline constexpr size_t kLedgerMaxReadBytes = size_t{1} << 30;
inline constexpr size_t kLedgerMemoMaxOutput = size_t{64} << 10;
// The encoded bytes of one release entry, and of a memo entry besides its output.
inline constexpr size_t kLedgerReleaseBytes = 4 * 4 + 8 * 3;
inline constexpr size_t kLedgerMemoEntryBytes = 32 + 8 + 4;

struct LedgerRelease {
  uint32_t mechanism = 0;  // dxt_mechanism
  uint32_t metric = 0;     // dxt_metric
  uint32_t release = 0;    // dxt_release_kind
  uint32_t bound = 0;      // dxt_bound
  double epsilon = 0;
  double cost = 0;  // what it spent: epsilon, or epsilon_total for ANY_INPUTS
  uint64_t words = 0;
};

struct LedgerMemoEntry {
  Digest key{};           // HMAC of the input; the input itself is never stored
  uint64_t last_use = 0;  // the scope's clock when last returned
  std::string output;     // already released, so public
};

struct LedgerScope {
  std::string name;
  double cap = 0;
  uint32_t memo_capacity = DXT_LEDGER_MEMO_DEFAULT;
  uint64_t clock = 0;
  std::vector<LedgerRelease> releases;
  std::vector<LedgerMemoEntry> memo;

  double spent() const;
  double spent_any_inputs() const;
  // The memoised output of `key`, marked as just used; nullptr if none.
  const std::string* recall(const Digest& key);
  // Stores (or replaces) the output of `key`, evicting the least recently
  // used entries beyond memo_capacity.
  void remember(const Digest& key, const std::string& output);
};

struct LedgerState {
  std::array<uint8_t, 32> secret{};
  bool keyed = false;    // made with an app key
  uint64_t commits = 0;  // commits so far: only grows (the rollback anchor)
  std::vector<LedgerScope> scopes;

  LedgerScope* find(const std::string& name);
};

// What an app keeps outside the ledger to detect a rollback
// (dxt_ledger_anchor): the ledger's name, its commits, its spent total.
struct LedgerAnchor {
  std::array<uint8_t, 16> id{};
  uint64_t commits = 0;
  double spent = 0;
};
LedgerAnchor ledger_anchor(const LedgerState& state);
// Throws Error(DXT_E_LEDGER_ROLLBACK) when `state` is not the ledger of
// `anchor`, or is older than it.
void check_not_rolled_back(const LedgerState& state, const LedgerAnchor& anchor);

// The two keys of a ledger, derived from its secret and the optional app key.
struct LedgerKeys {
  Digest mac{};
  Digest memo{};
};
LedgerKeys derive_ledger_keys(const std::array<uint8_t, 32>& secret, const std::vector<uint8_t>& app_key);

std::vector<uint8_t> encode_ledger(const LedgerState& state, const std::vector<uint8_t>& app_key);
// The size encode_ledger gives, without encoding.
size_t encoded_ledger_size(const LedgerState& state);
// Throws Error(DXT_E_LEDGER_CORRUPT) for a bad MAC or a malformed body.
LedgerState decode_ledger(const uint8_t* data, size_t size, const std::vector<uint8_t>& app_key);

// The cost of a release with this record, in the budget unit.
double release_cost(const dxt_release_record& record);

// The scope as JSON (dxt_ledger_to_json).
std::string ledger_scope_json(const LedgerScope& scope);

}  // namespace dxt
