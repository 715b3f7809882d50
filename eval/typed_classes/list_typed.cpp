// SPDX-License-Identifier: Apache-2.0
// Prints every token of standard input's lines that typed detection finds,
// as "class<TAB>token", one a line, exactly as dxt_privatize_text finds them
// with the default model's lists (every family typed). Built and run by
// eval/typed_classes/precision.sh against two builds of the library, to list
// the tokens one finds and the other does not. With --positions, standard
// input is texts separated by NUL bytes (a text may hold line breaks, as a
// message does) and each line of output is
// "text<TAB>begin<TAB>end<TAB>class<TAB>token" (the text counted from 0,
// byte offsets in it), for eval/typed_classes/precision_sample.py.
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
  const bool positions = argc == 3 && std::string(argv[1]) == "--positions";
  if (argc != 2 && !positions) {
    std::fprintf(stderr, "usage: list_typed [--positions] MODEL < TEXT\n");
    return 2;
  }
  if (positions) argv[1] = argv[2];
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
  for (size_t n = 0; std::getline(std::cin, line, positions ? '\0' : '\n'); ++n)
    for (const auto& [token, cls] : privatizer.detect_typed(line))
      if (cls != DXT_TYPED_NONE) {
        if (positions) std::cout << n << '\t' << token.begin << '\t' << token.end << '\t';
        std::cout << typed_class_name(cls) << '\t' << line.substr(token.begin, token.end - token.begin) << '\n';
      }
  return 0;
}
