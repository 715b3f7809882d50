/* SPDX-License-Identifier: Apache-2.0 */
/* Privatise one sentence with dxtext's C API, the default model and the
   readable preset (text a person will read; README.md, "Presets").
   Build: cc privatize.c $(pkg-config --cflags --libs dxtext) -o privatize
   Run:   ./privatize ["some text" [MODEL.dxe]]   (without MODEL: the default model) */
#include <dxtext/dxtext.h>
#include <stdio.h>
#include <string.h>

static int fail(const char *what, dxt_status s) {
  /* dxt_last_error_message() is the whole message: no dxt_status_string() before it */
  fprintf(stderr, "%s: %s (status %d)\n", what, dxt_last_error_message(), (int)s);
  return 1;
}

int main(int argc, char **argv) {
  const char *text = argc > 1 ? argv[1] : "The president spoke to the nation about the war.";
  char path[4096];
  dxt_model *model = NULL;
  dxt_context *ctx = NULL;
  dxt_privatize_options options;
  dxt_release_record record; /* safe to send with the text; diagnostics are not */
  char *out = NULL, json[2048];
  size_t out_len = 0;
  dxt_status s;

  /* The default model: $DXTEXT_MODEL, else the models the library's own
     tree carries (README.md, "Models"). */
  if (argc > 2) {
    snprintf(path, sizeof path, "%s", argv[2]);
  } else if ((s = dxt_default_model_path(DXT_GEOMETRY_EUCLIDEAN, path, sizeof path, NULL)) != DXT_OK) {
    return fail("default model", s);
  }
  s = dxt_model_open_file(path, NULL, &model); /* memory-maps the file */
  if (s != DXT_OK) return fail("open", s);
  s = dxt_context_create(model, NULL, &ctx); /* one per thread; OpenSSL CSPRNG */
  if (s != DXT_OK) return dxt_model_close(model), fail("context", s);

  dxt_privatize_options_init(&options);
  options.preset = DXT_PRESET_READABLE; /* mechanism, epsilon, shape and policies at once */
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
