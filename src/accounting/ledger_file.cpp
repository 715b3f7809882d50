// SPDX-License-Identifier: Apache-2.0
#include "accounting/ledger_file.hpp"

#include <cerrno>
#include <cstring>
#include <utility>

#include "errors/error.hpp"
#include "rng/byte_source.hpp"

#if !defined(__EMSCRIPTEN__)
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace dxt {
namespace {

#if !defined(__EMSCRIPTEN__)
// Largest ledger file read: far above what DXT_LEDGER_MEMO_MAX outputs and a
// lifetime of release entries need, and small enough to read whole.
constexpr off_t kMaxLedgerBytes = off_t{1} << 30;

[[noreturn]] void io_error(const std::string& what, const std::string& path) {
  fail(DXT_E_IO, what + " " + path + ": " + std::strerror(errno));
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
#endif

}  // namespace

LedgerFile::LedgerFile(std::string path, std::vector<uint8_t> app_key)
    : path_(std::move(path)), app_key_(std::move(app_key)) {}

#if defined(__EMSCRIPTEN__)

void LedgerFile::transact(bool, const std::function<bool(LedgerState&, const LedgerKeys&)>&) {
  fail(DXT_E_UNSUPPORTED, "the privacy ledger needs a file system with locks; WebAssembly builds have none");
}

void LedgerFile::commit(const LedgerState&) {}

#else

void LedgerFile::transact(bool create, const std::function<bool(LedgerState&, const LedgerKeys&)>& change) {
  const std::string lock_path = path_ + ".lock";
  const Descriptor lock(::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600));
  if (lock.get() < 0) io_error("cannot open the lock file", lock_path);
  while (::flock(lock.get(), LOCK_EX) != 0)
    if (errno != EINTR) io_error("cannot lock", lock_path);

  LedgerState state;
  const Descriptor in(::open(path_.c_str(), O_RDONLY | O_CLOEXEC));
  if (in.get() < 0) {
    if (errno != ENOENT) io_error("cannot open the ledger", path_);
    if (!create) fail(DXT_E_IO, "the ledger file " + path_ + " no longer exists; it is not restarted from zero");
    make_system_byte_source()->fill(state.secret.data(), state.secret.size());
    state.keyed = !app_key_.empty();
  } else {
    struct stat st {};
    if (::fstat(in.get(), &st) != 0) io_error("cannot stat", path_);
    if (st.st_size > kMaxLedgerBytes) fail(DXT_E_LEDGER_CORRUPT, "the ledger file " + path_ + " is too large");
    std::vector<uint8_t> bytes(static_cast<size_t>(st.st_size));
    size_t got = 0;
    while (got < bytes.size()) {
      const ssize_t r = ::read(in.get(), bytes.data() + got, bytes.size() - got);
      if (r < 0 && errno == EINTR) continue;
      if (r < 0) io_error("cannot read", path_);
      if (r == 0) break;
      got += static_cast<size_t>(r);
    }
    state = decode_ledger(bytes.data(), got, app_key_);
  }
  const LedgerKeys keys = derive_ledger_keys(state.secret, app_key_);
  if (change(state, keys)) commit(state);
}  // the lock is released when `lock` closes

void LedgerFile::commit(const LedgerState& state) {
  const std::vector<uint8_t> bytes = encode_ledger(state, app_key_);
  const std::string temp = path_ + ".tmp";
  auto step = [&](LedgerWriteStep s) {
    if (on_write_step) on_write_step(s);
  };
  {
    const Descriptor out(::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600));
    if (out.get() < 0) io_error("cannot create", temp);
    const size_t half = bytes.size() / 2;
    write_all(out.get(), bytes.data(), half, temp);
    step(LedgerWriteStep::temp_half_written);
    write_all(out.get(), bytes.data() + half, bytes.size() - half, temp);
    step(LedgerWriteStep::temp_written);
    if (::fsync(out.get()) != 0) io_error("cannot sync", temp);
    step(LedgerWriteStep::temp_synced);
  }
  if (::rename(temp.c_str(), path_.c_str()) != 0) io_error("cannot rename the new ledger over", path_);
  step(LedgerWriteStep::renamed);
  // Without this the rename itself may not survive a power loss.
  const std::string dir = directory_of(path_);
  const Descriptor d(::open(dir.c_str(), O_RDONLY | O_CLOEXEC | O_DIRECTORY));
  if (d.get() < 0 || ::fsync(d.get()) != 0) io_error("cannot sync the directory", dir);
  step(LedgerWriteStep::directory_synced);
}

#endif

}  // namespace dxt
