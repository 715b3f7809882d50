// SPDX-License-Identifier: Apache-2.0
#include "accounting/ledger_memory.hpp"

#include <string>
#include <utility>

#include "errors/error.hpp"
#include "rng/byte_source.hpp"

namespace dxt {

LedgerMemory::LedgerMemory(std::vector<uint8_t> bytes, std::vector<uint8_t> app_key)
    : bytes_(std::move(bytes)), app_key_(std::move(app_key)) {}

void LedgerMemory::transact(bool create, const std::function<bool(LedgerState&, const LedgerKeys&)>& change) {
  LedgerState state;
  if (bytes_.empty()) {
    if (!create) fail(DXT_E_INTERNAL, "the ledger holds no state");
    make_system_byte_source()->fill(state.secret.data(), state.secret.size());
    state.keyed = !app_key_.empty();
  } else {
    state = decode_ledger(bytes_.data(), bytes_.size(), app_key_);
  }
  const LedgerKeys keys = derive_ledger_keys(state.secret, app_key_);
  if (!change(state, keys)) return;
  std::vector<uint8_t> bytes = encode_ledger(state, app_key_);
  if (bytes.size() > kLedgerMaxBytes)
    fail(DXT_E_INPUT_TOO_LARGE,
         "the ledger would pass " + std::to_string(kLedgerMaxBytes) + " bytes; nothing was committed");
  bytes_ = std::move(bytes);  // replaced only once fully encoded
  ++commits_;
}

}  // namespace dxt
