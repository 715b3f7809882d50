// SPDX-License-Identifier: Apache-2.0
#include "regular_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "errors/error.hpp"

namespace dxt::cli {
namespace {

class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  ~Descriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

}  // namespace

std::string read_regular_file(const std::string& path, size_t max_bytes, const std::string& what) {
  // O_NONBLOCK: opening a FIFO returns at once (and is then refused below)
  // instead of waiting for a writer.
  const Descriptor fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
  if (fd.get() < 0) fail(DXT_E_IO, "cannot open " + what + " " + path + ": " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) fail(DXT_E_IO, "cannot stat " + what + " " + path + ": " + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) fail(DXT_E_IO, what + " " + path + " is not a regular file");
  if (static_cast<uint64_t>(st.st_size) > max_bytes)
    fail(DXT_E_INPUT_TOO_LARGE, what + " " + path + " is larger than " + std::to_string(max_bytes) + " bytes");
  // Read at most one byte past the limit: a file that grows meanwhile is
  // still bounded.
  std::string bytes(
      max_bytes + 1 > static_cast<size_t>(st.st_size) + 1 ? static_cast<size_t>(st.st_size) + 1 : max_bytes + 1, '\0');
  size_t got = 0;
  while (got < bytes.size()) {
    const ssize_t r = ::read(fd.get(), bytes.data() + got, bytes.size() - got);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) fail(DXT_E_IO, "cannot read " + what + " " + path + ": " + std::strerror(errno));
    if (r == 0) break;
    got += static_cast<size_t>(r);
  }
  if (got > max_bytes)
    fail(DXT_E_INPUT_TOO_LARGE, what + " " + path + " is larger than " + std::to_string(max_bytes) + " bytes");
  bytes.resize(got);
  return bytes;
}

}  // namespace dxt::cli
