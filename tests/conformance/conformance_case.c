/* SPDX-License-Identifier: Apache-2.0 */
/*
 * One conformance case through the C ABI: what cases.py writes as the
 * expected outcome of a case, and what its --check mode compares with the
 * committed cases.json (tests/conformance/README.md).
 *
 *   conformance_case open|open-memory MODEL
 *   conformance_case text|word MODEL SEED_HEX64 INPUT [NAME=VALUE ...]
 *   conformance_case bag MODEL SEED_HEX64 WORD=COUNT... -- [NAME=VALUE ...]
 *   conformance_case syntf MODEL SEED_HEX64 N_OUT WORD=COUNT... -- [NAME=VALUE ...]
 *   conformance_case calibrate MODEL SEED_HEX64 WORDS TRIALS [NAME=VALUE ...]
 *   conformance_case ledger MODEL SEED_HEX64 FILE SCOPE CAP KEY_HEX|-
 *                    --text INPUT [NAME=VALUE ...] [--text ...]
 *
 * Options are set by name (dxt_options_set), in the order given. Prints one
 * line of JSON: {"text": ..., "record": {...}} after a privatisation,
 * {"bag": {WORD: COUNT, ...}, "record": {...}} after a bag or SynTF (the
 * bag in the library's order), {"calibration": {...}} after a calibration,
 * {"opened": true} after an open (of the file, or of its bytes read into
 * memory with open-memory), {"releases": [...], "ledger": {...}} after
 * releases through a new ledger FILE (each release with a fresh context of
 * the seed: {"text": ..., "memoised": bool} or its error; then the scope as
 * dxt_ledger_to_json writes it), or {"error": {"status": N, "message": ...}}
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

static int usage(void);

/* Prints the error outcome of @p status and returns 0 (an outcome). */
static int print_error(dxt_status status) {
  printf("{\"error\": {\"status\": %d, \"message\": ", (int)status);
  print_json_string(dxt_last_error_message());
  printf("}}\n");
  return 0;
}

/* Reads 2 * @p size hex digits of @p hex into @p out. */
static int parse_hex(const char *hex, uint8_t *out, size_t size) {
  if (strlen(hex) != 2 * size) return 0;
  for (size_t i = 0; i < size; ++i) {
    unsigned byte = 0;
    if (sscanf(hex + 2 * i, "%2x", &byte) != 1) return 0;
    out[i] = (uint8_t)byte;
  }
  return 1;
}

static int parse_seed(const char *hex, uint8_t seed[32]) { return parse_hex(hex, seed, 32); }

/* Options made from the NAME=VALUE arguments argv[first..last); on a
   failure, prints the error outcome and returns NULL with *printed set. */
static dxt_options *make_options(dxt_model *model, char **argv, int first, int last, int *printed) {
  dxt_options *options = NULL;
  dxt_status status = dxt_options_create(model, &options);
  for (int i = first; status == DXT_OK && i < last; ++i) {
    char *equals = strchr(argv[i], '=');
    if (!equals) {
      dxt_options_destroy(options);
      *printed = usage();
      return NULL;
    }
    *equals = '\0';
    status = dxt_options_set(options, argv[i], equals + 1);
  }
  if (status != DXT_OK) {
    dxt_options_destroy(options);
    *printed = print_error(status);
    return NULL;
  }
  return options;
}

static int usage(void) {
  fprintf(
      stderr,
      "usage: conformance_case open|open-memory MODEL\n"
      "       conformance_case text|word MODEL SEED_HEX64 INPUT [NAME=VALUE ...]\n"
      "       conformance_case bag MODEL SEED_HEX64 WORD=COUNT... -- [NAME=VALUE ...]\n"
      "       conformance_case syntf MODEL SEED_HEX64 N_OUT WORD=COUNT... -- [NAME=VALUE ...]\n"
      "       conformance_case calibrate MODEL SEED_HEX64 WORDS TRIALS [NAME=VALUE ...]\n"
      "       conformance_case ledger MODEL SEED_HEX64 FILE SCOPE CAP KEY_HEX|- --text INPUT [NAME=VALUE ...] ...\n");
  return 2;
}

/* A context of the deterministic generator keyed by @p seed_hex, or NULL
   with *printed set (bad usage or the error outcome). */
