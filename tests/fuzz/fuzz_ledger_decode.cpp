// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the privacy ledger's file reader (decode_ledger) on arbitrary
// bytes. The first byte picks the mode: even, the bytes are the whole file
// (which its MAC almost always refuses); odd, they are the body after the
// header, and the target appends a valid MAC, so the parser behind the MAC
// is reached; its bits 1 and 2 pick the header's version (0: version 1,
// whose body starts with the scopes; 1: version 2, whose body starts with
// the commit count; 2 or 3: version 3, whose body starts with the event
// count, and whose scopes carry their cap history and event numbers).
// Whatever decodes must encode back to the same bytes (a version 1 or 2
// file to the same state), and its anchor must accept it, as must its
// anchor after any shorter history, and refuse it as rolled back against
// an anchor one event ahead or with one bit of its chain changed.
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
  const uint8_t version = (mode & 4) != 0 ? 3 : (mode & 2) != 0 ? 2 : 1;
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
    if (file.size() >= 12 && file[8] == 3) {
      DXT_FUZZ_CHECK(encoded == file);
    } else {
      DXT_FUZZ_CHECK(state.legacy);
      const dxt::LedgerState again = dxt::decode_ledger(encoded.data(), encoded.size(), {});
      DXT_FUZZ_CHECK(again.events == state.events);
      DXT_FUZZ_CHECK(dxt::encode_ledger(again, {}) == encoded);
    }
    DXT_FUZZ_CHECK(dxt::encoded_ledger_size(state) == encoded.size());
    const dxt::LedgerKeys keys = dxt::derive_ledger_keys(state.secret, {});
    const dxt::LedgerAnchor anchor = dxt::ledger_anchor(state, keys);
    DXT_FUZZ_CHECK(anchor.commits == state.events);
    dxt::check_not_rolled_back(state, keys, anchor);  // its own anchor: never a rollback
    dxt::check_not_rolled_back(state, keys, dxt::ledger_anchor_at(state, keys, state.events / 2));
    auto refused = [&](const dxt::LedgerAnchor& a) {
      try {
        dxt::check_not_rolled_back(state, keys, a);
      } catch (const dxt::Error& e) {
        return e.status() == DXT_E_LEDGER_ROLLBACK;
      }
      return false;
    };
    if (anchor.commits < UINT64_MAX) {
      dxt::LedgerAnchor ahead = anchor;
      ++ahead.commits;
      DXT_FUZZ_CHECK(refused(ahead));
    }
    dxt::LedgerAnchor changed = anchor;
    changed.id[0] ^= 1;
    DXT_FUZZ_CHECK(changed.id == dxt::legacy_ledger_id(state) || refused(changed));
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
