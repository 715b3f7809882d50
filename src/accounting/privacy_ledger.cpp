// SPDX-License-Identifier: Apache-2.0
#include "accounting/privacy_ledger.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>

#include "accounting/privacy_report.hpp"
#include "errors/error.hpp"
#include "model/hmac_sha256.hpp"

namespace dxt {
namespace {

constexpr char kMagic[8] = {'D', 'X', 'T', 'L', 'E', 'D', 'G', '1'};
constexpr uint32_t kVersion = 3;  // 1: without the commit count; 2: without the events
constexpr uint32_t kFlagKeyed = 1;
constexpr size_t kMacSize = 32;

[[noreturn]] void corrupt(const std::string& what) {
  fail(DXT_E_LEDGER_CORRUPT, "the ledger file is corrupt or was edited: " + what);
}

class Writer {
 public:
  void bytes(const void* p, size_t n) {
    const auto* b = static_cast<const uint8_t*>(p);
    out.insert(out.end(), b, b + n);
  }
  void u32(uint32_t v) {
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
  }
  void u64(uint64_t v) {
    for (int i = 0; i < 8; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
  }
  void f64(double v) {
    uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    u64(bits);
  }
  std::vector<uint8_t> out;
};

class Reader {
 public:
  Reader(const uint8_t* data, size_t size) : p_(data), left_(size) {}
  const uint8_t* bytes(size_t n) {
    if (n > left_) corrupt("it ends inside a field");
    const uint8_t* b = p_;
    p_ += n;
    left_ -= n;
    return b;
  }
  uint32_t u32() {
    const uint8_t* b = bytes(4);
    uint32_t v = 0;
    for (int i = 3; i >= 0; --i) v = (v << 8) | b[i];
    return v;
  }
  uint64_t u64() {
    const uint8_t* b = bytes(8);
    uint64_t v = 0;
    for (int i = 7; i >= 0; --i) v = (v << 8) | b[i];
    return v;
  }
  double f64() {
    const uint64_t bits = u64();
    double v;
    std::memcpy(&v, &bits, sizeof v);
    return v;
  }
  // A count of items of at least `item_size` bytes each that must fit.
  uint64_t count(uint64_t n, size_t item_size) {
    if (item_size != 0 && n > left_ / item_size) corrupt("a count exceeds the file");
    return n;
  }
  size_t left() const { return left_; }

 private:
  const uint8_t* p_;
  size_t left_;
};

bool finite_nonnegative(double v) { return std::isfinite(v) && v >= 0; }

bool equal_constant_time(const uint8_t* a, const uint8_t* b, size_t n) {
  uint8_t diff = 0;
  for (size_t i = 0; i < n; ++i) diff = static_cast<uint8_t>(diff | (a[i] ^ b[i]));
  return diff == 0;
}

std::string json_number(double v) {
  char b[40];
  std::snprintf(b, sizeof b, "%.17g", v);
  return b;
}

std::string json_string(const std::string& s) {
  std::string r = "\"";
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      r += '\\';
      r += c;
    } else if (u < 0x20) {
      char b[8];
      std::snprintf(b, sizeof b, "\\u%04x", u);
      r += b;
    } else {
      r += c;
    }
  }
  return r + "\"";
}

}  // namespace

double LedgerScope::spent() const {
  double total = 0;
  for (const LedgerRelease& r : releases) total += r.cost;
  return total;
}

double LedgerScope::spent_any_inputs() const {
  double total = 0;
  for (const LedgerRelease& r : releases)
    if (r.bound == DXT_BOUND_ANY_INPUTS) total += r.cost;
  return total;
}

const std::string* LedgerScope::recall(const Digest& key) {
  for (LedgerMemoEntry& e : memo)
    if (e.key == key) {
      e.last_use = ++clock;
      return &e.output;
    }
  return nullptr;
}

void LedgerScope::remember(const Digest& key, const std::string& output) {
  if (memo_capacity == 0) return;
  for (LedgerMemoEntry& e : memo)
    if (e.key == key) {
      e.output = output;
      e.last_use = ++clock;
      return;
    }
  while (memo.size() >= memo_capacity) {
    const auto oldest = std::min_element(memo.begin(), memo.end(),
                                         [](const auto& a, const auto& b) { return a.last_use < b.last_use; });
    memo.erase(oldest);
  }
  memo.push_back({key, ++clock, output});
}

