/* SPDX-License-Identifier: Apache-2.0 */
/* Times model open and per-word privatisation through the public C API.
   Usage: core_timing MODEL.dxe [EPSILON]. Prints one JSON object.
   The end-to-end benchmark with machine limits and baselines is
   `dxtext bench` (docs/performance.md); this is the minimal core check. */
#define _POSIX_C_SOURCE 199309L
#include <dxtext/dxtext.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv) {
  dxt_model *model = NULL;
  dxt_context *ctx = NULL;
  dxt_model_info info;
  dxt_privatize_options o;
  const int opens = 2000, words = 300;
  double t0, open_s, word_s;
  int i;
  if (argc < 2) return fprintf(stderr, "usage: %s MODEL.dxe [EPSILON]\n", argv[0]), 2;

  t0 = now();
  for (i = 0; i < opens; ++i) {
    if (dxt_model_open_file(argv[1], NULL, &model) != DXT_OK)
      return fprintf(stderr, "open: %s\n", dxt_last_error_message()), 1;
    if (i + 1 < opens) dxt_model_close(model);
  }
  open_s = (now() - t0) / opens;

  dxt_model_info_init(&info);
  if (dxt_model_get_info(model, &info) != DXT_OK || dxt_context_create(model, NULL, &ctx) != DXT_OK)
    return fprintf(stderr, "%s\n", dxt_last_error_message()), 1;
  dxt_privatize_options_init(&o);
  o.epsilon = argc > 2 ? atof(argv[2]) : 10.0;
  t0 = now();
  for (i = 0; i < words; ++i) {
    uint32_t out;
    if (dxt_privatize_index(ctx, &o, (uint32_t)i % info.vocabulary_size, &out, NULL, NULL) != DXT_OK)
      return fprintf(stderr, "privatize: %s\n", dxt_last_error_message()), 1;
  }
  word_s = (now() - t0) / words;
  printf(
      "{\"vocabulary_size\":%u,\"dimension\":%u,\"open_us\":%.2f,\"privatize_word_ms\":%.3f,"
      "\"words_per_s\":%.0f}\n",
      info.vocabulary_size, info.dimension, open_s * 1e6, word_s * 1e3, 1.0 / word_s);
  dxt_context_destroy(ctx);
  dxt_model_close(model);
  return 0;
}