static dxt_context *seeded_context(dxt_model *model, const char *seed_hex, int *printed) {
  dxt_context_options context_options;
  dxt_context_options_init(&context_options);
  context_options.rng_mode = DXT_RNG_DETERMINISTIC;
  if (!parse_seed(seed_hex, context_options.seed)) {
    *printed = usage();
    return NULL;
  }
  dxt_context *context = NULL;
  dxt_status status = dxt_context_create(model, &context_options, &context);
  if (status != DXT_OK) *printed = print_error(status);
  return context;
}

/* Prints `"record": {...}` for @p record; 0, or 1 when it cannot. */
static int print_record(const dxt_release_record *record) {
  size_t required = 0;
  char *json = NULL;
  dxt_status status = dxt_release_record_to_json(record, NULL, 0, &required);
  if (status == DXT_E_INPUT_TOO_LARGE && (json = malloc(required)) != NULL) {
    status = dxt_release_record_to_json(record, json, required, NULL);
  }
  if (status != DXT_OK || json == NULL) {
    free(json);
    fprintf(stderr, "conformance_case: cannot write the release record\n");
    return 1;
  }
  printf("\"record\": %s", json);
  free(json);
  return 0;
}

static int privatize(dxt_model *model, const char *call, int argc, char **argv) {
  int printed = 0;
  dxt_options *options = make_options(model, argv, 5, argc, &printed);
  if (!options) return printed;
  dxt_context *context = seeded_context(model, argv[3], &printed);
  if (!context) {
    dxt_options_destroy(options);
    return printed;
  }
  dxt_release_record record;
  dxt_release_record_init(&record);
  char *out = NULL;
  size_t out_length = 0;
  const char *input = argv[4];
  dxt_status status;
  if (strcmp(call, "text") == 0) {
    status =
        dxt_privatize_text(context, dxt_options_get(options), input, strlen(input), &out, &out_length, &record, NULL);
  } else {
    status =
        dxt_privatize_word(context, dxt_options_get(options), input, strlen(input), &out, &out_length, &record, NULL);
  }
  dxt_context_destroy(context);
  dxt_options_destroy(options);
  if (status != DXT_OK) return print_error(status);
  printf("{\"text\": ");
  print_json_string(out);
  printf(", ");
  dxt_text_free(out);
  if (print_record(&record) != 0) return 1;
  printf("}\n");
  return 0;
}

/* bag MODEL SEED WORD=COUNT... -- [NAME=VALUE ...], and syntf with N_OUT
   after SEED. */
static int bags(dxt_model *model, int syntf, int argc, char **argv) {
  int first = syntf ? 5 : 4, end = first;
  while (end < argc && strcmp(argv[end], "--") != 0) ++end;
  if (end == argc) return usage();
  int printed = 0;
  dxt_options *options = make_options(model, argv, end + 1, argc, &printed);
  if (!options) return printed;
  dxt_bag_entry entries[64];
  size_t count = 0;
  for (int i = first; i < end && count < 64; ++i, ++count) {
    char *equals = strrchr(argv[i], '=');
    if (!equals) break;
    entries[count].word = argv[i];
    entries[count].length = (size_t)(equals - argv[i]);
    entries[count].count = strtoull(equals + 1, NULL, 10);
  }
  dxt_context *context = count == (size_t)(end - first) ? seeded_context(model, argv[3], &printed) : NULL;
  if (!context) {
    dxt_options_destroy(options);
    return printed ? printed : usage();
  }
  dxt_release_record record;
  dxt_release_record_init(&record);
  dxt_bag *out = NULL;
  dxt_status status = syntf ? dxt_syntf(context, dxt_options_get(options), entries, count,
                                        (uint32_t)strtoul(argv[4], NULL, 10), &out, &record, NULL)
                            : dxt_privatize_bag(context, dxt_options_get(options), entries, count, &out, &record, NULL);
  dxt_context_destroy(context);
  dxt_options_destroy(options);
  if (status != DXT_OK) return print_error(status);
  printf("{\"bag\": {");
  for (size_t i = 0; i < out->size; ++i) {
    printf(i == 0 ? "" : ", ");
    print_json_string(out->entries[i].word);
    printf(": %llu", (unsigned long long)out->entries[i].count);
  }
  printf("}, ");
  dxt_bag_free(out);
  if (print_record(&record) != 0) return 1;
  printf("}\n");
  return 0;
}

