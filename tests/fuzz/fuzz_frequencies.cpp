// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the word-frequency reader used by `dxtext convert
// --frequencies` ("word count" lines) on arbitrary bytes.
#include <sstream>
#include <string>

#include "errors/error.hpp"
#include "fuzz_support.hpp"
#include "model/converters.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace dxt::fuzz;
  Input in(data, size);
  const bool lowercase = (in.u8() & 1) != 0;
  std::istringstream input{std::string(in.rest()), std::ios::binary};
  try {
    const auto table = dxt::read_frequencies(input, lowercase);
    for (const auto& [word, count] : table) {
      DXT_FUZZ_CHECK(!word.empty());
      DXT_FUZZ_CHECK(dxt::utf8::valid(word.data(), word.size()));
      (void)count;
    }
  } catch (const dxt::Error& e) {
    DXT_FUZZ_CHECK(e.status() == DXT_E_PARSE);
    DXT_FUZZ_CHECK(std::string_view(e.what()).size() > 0);
  }
  return 0;
}
