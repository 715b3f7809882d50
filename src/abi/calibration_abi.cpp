// SPDX-License-Identifier: Apache-2.0
// dxt_calibrate: plausible-deniability statistics through the C ABI.
#include "abi/abi_support.hpp"
#include "accounting/calibration.hpp"

using namespace dxt::abi;

extern "C" {

void dxt_calibration_init_sized(dxt_calibration* c, size_t struct_size) {
  init_sized(c, struct_size, zeroed<dxt_calibration>());
}

dxt_status dxt_calibrate(dxt_context* ctx, const dxt_privatize_options* o, uint32_t words, uint32_t trials,
                         dxt_calibration* out) {
  return guarded([&] {
    const ContextUse in_use(ctx);
    const dxt_privatize_options opt = check_common(ctx, o, nullptr, nullptr);
    check_struct(out, sizeof(dxt_calibration), "calibration");
    if (words == 0 || trials == 0) dxt::fail(DXT_E_INVALID_ARGUMENT, "words and trials must be at least 1");
    if (uint64_t{words} * trials > (uint64_t{1} << 32))
      dxt::fail(DXT_E_INPUT_TOO_LARGE, "words * trials exceeds 2^32 privatisations");
    dxt::Mechanism& m = mechanism_for(ctx, opt);
    const auto sample =
        dxt::sample_output_words(*ctx->rng, m.params().output.get(), ctx->model->vocabulary_size(), words);
    const dxt::CalibrationStats s = dxt::calibrate(m, *ctx->rng, sample, trials);
    dxt_calibration r;
    dxt_calibration_init(&r);
    r.struct_size = out->struct_size;  // a newer caller's larger size stays as it was
    r.words = s.words;
    r.trials = s.trials;
    r.keep_mean = s.keep_mean, r.keep_median = s.keep_median, r.keep_max = s.keep_max;
    r.distinct_mean = s.distinct_mean, r.distinct_median = s.distinct_median, r.distinct_max = s.distinct_max;
    std::memcpy(out, &r, sizeof r);
  });
}

}  // extern "C"
