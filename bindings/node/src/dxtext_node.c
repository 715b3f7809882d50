/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dxtext for Node.js: a plain C N-API addon over the public C header only.
 * lib/index.js is the JavaScript interface; this file gives it handles
 * (externals), synchronous calls for single words, and promise-returning
 * calls run on the libuv thread pool (napi_async_work) for texts, bags,
 * SynTF and calibration.
 *
 * Lifetimes: a model box is shared by its JavaScript handle and every
 * context made from it, and freed (with the aligned copy of a model opened
 * from a buffer) when the last of them lets go. A context box is used by one
 * call at a time: an asynchronous call marks it busy until it completes,
 * and holds a reference to its JavaScript handle so it is not collected.
 * All reference counting happens on the JavaScript thread.
 */
#define NAPI_VERSION 8
#include <node_api.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dxtext/dxtext.h"

/* ------------------------------------------------------------------------ */
/* Errors                                                                    */
/* ------------------------------------------------------------------------ */

/* An Error with .status (number); its message is the library's, as it is
   (dxt_last_error_message is the whole message), or the status's text when
   there is none. lib/index.js makes it the typed error of its status, with
   .code (the status's C name). */
static napi_value make_error(napi_env env, dxt_status status, const char *detail) {
  char message[1024];
  napi_value msg, error, status_value;
  if (detail != NULL && detail[0] != '\0')
    snprintf(message, sizeof message, "%s", detail);
  else
    snprintf(message, sizeof message, "%s", dxt_status_string(status));
  napi_create_string_utf8(env, message, NAPI_AUTO_LENGTH, &msg);
  napi_create_error(env, NULL, msg, &error);
  napi_create_int32(env, status, &status_value);
  napi_set_named_property(env, error, "status", status_value);
  return error;
}

/* Throws for a failed dxtext call on this thread; returns 1 if it threw. */
static int throw_status(napi_env env, dxt_status status) {
  if (status == DXT_OK) return 0;
  napi_throw(env, make_error(env, status, dxt_last_error_message()));
  return 1;
}

static void throw_argument(napi_env env, const char *message) {
  napi_throw(env, make_error(env, DXT_E_INVALID_ARGUMENT, message));
}

/* Returns NULL from the calling function when an N-API call fails (an
   exception is then pending). */
#define NAPI_CALL(env, call)                                         \
  do {                                                               \
    if ((call) != napi_ok) {                                         \
      bool pending_ = false;                                         \
      napi_is_exception_pending((env), &pending_);                   \
      if (!pending_) throw_argument((env), "invalid argument type"); \
      return NULL;                                                   \
    }                                                                \
  } while (0)

/* ------------------------------------------------------------------------ */
/* Handles                                                                   */
/* ------------------------------------------------------------------------ */

typedef struct model_box {
  dxt_model *model; /* NULL once closed */
  void *buffer;     /* aligned copy for models opened from memory */
  int refs;         /* the JavaScript handle + one per context */
} model_box;

typedef struct context_box {
  dxt_context *context; /* NULL once destroyed */
  model_box *model;
  int busy; /* an asynchronous call is running */
} context_box;

static void model_release(model_box *m) {
  if (--m->refs > 0) return;
  dxt_model_close(m->model);
  free(m->buffer);
  free(m);
}

static void model_finalize(napi_env env, void *data, void *hint) {
  model_box *m = (model_box *)data;
  (void)env, (void)hint;
  /* The handle's reference: close the caller's model reference now. */
  dxt_model_close(m->model);
  m->model = NULL;
  model_release(m);
}

static void context_destroy_box(context_box *c) {
  if (c->context == NULL) return;
  dxt_context_destroy(c->context);
  c->context = NULL;
  model_release(c->model);
}

static void context_finalize(napi_env env, void *data, void *hint) {
  context_box *c = (context_box *)data;
  (void)env, (void)hint;
  context_destroy_box(c);
  free(c);
}

static napi_value wrap_model(napi_env env, dxt_model *model, void *buffer) {
  napi_value out;
  model_box *m = (model_box *)calloc(1, sizeof *m);
  if (m == NULL) {
    dxt_model_close(model);
    free(buffer);
    napi_throw(env, make_error(env, DXT_E_OUT_OF_MEMORY, "out of memory"));
    return NULL;
  }
  m->model = model;
  m->buffer = buffer;
  m->refs = 1;
  if (napi_create_external(env, m, model_finalize, NULL, &out) != napi_ok) {
    model_finalize(env, m, NULL);
    return NULL;
  }
  return out;
}

static model_box *get_model(napi_env env, napi_value v) {
  void *data = NULL;
  napi_valuetype t;
  if (napi_typeof(env, v, &t) != napi_ok || t != napi_external || napi_get_value_external(env, v, &data) != napi_ok) {
    throw_argument(env, "not a model handle");
    return NULL;
  }
  if (((model_box *)data)->model == NULL) {
    throw_argument(env, "the model is closed");
    return NULL;
  }
  return (model_box *)data;
}

static context_box *get_context(napi_env env, napi_value v) {
  void *data = NULL;
  napi_valuetype t;
  context_box *c;
  if (napi_typeof(env, v, &t) != napi_ok || t != napi_external || napi_get_value_external(env, v, &data) != napi_ok) {
    throw_argument(env, "not a privatizer handle");
    return NULL;
  }
  c = (context_box *)data;
  if (c->context == NULL) {
    throw_argument(env, "the privatizer is closed");
    return NULL;
  }
  if (c->busy) {
    throw_argument(env, "the privatizer is running an asynchronous call; use one privatizer per concurrent call");
    return NULL;
  }
  return c;
}

/* ------------------------------------------------------------------------ */
/* Arguments                                                                 */
/* ------------------------------------------------------------------------ */

/* A malloc'd UTF-8 copy of a JavaScript string, with its length. */
static char *get_string(napi_env env, napi_value v, size_t *length, const char *what) {
  size_t n = 0;
  char *s;
  napi_valuetype t;
  if (napi_typeof(env, v, &t) != napi_ok || t != napi_string) {
    char message[128];
    snprintf(message, sizeof message, "%s must be a string", what);
    throw_argument(env, message);
    return NULL;
  }
  napi_get_value_string_utf8(env, v, NULL, 0, &n);
  s = (char *)malloc(n + 1);
  if (s == NULL) {
    napi_throw(env, make_error(env, DXT_E_OUT_OF_MEMORY, "out of memory"));
    return NULL;
  }
  napi_get_value_string_utf8(env, v, s, n + 1, &n);
  if (length != NULL) *length = n;
  return s;
}

