#include <openssl/rand.h>
#include <pthread.h>

#include <atomic>
#include <climits>
#include <mutex>

#include "errors/error.hpp"
#include "rng/byte_source.hpp"

namespace dxt {

namespace {

// The one piece of process-wide mutable state: a fork counter, which by its
// nature belongs to the process, not to any object.
std::atomic<uint64_t> g_fork_generation{0};
void on_fork_child() { g_fork_generation.fetch_add(1, std::memory_order_relaxed); }

class SystemByteSource final : public ByteSource {
 public:
  void fill(uint8_t* out, size_t n) override {
    while (n > 0) {
      const size_t chunk = n > static_cast<size_t>(INT_MAX) ? static_cast<size_t>(INT_MAX) : n;
      if (RAND_priv_bytes(out, static_cast<int>(chunk)) != 1)
        fail(DXT_E_RNG_FAILURE, "the system random generator (OpenSSL RAND_priv_bytes) failed");
      out += chunk;
      n -= chunk;
    }
  }
  dxt_rng_mode mode() const override { return DXT_RNG_SYSTEM; }
};

}  // namespace

uint64_t fork_generation() {
  static std::once_flag once;
  std::call_once(once, [] { pthread_atfork(nullptr, nullptr, on_fork_child); });
  return g_fork_generation.load(std::memory_order_relaxed);
}

std::unique_ptr<ByteSource> make_system_byte_source() { return std::make_unique<SystemByteSource>(); }

}  // namespace dxt
