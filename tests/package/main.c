/* SPDX-License-Identifier: Apache-2.0 */
/* Consumer of an installed dxtext (C99): privatise a sentence with the model
   given on the command line and print the text and its release record. */
#include <dxtext/dxtext.h>
#include <stdio.h>
#include <string.h>

static int fail(const char *what, dxt_status s) {
  fprintf(stderr, "%s: %s: %s\n", what, dxt_status_string(s), dxt_last_error_message());
  return 1;
}

int main(int argc, char **argv) {
  const char *text = "Alpha, beta and gamma.";
  dxt_model *model = NULL;
  dxt_context *ctx = NULL;
  dxt_privatize_options options;
  dxt_release_record record;
  char *out = NULL, json[2048];
  size_t out_len = 0;
  dxt_status s;

  if (argc != 2) return fprintf(stderr, "usage: %s MODEL.dxe\n", argv[0]), 2;
  if (dxt_version_number() != DXT_VERSION_NUMBER || dxt_abi_version() != DXT_ABI_VERSION)
    return fprintf(stderr, "header %d, library %u\n", DXT_VERSION_NUMBER, (unsigned)dxt_version_number()), 1;
  s = dxt_model_open_file(argv[1], NULL, &model);
  if (s != DXT_OK) return fail("open", s);
  s = dxt_context_create(model, NULL, &ctx);
  if (s != DXT_OK) return dxt_model_close(model), fail("context", s);
  dxt_privatize_options_init(&options);
  options.epsilon = 2.0;
  dxt_release_record_init(&record);
  s = dxt_privatize_text(ctx, &options, text, strlen(text), &out, &out_len, &record, NULL);
  if (s == DXT_OK) {
    printf("%s\n", out);
    s = dxt_release_record_to_json(&record, json, sizeof json, NULL);
    if (s == DXT_OK) printf("%s\n", json);
  }
  dxt_text_free(out);
  dxt_context_destroy(ctx);
  dxt_model_close(model);
  return s == DXT_OK ? 0 : fail("privatize", s);
}
