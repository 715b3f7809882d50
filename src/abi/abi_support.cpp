// SPDX-License-Identifier: Apache-2.0
#include "abi/abi_support.hpp"

namespace dxt::abi {

std::string& last_error() {
  thread_local std::string message;
  return message;
}

}  // namespace dxt::abi
