// SPDX-License-Identifier: Apache-2.0
// How the CLI prints what a privatise call reports: --report prints the
// release record (safe to keep beside the output), --local-diagnostics the
// counts that describe the input. Each goes to standard error as one JSON
// line, so that neither can end up in the privatised output by a redirect.
// (`privatize --format json` also puts the record beside the text on
// standard output; the diagnostics never go there.)
#pragma once

#include <string>

#include "dxtext/dxtext.h"

namespace dxt::cli {

class Args;

// The two flags every privatising command accepts.
inline constexpr const char* kReportFlag = "report";
inline constexpr const char* kDiagnosticsFlag = "local-diagnostics";

// Where the call should write: the structs the flags ask for, else NULL.
struct ReleaseOutputs {
  dxt_release_record record;
  dxt_local_diagnostics diagnostics;
  bool want_record = false;
  bool want_diagnostics = false;
  bool record_for_output = false;

  // `record_for_output`: the caller prints the record itself (record_json()),
  // so it is filled even without --report.
  explicit ReleaseOutputs(const Args& args, bool record_for_output = false);
  dxt_release_record* record_ptr() { return want_record || record_for_output ? &record : nullptr; }
  dxt_local_diagnostics* diagnostics_ptr() { return want_diagnostics ? &diagnostics : nullptr; }
  // The record as one line of JSON (dxt_release_record_to_json).
  std::string record_json() const;
  // Prints what was asked for on standard error, the record first.
  void print() const;
};

}  // namespace dxt::cli
