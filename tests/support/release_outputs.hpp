// SPDX-License-Identifier: Apache-2.0
// Both outputs a privatise call can fill, initialised, for tests that want
// them side by side: `rec` (the release record) and `diag` (the local
// diagnostics).
#pragma once

#include "dxtext/dxtext.h"

namespace dxt::test {

struct Reported {
  dxt_release_record rec;
  dxt_local_diagnostics diag;
  Reported() {
    dxt_release_record_init(&rec);
    dxt_local_diagnostics_init(&diag);
  }
};

}  // namespace dxt::test
