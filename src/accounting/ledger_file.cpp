// SPDX-License-Identifier: Apache-2.0
#include "accounting/ledger_file.hpp"

#include <cerrno>
#include <cstring>
#include <utility>

#include "errors/error.hpp"
#include "rng/byte_source.hpp"

#if !defined(__EMSCRIPTEN__)
#include <climits>
#include <csignal>

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace dxt {
namespace {

#if !defined(__EMSCRIPTEN__)
[[noreturn]] void io_error(const std::string& what, const std::string& path) {
  const int e = errno;
  if (e == EFBIG)
    fail(DXT_E_IO, what + " " + path + ": the process's file size limit (ulimit -f) is reached; nothing was committed");
  fail(DXT_E_IO, what + " " + path + ": " + std::strerror(e));
}

class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  ~Descriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  int get() const { return fd_; }
  int release() { return std::exchange(fd_, -1); }

 private:
  int fd_;
};

// SIGXFSZ blocked in this thread while it writes: past the process's file
// size limit a write then fails with EFBIG, reported as a status, instead of
// the signal killing the host process.
class FileSizeSignalBlocked {
 public:
  FileSizeSignalBlocked() {
    sigset_t block;
    sigemptyset(&block);
    sigaddset(&block, SIGXFSZ);
    blocked_ = ::pthread_sigmask(SIG_BLOCK, &block, &saved_) == 0;
  }
  ~FileSizeSignalBlocked() {
    if (!blocked_) return;
    // A SIGXFSZ raised by our own write is pending now: take it, so that
    // unblocking does not deliver it.
    sigset_t pending;
    if (::sigpending(&pending) == 0 && sigismember(&pending, SIGXFSZ) == 1 && sigismember(&saved_, SIGXFSZ) == 0) {
      // Pending, so sigwait returns at once (sigtimedwait is not on every POSIX system).
      sigset_t just;
      sigemptyset(&just);
      sigaddset(&just, SIGXFSZ);
      int taken = 0;
      (void)::sigwait(&just, &taken);
    }
    ::pthread_sigmask(SIG_SETMASK, &saved_, nullptr);
  }
  FileSizeSignalBlocked(const FileSizeSignalBlocked&) = delete;
  FileSizeSignalBlocked& operator=(const FileSizeSignalBlocked&) = delete;

 private:
  sigset_t saved_{};
  bool blocked_ = false;
};

void write_all(int fd, const uint8_t* p, size_t n, const std::string& path) {
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) io_error("cannot write", path);
    p += w;
    n -= static_cast<size_t>(w);
  }
}

std::string directory_of(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string name_of(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The one path of a ledger file, whatever path it was opened by: symbolic
// links resolved, in the file's name (realpath of the file) and in its
// directories (realpath of the directory, for a file not made yet). A link
// and its target then share one lock and one rename target, where renaming
// over the link itself would have split the ledger in two.
std::string canonical_path(const std::string& path) {
  char resolved[PATH_MAX];
  if (::realpath(path.c_str(), resolved) != nullptr) return resolved;
  if (errno != ENOENT) io_error("cannot resolve the ledger path", path);
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0)
    fail(DXT_E_IO, "the ledger path " + path + " is a symbolic link to a missing file; give the file's own path");
  const std::string name = name_of(path);
  if (name.empty() || name == "." || name == "..") fail(DXT_E_IO, "the ledger path " + path + " names no file");
  const std::string dir = directory_of(path);
  if (::realpath(dir.c_str(), resolved) == nullptr) io_error("cannot resolve the directory of the ledger", path);
  const std::string d = resolved;
  return (d == "/" ? d : d + "/") + name;
}

// Removes the temporary file unless the commit got as far as renaming it.
class TemporaryFile {
 public:
  explicit TemporaryFile(std::string path) : path_(std::move(path)) {}
  ~TemporaryFile() {
    if (!path_.empty()) ::unlink(path_.c_str());
  }
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;
  void renamed() { path_.clear(); }

 private:
  std::string path_;
};
#endif

}  // namespace

LedgerFile::LedgerFile(std::string path, std::vector<uint8_t> app_key)
    : path_(std::move(path)), app_key_(std::move(app_key)) {}

#if defined(__EMSCRIPTEN__)

std::optional<std::array<uint8_t, 16>> ledger_file_identity(const std::string&, const std::vector<uint8_t>&) {
  fail(DXT_E_UNSUPPORTED, "the privacy ledger needs a file system with locks; WebAssembly builds have none");
}

void LedgerFile::transact(bool, const std::function<bool(LedgerState&, const LedgerKeys&)>&) {
  fail(DXT_E_UNSUPPORTED, "the privacy ledger needs a file system with locks; WebAssembly builds have none");
}

void LedgerFile::commit(const std::string&, const LedgerState&) {}

#else

std::optional<std::array<uint8_t, 16>> ledger_file_identity(const std::string& given,
                                                            const std::vector<uint8_t>& app_key) {
  const std::string path = canonical_path(given);
  const Descriptor in(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW));
  if (in.get() < 0) {
    if (errno == ENOENT) return std::nullopt;
    io_error("cannot open the ledger", path);
  }
  struct stat st {};
  if (::fstat(in.get(), &st) != 0) io_error("cannot stat", path);
  if (!S_ISREG(st.st_mode)) fail(DXT_E_IO, "the ledger " + path + " is not a regular file");
  uint8_t header[kLedgerHeaderBytes];
  size_t got = 0;
  while (got < sizeof header) {
    const ssize_t r = ::read(in.get(), header + got, sizeof header - got);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) io_error("cannot read", path);
    if (r == 0) break;
    got += static_cast<size_t>(r);
  }
  const auto id = ledger_identity_from_header(header, got, app_key);
  if (!id)
    fail(DXT_E_LEDGER_CORRUPT, "the file " + path +
                                   " is not a ledger opened with this app key (a damaged file, another kind of "
                                   "file, or a ledger made with another key or without one)");
  return id;
}

