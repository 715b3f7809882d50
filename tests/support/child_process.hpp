// SPDX-License-Identifier: Apache-2.0
// The ways a test can make a child process that shares nothing with its
// parent but a copy of memory: fork() (runs pthread_atfork handlers),
// _Fork() (glibc 2.34: no handlers) and a raw clone system call (no
// handlers, and glibc does not even know a new process began).
#pragma once

#include <signal.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#include <vector>

namespace dxt::test {

enum class ChildMethod { kFork, kUnderscoreFork, kRawClone };

inline const char* child_method_name(ChildMethod m) {
  switch (m) {
    case ChildMethod::kFork: return "fork()";
    case ChildMethod::kUnderscoreFork: return "_Fork()";
    case ChildMethod::kRawClone: return "syscall(SYS_clone)";
  }
  return "?";
}

// The methods this platform has.
inline std::vector<ChildMethod> child_methods() {
  std::vector<ChildMethod> m = {ChildMethod::kFork};
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
  m.push_back(ChildMethod::kUnderscoreFork);
#endif
#if defined(__linux__) && defined(SYS_clone)
  m.push_back(ChildMethod::kRawClone);
#endif
  return m;
}

// Returns as fork() does: 0 in the child, the child's pid in the parent, -1
// on failure. The child must leave with _exit().
inline pid_t make_child(ChildMethod m) {
  switch (m) {
    case ChildMethod::kFork: return fork();
    case ChildMethod::kUnderscoreFork:
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
      return _Fork();
#else
      return -1;
#endif
    case ChildMethod::kRawClone:
#if defined(__linux__) && defined(SYS_clone)
      // flags = SIGCHLD and every pointer argument 0: a plain copy of the
      // process, the same on every architecture's argument order.
      return static_cast<pid_t>(syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0));
#else
      return -1;
#endif
  }
  return -1;
}

}  // namespace dxt::test
