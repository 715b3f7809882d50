// SPDX-License-Identifier: Apache-2.0
// The C glue of the privacy ledger (include/dxtext/dxtext.h, "Privacy
// ledger"): argument checks, the two stores (a file, or bytes the caller
// keeps), and the order that makes a refusal draw nothing: cost and memo are
// decided before the privatiser runs, and the release is committed before
// its output is handed out.
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <string_view>

#include "abi/abi_support.hpp"
#include "accounting/ledger_file.hpp"
#include "accounting/ledger_memo_key.hpp"
#include "accounting/ledger_memory.hpp"
#include "accounting/privacy_ledger.hpp"

using namespace dxt::abi;

namespace {

// The options as first published, without the anchor (read only when
// struct_size covers it).
constexpr size_t kLedgerOptionsV1 = offsetof(dxt_ledger_options, anchor);
constexpr size_t kLedgerAnchorV1 = sizeof(dxt_ledger_anchor);
constexpr size_t kLedgerTotalsV1 = sizeof(dxt_ledger_totals);

std::string number(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.10g", v);
  return b;
}

void check_cap(double cap) {
  if (!std::isfinite(cap) || cap < 0) dxt::fail(DXT_E_INVALID_ARGUMENT, "a ledger cap must be a finite number >= 0");
}

dxt::LedgerScope& scope_of(dxt::LedgerState& state, const dxt_ledger* ledger) {
  dxt::LedgerScope* s = state.find(ledger->scope);
  if (s == nullptr) dxt::fail(DXT_E_LEDGER_CORRUPT, "the scope \"" + ledger->scope + "\" is missing from the ledger");
  return *s;
}

// The options of dxt_ledger_open and dxt_ledger_open_memory, checked; the
// app key in `key`.
dxt_ledger_options check_ledger_options(const dxt_ledger_options* options, std::vector<uint8_t>& key) {
  dxt_ledger_options o;
  dxt_ledger_options_init(&o);
  if (options != nullptr) {
    check_struct(options, kLedgerOptionsV1, "options");
    std::memcpy(&o, options, options->struct_size < sizeof o ? options->struct_size : sizeof o);
    o.struct_size = sizeof o;
  }
  if (o.anchor != nullptr) check_struct(o.anchor, kLedgerAnchorV1, "anchor");
  check_cap(o.cap);
  if (o.memo_capacity > DXT_LEDGER_MEMO_MAX)
    dxt::fail(DXT_E_INVALID_ARGUMENT,
              "memo_capacity is above DXT_LEDGER_MEMO_MAX (" + std::to_string(DXT_LEDGER_MEMO_MAX) + ")");
  if (o.key != nullptr || o.key_length != 0) {
    require(o.key != nullptr, "key is NULL but key_length is not 0");
    if (o.key_length < 16 || o.key_length > 64)
      dxt::fail(DXT_E_INVALID_ARGUMENT, "a ledger app key is 16 to 64 bytes long");
    key.assign(o.key, o.key + o.key_length);
  }
  return o;
}

void check_scope(const char* scope) {
  require(scope != nullptr, "scope is NULL");
  const size_t scope_length = std::strlen(scope);
  if (scope_length == 0 || scope_length > 255)
    dxt::fail(DXT_E_INVALID_ARGUMENT, "a ledger scope is 1 to 255 bytes long");
  if (!dxt::utf8::valid(scope, scope_length)) dxt::fail(DXT_E_INVALID_UTF8, "the ledger scope is not valid UTF-8");
}

// Every call on a ledger is one transaction of its store: checked against
// the handle's anchor first (a rollback is refused before anything else),
// and leaving the handle the anchor of the state it read or wrote (`change`
// adds to the history through LedgerState's add_scope, set_cap and
// add_release only).
void transact(dxt_ledger* ledger, bool create,
              const std::function<bool(dxt::LedgerState&, const dxt::LedgerKeys&)>& change) {
  dxt::LedgerAnchor next;
  ledger->store->transact(create, [&](dxt::LedgerState& state, const dxt::LedgerKeys& keys) {
    std::optional<dxt::LedgerChain> checked;
    if (ledger->anchor) checked = dxt::check_not_rolled_back(state, keys, *ledger->anchor);
    const bool changed = change(state, keys);
    // Events are only appended: the chain checked goes on from where it is.
    next = dxt::anchor_of_chain(dxt::ledger_chain(state, keys, state.events, checked ? &*checked : nullptr));
    return changed;
  });
  ledger->anchor = next;
}

// A handle on `store` with `scope` selected; the scope is created (with the
// options' cap and memo capacity) if it is not there yet.
dxt_ledger* open_scope(std::unique_ptr<dxt::LedgerStore> store, const char* scope, const dxt_ledger_options& o) {
  auto ledger = std::make_unique<dxt_ledger>();
  ledger->store = std::move(store);
  ledger->scope = scope;
  if (o.anchor != nullptr) {
    dxt::LedgerAnchor a;
    std::memcpy(a.id.data(), o.anchor->ledger_id, a.id.size());
    a.commits = o.anchor->commits;
    a.spent = o.anchor->spent;
    if (!std::isfinite(a.spent) || a.spent < 0)
      dxt::fail(DXT_E_INVALID_ARGUMENT, "anchor.spent must be a finite number >= 0");
    ledger->anchor = a;
  }
  transact(ledger.get(), true, [&](dxt::LedgerState& state, const dxt::LedgerKeys&) {
    if (state.find(ledger->scope) != nullptr) return false;  // an existing scope: nothing to write
    state.add_scope(ledger->scope, o.cap, o.memo_capacity);
    return true;
  });
  return ledger.release();
}

}  // namespace

