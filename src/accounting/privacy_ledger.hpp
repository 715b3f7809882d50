// SPDX-License-Identifier: Apache-2.0
// The privacy ledger's state and its file format (docs/budgets.md; the
// composition it rests on is proved in docs/guarantees.md, "Composition and
// the ledger"). This file knows nothing of files on disk: ledger_file.cpp
// locks, reads and writes; src/abi/ledger_abi.cpp privatises through it.
//
// File layout (little-endian), every count checked against the bytes left:
//   "DXTLEDG1"  u32 version (3)  u32 flags (bit 0: made with an app key)
//   u8 secret[32]
//   u64 events: the ledger's history so far (scopes made, caps set, releases)
//   u32 scope_count, then per scope:
//     u32 name_length, name, u32 memo_capacity, u64 clock,
//     u32 cap_count (>= 1), caps: u64 event, f64 cap (the first made the
//       scope; the last is its cap now)
//     u64 release_count, releases: u32 mechanism, u32 metric, u32 release,
//       u32 bound, f64 epsilon, f64 cost, u64 words, u64 event,
//       f64 worst_case (the record's worst_case_per_word in nats; +inf when
//       unbounded; read as +inf from versions 1 and 2, which lack it)
//     u32 memo_count, entries: u8 key[32], u64 last_use, u32 length, output
//   u8 mac[32]: HMAC-SHA-256 under the MAC key of every byte before it
// Every event number from 1 to `events` belongs to exactly one cap entry or
// release, in increasing order within a scope, its caps first.
// Versions 1 and 2 (no event numbers: a f64 cap after the name, the releases
// without their event; version 2 with a u64 commit count after the secret)
// are still read, their events numbered in file order (every scope's
// making, then every scope's releases), and written as version 3.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
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
inline constexpr size_t kLedgerReleaseBytes = 4 * 4 + 8 * 5;
inline constexpr size_t kLedgerMemoEntryBytes = 32 + 8 + 4;
// The encoded bytes of one entry of a scope's cap history.
inline constexpr size_t kLedgerCapBytes = 8 + 8;

struct LedgerRelease {
  uint32_t mechanism = 0;  // dxt_mechanism
  uint32_t metric = 0;     // dxt_metric
  uint32_t release = 0;    // dxt_release_kind
  uint32_t bound = 0;      // dxt_bound
  double epsilon = 0;
  double cost = 0;  // what it spent: epsilon, or epsilon_total for ANY_INPUTS
  uint64_t words = 0;
  uint64_t event = 0;  // its place in the ledger's history (LedgerState::add_release)
  // The record's worst case per word, in nats: the release's loss between
  // any two inputs of `words` words is at most words * worst_case. Reported
  // beside the budget (ledger_scope_json), not spent.
  double worst_case = std::numeric_limits<double>::infinity();
};

// A scope's cap from event `event` on (the first: the scope's making).
struct LedgerCapChange {
  uint64_t event = 0;
  double cap = 0;
};

struct LedgerMemoEntry {
  Digest key{};           // HMAC of the input; the input itself is never stored
  uint64_t last_use = 0;  // the scope's clock when last returned
  std::string output;     // already released, so public
};

struct LedgerScope {
  std::string name;
  double cap = 0;  // the last of `caps`
  std::vector<LedgerCapChange> caps;
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
  bool keyed = false;   // made with an app key
  uint64_t events = 0;  // the history's length: only grows (the rollback anchor)
  // Read from a version 1 or 2 file (whose anchors named the ledger, its
  // commits and spent total only), and its commit count (0 for version 1).
  bool legacy = false;
  uint64_t legacy_commits = 0;
  std::vector<LedgerScope> scopes;

  LedgerScope* find(const std::string& name);
  // The three changes that make the history, each one event, numbered in
  // turn: a scope made, a cap set, a release recorded. Nothing else may
  // change a cap or the releases (a memo change is no event).
  LedgerScope& add_scope(const std::string& name, double cap, uint32_t memo_capacity);
  void set_cap(LedgerScope& scope, double cap);
  void add_release(LedgerScope& scope, LedgerRelease release);
};

