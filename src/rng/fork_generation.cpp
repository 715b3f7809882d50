// SPDX-License-Identifier: Apache-2.0
// The process generation: a number that changes in a new process however it
// was made, so that a RandomStream can see, on every draw, that it was
// copied into a child and must not hand out bytes its parent may also use.
//
// pthread_atfork handlers run only for fork(). A child made by _Fork()
// (glibc 2.34), by clone() or by syscall(SYS_clone) without CLONE_VM runs no
// handlers, and getpid() costs a system call (microseconds on some
// kernels), too much to ask on every draw. So on Linux the generation lives
// in one page marked MADV_WIPEONFORK (Linux 4.14): the kernel hands every
// child process a zeroed copy of that page, whatever made the child, and
// reading it costs one load. A zero there means "a new process": it takes
// the next number of a counter kept in ordinary memory (which the child
// inherits), so the new generation differs from every value any object in
// this process recorded before. Where MADV_WIPEONFORK is missing (other
// systems, older kernels), the generation is the pthread_atfork count,
// which catches fork() only (docs/limitations.md, "Randomness").
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <new>

#include "rng/byte_source.hpp"

namespace dxt {

namespace {

// The one piece of process-wide mutable state: the generation belongs, by
// its nature, to the process and not to any object.
std::atomic<uint64_t> g_counter{1};

void on_fork_child() { g_counter.fetch_add(1, std::memory_order_relaxed); }

// The wiped-on-fork page, or nullptr where the kernel cannot provide one.
std::atomic<uint64_t>* wipe_on_fork_page() {
#if defined(__linux__) && defined(MADV_WIPEONFORK)
  const long page = sysconf(_SC_PAGESIZE);
  void* p = mmap(nullptr, static_cast<size_t>(page), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return nullptr;
  if (madvise(p, static_cast<size_t>(page), MADV_WIPEONFORK) != 0) {
    munmap(p, static_cast<size_t>(page));
    return nullptr;
  }
  static_assert(std::atomic<uint64_t>::is_always_lock_free, "a zeroed page must read as generation 0");
  return new (p) std::atomic<uint64_t>(0);
#else
  return nullptr;
#endif
}

struct Generation {
  std::atomic<uint64_t>* page;
  Generation() : page(wipe_on_fork_page()) {
    if (page == nullptr) pthread_atfork(nullptr, nullptr, on_fork_child);
  }
};

}  // namespace

uint64_t fork_generation() {
  static const Generation g;  // the page and its pointer are inherited by children
  if (g.page == nullptr) return g_counter.load(std::memory_order_relaxed);
  const uint64_t current = g.page->load(std::memory_order_relaxed);
  if (current != 0) return current;
  // First call in this process, or the first in a child whose page the
  // kernel zeroed. Threads racing here agree through the compare-exchange.
  uint64_t expected = 0;
  const uint64_t fresh = g_counter.fetch_add(1, std::memory_order_relaxed) + 1;
  return g.page->compare_exchange_strong(expected, fresh, std::memory_order_relaxed) ? fresh : expected;
}

}  // namespace dxt