LedgerScope* LedgerState::find(const std::string& name) {
  for (LedgerScope& s : scopes)
    if (s.name == name) return &s;
  return nullptr;
}

LedgerScope& LedgerState::add_scope(const std::string& name, double cap, uint32_t memo_capacity) {
  LedgerScope s;
  s.name = name;
  s.cap = cap;
  s.caps.push_back({++events, cap});
  s.memo_capacity = memo_capacity;
  scopes.push_back(std::move(s));
  return scopes.back();
}

void LedgerState::set_cap(LedgerScope& scope, double cap) {
  scope.cap = cap;
  scope.caps.push_back({++events, cap});
}

void LedgerState::add_release(LedgerScope& scope, LedgerRelease release) {
  release.event = ++events;
  scope.releases.push_back(release);
}

LedgerKeys derive_ledger_keys(const std::array<uint8_t, 32>& secret, const std::vector<uint8_t>& app_key) {
  // Without an app key the secret is the HMAC key; with one, the app key is,
  // and the secret is mixed into the message, so neither alone suffices.
  auto derive = [&](const char* label) {
    const std::string l = label;
    if (app_key.empty()) return hmac_sha256(secret.data(), secret.size(), l.data(), l.size());
    HmacSha256 h(app_key.data(), app_key.size());
    h.update(l.data(), l.size());
    h.update(secret.data(), secret.size());
    return h.finish();
  };
  return {derive("dxtext ledger mac v1"), derive("dxtext ledger memo v1"), derive("dxtext ledger history v1")};
}

std::vector<uint8_t> encode_ledger(const LedgerState& state, const std::vector<uint8_t>& app_key) {
  Writer w;
  w.bytes(kMagic, sizeof kMagic);
  w.u32(kVersion);
  w.u32(state.keyed ? kFlagKeyed : 0);
  w.bytes(state.secret.data(), state.secret.size());
  w.u64(state.events);
  w.u32(static_cast<uint32_t>(state.scopes.size()));
  for (const LedgerScope& s : state.scopes) {
    w.u32(static_cast<uint32_t>(s.name.size()));
    w.bytes(s.name.data(), s.name.size());
    w.u32(s.memo_capacity);
    w.u64(s.clock);
    w.u32(static_cast<uint32_t>(s.caps.size()));
    for (const LedgerCapChange& c : s.caps) {
      w.u64(c.event);
      w.f64(c.cap);
    }
    w.u64(s.releases.size());
    for (const LedgerRelease& r : s.releases) {
      w.u32(r.mechanism);
      w.u32(r.metric);
      w.u32(r.release);
      w.u32(r.bound);
      w.f64(r.epsilon);
      w.f64(r.cost);
      w.u64(r.words);
      w.u64(r.event);
      w.f64(r.worst_case);
    }
    w.u32(static_cast<uint32_t>(s.memo.size()));
    for (const LedgerMemoEntry& e : s.memo) {
      w.bytes(e.key.data(), e.key.size());
      w.u64(e.last_use);
      w.u32(static_cast<uint32_t>(e.output.size()));
      w.bytes(e.output.data(), e.output.size());
    }
  }
  const LedgerKeys keys = derive_ledger_keys(state.secret, app_key);
  const Digest mac = hmac_sha256(keys.mac.data(), keys.mac.size(), w.out.data(), w.out.size());
  w.bytes(mac.data(), mac.size());
  return w.out;
}

size_t encoded_ledger_size(const LedgerState& state) {
  size_t n = sizeof kMagic + 4 + 4 + state.secret.size() + 8 + 4;
  for (const LedgerScope& s : state.scopes) {
    n += 4 + s.name.size() + 4 + 8 + 4 + s.caps.size() * kLedgerCapBytes + 8 + s.releases.size() * kLedgerReleaseBytes +
         4;
    for (const LedgerMemoEntry& e : s.memo) n += kLedgerMemoEntryBytes + e.output.size();
  }
  return n + kMacSize;
}

