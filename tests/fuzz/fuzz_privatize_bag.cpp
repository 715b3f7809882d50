// SPDX-License-Identifier: Apache-2.0
// Fuzz target: dxt_privatize_bag and dxt_syntf on bags read from the input
// (arbitrary word bytes, zero, small and huge counts), with arbitrary
// options, on each of the fixed models.
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "support/release_outputs.hpp"

namespace {
// Mostly small counts, so that valid bags run quickly; sometimes the
// bounds of DXT_MAX_BAG_WORDS and beyond.
uint64_t pick_count(dxt::fuzz::Input& in) {
  const uint8_t b = in.u8();
  switch (b) {
    case 0xFF: return ~uint64_t{0};
    case 0xFE: return DXT_MAX_BAG_WORDS + 1;
    case 0xFD: return DXT_MAX_BAG_WORDS;
    case 0xFC: return uint64_t{1} << 63;
    default: return b % 8u;
  }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace dxt::fuzz;
  Input in(data, size);
  const Models& all = models();
  dxt_model* model = all.models[in.u8() % all.models.size()];
  std::string placeholder;
  const dxt_privatize_options options = pick_options(in, placeholder);
  const uint32_t n_out = in.u8() % 8u;

  // Words are separate heap blocks of exactly their length.
  std::vector<std::unique_ptr<char[]>> words;
  std::vector<dxt_bag_entry> entries;
  while (!in.empty() && entries.size() < 64) {
    const std::string_view w = in.bytes(in.u8() % 24u);
    words.emplace_back(new char[w.size() + 1]);
    if (!w.empty()) std::memcpy(words.back().get(), w.data(), w.size());
    entries.push_back({words.back().get(), w.size(), pick_count(in)});
  }
  // Totals above DXT_MAX_BAG_WORDS must be refused before any draw; a
  // valid but large bag would only make the fuzzer slow.
  uint64_t total = 0;
  for (const auto& e : entries) total = e.count > DXT_MAX_BAG_WORDS - total ? DXT_MAX_BAG_WORDS + 1 : total + e.count;
  if (total > 4096 && total <= DXT_MAX_BAG_WORDS) return 0;

  dxt_context* ctx = deterministic_context(model, 3);
  for (int call = 0; call < 2; ++call) {
    dxt_bag* out = reinterpret_cast<dxt_bag*>(1);
    dxt::test::Reported report;
    const dxt_status s =
        call == 0 ? dxt_privatize_bag(ctx, &options, entries.data(), entries.size(), &out, &report.rec, &report.diag)
                  : dxt_syntf(ctx, &options, entries.data(), entries.size(), n_out, &out, &report.rec, &report.diag);
    if (s != DXT_OK) {
      check_failure(s);
      DXT_FUZZ_CHECK(out == nullptr);
      continue;
    }
    DXT_FUZZ_CHECK(out != nullptr);
    uint64_t released = 0;
    for (size_t i = 0; i < out->size; ++i) {
      const dxt_bag_entry& e = out->entries[i];
      // A kept word may hold NUL bytes of the input: the length, not
      // strlen, is its size; it is NUL-terminated after it.
      DXT_FUZZ_CHECK(e.word != nullptr && e.word[e.length] == '\0');
      DXT_FUZZ_CHECK(dxt::utf8::valid(e.word, e.length));
      DXT_FUZZ_CHECK(e.count > 0);
      released += e.count;
    }
    if (call == 1) DXT_FUZZ_CHECK(released == n_out);
    if (call == 0) DXT_FUZZ_CHECK(total <= DXT_MAX_BAG_WORDS && released <= total);
    dxt_bag_free(out);
  }
  dxt_context_destroy(ctx);
  return 0;
}
