// SPDX-License-Identifier: Apache-2.0
// Reads lines of space-separated hexadecimal code points and prints, for
// each, "NFC;FOLD" in the same notation: the library's Normalization Form C
// and toNFKC_Casefold of that string. check_fold.py drives it.
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "unicode/fold.hpp"
#include "unicode/utf8.hpp"

namespace {

void print(const std::vector<uint32_t>& cps) {
  for (size_t i = 0; i < cps.size(); ++i) std::printf(i ? " %04X" : "%04X", cps[i]);
}

}  // namespace

int main() {
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream in(line);
    std::vector<uint32_t> cps;
    std::string utf8;
    for (std::string hex; in >> hex;) {
      cps.push_back(static_cast<uint32_t>(std::stoul(hex, nullptr, 16)));
      dxt::utf8::append(utf8, cps.back());
    }
    std::vector<uint32_t> normal = cps;
    dxt::unicode::nfc(normal);
    const std::string folded = dxt::unicode::fold(utf8);
    std::vector<uint32_t> fold_cps;
    for (size_t i = 0; i < folded.size();) fold_cps.push_back(dxt::utf8::decode(folded.data(), folded.size(), i));
    print(normal);
    std::printf(";");
    print(fold_cps);
    std::printf("\n");
  }
  return 0;
}