void LedgerFile::transact(bool create, const std::function<bool(LedgerState&, const LedgerKeys&)>& change) {
  const std::string path = canonical_path(path_);
  const std::string lock_path = path + ".lock";
  // O_NOFOLLOW: a link planted at the lock's name cannot send the lock
  // elsewhere (and two names for one ledger would have two locks).
  const Descriptor lock(::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0600));
  if (lock.get() < 0) io_error("cannot open the lock file", lock_path);
  struct stat lock_st {};
  if (::fstat(lock.get(), &lock_st) != 0) io_error("cannot stat", lock_path);
  if (!S_ISREG(lock_st.st_mode)) fail(DXT_E_IO, "the lock file " + lock_path + " is not a regular file");
  while (::flock(lock.get(), LOCK_EX) != 0)
    if (errno != EINTR) io_error("cannot lock", lock_path);

  LedgerState state;
  // O_NONBLOCK: opening a FIFO does not wait for a writer (it is then
  // refused as not a regular file); O_NOFOLLOW: the path was resolved above.
  const Descriptor in(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW));
  if (in.get() < 0) {
    if (errno != ENOENT) io_error("cannot open the ledger", path);
    if (!create) fail(DXT_E_IO, "the ledger file " + path + " no longer exists; it is not restarted from zero");
    make_system_byte_source()->fill(state.secret.data(), state.secret.size());
    state.keyed = !app_key_.empty();
  } else {
    struct stat st {};
    if (::fstat(in.get(), &st) != 0) io_error("cannot stat", path);
    if (!S_ISREG(st.st_mode)) fail(DXT_E_IO, "the ledger " + path + " is not a regular file");
    // Two names for one file would be two ledgers after the next commit
    // (the rename replaces one name only), each with the whole cap.
    if (st.st_nlink > 1)
      fail(DXT_E_IO, "the ledger file " + path + " has " + std::to_string(st.st_nlink) +
                         " names (hard links); a ledger file must have one");
    if (st.st_size > static_cast<off_t>(kLedgerMaxReadBytes))
      fail(DXT_E_LEDGER_CORRUPT, "the ledger file " + path + " is too large");
    std::vector<uint8_t> bytes(static_cast<size_t>(st.st_size));
    size_t got = 0;
    while (got < bytes.size()) {
      const ssize_t r = ::read(in.get(), bytes.data() + got, bytes.size() - got);
      if (r < 0 && errno == EINTR) continue;
      if (r < 0) io_error("cannot read", path);
      if (r == 0) break;
      got += static_cast<size_t>(r);
    }
    state = decode_ledger(bytes.data(), got, app_key_);
  }
  const LedgerKeys keys = derive_ledger_keys(state.secret, app_key_);
  if (change(state, keys)) commit(path, state);
}  // the lock is released when `lock` closes

void LedgerFile::commit(const std::string& path, const LedgerState& state) {
  const std::vector<uint8_t> bytes = encode_ledger(state, app_key_);
  if (bytes.size() > kLedgerMaxBytes)
    fail(DXT_E_INPUT_TOO_LARGE,
         "the ledger file would pass " + std::to_string(kLedgerMaxBytes) + " bytes; nothing was committed");
  const std::string temp = path + ".tmp";
  auto step = [&](LedgerWriteStep s) {
    if (on_write_step) on_write_step(s);
  };
  const FileSizeSignalBlocked no_sigxfsz;
  // A temporary left by a process killed mid-commit is replaced; O_EXCL and
  // O_NOFOLLOW: never written through a link planted at its name.
  if (::unlink(temp.c_str()) != 0 && errno != ENOENT) io_error("cannot remove the stale", temp);
  TemporaryFile cleanup(temp);
  {
    const Descriptor out(::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
    if (out.get() < 0) io_error("cannot create", temp);
    const size_t half = bytes.size() / 2;
    write_all(out.get(), bytes.data(), half, temp);
    step(LedgerWriteStep::temp_half_written);
    write_all(out.get(), bytes.data() + half, bytes.size() - half, temp);
    step(LedgerWriteStep::temp_written);
    if (::fsync(out.get()) != 0) io_error("cannot sync", temp);
    step(LedgerWriteStep::temp_synced);
  }
  if (::rename(temp.c_str(), path.c_str()) != 0) io_error("cannot rename the new ledger over", path);
  cleanup.renamed();
  step(LedgerWriteStep::renamed);
  // Without this the rename itself may not survive a power loss.
  const std::string dir = directory_of(path);
  const Descriptor d(::open(dir.c_str(), O_RDONLY | O_CLOEXEC | O_DIRECTORY));
  if (d.get() < 0 || ::fsync(d.get()) != 0) io_error("cannot sync the directory", dir);
  step(LedgerWriteStep::directory_synced);
}

#endif

}  // namespace dxt