namespace {

// Version 1 and 2 files have no event numbers: their history is numbered in
// file order, every scope's making first, then every scope's releases.
void number_legacy_events(LedgerState& st) {
  for (LedgerScope& s : st.scopes) s.caps.push_back({++st.events, s.cap});
  for (LedgerScope& s : st.scopes)
    for (LedgerRelease& r : s.releases) r.event = ++st.events;
}

// Every event from 1 to st.events is one cap entry or one release, and a
// scope's come in order, its making first.
void check_events(const LedgerState& st) {
  uint64_t items = 0;
  for (const LedgerScope& s : st.scopes) items += s.caps.size() + s.releases.size();
  if (items != st.events) corrupt("its event count does not match its history");
  std::vector<bool> seen(static_cast<size_t>(items) + 1, false);
  auto take = [&](uint64_t event, uint64_t after) {
    if (event == 0 || event > items || event <= after || seen[static_cast<size_t>(event)])
      corrupt("an event number is missing, repeated or out of order");
    seen[static_cast<size_t>(event)] = true;
  };
  for (const LedgerScope& s : st.scopes) {
    uint64_t last = 0;
    for (const LedgerCapChange& c : s.caps) {
      take(c.event, last);
      last = c.event;
    }
    last = s.caps.front().event;
    for (const LedgerRelease& r : s.releases) {
      take(r.event, last);
      last = r.event;
    }
  }
}

}  // namespace

LedgerState decode_ledger(const uint8_t* data, size_t size, const std::vector<uint8_t>& app_key) {
  constexpr size_t header = sizeof kMagic + 4 + 4 + 32;
  if (size < header + 4 + kMacSize) corrupt("it is " + std::to_string(size) + " bytes, too short for a ledger");
  if (std::memcmp(data, kMagic, sizeof kMagic) != 0) corrupt("it does not start with DXTLEDG1");
  Reader r(data + sizeof kMagic, size - sizeof kMagic - kMacSize);
  const uint32_t version = r.u32();
  if (version < 1 || version > kVersion)
    corrupt("unknown ledger version " + std::to_string(version) + " (this dxtext reads versions 1 to " +
            std::to_string(kVersion) + ")");
  LedgerState st;
  const uint32_t flags = r.u32();
  if ((flags & ~kFlagKeyed) != 0) corrupt("unknown flags");
  st.keyed = (flags & kFlagKeyed) != 0;
  if (st.keyed && app_key.empty())
    fail(DXT_E_LEDGER_CORRUPT, "the ledger was created with an app key: open it with that key");
  std::memcpy(st.secret.data(), r.bytes(32), 32);
  // The MAC first: nothing of the body is trusted before it verifies.
  const LedgerKeys keys = derive_ledger_keys(st.secret, app_key);
  const Digest mac = hmac_sha256(keys.mac.data(), keys.mac.size(), data, size - kMacSize);
  if (!equal_constant_time(mac.data(), data + size - kMacSize, kMacSize))
    corrupt(st.keyed || !app_key.empty() ? "its MAC does not verify (damaged, edited, or another app key)"
                                         : "its MAC does not verify (damaged or edited)");
  const bool v3 = version >= 3;
  st.legacy = !v3;
  if (v3) st.events = r.u64();
  if (version == 2) st.legacy_commits = r.u64();
  const uint64_t scopes = r.count(r.u32(), v3 ? 4 + 4 + 8 + 4 + kLedgerCapBytes + 8 + 4 : 4 + 8 + 4 + 8 + 8 + 4);
  for (uint64_t i = 0; i < scopes; ++i) {
    LedgerScope s;
    const uint32_t name_length = r.u32();
    if (name_length == 0 || name_length > 255) corrupt("a scope name has a bad length");
    s.name.assign(reinterpret_cast<const char*>(r.bytes(name_length)), name_length);
    if (!v3) {
      s.cap = r.f64();
      if (!finite_nonnegative(s.cap)) corrupt("a cap is not a finite number >= 0");
    }
    s.memo_capacity = r.u32();
    if (s.memo_capacity > DXT_LEDGER_MEMO_MAX) corrupt("a memo capacity is too large");
    s.clock = r.u64();
    if (v3) {
      const uint64_t caps = r.count(r.u32(), kLedgerCapBytes);
      if (caps == 0) corrupt("a scope has no cap");
      s.caps.resize(caps);
      for (LedgerCapChange& c : s.caps) {
        c.event = r.u64();
        c.cap = r.f64();
        if (!finite_nonnegative(c.cap)) corrupt("a cap is not a finite number >= 0");
      }
      s.cap = s.caps.back().cap;
    }
    const size_t release_bytes = v3 ? kLedgerReleaseBytes : kLedgerReleaseBytes - 16;
    const uint64_t releases = r.count(r.u64(), release_bytes);
    s.releases.resize(releases);
    for (LedgerRelease& rel : s.releases) {
      rel.mechanism = r.u32();
      rel.metric = r.u32();
      rel.release = r.u32();
      rel.bound = r.u32();
      rel.epsilon = r.f64();
      rel.cost = r.f64();
      rel.words = r.u64();
      if (v3) rel.event = r.u64();
      if (v3) rel.worst_case = r.f64();
      if (!finite_nonnegative(rel.epsilon) || !finite_nonnegative(rel.cost)) corrupt("a release has a bad epsilon");
      if (!(rel.worst_case >= 0)) corrupt("a release has a bad worst case");
    }
    const uint64_t memo = r.count(r.u32(), 32 + 8 + 4);
    if (memo > s.memo_capacity) corrupt("a memo holds more entries than its capacity");
    s.memo.resize(memo);
    for (LedgerMemoEntry& e : s.memo) {
      std::memcpy(e.key.data(), r.bytes(32), 32);
      e.last_use = r.u64();
      const uint32_t length = r.u32();
      e.output.assign(reinterpret_cast<const char*>(r.bytes(length)), length);
    }
    if (st.find(s.name) != nullptr) corrupt("a scope appears twice");
    st.scopes.push_back(std::move(s));
  }
  if (r.left() != 0) corrupt("bytes follow the last scope");
  if (v3)
    check_events(st);
  else
    number_legacy_events(st);
  return st;
}

