// SPDX-License-Identifier: Apache-2.0
#include "rng/secure_wipe.hpp"

namespace dxt {

// Stores through a volatile pointer must all happen; the empty asm with a
// memory clobber also keeps the compiler from treating the zeros as dead.
void secure_wipe(void* data, size_t size) {
  volatile unsigned char* p = static_cast<volatile unsigned char*>(data);
  for (size_t i = 0; i < size; ++i) p[i] = 0;
#if defined(__GNUC__) || defined(__clang__)
  __asm__ __volatile__("" : : "r"(data) : "memory");
#endif
}

}  // namespace dxt
