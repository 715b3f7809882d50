// SPDX-License-Identifier: Apache-2.0
#include "ledger_command.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <sstream>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "commands.hpp"
#include "errors/error.hpp"
#include "model/sha256.hpp"
#include "regular_file.hpp"

namespace dxt::cli {
namespace {

// The app key of --ledger-key-file: the file's bytes, 16 to 64 of them.
std::vector<uint8_t> read_key_file(const std::string& path) {
  std::string bytes = read_regular_file(path, 64, "the ledger key file");
  if (bytes.size() < 16)
    throw UsageError("the ledger key file holds 16 to 64 bytes (e.g. head -c 32 /dev/urandom > FILE)");
  std::vector<uint8_t> key(bytes.begin(), bytes.end());
  std::fill(bytes.begin(), bytes.end(), '\0');
  return key;
}

// The ledger's own path (links resolved), for naming its anchor: the file's
// realpath, or its directory's for a file not made yet.
std::string resolved_path(const std::string& path) {
  char buffer[PATH_MAX];
  if (::realpath(path.c_str(), buffer) != nullptr) return buffer;
  const size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  if (::realpath(dir.c_str(), buffer) == nullptr) return path;
  const std::string d = buffer;
  return (d == "/" ? d : d + "/") + name;
}

// Where the anchor of the ledger at `path` is kept (docs/budgets.md,
// "Rollback"): --ledger-anchor FILE, else a file named by the SHA-256 of the
// ledger's path under $XDG_STATE_HOME/dxtext/ledger-anchors, else under
// ~/.local/state/dxtext/ledger-anchors: outside the ledger's directory, so
// that putting back an older copy of the ledger does not put back its anchor.
// Empty when there is no home to keep it in.
std::string anchor_path(const Args& args, const std::string& path) {
  if (auto given = args.get("ledger-anchor")) return *given;
  std::string base;
  if (const char* state = std::getenv("XDG_STATE_HOME"); state != nullptr && state[0] == '/') {
    base = state;
  } else if (const char* home = std::getenv("HOME"); home != nullptr && home[0] == '/') {
    base = std::string(home) + "/.local/state";
  } else {
    return "";
  }
  const std::string resolved = resolved_path(path);
  const Digest d = sha256(resolved.data(), resolved.size());
  return base + "/dxtext/ledger-anchors/" + to_hex(d.data(), d.size()) + ".anchor";
}

void make_directories(const std::string& file) {
  for (size_t slash = file.find('/', 1); slash != std::string::npos; slash = file.find('/', slash + 1)) {
    const std::string dir = file.substr(0, slash);
    if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST)
      fail(DXT_E_IO, "cannot make the directory " + dir + " for the ledger anchor: " + std::strerror(errno));
  }
}

constexpr char kAnchorHeader[] = "dxtext ledger anchor v1";

// The anchor stored at `file`, if there is one.
std::optional<dxt_ledger_anchor> read_anchor(const std::string& file) {
  struct stat st {};
  if (::stat(file.c_str(), &st) != 0 && errno == ENOENT) return std::nullopt;
  std::istringstream in(read_regular_file(file, 4096, "the ledger anchor"));
  std::string header1, header2, header3, header4, id_hex;
  dxt_ledger_anchor a;
  dxt_ledger_anchor_init(&a);
  in >> header1 >> header2 >> header3 >> header4 >> id_hex >> a.commits >> a.spent;
  if (!in || header1 + " " + header2 + " " + header3 + " " + header4 != kAnchorHeader ||
      id_hex.size() != 2 * sizeof a.ledger_id)
    fail(DXT_E_PARSE, "the ledger anchor " + file + " is not one dxtext wrote");
  for (size_t i = 0; i < sizeof a.ledger_id; ++i) {
    const std::string byte = id_hex.substr(2 * i, 2);
    char* end = nullptr;
    a.ledger_id[i] = static_cast<uint8_t>(std::strtoul(byte.c_str(), &end, 16));
    if (end != byte.c_str() + 2) fail(DXT_E_PARSE, "the ledger anchor " + file + " is not one dxtext wrote");
  }
  return a;
}

}  // namespace

