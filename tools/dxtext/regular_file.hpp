// SPDX-License-Identifier: Apache-2.0
// Reading a file named on the command line (an output word list, a ledger
// key): only a regular file, of at most a given size. A FIFO would block
// the open or the read until a writer comes, and a device such as /dev/zero
// never ends; both are refused before anything is read.
#pragma once

#include <cstddef>
#include <string>

namespace dxt::cli {

// The whole of `path`; `what` names it in errors ("the output word list").
// DXT_E_IO when it cannot be opened or read or is not a regular file;
// DXT_E_INPUT_TOO_LARGE when it holds more than `max_bytes`.
std::string read_regular_file(const std::string& path, size_t max_bytes, const std::string& what);

}  // namespace dxt::cli