extern "C" {

void dxt_ledger_options_init_sized(dxt_ledger_options* o, size_t struct_size) {
  dxt_ledger_options d = zeroed<dxt_ledger_options>();
  d.memo_capacity = DXT_LEDGER_MEMO_DEFAULT;
  init_sized(o, struct_size, d);
}

void dxt_ledger_anchor_init_sized(dxt_ledger_anchor* a, size_t struct_size) {
  init_sized(a, struct_size, zeroed<dxt_ledger_anchor>());
}

dxt_status dxt_ledger_anchor_encode(const dxt_ledger_anchor* anchor, uint8_t* out, size_t capacity) {
  return guarded([&] {
    check_struct(anchor, kLedgerAnchorV1, "anchor");
    require(out != nullptr, "out is NULL");
    if (capacity < DXT_LEDGER_ANCHOR_BYTES)
      dxt::fail(DXT_E_INVALID_ARGUMENT, "a ledger anchor needs " + std::to_string(DXT_LEDGER_ANCHOR_BYTES) +
                                            " bytes, not " + std::to_string(capacity));
    uint64_t spent_bits = 0;
    std::memcpy(&spent_bits, &anchor->spent, sizeof spent_bits);
    std::memcpy(out, anchor->ledger_id, 16);
    for (int i = 0; i < 8; ++i) {
      out[16 + i] = static_cast<uint8_t>(anchor->commits >> (8 * i));
      out[24 + i] = static_cast<uint8_t>(spent_bits >> (8 * i));
    }
  });
}

dxt_status dxt_ledger_anchor_decode(const uint8_t* bytes, size_t length, dxt_ledger_anchor* anchor) {
  return guarded([&] {
    check_struct(anchor, kLedgerAnchorV1, "anchor");
    require(bytes != nullptr || length == 0, "bytes is NULL");
    if (length != DXT_LEDGER_ANCHOR_BYTES)
      dxt::fail(DXT_E_INVALID_ARGUMENT, "a ledger anchor is " + std::to_string(DXT_LEDGER_ANCHOR_BYTES) +
                                            " bytes, not " + std::to_string(length));
    dxt_ledger_anchor a = zeroed<dxt_ledger_anchor>();
    a.struct_size = anchor->struct_size;
    uint64_t spent_bits = 0;
    std::memcpy(a.ledger_id, bytes, 16);
    for (int i = 0; i < 8; ++i) {
      a.commits |= static_cast<uint64_t>(bytes[16 + i]) << (8 * i);
      spent_bits |= static_cast<uint64_t>(bytes[24 + i]) << (8 * i);
    }
    std::memcpy(&a.spent, &spent_bits, sizeof a.spent);
    require(std::isfinite(a.spent) && a.spent >= 0, "a ledger anchor's spent total is negative or not finite");
    std::memcpy(anchor, &a, sizeof a);
  });
}

dxt_status dxt_ledger_get_anchor(dxt_ledger* ledger, dxt_ledger_anchor* anchor) {
  return guarded([&] {
    require(ledger != nullptr, "ledger is NULL");
    check_struct(anchor, kLedgerAnchorV1, "anchor");
    transact(ledger, false, [](dxt::LedgerState&, const dxt::LedgerKeys&) { return false; });
    dxt_ledger_anchor a = zeroed<dxt_ledger_anchor>();
    a.struct_size = anchor->struct_size;
    std::memcpy(a.ledger_id, ledger->anchor->id.data(), sizeof a.ledger_id);
    a.commits = ledger->anchor->commits;
    a.spent = ledger->anchor->spent;
    std::memcpy(anchor, &a, sizeof a);
  });
}

void dxt_ledger_totals_init_sized(dxt_ledger_totals* t, size_t struct_size) {
  init_sized(t, struct_size, zeroed<dxt_ledger_totals>());
}

dxt_status dxt_ledger_open(const char* path, const char* scope, const dxt_ledger_options* options, dxt_ledger** out) {
  return guarded([&] {
    require(out != nullptr, "out is NULL");
    *out = nullptr;
    require(path != nullptr && path[0] != '\0', "path is NULL or empty");
    check_scope(scope);
    std::vector<uint8_t> key;
    const dxt_ledger_options o = check_ledger_options(options, key);
    *out = open_scope(std::make_unique<dxt::LedgerFile>(path, std::move(key)), scope, o);
  });
}

dxt_status dxt_ledger_open_memory(const uint8_t* bytes, size_t length, const char* scope,
                                  const dxt_ledger_options* options, dxt_ledger** out) {
  return guarded([&] {
    require(out != nullptr, "out is NULL");
    *out = nullptr;
    require(bytes != nullptr || length == 0, "bytes is NULL but length is not 0");
    check_scope(scope);
    std::vector<uint8_t> key;
    const dxt_ledger_options o = check_ledger_options(options, key);
    std::vector<uint8_t> state(bytes, bytes + length);
    *out = open_scope(std::make_unique<dxt::LedgerMemory>(std::move(state), std::move(key)), scope, o);
  });
}

dxt_status dxt_ledger_save(dxt_ledger* ledger, uint8_t* buffer, size_t capacity, size_t* required) {
  return guarded([&] {
    require(ledger != nullptr, "ledger is NULL");
    require(buffer != nullptr || capacity == 0, "buffer is NULL");
    const auto* memory = dynamic_cast<const dxt::LedgerMemory*>(ledger->store.get());
    if (memory == nullptr)
      dxt::fail(DXT_E_INVALID_ARGUMENT,
                "dxt_ledger_save is for ledgers opened with dxt_ledger_open_memory; a file "
                "ledger keeps its own bytes");
    const std::vector<uint8_t>& bytes = memory->bytes();
    if (required != nullptr) *required = bytes.size();
    if (capacity < bytes.size())
      dxt::fail(DXT_E_INPUT_TOO_LARGE, "the buffer holds " + std::to_string(capacity) + " bytes; " +
                                           std::to_string(bytes.size()) + " are needed");
    if (!bytes.empty()) std::memcpy(buffer, bytes.data(), bytes.size());
  });
}

void dxt_ledger_close(dxt_ledger* ledger) { delete ledger; }

dxt_status dxt_ledger_set_cap(dxt_ledger* ledger, double cap) {
  return guarded([&] {
    require(ledger != nullptr, "ledger is NULL");
    check_cap(cap);
    transact(ledger, false, [&](dxt::LedgerState& state, const dxt::LedgerKeys&) {
      state.set_cap(scope_of(state, ledger), cap);
      return true;
    });
  });
}

dxt_status dxt_ledger_privatize_text(dxt_ledger* ledger, dxt_context* ctx, const dxt_privatize_options* options,
                                     const char* text, size_t length, uint32_t flags, char** out, size_t* out_length,
                                     bool* memoised, dxt_release_record* record, dxt_local_diagnostics* diagnostics) {
  return guarded([&] {
    if (out != nullptr) *out = nullptr;  // first: no stale pointer survives any failure
    if (memoised != nullptr) *memoised = false;
    require(ledger != nullptr, "ledger is NULL");
    const ContextUse in_use(ctx);
    const dxt_privatize_options opt = check_common(ctx, options, record, diagnostics);
    require(out != nullptr, "out is NULL");
    require(text != nullptr || length == 0, "text is NULL");
    if ((flags & ~DXT_LEDGER_FRESH) != 0) dxt::fail(DXT_E_INVALID_ARGUMENT, "unknown ledger flags");
    const std::string_view input(text == nullptr ? "" : text, length);
    // Everything the cost and the memo key need, before any draw: building
    // the mechanism and the record reads the options and the model only.
    dxt::Mechanism& m = mechanism_for(ctx, opt);
    const dxt::TokenPolicies policies = resolve_policies(opt);
    const dxt::ReleaseShape shape = release_shape(DXT_RELEASE_TEXT, policies);
    dxt_release_record rec;
    dxt_release_record_init(&rec);
    dxt::fill_record(rec, m, *ctx->model, ctx->rng->mode(), shape);
    const double cost = dxt::release_cost(rec);
    // Under the strict shape the output's law is a function of the words as
    // strict sees them, not of the bytes: the memo is keyed on those, so
    // that "The dog ran!" and "the dog ran" share an entry and the outputs
    // do not tell whether two submissions were byte for byte the same.
    std::string strict_input;
    if (policies.shape == DXT_SHAPE_STRICT)
      strict_input = dxt::TextPrivatizer(*ctx->model, m, *ctx->rng, policies).strict_release_input(input);
    const std::string_view memo_input = policies.shape == DXT_SHAPE_STRICT ? std::string_view(strict_input) : input;

    std::string result;
    bool from_memo = false;
    dxt::TokenTally tally;
    transact(ledger, false, [&](dxt::LedgerState& state, const dxt::LedgerKeys& keys) {
      dxt::LedgerScope& scope = scope_of(state, ledger);
      // Over the parameters the mechanism was built with and the policies the
      // privatiser receives: what decides the output's law (ledger_memo_key.hpp).
      const dxt::Digest key = dxt::text_memo_key(keys.memo, m.params(), policies, rec, ctx->rng_identity, memo_input);
      // Without an app key the memo secret is in the file: a memo would let
      // its reader test guesses of past inputs. Nothing is memoised then,
      // and entries left by an older version are dropped at this commit.
      const bool memo = ledger->store->has_app_key();
      if (!memo) scope.memo.clear();
      if (memo && (flags & DXT_LEDGER_FRESH) == 0) {
        if (const std::string* hit = scope.recall(key)) {
          result = *hit;
          from_memo = true;
          return true;  // commits the entry's new place in the eviction order
        }
      }
      const double spent = scope.spent();
      if (!(spent + cost <= scope.cap))
        dxt::fail(DXT_E_BUDGET_EXCEEDED, "privacy budget exceeded: the release would cost " + number(cost) + " and " +
                                             number(spent) + " of the scope's cap " + number(scope.cap) +
                                             " is spent; nothing was drawn or released");
      // The file's size limit, checked before any draw: the release entry
      // must fit, and a memo entry is kept only if the longest one that is
      // kept would fit too (privacy_ledger.hpp, "Size limits").
      const size_t size_now = dxt::encoded_ledger_size(state);
      if (size_now + dxt::kLedgerReleaseBytes > dxt::kLedgerMaxBytes)
        dxt::fail(DXT_E_INPUT_TOO_LARGE, "the ledger file is full (" + std::to_string(dxt::kLedgerMaxBytes) +
                                             " bytes); nothing was drawn or released");
      const bool keep =
          memo && size_now + dxt::kLedgerReleaseBytes + dxt::kLedgerMemoEntryBytes + dxt::kLedgerMemoMaxOutput <=
                      dxt::kLedgerMaxBytes;
      dxt::TextPrivatizer p(*ctx->model, m, *ctx->rng, policies);
      result = p.privatize_text(input);
      tally = p.tally();
      dxt::LedgerRelease entry{rec.mechanism, rec.metric, rec.release, rec.bound, rec.epsilon, cost, tally.privatized};
      entry.worst_case = m.worst_case_per_word();
      state.add_release(scope, entry);
      if (keep && result.size() <= dxt::kLedgerMemoMaxOutput) scope.remember(key, result);
      return true;
    });
    if (record != nullptr) dxt::fill_record(*record, m, *ctx->model, ctx->rng->mode(), shape);
    if (diagnostics != nullptr) dxt::fill_diagnostics(*diagnostics, tally);
    *out = copy_out(result);
    if (out_length != nullptr) *out_length = result.size();
    if (memoised != nullptr) *memoised = from_memo;
  });
}

dxt_status dxt_ledger_get_totals(dxt_ledger* ledger, dxt_ledger_totals* totals) {
  return guarded([&] {
    require(ledger != nullptr, "ledger is NULL");
    check_struct(totals, kLedgerTotalsV1, "totals");
    transact(ledger, false, [&](dxt::LedgerState& state, const dxt::LedgerKeys&) {
      const dxt::LedgerScope& s = scope_of(state, ledger);
      dxt_ledger_totals t = zeroed<dxt_ledger_totals>();
      t.struct_size = totals->struct_size;
      t.cap = s.cap;
      t.spent = s.spent();
      t.spent_any_inputs = s.spent_any_inputs();
      t.releases = s.releases.size();
      t.memoised = s.memo.size();
      t.memo_capacity = s.memo_capacity;
      for (const dxt::LedgerRelease& r : s.releases) t.words += r.words;
      std::memcpy(totals, &t, sizeof t);
      return false;
    });
  });
}

dxt_status dxt_ledger_to_json(dxt_ledger* ledger, char* buffer, size_t capacity, size_t* required) {
  return guarded([&] {
    require(ledger != nullptr, "ledger is NULL");
    require(buffer != nullptr || capacity == 0, "buffer is NULL");
    std::string json;
    transact(ledger, false, [&](dxt::LedgerState& state, const dxt::LedgerKeys&) {
      json = dxt::ledger_scope_json(scope_of(state, ledger));
      return false;
    });
    if (required != nullptr) *required = json.size() + 1;
    if (capacity < json.size() + 1)
      dxt::fail(DXT_E_INPUT_TOO_LARGE, "the buffer holds " + std::to_string(capacity) + " bytes; " +
                                           std::to_string(json.size() + 1) + " are needed");
    std::memcpy(buffer, json.c_str(), json.size() + 1);
  });
}

}  // extern "C"
