// SPDX-License-Identifier: Apache-2.0
// Overwrites memory with zeros in a way the compiler may not optimise away:
// used for random bytes that were consumed. OpenSSL's OPENSSL_cleanse in the
// OpenSSL build, a volatile store loop in the portable one (DXT_CRYPTO).
#pragma once

#include <cstddef>

namespace dxt {

void secure_wipe(void* data, size_t size);

}  // namespace dxt