// What an app keeps outside the ledger to detect a rollback
// (dxt_ledger_anchor): after `commits` events, the first 16 bytes of the
// head of a hash chain over every one of them, in order, started from the
// ledger's secret (and app key), and the total spent by those events.
// No other history, and no other ledger, has the same head after as many
// events (docs/budgets.md, "Rollback").
struct LedgerAnchor {
  std::array<uint8_t, 16> id{};
  uint64_t commits = 0;
  double spent = 0;
};
// The anchor of the state as it is, and after its first `events` events
// (events <= state.events). After 0 events it names the ledger: every copy
// of its file, whatever its history, has that one (the CLI keys its anchors
// by it).
struct LedgerKeys;
LedgerAnchor ledger_anchor(const LedgerState& state, const LedgerKeys& keys);
LedgerAnchor ledger_anchor_at(const LedgerState& state, const LedgerKeys& keys, uint64_t events);
// The hash chain after `events` events, in full (the anchor keeps 16 bytes
// of its head). ledger_chain continues from `from`, a point of the same
// state's chain no later than `events`, when given: one pass over the
// history serves the check before a change and the anchor after it.
struct LedgerChain {
  Digest head{};
  uint64_t events = 0;
  double spent = 0;
};
LedgerChain ledger_chain(const LedgerState& state, const LedgerKeys& keys, uint64_t events,
                         const LedgerChain* from = nullptr);
LedgerAnchor anchor_of_chain(const LedgerChain& chain);
// The ledger's name (its anchor after 0 events) from the first bytes of its
// file, before its MAC is checked: nullopt if they are not a ledger's
// header or the app key does not fit its flags (opening the file then
// says what is wrong). Only for naming; the anchor check does the rest.
std::optional<std::array<uint8_t, 16>> ledger_identity_from_header(const uint8_t* data, size_t size,
                                                                   const std::vector<uint8_t>& app_key);
inline constexpr size_t kLedgerHeaderBytes = 8 + 4 + 4 + 32;
// The ledger's name as version 1 and 2 anchors gave it, from its secret.
std::array<uint8_t, 16> legacy_ledger_id(const LedgerState& state);
// Throws Error(DXT_E_LEDGER_ROLLBACK) unless the first anchor.commits
// events of `state` are the anchor's history: an older copy, a copy spent
// otherwise since (forked, padded), another ledger or a file made anew are
// refused. An anchor from version 1 or 2 is checked as it was then (the
// same ledger, no less spent). Returns the chain at the anchor's point
// (none for an anchor of version 1 or 2).
std::optional<LedgerChain> check_not_rolled_back(const LedgerState& state, const LedgerKeys& keys,
                                                 const LedgerAnchor& anchor);

// The two keys of a ledger, derived from its secret and the optional app key.
struct LedgerKeys {
  Digest mac{};
  Digest memo{};
  Digest history{};  // starts the hash chain of the anchor
};
LedgerKeys derive_ledger_keys(const std::array<uint8_t, 32>& secret, const std::vector<uint8_t>& app_key);

std::vector<uint8_t> encode_ledger(const LedgerState& state, const std::vector<uint8_t>& app_key);
// The size encode_ledger gives, without encoding.
size_t encoded_ledger_size(const LedgerState& state);
// Throws Error(DXT_E_LEDGER_CORRUPT) for a bad MAC or a malformed body
// (event numbers missing, repeated or out of order included).
LedgerState decode_ledger(const uint8_t* data, size_t size, const std::vector<uint8_t>& app_key);

// The cost of a release with this record, in the budget unit.
double release_cost(const dxt_release_record& record);

// The scope as JSON (dxt_ledger_to_json).
std::string ledger_scope_json(const LedgerScope& scope);

}  // namespace dxt
