/* SPDX-License-Identifier: Apache-2.0 */
/*
 * One conformance case through the C ABI: what cases.py writes as the
 * expected outcome of a case, and what its --check mode compares with the
 * committed cases.json (tests/conformance/README.md).
 *
 *   conformance_case open|open-memory MODEL
 *   conformance_case text|word MODEL SEED_HEX64 INPUT [NAME=VALUE ...]
 *
 * Options are set by name (dxt_options_set), in the order given. Prints one
 * line of JSON: {"text": ..., "record": {...}} after a privatisation,
 * {"opened": true} after an open (of the file, or of its bytes read into
 * memory with open-memory), or {"error": {"status": N, "message": ...}}
 * (dxt_last_error_message) when a call fails. Exits 0 when it printed an
 * outcome, 2 on bad usage.
 */
#include <dxtext/dxtext.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void print_json_string(const char *s) {
  putchar('"');
  for (const unsigned char *p = (const unsigned char *)s; *p; ++p) {
    if (*p == '"' || *p == '\\') {
      printf("\\%c", *p);
    } else if (*p < 0x20) {
      printf("\\u%04x", *p);
    } else {
      putchar(*p);
    }
  }
  putchar('"');
}

/* Prints the error outcome of @p status and returns 0 (an outcome). */
static int print_error(dxt_status status) {
  printf("{\"error\": {\"status\": %d, \"message\": ", (int)status);
  print_json_string(dxt_last_error_message());
  printf("}}\n");
  return 0;
}

static int parse_seed(const char *hex, uint8_t seed[32]) {
  if (strlen(hex) != 64) return 0;
  for (int i = 0; i < 32; ++i) {
    unsigned byte = 0;
    if (sscanf(hex + 2 * i, "%2x", &byte) != 1) return 0;
    seed[i] = (uint8_t)byte;
  }
  return 1;
}

static int usage(void) {
  fprintf(stderr,
          "usage: conformance_case open|open-memory MODEL\n"
          "       conformance_case text|word MODEL SEED_HEX64 INPUT [NAME=VALUE ...]\n");
  return 2;
}

static int privatize(dxt_model *model, const char *call, int argc, char **argv) {
  dxt_context_options context_options;
  dxt_context_options_init(&context_options);
  context_options.rng_mode = DXT_RNG_DETERMINISTIC;
  if (!parse_seed(argv[3], context_options.seed)) return usage();
  dxt_options *options = NULL;
  dxt_status status = dxt_options_create(model, &options);
  if (status != DXT_OK) return print_error(status);
  for (int i = 5; i < argc; ++i) {
    char *equals = strchr(argv[i], '=');
    if (!equals) {
      dxt_options_destroy(options);
      return usage();
    }
    *equals = '\0';
    status = dxt_options_set(options, argv[i], equals + 1);
    if (status != DXT_OK) {
      dxt_options_destroy(options);
      return print_error(status);
    }
  }
  dxt_context *context = NULL;
  status = dxt_context_create(model, &context_options, &context);
  if (status != DXT_OK) {
    dxt_options_destroy(options);
    return print_error(status);
  }
  dxt_release_record record;
  dxt_release_record_init(&record);
  char *out = NULL;
  size_t out_length = 0;
  const char *input = argv[4];
  if (strcmp(call, "text") == 0) {
    status = dxt_privatize_text(context, dxt_options_get(options), input, strlen(input), &out, &out_length, &record,
                                NULL);
  } else {
    status = dxt_privatize_word(context, dxt_options_get(options), input, strlen(input), &out, &out_length, &record,
                                NULL);
  }
  dxt_context_destroy(context);
  dxt_options_destroy(options);
  if (status != DXT_OK) return print_error(status);
  size_t required = 0;
  char *json = NULL;
  status = dxt_release_record_to_json(&record, NULL, 0, &required);
  if (status == DXT_E_INPUT_TOO_LARGE && (json = malloc(required)) != NULL) {
    status = dxt_release_record_to_json(&record, json, required, NULL);
  }
  if (status != DXT_OK || json == NULL) {
    free(json);
    dxt_text_free(out);
    fprintf(stderr, "conformance_case: cannot write the release record\n");
    return 1;
  }
  printf("{\"text\": ");
  print_json_string(out);
  printf(", \"record\": %s}\n", json);
  free(json);
  dxt_text_free(out);
  return 0;
}

/* The bytes of @p path in a malloc'd buffer (aligned for any type, as
   dxt_model_open_memory needs), or NULL. */
static void *read_file(const char *path, size_t *size) {
  FILE *file = fopen(path, "rb");
  if (!file) return NULL;
  void *bytes = NULL;
  long length = fseek(file, 0, SEEK_END) == 0 ? ftell(file) : -1;
  if (length >= 0 && fseek(file, 0, SEEK_SET) == 0 && (bytes = malloc((size_t)length + 1)) != NULL &&
      fread(bytes, 1, (size_t)length, file) != (size_t)length) {
    free(bytes);
    bytes = NULL;
  }
  fclose(file);
  *size = (size_t)length;
  return bytes;
}

int main(int argc, char **argv) {
  if (argc < 3) return usage();
  const char *call = argv[1];
  int is_open = strcmp(call, "open") == 0 || strcmp(call, "open-memory") == 0;
  if (is_open ? argc != 3 : (strcmp(call, "text") != 0 && strcmp(call, "word") != 0) || argc < 5) return usage();
  dxt_model *model = NULL;
  dxt_status status;
  if (strcmp(call, "open-memory") == 0) {
    size_t size = 0;
    void *bytes = read_file(argv[2], &size);
    if (!bytes) {
      fprintf(stderr, "conformance_case: cannot read %s\n", argv[2]);
      return 1;
    }
    dxt_model_open_options options;
    dxt_model_open_options_init(&options);
    options.flags = DXT_OPEN_PRIVATE_COPY; /* the model outlives the buffer */
    status = dxt_model_open_memory(bytes, size, &options, &model);
    free(bytes);
  } else {
    status = dxt_model_open_file(argv[2], NULL, &model);
  }
  if (status != DXT_OK) return print_error(status);
  int result = 0;
  if (is_open) {
    printf("{\"opened\": true}\n");
  } else {
    result = privatize(model, call, argc, argv);
  }
  dxt_model_close(model);
  return result;
}