static int get_property(napi_env env, napi_value object, const char *name, napi_value *out) {
  bool has = false;
  napi_valuetype t;
  if (napi_has_named_property(env, object, name, &has) != napi_ok || !has) return 0;
  if (napi_get_named_property(env, object, name, out) != napi_ok) return 0;
  if (napi_typeof(env, *out, &t) != napi_ok || t == napi_undefined || t == napi_null) return 0;
  return 1;
}

static int get_double_property(napi_env env, napi_value object, const char *name, double *out) {
  napi_value v;
  if (!get_property(env, object, name, &v)) return 1;
  if (napi_get_value_double(env, v, out) != napi_ok) {
    char message[128];
    snprintf(message, sizeof message, "options.%s must be a number", name);
    throw_argument(env, message);
    return 0;
  }
  return 1;
}

/* A JavaScript number that must be an integer in [0, 2^32): N-API's own
   napi_get_value_uint32 wraps instead (2**32 + 3 becomes 3, -1 becomes
   2^32 - 1), so a caller's mistake would run a different call. Throws and
   returns 0 otherwise. */
static int get_u32_value(napi_env env, napi_value v, const char *name, uint32_t *out) {
  double d = 0;
  if (napi_get_value_double(env, v, &d) != napi_ok || !(d >= 0 && d <= 4294967295.0) || d != (double)(uint32_t)d) {
    char message[128];
    snprintf(message, sizeof message, "%s must be an integer in [0, 2^32)", name);
    throw_argument(env, message);
    return 0;
  }
  *out = (uint32_t)d;
  return 1;
}

static int get_u32_property(napi_env env, napi_value object, const char *name, uint32_t *out) {
  napi_value v;
  char qualified[96];
  if (!get_property(env, object, name, &v)) return 1;
  snprintf(qualified, sizeof qualified, "options.%s", name);
  return get_u32_value(env, v, qualified, out);
}

/* The options of one call: a dxt_options handle (which owns the
   placeholder text and output word set the struct points to) and its
   struct, passed to the call as the library made it: a copy would be of
   the size of the header this addon was compiled with, shorter than the
   struct_size a newer library writes in it. Freed when the call is over. */
typedef struct options_copy {
  const dxt_privatize_options *options;
  dxt_options *handle;
} options_copy;

static void options_release(napi_env env, options_copy *o) {
  (void)env;
  dxt_options_destroy(o->handle);
  o->handle = NULL;
}

/* An output vocabulary handle (outputSetCreate): freed by the finalizer. */
static void output_set_finalize(napi_env env, void *data, void *hint) {
  (void)env, (void)hint;
  dxt_output_set_free((dxt_output_set *)data);
}

/* One [name, value] pair of the options, passed to the library by name: the
   value a string (dxt_options_set) or an array of strings (a word list,
   dxt_options_set_words). lib/index.js makes the pairs; the library checks
   names and values. */
static int set_option(napi_env env, dxt_options *handle, napi_value pair) {
  napi_value v;
  napi_valuetype t;
  bool is_array = false;
  char *name, *text;
  int ok;
  if (napi_get_element(env, pair, 0, &v) != napi_ok || (name = get_string(env, v, NULL, "option name")) == NULL)
    return 0;
  if (napi_get_element(env, pair, 1, &v) != napi_ok || napi_typeof(env, v, &t) != napi_ok) {
    free(name);
    return 0;
  }
  napi_is_array(env, v, &is_array);
  if (is_array) {
    uint32_t count = 0, i;
    char **words;
    napi_get_array_length(env, v, &count);
    words = (char **)calloc(count > 0 ? count : 1, sizeof *words);
    ok = words != NULL;
    for (i = 0; ok && i < count; ++i) {
      napi_value w;
      ok = napi_get_element(env, v, i, &w) == napi_ok && (words[i] = get_string(env, w, NULL, "a word")) != NULL;
    }
    if (ok) ok = !throw_status(env, dxt_options_set_words(handle, name, (const char *const *)words, count));
    for (i = 0; words != NULL && i < count; ++i) free(words[i]);
    free(words);
  } else {
    text = get_string(env, v, NULL, name);
    ok = text != NULL && !throw_status(env, dxt_options_set(handle, name, text));
    free(text);
  }
  free(name);
  return ok;
}

/* Reads the options, an array of [name, value] pairs, for a call on the
   context's model. */
static int get_options(napi_env env, const context_box *c, napi_value pairs, options_copy *out) {
  uint32_t count = 0, i;
  bool is_array = false;
  memset(out, 0, sizeof *out);
  if (napi_is_array(env, pairs, &is_array) != napi_ok || !is_array) {
    throw_argument(env, "options must be an array of [name, value] pairs");
    return 0;
  }
  if (throw_status(env, dxt_options_create(c->model->model, &out->handle))) return 0;
  napi_get_array_length(env, pairs, &count);
  for (i = 0; i < count; ++i) {
    napi_value pair;
    if (napi_get_element(env, pairs, i, &pair) != napi_ok || !set_option(env, out->handle, pair)) return 0;
  }
  out->options = dxt_options_get(out->handle);
  return 1;
}

/* outputSetCreate(model, words) -> output set handle */
static napi_value output_set_create(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2], out;
  model_box *m;
  bool is_array = false;
  uint32_t n = 0, i;
  char **words;
  dxt_output_set *set = NULL;
  dxt_status s = DXT_OK;
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if ((m = get_model(env, argv[0])) == NULL) return NULL;
  if (napi_is_array(env, argv[1], &is_array) != napi_ok || !is_array) {
    throw_argument(env, "the output words must be an array of strings");
    return NULL;
  }
  napi_get_array_length(env, argv[1], &n);
  words = (char **)calloc(n == 0 ? 1 : n, sizeof *words);
  if (words == NULL) {
    napi_throw(env, make_error(env, DXT_E_OUT_OF_MEMORY, "out of memory"));
    return NULL;
  }
  for (i = 0; i < n; ++i) {
    napi_value w;
    size_t length = 0;
    if (napi_get_element(env, argv[1], i, &w) != napi_ok ||
        (words[i] = get_string(env, w, &length, "an output word")) == NULL)
      break;
    if (strlen(words[i]) != length) {
      free(words[i]);
      words[i] = NULL;
      throw_argument(env, "an output word contains a NUL character");
      break;
    }
  }
  if (i == n) s = dxt_output_set_create(m->model, (const char *const *)words, n, &set);
  {
    uint32_t k;
    for (k = 0; k < n; ++k) free(words[k]);
  }
  free(words);
  if (i != n || throw_status(env, s)) return NULL;
  if (napi_create_external(env, set, output_set_finalize, NULL, &out) != napi_ok) {
    dxt_output_set_free(set);
    return NULL;
  }
  return out;
}

