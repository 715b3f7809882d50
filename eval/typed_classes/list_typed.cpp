// SPDX-License-Identifier: Apache-2.0
// Prints every token of standard input's lines that typed detection finds,
// as "class<TAB>token", one a line, exactly as dxt_privatize_text finds them
// with the default model's lists (every family typed). Built and run by
// eval/typed_classes/precision.sh against two builds of the library, to list
// the tokens one finds and the other does not.
#include <array>
#include <cstdio>
#include <iostream>
#include <string>

#include "mechanisms/mechanism.hpp"
#include "model/model.hpp"
#include "rng/byte_source.hpp"
#include "rng/random_stream.hpp"
#include "text/text_privatizer.hpp"
#include "text/typed_classes.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: list_typed MODEL < TEXT\n");
    return 2;
  }
  using namespace dxt;
  const auto model = Model::open_file(argv[1], ModelOpenOptions{});
  MechanismParams mp;
  mp.epsilon = 1;
  const auto mechanism = make_mechanism(*model, mp);
  std::array<uint8_t, 32> seed{};
  RandomStream rng(make_keyed_stream(seed));
  TokenPolicies policies;
  for (auto& p : policies.typed) p = DXT_TYPED_PLACEHOLDER;
  TextPrivatizer privatizer(*model, *mechanism, rng, policies);
  std::string line;
  while (std::getline(std::cin, line))
    for (const auto& [token, cls] : privatizer.detect_typed(line))
      if (cls != DXT_TYPED_NONE)
        std::cout << typed_class_name(cls) << '\t' << line.substr(token.begin, token.end - token.begin) << '\n';
  return 0;
}