void store_ledger_anchor(const Args& args, const std::string& path, dxt_ledger* ledger) {
  const std::string file = anchor_path(args, path);
  if (file.empty()) return;
  dxt_ledger_anchor a;
  dxt_ledger_anchor_init(&a);
  check(dxt_ledger_get_anchor(ledger, &a));
  char line[160];
  std::snprintf(line, sizeof line, "%s %s %llu %.17g\n", kAnchorHeader, to_hex(a.ledger_id, sizeof a.ledger_id).c_str(),
                static_cast<unsigned long long>(a.commits), a.spent);
  make_directories(file);
  // Written whole beside it, then renamed over it.
  const std::string temp = file + ".tmp";
  FILE* out = std::fopen(temp.c_str(), "w");
  if (out == nullptr) fail(DXT_E_IO, "cannot write the ledger anchor " + temp + ": " + std::strerror(errno));
  const bool written = std::fputs(line, out) >= 0 && std::fflush(out) == 0 && ::fsync(::fileno(out)) == 0;
  if (std::fclose(out) != 0 || !written || std::rename(temp.c_str(), file.c_str()) != 0) {
    ::unlink(temp.c_str());
    fail(DXT_E_IO, "cannot store the ledger anchor " + file + ": " + std::strerror(errno));
  }
}

LedgerPtr open_ledger(const Args& args, const std::string& path, bool create) {
  struct stat st {};
  const bool exists = ::stat(path.c_str(), &st) == 0;
  const bool budget = args.get("budget").has_value();
  if (!exists && !create) fail(DXT_E_IO, "no ledger at " + path);
  if (!exists && !budget) throw UsageError("a new ledger needs --budget B (its cap, in epsilon summed over releases)");
  dxt_ledger_options lo;
  dxt_ledger_options_init(&lo);
  if (budget) lo.cap = args.number("budget");
  std::vector<uint8_t> key;
  if (const auto key_file = args.get("ledger-key-file")) {
    key = read_key_file(*key_file);
    lo.key = key.data();
    lo.key_length = key.size();
  }
  const std::string scope = args.get("scope").value_or("default");
  const std::string anchor_file = anchor_path(args, path);
  std::optional<dxt_ledger_anchor> anchor;
  if (!anchor_file.empty()) anchor = read_anchor(anchor_file);
  if (anchor) lo.anchor = &*anchor;
  dxt_ledger* l = nullptr;
  const dxt_status s = dxt_ledger_open(path.c_str(), scope.c_str(), &lo, &l);
  std::fill(key.begin(), key.end(), uint8_t{0});
  check(s);
  LedgerPtr ledger(l);
  // --budget is the cap of a new scope; an existing scope keeps its own, in
  // every interface (docs/budgets.md, "Changing a cap"). Say so rather than
  // let a different --budget pass unnoticed.
  if (budget) {
    dxt_ledger_totals t;
    dxt_ledger_totals_init(&t);
    check(dxt_ledger_get_totals(ledger.get(), &t));
    if (t.cap != lo.cap)
      std::fprintf(stderr,
                   "dxtext: note: --budget applies to a new scope; scope \"%s\" keeps its cap %.10g "
                   "(change it with: dxtext ledger --scope S --set-cap B FILE)\n",
                   scope.c_str(), t.cap);
  }
  store_ledger_anchor(args, path, ledger.get());
  return ledger;
}

int run_ledger(int argc, char** argv) {
  Args args(argc, argv, 2, {"scope", "budget", "set-cap", "ledger-key-file", "ledger-anchor"}, {});
  if (args.positional().size() != 1) throw UsageError("ledger takes one FILE");
  LedgerPtr ledger = open_ledger(args, args.positional()[0], false);
  if (args.get("set-cap")) {
    check(dxt_ledger_set_cap(ledger.get(), args.number("set-cap")));
    store_ledger_anchor(args, args.positional()[0], ledger.get());
  }
  size_t need = 0;
  const dxt_status probe = dxt_ledger_to_json(ledger.get(), nullptr, 0, &need);
  if (probe != DXT_E_INPUT_TOO_LARGE) check(probe);
  std::vector<char> json(need);
  check(dxt_ledger_to_json(ledger.get(), json.data(), json.size(), &need));
  std::printf("%s\n", json.data());
  if (std::fflush(stdout) != 0) fail(DXT_E_IO, "writing to standard output failed");
  return 0;
}

}  // namespace dxt::cli