/* Bag entries from [[word, count], ...]: words copied into one block. */
typedef struct bag_copy {
  dxt_bag_entry *entries;
  size_t count;
  char **words;
} bag_copy;

static void bag_copy_free(bag_copy *b) {
  size_t i;
  if (b->words != NULL)
    for (i = 0; i < b->count; ++i) free(b->words[i]);
  free(b->words);
  free(b->entries);
  memset(b, 0, sizeof *b);
}

static int get_bag(napi_env env, napi_value array, bag_copy *out) {
  bool is_array = false;
  uint32_t n = 0, i;
  memset(out, 0, sizeof *out);
  if (napi_is_array(env, array, &is_array) != napi_ok || !is_array) {
    throw_argument(env, "the bag must be an array of [word, count] pairs");
    return 0;
  }
  napi_get_array_length(env, array, &n);
  out->entries = (dxt_bag_entry *)calloc(n == 0 ? 1 : n, sizeof *out->entries);
  out->words = (char **)calloc(n == 0 ? 1 : n, sizeof *out->words);
  if (out->entries == NULL || out->words == NULL) {
    bag_copy_free(out);
    napi_throw(env, make_error(env, DXT_E_OUT_OF_MEMORY, "out of memory"));
    return 0;
  }
  out->count = n;
  for (i = 0; i < n; ++i) {
    napi_value pair, word, count;
    double c = 0;
    bool pair_is_array = false;
    size_t length = 0;
    if (napi_get_element(env, array, i, &pair) != napi_ok || napi_is_array(env, pair, &pair_is_array) != napi_ok ||
        !pair_is_array || napi_get_element(env, pair, 0, &word) != napi_ok ||
        napi_get_element(env, pair, 1, &count) != napi_ok || napi_get_value_double(env, count, &c) != napi_ok) {
      bag_copy_free(out);
      throw_argument(env, "each bag entry must be a [word, count] pair");
      return 0;
    }
    if (!(c >= 0 && c <= 9007199254740991.0) || c != (double)(uint64_t)c) {
      bag_copy_free(out);
      throw_argument(env, "bag counts must be non-negative integers");
      return 0;
    }
    out->words[i] = get_string(env, word, &length, "a bag word");
    if (out->words[i] == NULL) {
      bag_copy_free(out);
      return 0;
    }
    out->entries[i].word = out->words[i];
    out->entries[i].length = length;
    out->entries[i].count = (uint64_t)c;
  }
  return 1;
}

/* ------------------------------------------------------------------------ */
/* Results                                                                   */
/* ------------------------------------------------------------------------ */

static void set_number(napi_env env, napi_value object, const char *name, double value) {
  napi_value v;
  napi_create_double(env, value, &v);
  napi_set_named_property(env, object, name, v);
}

static void set_boolean(napi_env env, napi_value object, const char *name, bool value) {
  napi_value v;
  napi_get_boolean(env, value, &v);
  napi_set_named_property(env, object, name, v);
}

/* @p bytes as lowercase hex, or null when @p bytes is NULL. */
static void set_hex(napi_env env, napi_value object, const char *name, const uint8_t *bytes, size_t size) {
  char hex[2 * 64 + 1];
  size_t i;
  napi_value v;
  if (bytes == NULL || size > 64) {
    napi_get_null(env, &v);
  } else {
    for (i = 0; i < size; ++i) snprintf(hex + 2 * i, 3, "%02x", bytes[i]);
    napi_create_string_utf8(env, hex, 2 * size, &v);
  }
  napi_set_named_property(env, object, name, v);
}

// generated: structs (tools/options/generate.py, from include/dxtext/dxtext.h)
static void set_record_fields(napi_env env, napi_value o, const dxt_release_record *r) {
  set_number(env, o, "mechanism", (double)r->mechanism);
  set_number(env, o, "epsilon", (double)r->epsilon);
  set_number(env, o, "metric", (double)r->metric);
  set_number(env, o, "rngMode", (double)r->rng_mode);
  set_boolean(env, o, "isPrivate", r->is_private);
  set_hex(env, o, "modelFingerprint", r->fingerprint_valid ? r->model_fingerprint : NULL, 32);
  set_number(env, o, "release", (double)r->release);
  set_number(env, o, "bound", (double)r->bound);
  set_number(env, o, "reveals", (double)r->reveals);
  set_number(env, o, "draws", (double)r->draws);
  set_number(env, o, "epsilonTotal", (double)r->epsilon_total);
  set_number(env, o, "epsilonVocabulary", (double)r->epsilon_vocabulary);
  set_number(env, o, "releaseShape", (double)r->release_shape);
  set_number(env, o, "outputKind", (double)r->output_kind);
  set_number(env, o, "outputSize", (double)r->output_size);
  set_hex(env, o, "outputDigest", r->output_digest, 32);
  set_number(env, o, "preset", (double)r->preset);
  set_number(env, o, "typedClasses", (double)r->typed_classes);
  set_number(env, o, "typedFlags", (double)r->typed_flags);
  set_number(env, o, "uniformFloor", (double)r->uniform_floor);
  set_number(env, o, "worstCasePerWord", (double)r->worst_case_per_word);
  set_number(env, o, "typedDropped", (double)r->typed_dropped);
  set_number(env, o, "contextPrior", (double)r->context_prior);
}

