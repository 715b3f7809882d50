// SPDX-License-Identifier: Apache-2.0
#include <openssl/crypto.h>

#include "rng/secure_wipe.hpp"

namespace dxt {

void secure_wipe(void* data, size_t size) { OPENSSL_cleanse(data, size); }

}  // namespace dxt