namespace {

// The bytes of one event: its number, its kind, its scope's name and every
// field it records (a scope's making: cap and memo capacity; a cap set: the
// cap; a release: the fields of its entry but the event number).
class EventBytes {
 public:
  EventBytes(uint64_t event, char kind, const std::string& scope) {
    put(event, 8);
    bytes_[size_++] = static_cast<uint8_t>(kind);
    put(scope.size(), 4);
    std::memcpy(bytes_.data() + size_, scope.data(), scope.size());  // at most 255 bytes
    size_ += scope.size();
  }
  void put(uint64_t v, int n) {
    for (int i = 0; i < n; ++i) bytes_[size_++] = static_cast<uint8_t>(v >> (8 * i));
  }
  void put_f64(double v) {
    uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    put(bits, 8);
  }
  const uint8_t* data() const { return bytes_.data(); }
  size_t size() const { return size_; }

 private:
  std::array<uint8_t, 8 + 1 + 4 + 255 + 4 * 4 + 8 * 3> bytes_{};
  size_t size_ = 0;
};

}  // namespace

LedgerChain ledger_chain(const LedgerState& state, const LedgerKeys& keys, uint64_t events, const LedgerChain* from) {
  if (events > state.events) fail(DXT_E_INTERNAL, "an anchor past the ledger's history was asked for");
  LedgerChain chain;
  chain.head = keys.history;  // h_0: from the ledger's secret and the app key
  if (from != nullptr) {
    if (from->events > events) fail(DXT_E_INTERNAL, "a ledger chain continued backwards");
    chain = *from;
  }
  if (chain.events == events) return chain;
  // The events from chain.events + 1 to `events` in their order: a scope's
  // making or cap (release == nullptr), or a release.
  struct Event {
    const LedgerScope* scope = nullptr;
    const LedgerCapChange* cap = nullptr;
    const LedgerRelease* release = nullptr;
  };
  const uint64_t first = chain.events + 1;
  std::vector<Event> order(static_cast<size_t>(events - chain.events));
  for (const LedgerScope& s : state.scopes) {
    for (const LedgerCapChange& c : s.caps)
      if (c.event >= first && c.event <= events) order[static_cast<size_t>(c.event - first)] = {&s, &c, nullptr};
    for (const LedgerRelease& r : s.releases)
      if (r.event >= first && r.event <= events) order[static_cast<size_t>(r.event - first)] = {&s, nullptr, &r};
  }
  // h_k = SHA-256(h_(k-1) || event k): the anchor's first 16 bytes of h_n
  // then depend on every event, in order, and on which ledger it is.
  for (size_t k = 0; k < order.size(); ++k) {
    const Event& e = order[k];
    if (e.scope == nullptr) fail(DXT_E_INTERNAL, "the ledger's history has a gap");
    const uint64_t number = first + k;
    Sha256 h;
    h.update(chain.head.data(), chain.head.size());
    if (e.release == nullptr) {
      const bool made = e.cap == &e.scope->caps.front();
      EventBytes b(number, made ? 'S' : 'C', e.scope->name);
      b.put_f64(e.cap->cap);
      if (made) b.put(e.scope->memo_capacity, 4);
      h.update(b.data(), b.size());
    } else {
      const LedgerRelease& r = *e.release;
      EventBytes b(number, 'R', e.scope->name);
      b.put(r.mechanism, 4);
      b.put(r.metric, 4);
      b.put(r.release, 4);
      b.put(r.bound, 4);
      b.put_f64(r.epsilon);
      b.put_f64(r.cost);
      b.put(r.words, 8);
      b.put_f64(r.worst_case);
      h.update(b.data(), b.size());
      chain.spent += r.cost;
    }
    chain.head = h.finish();
  }
  chain.events = events;
  return chain;
}