static void set_model_info_fields(napi_env env, napi_value o, const dxt_model_info *r) {
  set_number(env, o, "formatMajor", (double)r->format_major);
  set_number(env, o, "formatMinor", (double)r->format_minor);
  set_number(env, o, "dimension", (double)r->dimension);
  set_number(env, o, "vocabularySize", (double)r->vocabulary_size);
  set_number(env, o, "geometry", (double)r->geometry);
  set_number(env, o, "quantization", (double)r->quantization);
  set_boolean(env, o, "lowercase", r->lowercase);
  set_boolean(env, o, "hasFrequencies", r->has_frequencies);
}

static void set_calibration_fields(napi_env env, napi_value o, const dxt_calibration *r) {
  set_number(env, o, "words", (double)r->words);
  set_number(env, o, "trials", (double)r->trials);
  set_number(env, o, "keepMean", (double)r->keep_mean);
  set_number(env, o, "keepMedian", (double)r->keep_median);
  set_number(env, o, "keepMax", (double)r->keep_max);
  set_number(env, o, "distinctMean", (double)r->distinct_mean);
  set_number(env, o, "distinctMedian", (double)r->distinct_median);
  set_number(env, o, "distinctMax", (double)r->distinct_max);
}

static void set_ledger_totals_fields(napi_env env, napi_value o, const dxt_ledger_totals *r) {
  set_number(env, o, "cap", (double)r->cap);
  set_number(env, o, "spent", (double)r->spent);
  set_number(env, o, "spentAnyInputs", (double)r->spent_any_inputs);
  set_number(env, o, "releases", (double)r->releases);
  set_number(env, o, "memoised", (double)r->memoised);
  set_number(env, o, "memoCapacity", (double)r->memo_capacity);
  set_number(env, o, "words", (double)r->words);
}
// generated: end structs

/* The record's fields by their camelCase names, and its JSON: shared.js's
   recordOf names the enumerations' values. */
static napi_value record_object(napi_env env, const dxt_release_record *r) {
  napi_value o, v;
  char json[4096];
  size_t required = 0;
  napi_create_object(env, &o);
  set_record_fields(env, o, r);
  if (dxt_release_record_to_json(r, json, sizeof json, &required) == DXT_OK) {
    napi_create_string_utf8(env, json, required - 1, &v);
    napi_set_named_property(env, o, "json", v);
  }
  return o;
}

static napi_value diagnostics_object(napi_env env, const dxt_local_diagnostics *d) {
  napi_value o, v, counts;
  uint32_t i, j;
  char json[4096];
  size_t required = 0;
  napi_create_object(env, &o);
  napi_create_array_with_length(env, DXT_TOKEN_CLASS_COUNT, &counts);
  for (i = 0; i < DXT_TOKEN_CLASS_COUNT; ++i) {
    napi_value row;
    napi_create_array_with_length(env, DXT_TOKEN_ACTION_COUNT, &row);
    for (j = 0; j < DXT_TOKEN_ACTION_COUNT; ++j) {
      napi_create_double(env, (double)d->counts[i][j], &v);
      napi_set_element(env, row, j, v);
    }
    napi_set_element(env, counts, i, row);
  }
  napi_set_named_property(env, o, "counts", counts);
  set_number(env, o, "wordsPrivatized", (double)d->words_privatized);
  set_number(env, o, "wordsLeaked", (double)d->words_leaked);
  if (dxt_local_diagnostics_to_json(d, json, sizeof json, &required) == DXT_OK) {
    napi_create_string_utf8(env, json, required - 1, &v);
    napi_set_named_property(env, o, "json", v);
  }
  return o;
}

static napi_value bag_array(napi_env env, const dxt_bag *bag) {
  napi_value array;
  size_t i;
  napi_create_array_with_length(env, bag->size, &array);
  for (i = 0; i < bag->size; ++i) {
    napi_value pair, word, count;
    napi_create_array_with_length(env, 2, &pair);
    napi_create_string_utf8(env, bag->entries[i].word, bag->entries[i].length, &word);
    napi_create_double(env, (double)bag->entries[i].count, &count);
    napi_set_element(env, pair, 0, word);
    napi_set_element(env, pair, 1, count);
    napi_set_element(env, array, (uint32_t)i, pair);
  }
  return array;
}

/* ------------------------------------------------------------------------ */
/* Models                                                                    */
/* ------------------------------------------------------------------------ */

static napi_value model_open(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  char *path;
  bool verify = false;
  dxt_model_open_options options;
  dxt_model *model = NULL;
  dxt_status s;
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  path = get_string(env, argv[0], NULL, "path");
  if (path == NULL) return NULL;
  if (argc > 1) napi_get_value_bool(env, argv[1], &verify);
  dxt_model_open_options_init(&options);
  options.flags = verify ? DXT_OPEN_VERIFY_DIGESTS : 0;
  s = dxt_model_open_file(path, &options, &model);
  free(path);
  if (throw_status(env, s)) return NULL;
  return wrap_model(env, model, NULL);
}

static napi_value model_from_buffer(napi_env env, napi_callback_info info) {
  size_t argc = 2, length = 0;
  napi_value argv[2];
  void *data = NULL, *copy;
  bool is_buffer = false, verify = false;
  dxt_model_open_options options;
  dxt_model *model = NULL;
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  napi_is_typedarray(env, argv[0], &is_buffer);
  if (is_buffer) {
    napi_typedarray_type type;
    size_t count = 0, offset = 0;
    napi_value arraybuffer;
    NAPI_CALL(env, napi_get_typedarray_info(env, argv[0], &type, &count, &data, &arraybuffer, &offset));
    if (type != napi_uint8_array) {
      throw_argument(env, "the model must be a Uint8Array, Buffer or ArrayBuffer");
      return NULL;
    }
    length = count;
  } else {
    napi_is_arraybuffer(env, argv[0], &is_buffer);
    if (!is_buffer) {
      throw_argument(env, "the model must be a Uint8Array, Buffer or ArrayBuffer");
      return NULL;
    }
    NAPI_CALL(env, napi_get_arraybuffer_info(env, argv[0], &data, &length));
  }
  if (argc > 1) napi_get_value_bool(env, argv[1], &verify);
  /* An 8-byte aligned copy that the model keeps (malloc aligns to 16). */
  copy = malloc(length == 0 ? 1 : length);
  if (copy == NULL) {
    napi_throw(env, make_error(env, DXT_E_OUT_OF_MEMORY, "out of memory"));
    return NULL;
  }
  if (length > 0) memcpy(copy, data, length);
  dxt_model_open_options_init(&options);
  options.flags = verify ? DXT_OPEN_VERIFY_DIGESTS : 0;
  if (throw_status(env, dxt_model_open_memory(copy, length, &options, &model))) {
    free(copy);
    return NULL;
  }
  return wrap_model(env, model, copy);
}