/* calibrate MODEL SEED WORDS TRIALS [NAME=VALUE ...] */
static int calibrate(dxt_model *model, int argc, char **argv) {
  int printed = 0;
  dxt_options *options = make_options(model, argv, 6, argc, &printed);
  if (!options) return printed;
  dxt_context *context = seeded_context(model, argv[3], &printed);
  if (!context) {
    dxt_options_destroy(options);
    return printed;
  }
  dxt_calibration c;
  dxt_calibration_init(&c);
  dxt_status status = dxt_calibrate(context, dxt_options_get(options), (uint32_t)strtoul(argv[4], NULL, 10),
                                    (uint32_t)strtoul(argv[5], NULL, 10), &c);
  dxt_context_destroy(context);
  dxt_options_destroy(options);
  if (status != DXT_OK) return print_error(status);
  printf(
      "{\"calibration\": {\"words\": %u, \"trials\": %u, \"keep_mean\": %.17g, \"keep_median\": %.17g, "
      "\"keep_max\": %.17g, \"distinct_mean\": %.17g, \"distinct_median\": %.17g, \"distinct_max\": %.17g}}\n",
      c.words, c.trials, c.keep_mean, c.keep_median, c.keep_max, c.distinct_mean, c.distinct_median, c.distinct_max);
  return 0;
}

static int ledger_releases(dxt_model *model, int argc, char **argv) {
  dxt_context_options context_options;
  dxt_context_options_init(&context_options);
  context_options.rng_mode = DXT_RNG_DETERMINISTIC;
  uint8_t key[64];
  size_t key_length = strcmp(argv[7], "-") == 0 ? 0 : strlen(argv[7]) / 2;
  if (argc < 8 || !parse_seed(argv[3], context_options.seed) || key_length > sizeof key ||
      (key_length > 0 && !parse_hex(argv[7], key, key_length)))
    return usage();
  dxt_ledger_options ledger_options;
  dxt_ledger_options_init(&ledger_options);
  ledger_options.cap = strtod(argv[6], NULL);
  ledger_options.key = key_length > 0 ? key : NULL;
  ledger_options.key_length = key_length;
  dxt_ledger *ledger = NULL;
  dxt_status status = dxt_ledger_open(argv[4], argv[5], &ledger_options, &ledger);
  if (status != DXT_OK) return print_error(status);
  printf("{\"releases\": [");
  for (int i = 8; i < argc;) {
    if (strcmp(argv[i], "--text") != 0 || i + 1 >= argc) {
      dxt_ledger_close(ledger);
      return usage();
    }
    const char *input = argv[i + 1];
    int end = i + 2;
    while (end < argc && strcmp(argv[end], "--text") != 0) ++end;
    printf(i == 8 ? "" : ", ");
    int printed = 0;
    dxt_options *options = make_options(model, argv, i + 2, end, &printed);
    i = end;
    if (!options) continue;
    dxt_context *context = NULL;
    status = dxt_context_create(model, &context_options, &context);
    char *out = NULL;
    size_t out_length = 0;
    bool memoised = false;
    if (status == DXT_OK) {
      status = dxt_ledger_privatize_text(ledger, context, dxt_options_get(options), input, strlen(input), 0, &out,
                                         &out_length, &memoised, NULL, NULL);
    }
    dxt_context_destroy(context);
    dxt_options_destroy(options);
    if (status != DXT_OK) {
      print_error(status);
      continue;
    }
    printf("{\"text\": ");
    print_json_string(out);
    printf(", \"memoised\": %s}", memoised ? "true" : "false");
    dxt_text_free(out);
  }
  char json[8192];
  status = dxt_ledger_to_json(ledger, json, sizeof json, NULL);
  dxt_ledger_close(ledger);
  if (status != DXT_OK) {
    fprintf(stderr, "conformance_case: cannot write the ledger's JSON\n");
    return 1;
  }
  printf("], \"ledger\": %s}\n", json);
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
  int is_ledger = strcmp(call, "ledger") == 0, is_bag = strcmp(call, "bag") == 0;
  int is_syntf = strcmp(call, "syntf") == 0, is_calibrate = strcmp(call, "calibrate") == 0;
  int is_privatize = strcmp(call, "text") == 0 || strcmp(call, "word") == 0;
  if (is_open                    ? argc != 3
      : is_ledger                ? argc < 8
      : is_calibrate || is_syntf ? argc < 6
      : is_bag                   ? argc < 5
                                 : !is_privatize || argc < 5)
    return usage();
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
  } else if (is_ledger) {
    result = ledger_releases(model, argc, argv);
  } else if (is_bag || is_syntf) {
    result = bags(model, is_syntf, argc, argv);
  } else if (is_calibrate) {
    result = calibrate(model, argc, argv);
  } else {
    result = privatize(model, call, argc, argv);
  }
  dxt_model_close(model);
  return result;
}
