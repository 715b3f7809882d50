// Fuzz target: dxt_privatize_text and dxt_privatize_word on arbitrary bytes
// as text, with arbitrary options (mechanism, epsilon, policies, mechanism
// parameters, struct_size) on each of the fixed models.
#include <cstring>
#include <string>

#include "fuzz_support.hpp"

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
  dxt_report report;
  dxt_report_init(&report);
  for (int call = 0; call < 2; ++call) {
    char* out = reinterpret_cast<char*>(1);  // must be reset to NULL on failure
    size_t out_len = 12345;
    // A heap copy of exactly the text's bytes, so over-reads are caught.
    std::unique_ptr<char[]> copy(new char[text.size() + 1]);
    if (!text.empty()) std::memcpy(copy.get(), text.data(), text.size());
    const dxt_status s = call == 0 ? dxt_privatize_text(ctx, &options, copy.get(), text.size(), &out, &out_len,
                                                        with_report ? &report : nullptr)
                                   : dxt_privatize_word(ctx, &options, copy.get(), text.size(), &out, &out_len,
                                                        with_report ? &report : nullptr);
    if (s != DXT_OK) {
      check_failure(s);
      DXT_FUZZ_CHECK(out == nullptr);
      continue;
    }
    // NUL bytes of the text are kept, so the length, not strlen, is the size.
    DXT_FUZZ_CHECK(out != nullptr && out[out_len] == '\0');
    DXT_FUZZ_CHECK(dxt::utf8::valid(out, out_len));
    if (with_report) {
      DXT_FUZZ_CHECK(report.epsilon == options.epsilon);
      DXT_FUZZ_CHECK(!report.is_private);
      char json[4096];
      size_t need = 0;
      DXT_FUZZ_CHECK(dxt_report_to_json(&report, json, sizeof json, &need) == DXT_OK);
    }
    dxt_text_free(out);
  }
  dxt_context_destroy(ctx);
  return 0;
}