/* Closes the handle's model reference now instead of at garbage collection.
   Contexts made from it keep working. */
static napi_value model_close(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  void *data = NULL;
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  NAPI_CALL(env, napi_get_value_external(env, argv[0], &data));
  {
    model_box *m = (model_box *)data;
    dxt_model_close(m->model);
    m->model = NULL; /* the finalizer's dxt_model_close(NULL) is a no-op */
  }
  return NULL;
}

static napi_value model_info(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1], o;
  model_box *m;
  dxt_model_info i;
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if ((m = get_model(env, argv[0])) == NULL) return NULL;
  dxt_model_info_init(&i);
  if (throw_status(env, dxt_model_get_info(m->model, &i))) return NULL;
  napi_create_object(env, &o);
  set_model_info_fields(env, o, &i);
  return o;
}

static napi_value model_fingerprint(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1], out;
  model_box *m;
  uint8_t digest[32];
  char hex[65];
  int i;
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if ((m = get_model(env, argv[0])) == NULL) return NULL;
  if (throw_status(env, dxt_model_fingerprint(m->model, digest))) return NULL;
  for (i = 0; i < 32; ++i) snprintf(hex + 2 * i, 3, "%02x", digest[i]);
  napi_create_string_utf8(env, hex, 64, &out);
  return out;
}

static napi_value model_lookup(napi_env env, napi_callback_info info) {
  size_t argc = 2, length = 0;
  napi_value argv[2], out;
  model_box *m;
  char *word;
  uint32_t index = 0;
  dxt_status s;
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if ((m = get_model(env, argv[0])) == NULL) return NULL;
  if ((word = get_string(env, argv[1], &length, "word")) == NULL) return NULL;
  s = dxt_model_lookup(m->model, word, length, &index);
  free(word);
  if (throw_status(env, s)) return NULL;
  napi_create_uint32(env, index, &out);
  return out;
}

static napi_value model_word(napi_env env, napi_callback_info info) {
  size_t argc = 2, length = 0;
  napi_value argv[2], out;
  model_box *m;
  uint32_t index = 0;
  const char *word = NULL;
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if ((m = get_model(env, argv[0])) == NULL) return NULL;
  if (!get_u32_value(env, argv[1], "index", &index)) return NULL;
  if (throw_status(env, dxt_model_word(m->model, index, &word, &length))) return NULL;
  napi_create_string_utf8(env, word, length, &out);
  return out;
}

static napi_value default_model_path(napi_env env, napi_callback_info info) {
  size_t argc = 1, required = 0;
  napi_value argv[1], out = NULL;
  uint32_t geometry = 0;
  char small[1];
  char *buffer;
  dxt_status s;
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if (!get_u32_value(env, argv[0], "geometry", &geometry)) return NULL;
  s = dxt_default_model_path(geometry, small, 0, &required);
  if (s != DXT_E_INPUT_TOO_LARGE && throw_status(env, s)) return NULL;
  buffer = (char *)malloc(required);
  if (buffer == NULL) return NULL;
  s = dxt_default_model_path(geometry, buffer, required, &required);
  if (!throw_status(env, s)) napi_create_string_utf8(env, buffer, required - 1, &out);
  free(buffer);
  return s == DXT_OK ? out : NULL;
}

/* ------------------------------------------------------------------------ */
/* Contexts and synchronous calls                                            */
/* ------------------------------------------------------------------------ */

static napi_value context_create(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2], out;
  model_box *m;
  context_box *c;
  dxt_context_options options;
  const dxt_context_options *options_ptr = NULL;
  dxt_context *context = NULL;
  dxt_status s;
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if ((m = get_model(env, argv[0])) == NULL) return NULL;
  dxt_context_options_init(&options);
  if (argc > 1) {
    napi_valuetype t;
    napi_typeof(env, argv[1], &t);
    if (t != napi_undefined && t != napi_null) {
      void *seed = NULL;
      size_t length = 0;
      bool is_buffer = false;
      napi_is_buffer(env, argv[1], &is_buffer);
      if (!is_buffer || napi_get_buffer_info(env, argv[1], &seed, &length) != napi_ok || length != 32) {
        throw_argument(env, "seed must be a Buffer of 32 bytes");
        return NULL;
      }
      options.rng_mode = DXT_RNG_DETERMINISTIC;
      memcpy(options.seed, seed, 32);
      options_ptr = &options;
    }
  }
  s = dxt_context_create(m->model, options_ptr, &context);
  memset(options.seed, 0, sizeof options.seed);
  if (throw_status(env, s)) return NULL;
  c = (context_box *)calloc(1, sizeof *c);
  if (c == NULL) {
    dxt_context_destroy(context);
    napi_throw(env, make_error(env, DXT_E_OUT_OF_MEMORY, "out of memory"));
    return NULL;
  }
  c->context = context;
  c->model = m;
  m->refs++;
  if (napi_create_external(env, c, context_finalize, NULL, &out) != napi_ok) {
    context_finalize(env, c, NULL);
    return NULL;
  }
  return out;
}

static napi_value context_close(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  context_box *c;
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if ((c = get_context(env, argv[0])) == NULL) return NULL;
  context_destroy_box(c);
  return NULL;
}

/* privatizeWord(context, word, options) -> {text, record, diagnostics} */
static napi_value privatize_word(napi_env env, napi_callback_info info) {
  size_t argc = 3, length = 0, out_length = 0;
  napi_value argv[3], result, v;
  context_box *c;
  options_copy o;
  dxt_release_record record;
  dxt_local_diagnostics diagnostics;
  char *word, *out = NULL;
  dxt_status s;
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if ((c = get_context(env, argv[0])) == NULL) return NULL;
  if ((word = get_string(env, argv[1], &length, "word")) == NULL) return NULL;
  if (!get_options(env, c, argv[2], &o)) {
    free(word);
    options_release(env, &o);
    return NULL;
  }
  dxt_release_record_init(&record);
  dxt_local_diagnostics_init(&diagnostics);
  s = dxt_privatize_word(c->context, o.options, word, length, &out, &out_length, &record, &diagnostics);
  free(word);
  options_release(env, &o);
  if (throw_status(env, s)) return NULL;
  napi_create_object(env, &result);
  napi_create_string_utf8(env, out, out_length, &v);
  dxt_text_free(out);
  napi_set_named_property(env, result, "text", v);
  napi_set_named_property(env, result, "record", record_object(env, &record));
  napi_set_named_property(env, result, "diagnostics", diagnostics_object(env, &diagnostics));
  return result;
}

