// SPDX-License-Identifier: Apache-2.0
// dxtext typed-classes: copy a model with the typed classes section (kind 12,
// docs/format.md §10.4) built from a list file (models/typed/typed_lists.py
// writes the default model's): one member a line, class<TAB>word<TAB>common.
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "cli_args.hpp"
#include "commands.hpp"
#include "errors/error.hpp"
#include "model/format.hpp"
#include "model/model.hpp"
#include "model/model_writer.hpp"
#include "model/section_append_writer.hpp"
#include "model/typed_lists.hpp"
#include "text/typed_classes.hpp"

namespace dxt::cli {

namespace {

TypedLists read_lists(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(DXT_E_IO, "cannot open '" + path + "'");
  TypedLists lists;
  std::string line;
  size_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty() || line[0] == '#') continue;
    const size_t a = line.find('\t'), b = a == std::string::npos ? a : line.find('\t', a + 1);
    if (b == std::string::npos)
      fail(DXT_E_PARSE, path + ":" + std::to_string(number) + ": expected class<TAB>word<TAB>common");
    const std::string cls = line.substr(0, a), word = line.substr(a + 1, b - a - 1), common = line.substr(b + 1);
    uint32_t id = 0;
    for (uint32_t c = DXT_TYPED_FIRST_NAME; c <= DXT_TYPED_DRUG; ++c)
      if (cls == typed_class_name(static_cast<dxt_typed_class>(c))) id = c;
    if (id == 0) fail(DXT_E_PARSE, path + ":" + std::to_string(number) + ": '" + cls + "' is not a list class");
    if (common != "0" && common != "1")
      fail(DXT_E_PARSE, path + ":" + std::to_string(number) + ": common must be 0 or 1");
    lists.members[id].push_back({word, common == "1"});
  }
  return lists;
}

}  // namespace

int run_typed_classes(int argc, char** argv) {
  Args args(argc, argv, 2, {}, {});
  if (args.positional().size() != 3) throw UsageError("typed-classes needs LISTS.tsv IN.dxe OUT.dxe");
  const std::string lists_path = args.positional()[0], in_path = args.positional()[1], out_path = args.positional()[2];
  const TypedLists lists = read_lists(lists_path);
  const std::vector<uint8_t> section = encode_typed_lists(lists);
  const auto model = Model::open_file(in_path, ModelOpenOptions{});
  {
    // A new file renamed over OUT when whole: IN is never written.
    AtomicFile out(out_path);
    write_model_with_section(*model, static_cast<uint32_t>(format::SectionKind::kTypedClasses), section,
                             format::kMinorTypedClasses, out.stream());
    out.commit();
  }
  // Read back: the section must decode as the library will decode it.
  const auto written = Model::open_file(out_path, ModelOpenOptions{true, false});
  const TypedLists* back = written->typed_lists();
  std::fprintf(stderr, "wrote %s: typed classes section of %zu bytes:", out_path.c_str(), section.size());
  for (uint32_t c = DXT_TYPED_FIRST_NAME; c <= DXT_TYPED_DRUG; ++c)
    std::fprintf(stderr, " %s %zu", typed_class_name(static_cast<dxt_typed_class>(c)), back->members[c].size());
  std::fprintf(stderr, "\n");
  return 0;
}

}  // namespace dxt::cli
