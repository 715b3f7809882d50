#include <pthread.h>

#include <atomic>
#include <mutex>

#include "rng/byte_source.hpp"

namespace dxt {

namespace {

// The one piece of process-wide mutable state: a fork counter, which by its
// nature belongs to the process, not to any object.
std::atomic<uint64_t> g_fork_generation{0};
void on_fork_child() { g_fork_generation.fetch_add(1, std::memory_order_relaxed); }

}  // namespace

uint64_t fork_generation() {
  static std::once_flag once;
  std::call_once(once, [] { pthread_atfork(nullptr, nullptr, on_fork_child); });
  return g_fork_generation.load(std::memory_order_relaxed);
}

}  // namespace dxt