/* ------------------------------------------------------------------------ */
/* Asynchronous calls                                                        */
/* ------------------------------------------------------------------------ */

enum job_kind { JOB_TEXT, JOB_BAG, JOB_SYNTF, JOB_CALIBRATE, JOB_LEDGER_TEXT };

/* A privacy ledger handle; busy while an asynchronous call uses it. */
typedef struct ledger_box {
  dxt_ledger *ledger; /* NULL once closed */
  int busy;
} ledger_box;

typedef struct job {
  enum job_kind kind;
  napi_async_work work;
  napi_deferred deferred;
  napi_ref context_ref; /* keeps the context handle alive */
  context_box *context;
  napi_ref ledger_ref; /* JOB_LEDGER_TEXT: keeps the ledger handle alive */
  ledger_box *ledger;
  uint32_t ledger_flags;
  bool memoised;
  options_copy options;
  /* inputs */
  char *text;
  size_t text_length;
  bag_copy bag;
  uint32_t n_out, words, trials;
  /* outputs */
  dxt_status status;
  char error[1024];
  char *out_text;
  size_t out_length;
  dxt_bag *out_bag;
  dxt_release_record record;
  dxt_local_diagnostics diagnostics;
  dxt_calibration calibration;
} job;

static void job_free(napi_env env, job *j) {
  if (j->work != NULL) napi_delete_async_work(env, j->work);
  if (j->context_ref != NULL) napi_delete_reference(env, j->context_ref);
  if (j->ledger_ref != NULL) napi_delete_reference(env, j->ledger_ref);
  options_release(env, &j->options);
  free(j->text);
  bag_copy_free(&j->bag);
  dxt_text_free(j->out_text);
  dxt_bag_free(j->out_bag);
  free(j);
}

/* On a thread-pool thread: only dxtext calls, no N-API. */
static void job_execute(napi_env env, void *data) {
  job *j = (job *)data;
  dxt_context *ctx = j->context->context;
  (void)env;
  switch (j->kind) {
    case JOB_TEXT:
      j->status = dxt_privatize_text(ctx, j->options.options, j->text, j->text_length, &j->out_text, &j->out_length,
                                     &j->record, &j->diagnostics);
      break;
    case JOB_BAG:
      j->status = dxt_privatize_bag(ctx, j->options.options, j->bag.entries, j->bag.count, &j->out_bag, &j->record,
                                    &j->diagnostics);
      break;
    case JOB_SYNTF:
      j->status = dxt_syntf(ctx, j->options.options, j->bag.entries, j->bag.count, j->n_out, &j->out_bag, &j->record,
                            &j->diagnostics);
      break;
    case JOB_CALIBRATE: j->status = dxt_calibrate(ctx, j->options.options, j->words, j->trials, &j->calibration); break;
    case JOB_LEDGER_TEXT:
      j->status = dxt_ledger_privatize_text(j->ledger->ledger, ctx, j->options.options, j->text, j->text_length,
                                            j->ledger_flags, &j->out_text, &j->out_length, &j->memoised, &j->record,
                                            &j->diagnostics);
      break;
  }
  /* The message is thread-local: copy it on this thread. */
  if (j->status != DXT_OK) snprintf(j->error, sizeof j->error, "%s", dxt_last_error_message());
}

static void job_complete(napi_env env, napi_status napi_result, void *data) {
  job *j = (job *)data;
  napi_value result, v;
  j->context->busy = 0;
  if (j->ledger != NULL) j->ledger->busy = 0;
  if (napi_result != napi_ok || j->status != DXT_OK) {
    dxt_status s = napi_result != napi_ok ? DXT_E_INTERNAL : j->status;
    napi_reject_deferred(env, j->deferred,
                         make_error(env, s, napi_result != napi_ok ? "the asynchronous call was cancelled" : j->error));
    job_free(env, j);
    return;
  }
  napi_create_object(env, &result);
  switch (j->kind) {
    case JOB_TEXT:
    case JOB_LEDGER_TEXT:
      napi_create_string_utf8(env, j->out_text, j->out_length, &v);
      napi_set_named_property(env, result, "text", v);
      if (j->kind == JOB_LEDGER_TEXT) {
        napi_get_boolean(env, j->memoised, &v);
        napi_set_named_property(env, result, "memoised", v);
      }
      break;
    case JOB_BAG:
    case JOB_SYNTF: napi_set_named_property(env, result, "bag", bag_array(env, j->out_bag)); break;
    case JOB_CALIBRATE: set_calibration_fields(env, result, &j->calibration); break;
  }
  if (j->kind != JOB_CALIBRATE) {
    napi_set_named_property(env, result, "record", record_object(env, &j->record));
    napi_set_named_property(env, result, "diagnostics", diagnostics_object(env, &j->diagnostics));
  }
  napi_resolve_deferred(env, j->deferred, result);
  job_free(env, j);
}

/* Common start of an asynchronous call: argv[0] is the context handle. */
static job *job_begin(napi_env env, napi_value context_handle, enum job_kind kind) {
  context_box *c = get_context(env, context_handle);
  job *j;
  if (c == NULL) return NULL;
  j = (job *)calloc(1, sizeof *j);
  if (j == NULL) {
    napi_throw(env, make_error(env, DXT_E_OUT_OF_MEMORY, "out of memory"));
    return NULL;
  }
  j->kind = kind;
  j->context = c;
  dxt_release_record_init(&j->record);
  dxt_local_diagnostics_init(&j->diagnostics);
  dxt_calibration_init(&j->calibration);
  if (napi_create_reference(env, context_handle, 1, &j->context_ref) != napi_ok) {
    job_free(env, j);
    return NULL;
  }
  return j;
}

