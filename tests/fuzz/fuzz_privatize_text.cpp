// SPDX-License-Identifier: Apache-2.0
// Fuzz target: dxt_privatize_text and dxt_privatize_word on arbitrary bytes
// as text, with arbitrary options (mechanism, epsilon, policies, mechanism
// parameters, typed and negation policies, struct_size) on each of the fixed
// models, two of them with typed lists. Without a keep
// policy, no letter, digit or invisible code point of the text may reach the
// output: every one there must come from a vocabulary word or the
// placeholder (docs/limitations.md, "Text").
#include <cstddef>
#include <cstring>
#include <string>

#include "fuzz_support.hpp"
#include "unicode/char_class.hpp"
#include "unicode/fold.hpp"

namespace {

// The output of a text call in which nothing was kept verbatim: its
// non-ASCII code points that are not spans (punctuation, symbols, spaces)
// are those of the fixed models' words ("über", "naïve", their capitals)
// or of an ASCII placeholder, so any other is copied from the text.
void check_nothing_copied(const dxt_privatize_options& o, const char* out, size_t len) {
  for (uint32_t p : o.policy)
    if (p == DXT_POLICY_KEEP) return;
  for (uint32_t p : o.typed)
    if (p == DXT_TYPED_KEEP) return;
  if (o.placeholder != nullptr)
    for (const char* c = o.placeholder; *c != '\0'; ++c)
      if (static_cast<unsigned char>(*c) >= 0x80) return;
  for (size_t i = 0; i < len;) {
    const uint32_t c = dxt::utf8::decode(out, len, i);
    if (c < 0x80 || dxt::unicode::char_class(c) == dxt::unicode::CharClass::kOther) continue;
    DXT_FUZZ_CHECK(c == 0xFC || c == 0xDC || c == 0xEF || c == 0xCF);
  }
}

// Under the strict shape, without a placeholder (which may hold any
// bytes), the output is the fixed models' words joined by single spaces:
// no other whitespace of the text survives. release_shape sits in what was
// the tail padding of the struct before it, so dxtext reads it only from a
// struct_size that covers the output fields appended with it (dxtext.h);
// a smaller one releases in the keep shape.
void check_strict(const dxt_privatize_options& o, const char* out, size_t len) {
  constexpr size_t with_shape = offsetof(dxt_privatize_options, output_set) + sizeof o.output_set;
  if (o.release_shape != DXT_SHAPE_STRICT || o.struct_size < with_shape) return;
  for (uint32_t p : o.policy)
    if (p == DXT_POLICY_PLACEHOLDER) return;
  const std::string_view s(out, len);
  DXT_FUZZ_CHECK(s.find("  ") == std::string_view::npos);
  DXT_FUZZ_CHECK(s.empty() || (s.front() != ' ' && s.back() != ' '));
  DXT_FUZZ_CHECK(s.find_first_of("\t\n\r") == std::string_view::npos);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace dxt::fuzz;
  Input in(data, size);
  const Models& all = models();
  dxt_model* model = all.models[in.u8() % all.models.size()];
  std::string placeholder;
  const dxt_privatize_options options = pick_options(in, placeholder);
  const bool with_report = (in.u8() & 1) != 0;
  const std::string_view text = in.rest();

  dxt_context* ctx = deterministic_context(model, 7);
  dxt_release_record record;
  dxt_release_record_init(&record);
  dxt_local_diagnostics diagnostics;
  dxt_local_diagnostics_init(&diagnostics);
  for (int call = 0; call < 2; ++call) {
    char* out = reinterpret_cast<char*>(1);  // must be reset to NULL on failure
    size_t out_len = 12345;
    // A heap copy of exactly the text's bytes, so over-reads are caught.
    std::unique_ptr<char[]> copy(new char[text.size() + 1]);
    if (!text.empty()) std::memcpy(copy.get(), text.data(), text.size());
    const dxt_status s =
        call == 0 ? dxt_privatize_text(ctx, &options, copy.get(), text.size(), &out, &out_len,
                                       with_report ? &record : nullptr, with_report ? &diagnostics : nullptr)
                  : dxt_privatize_word(ctx, &options, copy.get(), text.size(), &out, &out_len,
                                       with_report ? &record : nullptr, with_report ? &diagnostics : nullptr);
    if (s != DXT_OK) {
      check_failure(s);
      DXT_FUZZ_CHECK(out == nullptr);
      continue;
    }
    // NUL bytes of the text are kept, so the length, not strlen, is the size.
    DXT_FUZZ_CHECK(out != nullptr && out[out_len] == '\0');
    DXT_FUZZ_CHECK(dxt::utf8::valid(out, out_len));
    if (call == 0) check_nothing_copied(options, out, out_len);
    if (call == 0) check_strict(options, out, out_len);
    if (with_report) {
      DXT_FUZZ_CHECK(record.epsilon == options.epsilon);
      DXT_FUZZ_CHECK(!record.is_private);
      char json[4096];
      size_t need = 0;
      DXT_FUZZ_CHECK(dxt_release_record_to_json(&record, json, sizeof json, &need) == DXT_OK);
      DXT_FUZZ_CHECK(dxt_local_diagnostics_to_json(&diagnostics, json, sizeof json, &need) == DXT_OK);
    }
    dxt_text_free(out);
  }
  dxt_context_destroy(ctx);
  // Word folding, which every lookup applies: idempotent, and its output is
  // valid UTF-8 that never grows past 18 code points per input code point.
  if (dxt::utf8::valid(text.data(), text.size())) {
    const std::string folded = dxt::unicode::fold(text);
    DXT_FUZZ_CHECK(dxt::utf8::valid(folded.data(), folded.size()));
    DXT_FUZZ_CHECK(folded.size() <= 18 * 4 * text.size());
    DXT_FUZZ_CHECK(dxt::unicode::fold(folded) == folded);
    DXT_FUZZ_CHECK(dxt::unicode::is_folded(folded));
  }
  return 0;
}
