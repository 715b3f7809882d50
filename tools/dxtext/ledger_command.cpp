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

#include "accounting/ledger_file.hpp"
#include "commands.hpp"
#include "errors/error.hpp"
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

// The ledger's own path (links resolved), for its path record: the file's
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

dxt_ledger* open_with(const std::string& path, const std::string& scope, dxt_ledger_options lo,
                      const dxt_ledger_anchor* anchor) {
  lo.anchor = anchor;
  dxt_ledger* l = nullptr;
  check(dxt_ledger_open(path.c_str(), scope.c_str(), &lo, &l));
  return l;
}

}  // namespace

void store_ledger_anchor(OpenLedger& ledger) {
  dxt_ledger_anchor a;
  dxt_ledger_anchor_init(&a);
  check(dxt_ledger_get_anchor(ledger.get(), &a));
  if (!ledger.given_anchor.empty()) write_anchor_file(ledger.given_anchor, a);
  if (!ledger.anchor_directory.empty() && ledger.id) {
    write_anchor_file(anchor_file_for(ledger.anchor_directory, *ledger.id), a);
    write_path_record(path_record_for(ledger.anchor_directory, ledger.resolved_path), *ledger.id);
  }
}

void store_ledger_anchor_after_release(OpenLedger& ledger) {
  try {
    store_ledger_anchor(ledger);
  } catch (const std::exception& e) {
    std::fprintf(stderr,
                 "dxtext: warning: the release was made and is shown, but the ledger's anchor was not stored "
                 "(%s); the next call stores it\n",
                 e.what());
  }
}

OpenLedger open_ledger(const Args& args, const std::string& path, bool create) {
  struct stat st {};
  const bool exists = ::stat(path.c_str(), &st) == 0;
  const bool budget = args.get("budget").has_value();
  const std::optional<std::string> given = args.get("ledger-anchor");
  // An empty name would keep no anchor at all, and leave the default one
  // behind the file (issue 34, item 12).
  if (given && given->empty())
    throw UsageError(
        "--ledger-anchor needs a file name (leave the option out to keep the anchor under "
        "$XDG_STATE_HOME/dxtext/ledger-anchors)");
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
  struct Wipe {
    std::vector<uint8_t>& k;
    ~Wipe() { std::fill(k.begin(), k.end(), uint8_t{0}); }
  } wipe{key};
  const std::string scope = args.get("scope").value_or("default");

  OpenLedger ledger;
  ledger.given_anchor = given.value_or("");
  ledger.anchor_directory = default_anchor_directory();
  ledger.resolved_path = resolved_path(path);
  // One lock over reading the anchors, the ledger call and storing the new
  // anchor: two processes never race on them (issue 34, item 13).
  if (!ledger.anchor_directory.empty()) {
    make_directories(ledger.anchor_directory);
    ledger.locks.push_back(std::make_unique<FileLock>(ledger.anchor_directory + "/lock"));
  }
  if (!ledger.given_anchor.empty()) {
    const size_t slash = ledger.given_anchor.rfind('/');
    if (slash != std::string::npos && slash > 0) make_directories(ledger.given_anchor.substr(0, slash));
    ledger.locks.push_back(std::make_unique<FileLock>(ledger.given_anchor + ".lock"));
  }

  // The anchors the file must pass: the one given, and the default store's
  // for this ledger, named by the ledger's identity wherever the file is
  // (issue 34, item 11), or for a missing file by the ledger last kept at
  // its path.
  ledger.id = dxt::ledger_file_identity(path, key);
  std::vector<dxt_ledger_anchor> anchors;
  if (!ledger.given_anchor.empty())
    if (const auto a = read_anchor_file(ledger.given_anchor)) anchors.push_back(*a);
  if (!ledger.anchor_directory.empty()) {
    const std::string record = path_record_for(ledger.anchor_directory, ledger.resolved_path);
    const std::optional<LedgerId> kept = read_path_record(record);
    if (ledger.id && kept && *kept != *ledger.id)
      fail(DXT_E_LEDGER_ROLLBACK, "ledger rolled back: " + path + " is not the ledger kept there before (ledger " +
                                      ledger_id_hex(*kept) + "; it was replaced by ledger " +
                                      ledger_id_hex(*ledger.id) + "); nothing was drawn or released. To start " +
                                      "a new ledger at this path on purpose, remove " + record);
    const std::optional<LedgerId> which = ledger.id ? ledger.id : kept;
    std::optional<dxt_ledger_anchor> a;
    if (which) a = read_anchor_file(anchor_file_for(ledger.anchor_directory, *which));
    // What a dxtext before the identity anchors kept for this path.
    if (!a && !kept) a = read_anchor_file(legacy_anchor_file_for(ledger.anchor_directory, ledger.resolved_path));
    if (!a && which) a = identity_anchor(*which);
    if (a) anchors.push_back(*a);
  }
  // Each open checks the file against one anchor, under the ledger's lock.
  for (size_t i = 0; i + 1 < anchors.size(); ++i) dxt_ledger_close(open_with(path, scope, lo, &anchors[i]));
  ledger.handle.reset(open_with(path, scope, lo, anchors.empty() ? nullptr : &anchors.back()));
  if (!ledger.id) ledger.id = dxt::ledger_file_identity(path, key);  // a ledger made by this open
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
  store_ledger_anchor(ledger);
  return ledger;
}

int run_ledger(int argc, char** argv) {
  Args args(argc, argv, 2, {"scope", "budget", "set-cap", "ledger-key-file", "ledger-anchor"}, {});
  if (args.positional().size() != 1) throw UsageError("ledger takes one FILE");
  OpenLedger ledger = open_ledger(args, args.positional()[0], false);
  if (args.get("set-cap")) {
    check(dxt_ledger_set_cap(ledger.get(), args.number("set-cap")));
    store_ledger_anchor(ledger);
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