static napi_value job_start(napi_env env, job *j) {
  napi_value promise, name;
  napi_create_string_utf8(env, "dxtext", NAPI_AUTO_LENGTH, &name);
  if (napi_create_promise(env, &j->deferred, &promise) != napi_ok ||
      napi_create_async_work(env, NULL, name, job_execute, job_complete, j, &j->work) != napi_ok ||
      napi_queue_async_work(env, j->work) != napi_ok) {
    job_free(env, j);
    return NULL;
  }
  j->context->busy = 1;
  if (j->ledger != NULL) j->ledger->busy = 1;
  return promise;
}

/* privatizeText(context, text, options) -> Promise<{text, record, diagnostics}> */
static napi_value privatize_text_async(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  job *j;
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if ((j = job_begin(env, argv[0], JOB_TEXT)) == NULL) return NULL;
  if ((j->text = get_string(env, argv[1], &j->text_length, "text")) == NULL ||
      !get_options(env, j->context, argv[2], &j->options)) {
    job_free(env, j);
    return NULL;
  }
  return job_start(env, j);
}

/* privatizeBag(context, [[word, count], ...], options) -> Promise<{bag, record, diagnostics}> */
static napi_value privatize_bag_async(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  job *j;
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if ((j = job_begin(env, argv[0], JOB_BAG)) == NULL) return NULL;
  if (!get_bag(env, argv[1], &j->bag) || !get_options(env, j->context, argv[2], &j->options)) {
    job_free(env, j);
    return NULL;
  }
  return job_start(env, j);
}

/* syntf(context, bag, nOut, options) -> Promise<{bag, record, diagnostics}> */
static napi_value syntf_async(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  job *j;
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if ((j = job_begin(env, argv[0], JOB_SYNTF)) == NULL) return NULL;
  if (!get_bag(env, argv[1], &j->bag) || !get_u32_value(env, argv[2], "nOut", &j->n_out) ||
      !get_options(env, j->context, argv[3], &j->options)) {
    bool pending = false;
    napi_is_exception_pending(env, &pending);
    if (!pending) throw_argument(env, "invalid syntf arguments");
    job_free(env, j);
    return NULL;
  }
  return job_start(env, j);
}

/* calibrate(context, options, words, trials) -> Promise<{...}> */
static napi_value calibrate_async(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  job *j;
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if ((j = job_begin(env, argv[0], JOB_CALIBRATE)) == NULL) return NULL;
  if (!get_options(env, j->context, argv[1], &j->options) || !get_u32_value(env, argv[2], "words", &j->words) ||
      !get_u32_value(env, argv[3], "trials", &j->trials)) {
    bool pending = false;
    napi_is_exception_pending(env, &pending);
    if (!pending) throw_argument(env, "invalid calibrate arguments");
    job_free(env, j);
    return NULL;
  }
  return job_start(env, j);
}

/* ------------------------------------------------------------------------ */
/* Privacy ledger                                                            */
/* ------------------------------------------------------------------------ */

static void ledger_finalize(napi_env env, void *data, void *hint) {
  ledger_box *l = (ledger_box *)data;
  (void)env, (void)hint;
  dxt_ledger_close(l->ledger);
  free(l);
}

static ledger_box *get_ledger(napi_env env, napi_value v) {
  void *data = NULL;
  napi_valuetype t;
  ledger_box *l;
  if (napi_typeof(env, v, &t) != napi_ok || t != napi_external || napi_get_value_external(env, v, &data) != napi_ok) {
    throw_argument(env, "not a ledger handle");
    return NULL;
  }
  l = (ledger_box *)data;
  if (l->ledger == NULL) {
    throw_argument(env, "the ledger is closed");
    return NULL;
  }
  if (l->busy) {
    throw_argument(env, "the ledger is running an asynchronous call; await it first");
    return NULL;
  }
  return l;
}

/* ledgerOpen(path, scope, {cap, memoCapacity, key, anchor}) -> handle;
   anchor: a Buffer of DXT_LEDGER_ANCHOR_BYTES */
static napi_value ledger_open(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3], out, key_value, anchor_value;
  char *path, *scope;
  size_t path_length = 0, scope_length = 0;
  dxt_ledger_options options;
  dxt_ledger_anchor anchor;
  dxt_ledger *ledger = NULL;
  ledger_box *l;
  dxt_status s;
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if ((path = get_string(env, argv[0], &path_length, "path")) == NULL) return NULL;
  if ((scope = get_string(env, argv[1], &scope_length, "scope")) == NULL) {
    free(path);
    return NULL;
  }
  /* The C call reads both up to their first NUL: "user\0day1" would open
     the scope "user". */
  if (strlen(path) != path_length || strlen(scope) != scope_length) {
    free(path);
    free(scope);
    throw_argument(env, "the path or the scope contains a NUL character");
    return NULL;
  }
  dxt_ledger_options_init(&options);
  if (!get_double_property(env, argv[2], "cap", &options.cap) ||
      !get_u32_property(env, argv[2], "memoCapacity", &options.memo_capacity)) {
    free(path);
    free(scope);
    return NULL;
  }
  if (get_property(env, argv[2], "key", &key_value)) {
    void *key = NULL;
    size_t length = 0;
    bool is_buffer = false;
    napi_is_buffer(env, key_value, &is_buffer);
    if (!is_buffer || napi_get_buffer_info(env, key_value, &key, &length) != napi_ok) {
      free(path);
      free(scope);
      throw_argument(env, "options.key must be a Buffer");
      return NULL;
    }
    options.key = (const uint8_t *)key;
    options.key_length = length;
  }
  if (get_property(env, argv[2], "anchor", &anchor_value)) {
    void *bytes = NULL;
    size_t length = 0;
    bool is_buffer = false;
    napi_is_buffer(env, anchor_value, &is_buffer);
    dxt_ledger_anchor_init(&anchor);
    if (!is_buffer || napi_get_buffer_info(env, anchor_value, &bytes, &length) != napi_ok) {
      free(path);
      free(scope);
      throw_argument(env, "options.anchor must be a Buffer (LedgerAnchor.toBytes())");
      return NULL;
    }
    s = dxt_ledger_anchor_decode((const uint8_t *)bytes, length, &anchor);
    if (s != DXT_OK) {
      free(path);
      free(scope);
      throw_status(env, s);
      return NULL;
    }
    options.anchor = &anchor;
  }
  s = dxt_ledger_open(path, scope, &options, &ledger);
  free(path);
  free(scope);
  if (throw_status(env, s)) return NULL;
  l = (ledger_box *)calloc(1, sizeof *l);
  if (l == NULL) {
    dxt_ledger_close(ledger);
    napi_throw(env, make_error(env, DXT_E_OUT_OF_MEMORY, "out of memory"));
    return NULL;
  }
  l->ledger = ledger;
  if (napi_create_external(env, l, ledger_finalize, NULL, &out) != napi_ok) {
    ledger_finalize(env, l, NULL);
    return NULL;
  }
  return out;
}