LedgerAnchor anchor_of_chain(const LedgerChain& chain) {
  LedgerAnchor a;
  std::memcpy(a.id.data(), chain.head.data(), a.id.size());
  a.commits = chain.events;
  a.spent = chain.spent;
  return a;
}

LedgerAnchor ledger_anchor_at(const LedgerState& state, const LedgerKeys& keys, uint64_t events) {
  return anchor_of_chain(ledger_chain(state, keys, events));
}

LedgerAnchor ledger_anchor(const LedgerState& state, const LedgerKeys& keys) {
  return ledger_anchor_at(state, keys, state.events);
}

std::optional<std::array<uint8_t, 16>> ledger_identity_from_header(const uint8_t* data, size_t size,
                                                                   const std::vector<uint8_t>& app_key) {
  if (size < kLedgerHeaderBytes || std::memcmp(data, kMagic, sizeof kMagic) != 0) return std::nullopt;
  Reader r(data + sizeof kMagic, kLedgerHeaderBytes - sizeof kMagic);
  const uint32_t version = r.u32();
  const uint32_t flags = r.u32();
  if (version < 1 || version > kVersion || (flags & ~kFlagKeyed) != 0) return std::nullopt;
  if (((flags & kFlagKeyed) != 0) != !app_key.empty()) return std::nullopt;
  LedgerState st;
  std::memcpy(st.secret.data(), r.bytes(32), 32);
  return ledger_anchor_at(st, derive_ledger_keys(st.secret, app_key), 0).id;
}

std::array<uint8_t, 16> legacy_ledger_id(const LedgerState& state) {
  Sha256 h;
  static constexpr char kDomain[] = "dxtext ledger id v1";
  h.update(kDomain, sizeof kDomain - 1);
  h.update(state.secret.data(), state.secret.size());
  const Digest d = h.finish();
  std::array<uint8_t, 16> id{};
  std::memcpy(id.data(), d.data(), id.size());
  return id;
}

