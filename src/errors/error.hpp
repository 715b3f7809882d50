// SPDX-License-Identifier: Apache-2.0
// The one exception type used inside dxtext. It carries the public status
// code; src/abi/ converts it (and nothing else) into a dxt_status.
#pragma once

#include <stdexcept>
#include <string>

#include "dxtext/dxtext.h"

namespace dxt {

class Error : public std::runtime_error {
 public:
  Error(dxt_status status, const std::string& message) : std::runtime_error(message), status_(status) {}
  dxt_status status() const noexcept { return status_; }

 private:
  dxt_status status_;
};

[[noreturn]] inline void fail(dxt_status status, const std::string& message) { throw Error(status, message); }

}  // namespace dxt
