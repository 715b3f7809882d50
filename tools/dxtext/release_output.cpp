// SPDX-License-Identifier: Apache-2.0
#include "release_output.hpp"

#include <cstdio>
#include <string>

#include "cli_args.hpp"
#include "errors/error.hpp"

namespace dxt::cli {

namespace {

template <typename T>
std::string json_of(const T* value, dxt_status (*to_json)(const T*, char*, size_t, size_t*)) {
  size_t need = 0;
  dxt_status s = to_json(value, nullptr, 0, &need);
  if (s == DXT_E_INPUT_TOO_LARGE) {
    std::string json(need, '\0');
    s = to_json(value, json.data(), json.size(), &need);
    if (s == DXT_OK) return json.substr(0, need - 1);
  }
  const std::string msg = dxt_last_error_message();
  throw Error(s, msg.empty() ? dxt_status_string(s) : msg);
}

}  // namespace

ReleaseOutputs::ReleaseOutputs(const Args& args, bool fill_record)
    : want_record(args.flag(kReportFlag)),
      want_diagnostics(args.flag(kDiagnosticsFlag)),
      record_for_output(fill_record) {
  dxt_release_record_init(&record);
  dxt_local_diagnostics_init(&diagnostics);
}

std::string ReleaseOutputs::record_json() const { return json_of(&record, dxt_release_record_to_json); }

void ReleaseOutputs::print() const {
  if (want_record) std::fprintf(stderr, "%s\n", record_json().c_str());
  if (want_diagnostics) std::fprintf(stderr, "%s\n", json_of(&diagnostics, dxt_local_diagnostics_to_json).c_str());
}

}  // namespace dxt::cli