std::optional<LedgerChain> check_not_rolled_back(const LedgerState& state, const LedgerKeys& keys,
                                                 const LedgerAnchor& anchor) {
  if (anchor.id == legacy_ledger_id(state)) {
    // An anchor stored by a dxtext that wrote version 1 or 2 files names the
    // ledger and counts its commits and spent total: checked as then, until
    // the app stores the anchor of this version (after its next call).
    double spent = 0;
    for (const LedgerScope& s : state.scopes) spent += s.spent();
    if ((state.legacy && state.legacy_commits < anchor.commits) || spent < anchor.spent)
      fail(DXT_E_LEDGER_ROLLBACK, "ledger rolled back: the file has spent " + json_number(spent) +
                                      ", the anchor (from an earlier version of dxtext) " + json_number(anchor.spent) +
                                      " (an older copy was put back); nothing was drawn or released");
    return std::nullopt;
  }
  if (anchor.commits > state.events)
    fail(DXT_E_LEDGER_ROLLBACK, "ledger rolled back: the file's history has " + std::to_string(state.events) +
                                    " events, the anchor's " + std::to_string(anchor.commits) +
                                    " (an older copy was put back, the file was deleted or made anew, or it is "
                                    "another ledger); nothing was drawn or released");
  const LedgerChain chain = ledger_chain(state, keys, anchor.commits);
  const LedgerAnchor then = anchor_of_chain(chain);
  if (then.id != anchor.id || then.spent != anchor.spent)
    fail(DXT_E_LEDGER_ROLLBACK,
         "ledger rolled back: the file's first " + std::to_string(anchor.commits) +
             " events are not the anchor's history (an older copy spent otherwise since, a copy of another "
             "ledger, or a file made anew); nothing was drawn or released");
  return chain;
}

double release_cost(const dxt_release_record& record) {
  return record.bound == DXT_BOUND_ANY_INPUTS ? record.epsilon_total : record.epsilon;
}

std::string ledger_scope_json(const LedgerScope& scope) {
  const double spent = scope.spent();
  const double any = scope.spent_any_inputs();
  uint64_t words = 0;
  double word_weighted = 0;  // sum of epsilon * words over metric releases
  double worst_case = 0;     // sum of words * worst case per word, in nats
  std::map<std::string, double> by_metric;
  for (const LedgerRelease& r : scope.releases) {
    words += r.words;
    worst_case += r.bound == DXT_BOUND_ANY_INPUTS ? r.cost : static_cast<double>(r.words) * r.worst_case;
    if (r.bound != DXT_BOUND_ANY_INPUTS) word_weighted += r.cost * static_cast<double>(r.words);
    if (r.bound != DXT_BOUND_ANY_INPUTS) by_metric[metric_name(static_cast<dxt_metric>(r.metric))] += r.cost;
  }
  std::string s = "{\"scope\":" + json_string(scope.name);
  s += ",\"budget_unit\":\"epsilon summed over releases (epsilon_total for any_inputs releases)\"";
  s += ",\"cap\":" + json_number(scope.cap);
  s += ",\"spent\":" + json_number(spent);
  s += ",\"remaining\":" + json_number(std::max(0.0, scope.cap - spent));
  s += ",\"releases\":" + std::to_string(scope.releases.size());
  s += ",\"words\":" + std::to_string(words);
  s += ",\"memoised\":" + std::to_string(scope.memo.size());
  s += ",\"memo_capacity\":" + std::to_string(scope.memo_capacity);
  s += ",\"spent_by_metric\":{";
  std::string terms;
  bool first = true;
  for (const auto& [name, total] : by_metric) {
    s += (first ? "" : ",") + json_string(name) + ":" + json_number(total);
    terms += (first ? "" : " + ") + json_number(total) + " * D_" + name;
    first = false;
  }
  s += "},\"spent_any_inputs\":" + json_number(any);
  s += ",\"epsilon_times_words\":" + json_number(word_weighted);
  // On one scale: the composed loss in nats between any two histories whose
  // releases have the same word counts (null when a release had no bound).
  s += ",\"worst_case_nats\":" + (std::isfinite(worst_case) ? json_number(worst_case) : std::string("null"));
  s += ",\"worst_case_unit\":\"nats, not spent: the sum over releases of words * worst_case_per_word, the most any "
       "two histories with the same word counts can differ by, whatever their words; the cap is in the budget unit\"";
  if (any > 0) terms += (terms.empty() ? "" : " + ") + json_number(any);
  if (terms.empty()) terms = "0";
  s += ",\"guarantee\":" + json_string(
                               "for two histories of this scope's releases whose inputs are paired release by release, "
                               "the probability of any set of outputs changes by at most exp(" +
                               terms +
                               "), D_m the largest distance of a pair under metric m in its release's bound "
                               "(sum_i d(x_i, x'_i) for texts of equal word count, N * EMD for bags of size N)");
  return s + "}";
}

}  // namespace dxt
