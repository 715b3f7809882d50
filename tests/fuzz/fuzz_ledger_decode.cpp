// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the privacy ledger's file reader (decode_ledger) on arbitrary
// bytes. The first byte picks the mode: even, the bytes are the whole file
// (which its MAC almost always refuses); odd, they are the body after the
// header, and the target appends a valid MAC, so the parser behind the MAC
// is reached; its bit 1 picks the header's version (0: version 1, whose body
// starts with the scopes; 1: version 2, whose body starts with the commit
// count). Whatever decodes must encode back to the same bytes (a version 1
// file to the same state), and its anchor must accept it and refuse it as
// rolled back against an anchor one commit or more ahead.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "accounting/privacy_ledger.hpp"
#include "errors/error.hpp"
#include "fuzz_support.hpp"
#include "model/hmac_sha256.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace dxt::fuzz;
  Input in(data, size);
  const uint8_t mode = in.u8();
  const bool with_mac = (mode & 1) != 0;
  const uint8_t version = (mode & 2) != 0 ? 2 : 1;
  const std::string_view rest = in.rest();
  std::vector<uint8_t> file;
  if (with_mac) {
    static const char kHeader[8] = {'D', 'X', 'T', 'L', 'E', 'D', 'G', '1'};
    file.assign(kHeader, kHeader + 8);
    const uint8_t version_and_flags[8] = {version, 0, 0, 0, 0, 0, 0, 0};
    file.insert(file.end(), version_and_flags, version_and_flags + 8);
    file.insert(file.end(), 32, uint8_t{7});  // the secret
    file.insert(file.end(), rest.begin(), rest.end());
    std::array<uint8_t, 32> secret;
    secret.fill(7);
    const dxt::LedgerKeys keys = dxt::derive_ledger_keys(secret, {});
    const dxt::Digest mac = dxt::hmac_sha256(keys.mac.data(), keys.mac.size(), file.data(), file.size());
    file.insert(file.end(), mac.begin(), mac.end());
  } else {
    file.assign(rest.begin(), rest.end());
  }
  try {
    const dxt::LedgerState state = dxt::decode_ledger(file.data(), file.size(), {});
    const std::vector<uint8_t> encoded = dxt::encode_ledger(state, {});
    if (file.size() >= 12 && file[8] == 2) {
      DXT_FUZZ_CHECK(encoded == file);
    } else {
      DXT_FUZZ_CHECK(state.commits == 0);  // version 1: no commit count
      DXT_FUZZ_CHECK(dxt::encode_ledger(dxt::decode_ledger(encoded.data(), encoded.size(), {}), {}) == encoded);
    }
    DXT_FUZZ_CHECK(dxt::encoded_ledger_size(state) == encoded.size());
    const dxt::LedgerAnchor anchor = dxt::ledger_anchor(state);
    dxt::check_not_rolled_back(state, anchor);  // its own anchor: never a rollback
    if (anchor.commits < UINT64_MAX) {
      dxt::LedgerAnchor ahead = anchor;
      ++ahead.commits;
      bool refused = false;
      try {
        dxt::check_not_rolled_back(state, ahead);
      } catch (const dxt::Error& e) {
        refused = e.status() == DXT_E_LEDGER_ROLLBACK;
      }
      DXT_FUZZ_CHECK(refused);
    }
    for (const dxt::LedgerScope& s : state.scopes) {
      DXT_FUZZ_CHECK(s.memo.size() <= s.memo_capacity);
      DXT_FUZZ_CHECK(s.spent() >= 0);
    }
  } catch (const dxt::Error& e) {
    DXT_FUZZ_CHECK(e.status() == DXT_E_LEDGER_CORRUPT);
    DXT_FUZZ_CHECK(std::string_view(e.what()).size() > 0);
  }
  return 0;
}