static napi_value ledger_close(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  ledger_box *l;
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if ((l = get_ledger(env, argv[0])) == NULL) return NULL;
  dxt_ledger_close(l->ledger);
  l->ledger = NULL;
  return NULL;
}

static napi_value ledger_set_cap(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  ledger_box *l;
  double cap = 0;
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if ((l = get_ledger(env, argv[0])) == NULL) return NULL;
  if (napi_get_value_double(env, argv[1], &cap) != napi_ok) {
    throw_argument(env, "cap must be a number");
    return NULL;
  }
  throw_status(env, dxt_ledger_set_cap(l->ledger, cap));
  return NULL;
}

/* ledgerTotals(handle) -> {cap, spent, spentAnyInputs, releases, memoised, memoCapacity, words} */
static napi_value ledger_totals(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1], o;
  ledger_box *l;
  dxt_ledger_totals t;
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if ((l = get_ledger(env, argv[0])) == NULL) return NULL;
  dxt_ledger_totals_init(&t);
  if (throw_status(env, dxt_ledger_get_totals(l->ledger, &t))) return NULL;
  napi_create_object(env, &o);
  set_ledger_totals_fields(env, o, &t);
  return o;
}

/* ledgerAnchor(handle) -> a Buffer of DXT_LEDGER_ANCHOR_BYTES */
static napi_value ledger_anchor(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1], out;
  ledger_box *l;
  dxt_ledger_anchor a;
  void *data = NULL;
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if ((l = get_ledger(env, argv[0])) == NULL) return NULL;
  dxt_ledger_anchor_init(&a);
  if (throw_status(env, dxt_ledger_get_anchor(l->ledger, &a))) return NULL;
  NAPI_CALL(env, napi_create_buffer(env, DXT_LEDGER_ANCHOR_BYTES, &data, &out));
  if (throw_status(env, dxt_ledger_anchor_encode(&a, (uint8_t *)data, DXT_LEDGER_ANCHOR_BYTES))) return NULL;
  return out;
}

static napi_value ledger_json(napi_env env, napi_callback_info info) {
  size_t argc = 1, required = 0;
  napi_value argv[1], out;
  ledger_box *l;
  char *buffer;
  dxt_status s;
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if ((l = get_ledger(env, argv[0])) == NULL) return NULL;
  s = dxt_ledger_to_json(l->ledger, NULL, 0, &required);
  if (s != DXT_E_INPUT_TOO_LARGE && throw_status(env, s)) return NULL;
  if ((buffer = (char *)malloc(required)) == NULL) {
    napi_throw(env, make_error(env, DXT_E_OUT_OF_MEMORY, "out of memory"));
    return NULL;
  }
  s = dxt_ledger_to_json(l->ledger, buffer, required, &required);
  if (throw_status(env, s)) {
    free(buffer);
    return NULL;
  }
  napi_create_string_utf8(env, buffer, NAPI_AUTO_LENGTH, &out);
  free(buffer);
  return out;
}

/* ledgerPrivatizeText(ledger, context, text, options, fresh)
   -> Promise<{text, memoised, record, diagnostics}> */
static napi_value ledger_privatize_text_async(napi_env env, napi_callback_info info) {
  size_t argc = 5;
  napi_value argv[5];
  ledger_box *l;
  job *j;
  bool fresh = false;
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if ((l = get_ledger(env, argv[0])) == NULL) return NULL;
  if ((j = job_begin(env, argv[1], JOB_LEDGER_TEXT)) == NULL) return NULL;
  if (argc > 4) napi_get_value_bool(env, argv[4], &fresh);
  j->ledger_flags = fresh ? DXT_LEDGER_FRESH : 0u;
  if (napi_create_reference(env, argv[0], 1, &j->ledger_ref) != napi_ok ||
      (j->text = get_string(env, argv[2], &j->text_length, "text")) == NULL ||
      !get_options(env, j->context, argv[3], &j->options)) {
    job_free(env, j);
    return NULL;
  }
  j->ledger = l;
  return job_start(env, j);
}

static napi_value version_string(napi_env env, napi_callback_info info) {
  napi_value out;
  (void)info;
  napi_create_string_utf8(env, dxt_version_string(), NAPI_AUTO_LENGTH, &out);
  return out;
}

NAPI_MODULE_INIT() {
  static const struct {
    const char *name;
    napi_callback function;
  } functions[] = {
      {"versionString", version_string},
      {"modelOpen", model_open},
      {"modelFromBuffer", model_from_buffer},
      {"modelClose", model_close},
      {"modelInfo", model_info},
      {"modelFingerprint", model_fingerprint},
      {"modelLookup", model_lookup},
      {"modelWord", model_word},
      {"outputSetCreate", output_set_create},
      {"defaultModelPath", default_model_path},
      {"contextCreate", context_create},
      {"contextClose", context_close},
      {"privatizeWord", privatize_word},
      {"privatizeText", privatize_text_async},
      {"privatizeBag", privatize_bag_async},
      {"syntf", syntf_async},
      {"calibrate", calibrate_async},
      {"ledgerOpen", ledger_open},
      {"ledgerClose", ledger_close},
      {"ledgerSetCap", ledger_set_cap},
      {"ledgerTotals", ledger_totals},
      {"ledgerAnchor", ledger_anchor},
      {"ledgerJson", ledger_json},
      {"ledgerPrivatizeText", ledger_privatize_text_async},
  };
  size_t i;
  for (i = 0; i < sizeof functions / sizeof functions[0]; ++i) {
    napi_value f;
    if (napi_create_function(env, functions[i].name, NAPI_AUTO_LENGTH, functions[i].function, NULL, &f) != napi_ok ||
        napi_set_named_property(env, exports, functions[i].name, f) != napi_ok)
      return NULL;
  }
  return exports;
}
