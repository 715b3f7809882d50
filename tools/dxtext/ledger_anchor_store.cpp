// SPDX-License-Identifier: Apache-2.0
#include "ledger_anchor_store.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <vector>

#include "commands.hpp"
#include "errors/error.hpp"
#include "model/sha256.hpp"
#include "regular_file.hpp"

namespace dxt::cli {
namespace {

constexpr char kAnchorHeader[] = "dxtext ledger anchor v1";
constexpr char kPathHeader[] = "dxtext ledger at path v1";

[[noreturn]] void store_error(const std::string& what, const std::string& file) {
  const int e = errno;
  if (e == EFBIG) fail(DXT_E_IO, what + " " + file + ": the process's file size limit (ulimit -f) is reached");
  fail(DXT_E_IO, what + " " + file + ": " + std::strerror(e));
}

std::string directory_of(const std::string& file) {
  const size_t slash = file.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return file.substr(0, slash);
}

// The whole of `file`, or nullopt when there is none.
std::optional<std::string> read_small_file(const std::string& file, const char* what) {
  struct stat st {};
  if (::lstat(file.c_str(), &st) != 0 && errno == ENOENT) return std::nullopt;
  return read_regular_file(file, 4096, what);
}

// `text` in `file`, written whole to a temporary of its own beside it,
// synced, and renamed over it (the directory synced after), unless `file`
// holds `text` already.
void replace_file(const std::string& file, const std::string& text, const char* what) {
  if (const auto now = read_small_file(file, what); now && *now == text) return;
  std::string temp = file + ".XXXXXX";
  std::vector<char> name(temp.begin(), temp.end());
  name.push_back('\0');
  const int fd = ::mkstemp(name.data());
  if (fd < 0) store_error(std::string("cannot create a temporary for") + " " + what, file);
  temp.assign(name.data());
  const char* p = text.data();
  size_t left = text.size();
  int err = 0;
  while (left > 0) {
    const ssize_t w = ::write(fd, p, left);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      err = w < 0 ? errno : EIO;
      break;
    }
    p += w;
    left -= static_cast<size_t>(w);
  }
  if (err == 0 && ::fsync(fd) != 0) err = errno;
  ::close(fd);
  if (err == 0 && ::rename(temp.c_str(), file.c_str()) != 0) err = errno;
  if (err != 0) {
    ::unlink(temp.c_str());
    errno = err;
    store_error(std::string("cannot store") + " " + what, file);
  }
  const std::string dir = directory_of(file);
  const int d = ::open(dir.c_str(), O_RDONLY | O_CLOEXEC | O_DIRECTORY);
  if (d >= 0) {
    (void)::fsync(d);
    ::close(d);
  }
}

bool parse_id(const std::string& hex, LedgerId& id) {
  if (hex.size() != 2 * id.size()) return false;
  for (size_t i = 0; i < id.size(); ++i) {
    const std::string byte = hex.substr(2 * i, 2);
    char* end = nullptr;
    id[i] = static_cast<uint8_t>(std::strtoul(byte.c_str(), &end, 16));
    if (end != byte.c_str() + 2) return false;
  }
  return true;
}

}  // namespace

FileLock::FileLock(const std::string& path) {
  // O_NOFOLLOW: a link planted at the lock's name cannot send it elsewhere.
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0600);
  if (fd_ < 0) store_error("cannot open the lock", path);
  struct stat st {};
  if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd_);
    fail(DXT_E_IO, "the lock " + path + " is not a regular file");
  }
  while (::flock(fd_, LOCK_EX) != 0) {
    if (errno == EINTR) continue;
    const int e = errno;
    ::close(fd_);
    errno = e;
    store_error("cannot lock", path);
  }
}

FileLock::~FileLock() {
  if (fd_ >= 0) ::close(fd_);
}

std::string default_anchor_directory() {
  std::string base;
  if (const char* state = std::getenv("XDG_STATE_HOME"); state != nullptr && state[0] == '/') {
    base = state;
  } else if (const char* home = std::getenv("HOME"); home != nullptr && home[0] == '/') {
    base = std::string(home) + "/.local/state";
  } else {
    return "";
  }
  return base + "/dxtext/ledger-anchors";
}

void make_directories(const std::string& directory) {
  const std::string d = directory + "/";
  for (size_t slash = d.find('/', 1); slash != std::string::npos; slash = d.find('/', slash + 1)) {
    const std::string dir = d.substr(0, slash);
    if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST)
      fail(DXT_E_IO, "cannot make the directory " + dir + " for the ledger anchor: " + std::strerror(errno));
  }
}

std::optional<dxt_ledger_anchor> read_anchor_file(const std::string& file) {
  const auto text = read_small_file(file, "the ledger anchor");
  if (!text) return std::nullopt;
  std::istringstream in(*text);
  std::string h1, h2, h3, h4, id_hex;
  dxt_ledger_anchor a;
  dxt_ledger_anchor_init(&a);
  in >> h1 >> h2 >> h3 >> h4 >> id_hex >> a.commits >> a.spent;
  LedgerId id{};
  if (!in || h1 + " " + h2 + " " + h3 + " " + h4 != kAnchorHeader || !parse_id(id_hex, id))
    fail(DXT_E_PARSE, "the ledger anchor " + file + " is not one dxtext wrote");
  std::memcpy(a.ledger_id, id.data(), id.size());
  return a;
}

void write_anchor_file(const std::string& file, const dxt_ledger_anchor& a) {
  char line[160];
  std::snprintf(line, sizeof line, "%s %s %llu %.17g\n", kAnchorHeader, to_hex(a.ledger_id, sizeof a.ledger_id).c_str(),
                static_cast<unsigned long long>(a.commits), a.spent);
  replace_file(file, line, "the ledger anchor");
}

dxt_ledger_anchor identity_anchor(const LedgerId& id) {
  dxt_ledger_anchor a;
  dxt_ledger_anchor_init(&a);
  std::memcpy(a.ledger_id, id.data(), id.size());
  a.commits = 0;
  a.spent = 0;
  return a;
}

std::string ledger_id_hex(const LedgerId& id) { return to_hex(id.data(), id.size()); }

std::string anchor_file_for(const std::string& directory, const LedgerId& id) {
  return directory + "/ledger-" + ledger_id_hex(id) + ".anchor";
}

std::string path_record_for(const std::string& directory, const std::string& ledger_path) {
  const Digest d = sha256(ledger_path.data(), ledger_path.size());
  return directory + "/path-" + to_hex(d.data(), d.size()) + ".ledger";
}

std::string legacy_anchor_file_for(const std::string& directory, const std::string& ledger_path) {
  const Digest d = sha256(ledger_path.data(), ledger_path.size());
  return directory + "/" + to_hex(d.data(), d.size()) + ".anchor";
}

std::optional<LedgerId> read_path_record(const std::string& file) {
  const auto text = read_small_file(file, "the ledger path record");
  if (!text) return std::nullopt;
  std::istringstream in(*text);
  std::string h1, h2, h3, h4, h5, id_hex;
  in >> h1 >> h2 >> h3 >> h4 >> h5 >> id_hex;
  LedgerId id{};
  if (!in || h1 + " " + h2 + " " + h3 + " " + h4 + " " + h5 != kPathHeader || !parse_id(id_hex, id))
    fail(DXT_E_PARSE, "the ledger path record " + file + " is not one dxtext wrote");
  return id;
}

void write_path_record(const std::string& file, const LedgerId& id) {
  replace_file(file, std::string(kPathHeader) + " " + ledger_id_hex(id) + "\n", "the ledger path record");
}

}  // namespace dxt::cli
