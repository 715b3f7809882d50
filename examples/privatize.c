/* SPDX-License-Identifier: Apache-2.0 */
/* Privatise one sentence with dxtext's C API.
   Build: cc privatize.c -ldxtext -o privatize   Run: ./privatize MODEL.dxe */
#include <dxtext/dxtext.h>
#include <stdio.h>
#include <string.h>

static int fail(const char *what, dxt_status s) {
  fprintf(stderr, "%s: %s: %s\n", what, dxt_status_string(s), dxt_last_error_message());
  return 1;
}

int main(int argc, char **argv) {
  const char *text = "The quick brown fox jumps over the lazy dog.";
  dxt_model *model = NULL;
  dxt_context *ctx = NULL;
  dxt_privatize_options options;
  dxt_release_record record; /* safe to send with the text; diagnostics are not */
  char *out = NULL, json[1024];
  size_t out_len = 0;
  dxt_status s;

  if (argc < 2) return fprintf(stderr, "usage: %s MODEL.dxe\n", argv[0]), 2;
  s = dxt_model_open_file(argv[1], NULL, &model); /* memory-maps the file */
  if (s != DXT_OK) return fail("open", s);
  s = dxt_context_create(model, NULL, &ctx); /* one per thread; OpenSSL CSPRNG */
  if (s != DXT_OK) return dxt_model_close(model), fail("context", s);

  dxt_privatize_options_init(&options);
  options.epsilon = 5.0; /* per word: eps * Euclidean distance */
  dxt_release_record_init(&record);
  s = dxt_privatize_text(ctx, &options, text, strlen(text), &out, &out_len, &record, NULL);
  if (s == DXT_OK) {
    printf("%s\n", out);
    if (dxt_release_record_to_json(&record, json, sizeof json, NULL) == DXT_OK) fprintf(stderr, "%s\n", json);
  }
  dxt_text_free(out);
  dxt_context_destroy(ctx);
  dxt_model_close(model);
  return s == DXT_OK ? 0 : fail("privatize", s);
}
