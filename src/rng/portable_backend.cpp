// SPDX-License-Identifier: Apache-2.0
// DXT_CRYPTO=portable: the system generator and the keyed stream without
// OpenSSL. (The OpenSSL build compiles system_byte_source.cpp and
// keyed_stream.cpp instead of this file.)
#include "rng/byte_source.hpp"

namespace dxt {

std::unique_ptr<ByteSource> make_system_byte_source() {
#if defined(__APPLE__)
  return make_secrandom_byte_source();
#else
  return make_getentropy_byte_source();
#endif
}

std::unique_ptr<ByteSource> make_keyed_stream(const std::array<uint8_t, 32>& seed) {
  return make_portable_keyed_stream(seed);
}

}  // namespace dxt
