/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dxtext for Node.js: a plain C N-API addon over the public C header only.
 * lib/index.js is the JavaScript interface, over the shared classes of
 * shared.js (createApi), which check the arguments before they get here.
 * This file gives them handles (externals), synchronous calls for models
 * and ledgers, and promise-returning calls run on the libuv thread pool
 * (napi_async_work) for words, texts, bags, SynTF and calibration. The
 * addon can also be required on its own: a bad argument then gives a plain
 * error, never a crash, as the types of values are checked before they are
 * read, and so are integer ranges and the NUL characters of the strings
 * the library reads up to their first NUL.
 *
 * Lifetimes: a handle is an external of a box, type-tagged with its kind. A
 * model box is shared by its JavaScript handle and every context made from
 * it, and freed (with the aligned copy of a model opened from a buffer)
 * when the last of them lets go. A context or a ledger is used by one call
 * at a time: an asynchronous call marks it busy until it completes, and
 * holds a reference to its JavaScript handle so it is not collected. All
 * reference counting happens on the JavaScript thread.
 */
#define NAPI_VERSION 8
#include <node_api.h>

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dxtext/dxtext.h"

/* ------------------------------------------------------------------------ */
/* Errors                                                                    */
/* ------------------------------------------------------------------------ */

/* An Error with .status (number) and the message (the status's text when it
   is empty). lib/index.js makes it the typed error of its status, with .code
   (the status's C name). */
static napi_value make_error(napi_env env, dxt_status status, const char *message) {
  napi_value text, error, code;
  napi_create_string_utf8(env, message[0] != '\0' ? message : dxt_status_string(status), NAPI_AUTO_LENGTH, &text);
  napi_create_error(env, NULL, text, &error);
  napi_create_int32(env, status, &code);
  napi_set_named_property(env, error, "status", code);
  return error;
}

/* Throws make_error(status, the message printf writes of format), unless an
   exception is pending already (a helper or a failed N-API call threw one).
   Returns NULL, for `return throw_error(...)`. */
static void *throw_error(napi_env env, dxt_status status, const char *format, ...) {
  char message[1024];
  va_list args;
  bool pending = false;
  napi_is_exception_pending(env, &pending);
  if (pending) return NULL;
  va_start(args, format);
  vsnprintf(message, sizeof message, format, args);
  va_end(args);
  napi_throw(env, make_error(env, status, message));
  return NULL;
}

/* Throws for a failed dxtext call on this thread, with the library's message
   as it is (dxt_last_error_message is the whole message); returns 1 if the
   status is a failure. */
static int check(napi_env env, dxt_status status) {
  if (status == DXT_OK) return 0;
  throw_error(env, status, "%s", dxt_last_error_message());
  return 1;
}

/* calloc of at least one byte, which throws OUT_OF_MEMORY when it fails. */
static void *alloc(napi_env env, size_t count, size_t size) {
  void *p = calloc(count > 0 ? count : 1, size);
  return p != NULL ? p : throw_error(env, DXT_E_OUT_OF_MEMORY, "out of memory");
}

/* ------------------------------------------------------------------------ */
/* Handles                                                                   */
/* ------------------------------------------------------------------------ */

/* The kinds of handle, each with its type tag: a handle of another kind (or
   an external of another addon) is refused, not misread. */
enum kind { MODEL, CONTEXT, LEDGER, OUTPUT_SET };
static const char *const KIND_NAMES[] = {"model", "privatizer", "ledger", "output set"};
static const napi_type_tag KIND_TAGS[] = {{0x64787465787431b5ULL, 0x9c2e41d07a6f5301ULL},
                                          {0x64787465787431b5ULL, 0x9c2e41d07a6f5302ULL},
                                          {0x64787465787431b5ULL, 0x9c2e41d07a6f5303ULL},
                                          {0x64787465787431b5ULL, 0x9c2e41d07a6f5304ULL}};

/* What a handle holds. */
typedef struct box {
  enum kind kind;
  void *object;      /* the dxt_model, dxt_context, dxt_ledger or dxt_output_set; NULL once closed */
  struct box *model; /* a context's model, which it holds a reference to */
  void *buffer;      /* a model opened from memory: the aligned copy of the bytes it reads */
  int refs;          /* the handle, and for a model each context made from it */
  int busy;          /* a context or a ledger: the asynchronous calls using it */
} box;

static void close_object(enum kind kind, void *object) {
  switch (kind) {
    case MODEL: dxt_model_close(object); break; /* its contexts keep their own reference */
    case CONTEXT: dxt_context_destroy(object); break;
    case LEDGER: dxt_ledger_close(object); break;
    case OUTPUT_SET: dxt_output_set_free(object); break;
  }
}

/* Drops a reference to the box: the last one frees it. */
static void box_release(box *b) {
  if (--b->refs > 0) return;
  free(b->buffer);
  free(b);
}

/* Closes the box's object now (once), and a context's model reference. */
static void box_close(box *b) {
  if (b->object == NULL) return;
  close_object(b->kind, b->object);
  b->object = NULL;
  if (b->model != NULL) box_release(b->model);
}

static void box_finalize(napi_env env, void *data, void *hint) {
  box_close((box *)data);
  box_release((box *)data);
}

/* A new handle of `kind` owning object (and buffer); a context's holds a
   reference to its model's box. When that fails, the object and buffer are
   freed and NULL returned after throwing. */
static napi_value wrap(napi_env env, enum kind kind, void *object, void *buffer, box *model) {
  napi_value handle;
  box *b = (box *)alloc(env, 1, sizeof *b);
  if (b == NULL) {
    close_object(kind, object);
    free(buffer);
    return NULL;
  }
  b->kind = kind;
  b->object = object;
  b->buffer = buffer;
  b->model = model;
  b->refs = 1;
  if (model != NULL) model->refs++;
  if (napi_create_external(env, b, box_finalize, NULL, &handle) != napi_ok) {
    box_finalize(env, b, NULL);
    return throw_error(env, DXT_E_INTERNAL, "cannot make a %s handle", KIND_NAMES[kind]);
  }
  if (napi_type_tag_object(env, handle, &KIND_TAGS[kind]) != napi_ok) {
    box_close(b); /* the handle's finalizer frees the box */
    return throw_error(env, DXT_E_INTERNAL, "cannot make a %s handle", KIND_NAMES[kind]);
  }
  return handle;
}

/* The box of a handle of `kind`, open and not busy; NULL after throwing. */
static box *unwrap(napi_env env, napi_value handle, enum kind kind) {
  napi_valuetype type = napi_undefined;
  bool tagged = false;
  void *data = NULL;
  box *b;
  napi_typeof(env, handle, &type);
  if (type != napi_external || napi_check_object_type_tag(env, handle, &KIND_TAGS[kind], &tagged) != napi_ok ||
      !tagged || napi_get_value_external(env, handle, &data) != napi_ok)
    return throw_error(env, DXT_E_INVALID_ARGUMENT, "not a %s handle", KIND_NAMES[kind]);
  b = (box *)data;
  if (b->object == NULL) return throw_error(env, DXT_E_INVALID_ARGUMENT, "the %s is closed", KIND_NAMES[kind]);
  if (b->busy > 0)
    return throw_error(env, DXT_E_INVALID_ARGUMENT, "the %s is running an asynchronous call; await it first",
                       KIND_NAMES[kind]);
  return b;
}

/* ------------------------------------------------------------------------ */
/* Arguments                                                                 */
/* ------------------------------------------------------------------------ */

/* argv[0, n) of a call (undefined for those not given) and, unless data is
   NULL, the number its function was made with; 0 after throwing. */
static int get_args(napi_env env, napi_callback_info info, napi_value *argv, size_t n, int *data) {
  void *d = NULL;
  if (napi_get_cb_info(env, info, &n, argv, NULL, &d) != napi_ok) {
    throw_error(env, DXT_E_INTERNAL, "cannot read the arguments");
    return 0;
  }
  if (data != NULL) *data = (int)(intptr_t)d;
  return 1;
}

/* get_args, and the box of argv[0], a handle of `kind` (NULL after throwing). */
static box *handle_args(napi_env env, napi_callback_info info, napi_value *argv, size_t n, enum kind kind) {
  return get_args(env, info, argv, n, NULL) ? unwrap(env, argv[0], kind) : NULL;
}

/* Whether v is neither undefined nor null. */
static bool given(napi_env env, napi_value v) {
  napi_valuetype type = napi_undefined;
  napi_typeof(env, v, &type);
  return type != napi_undefined && type != napi_null;
}

/* object[name], when it is given. */
static bool get_property(napi_env env, napi_value object, const char *name, napi_value *v) {
  return napi_get_named_property(env, object, name, v) == napi_ok && given(env, *v);
}

/* A malloc'd NUL-terminated UTF-8 copy of a string, and its length. Without
   length it is a string the library reads up to its first NUL: one with a
   NUL inside is refused ("user\0day1" would be the scope "user"). NULL after
   throwing. */
static char *get_string(napi_env env, napi_value v, size_t *length, const char *what) {
  size_t n = 0;
  char *s;
  if (napi_get_value_string_utf8(env, v, NULL, 0, &n) != napi_ok)
    return throw_error(env, DXT_E_INVALID_ARGUMENT, "%s must be a string", what);
  if ((s = (char *)alloc(env, n + 1, 1)) == NULL) return NULL;
  napi_get_value_string_utf8(env, v, s, n + 1, &n);
  if (length != NULL) {
    *length = n;
  } else if (strlen(s) != n) {
    free(s);
    return throw_error(env, DXT_E_INVALID_ARGUMENT, "%s contains a NUL character", what);
  }
  return s;
}

static void free_words(char **words, uint32_t count) {
  uint32_t i;
  for (i = 0; words != NULL && i < count; ++i) free(words[i]);
  free(words);
}

/* The strings of an array, in an array of *count C strings (get_string: a NUL
   inside is refused); NULL after throwing. Freed with free_words. */
static char **get_words(napi_env env, napi_value array, uint32_t *count, const char *what) {
  uint32_t i;
  char **words;
  if (napi_get_array_length(env, array, count) != napi_ok)
    return throw_error(env, DXT_E_INVALID_ARGUMENT, "%s must be an array of strings", what);
  if ((words = (char **)alloc(env, *count, sizeof *words)) == NULL) return NULL;
  for (i = 0; i < *count; ++i) {
    napi_value word;
    if (napi_get_element(env, array, i, &word) != napi_ok || (words[i] = get_string(env, word, NULL, what)) == NULL) {
      free_words(words, i);
      return throw_error(env, DXT_E_INVALID_ARGUMENT, "%s must be an array of strings", what);
    }
  }
  return words;
}

/* A number that must be an integer in [0, 2^32): N-API's own
   napi_get_value_uint32 wraps instead (2**32 + 3 becomes 3, -1 becomes
   2^32 - 1), so a caller's mistake would run a different call. 0 after
   throwing. */
static int get_u32(napi_env env, napi_value v, const char *what, uint32_t *out) {
  double d = -1;
  if (napi_get_value_double(env, v, &d) != napi_ok || !(d >= 0 && d <= 4294967295.0) || d != (double)(uint32_t)d) {
    throw_error(env, DXT_E_INVALID_ARGUMENT, "%s must be an integer in [0, 2^32)", what);
    return 0;
  }
  *out = (uint32_t)d;
  return 1;
}

/* The bytes of a Uint8Array (or Buffer); 0 after throwing. */
static int get_bytes(napi_env env, napi_value v, const uint8_t **data, size_t *length, const char *what) {
  napi_typedarray_type type;
  void *bytes = NULL;
  if (napi_get_typedarray_info(env, v, &type, length, &bytes, NULL, NULL) != napi_ok || type != napi_uint8_array) {
    throw_error(env, DXT_E_INVALID_ARGUMENT, "%s must be a Uint8Array", what);
    return 0;
  }
  *data = (const uint8_t *)bytes;
  return 1;
}

/* The options of a call on a context, from [name, value] pairs (optionPairs
   of shared.js), each passed to the library by name: a string with
   dxt_options_set, an array of words with dxt_options_set_words; the library
   checks names and values. The handle owns the struct the call is then
   given as the library made it (dxt_options_get): a copy would be of the
   size of the header this addon was compiled with, shorter than the
   struct_size a newer library writes in it. 0 after throwing. */
static int get_options(napi_env env, const box *context, napi_value pairs, dxt_options **out) {
  uint32_t count = 0, i;
  if (napi_get_array_length(env, pairs, &count) != napi_ok) {
    throw_error(env, DXT_E_INVALID_ARGUMENT, "options must be an array of [name, value] pairs");
    return 0;
  }
  if (check(env, dxt_options_create(context->model->object, out))) return 0;
  for (i = 0; i < count; ++i) {
    napi_value pair, name_value, value;
    bool list = false;
    uint32_t n = 0;
    char *name = NULL, *text = NULL, **words = NULL;
    dxt_status s = DXT_OK;
    int ok = napi_get_element(env, pairs, i, &pair) == napi_ok &&
             napi_get_element(env, pair, 0, &name_value) == napi_ok &&
             napi_get_element(env, pair, 1, &value) == napi_ok && napi_is_array(env, value, &list) == napi_ok &&
             (name = get_string(env, name_value, NULL, "an option's name")) != NULL &&
             (list ? (words = get_words(env, value, &n, name)) != NULL
                   : (text = get_string(env, value, NULL, name)) != NULL);
    if (ok && list) s = dxt_options_set_words(*out, name, (const char *const *)words, n);
    if (ok && !list) s = dxt_options_set(*out, name, text);
    free(name);
    free(text);
    free_words(words, n);
    if (!ok) throw_error(env, DXT_E_INVALID_ARGUMENT, "options must be an array of [name, value] pairs");
    if (!ok || check(env, s)) return 0;
  }
  return 1;
}

/* ------------------------------------------------------------------------ */
/* Results                                                                   */
/* ------------------------------------------------------------------------ */

static napi_value string_value(napi_env env, const char *s, size_t length) {
  napi_value v;
  napi_create_string_utf8(env, s, length, &v);
  return v;
}

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
static napi_value hex_value(napi_env env, const uint8_t *bytes, size_t size) {
  char hex[2 * 64 + 1];
  size_t i;
  napi_value v;
  if (bytes == NULL || size > 64) {
    napi_get_null(env, &v);
    return v;
  }
  for (i = 0; i < size; ++i) snprintf(hex + 2 * i, 3, "%02x", bytes[i]);
  return string_value(env, hex, 2 * size);
}

static void set_hex(napi_env env, napi_value object, const char *name, const uint8_t *bytes, size_t size) {
  napi_set_named_property(env, object, name, hex_value(env, bytes, size));
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
  napi_value o;
  char json[4096];
  size_t required = 0;
  napi_create_object(env, &o);
  set_record_fields(env, o, r);
  if (dxt_release_record_to_json(r, json, sizeof json, &required) == DXT_OK)
    napi_set_named_property(env, o, "json", string_value(env, json, required - 1));
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
  if (dxt_local_diagnostics_to_json(d, json, sizeof json, &required) == DXT_OK)
    napi_set_named_property(env, o, "json", string_value(env, json, required - 1));
  return o;
}

static napi_value bag_array(napi_env env, const dxt_bag *bag) {
  napi_value array;
  size_t i;
  napi_create_array_with_length(env, bag->size, &array);
  for (i = 0; i < bag->size; ++i) {
    napi_value pair, count;
    napi_create_array_with_length(env, 2, &pair);
    napi_create_double(env, (double)bag->entries[i].count, &count);
    napi_set_element(env, pair, 0, string_value(env, bag->entries[i].word, bag->entries[i].length));
    napi_set_element(env, pair, 1, count);
    napi_set_element(env, array, (uint32_t)i, pair);
  }
  return array;
}

/* ------------------------------------------------------------------------ */
/* Models                                                                    */
/* ------------------------------------------------------------------------ */

/* A handle of the model in the file at path, or else in the length bytes at
   copy (from the heap, whose alignment, at least 8, is what
   dxt_model_open_memory needs; the model then keeps them, and they are
   freed here on failure). verify: check every section's SHA-256 too. */
static napi_value open_model(napi_env env, const char *path, void *copy, size_t length, napi_value verify) {
  dxt_model_open_options options;
  dxt_model *model = NULL;
  bool digests = false;
  dxt_status s;
  napi_get_value_bool(env, verify, &digests); /* false when not a boolean */
  dxt_model_open_options_init(&options);
  options.flags = digests ? DXT_OPEN_VERIFY_DIGESTS : 0;
  if (path != NULL)
    s = dxt_model_open_file(path, &options, &model);
  else
    s = dxt_model_open_memory(copy, length, &options, &model);
  if (!check(env, s)) return wrap(env, MODEL, model, copy, NULL);
  free(copy);
  return NULL;
}

/* modelOpen(path, verify) -> model handle */
static napi_value model_open(napi_env env, napi_callback_info info) {
  napi_value argv[2], out = NULL;
  char *path = get_args(env, info, argv, 2, NULL) ? get_string(env, argv[0], NULL, "the path") : NULL;
  if (path != NULL) out = open_model(env, path, NULL, 0, argv[1]);
  free(path);
  return out;
}

/* modelFromBuffer(bytes, verify) -> model handle, of a copy of the bytes */
static napi_value model_from_buffer(napi_env env, napi_callback_info info) {
  napi_value argv[2];
  const uint8_t *data = NULL;
  size_t length = 0;
  void *copy;
  if (!get_args(env, info, argv, 2, NULL) || !get_bytes(env, argv[0], &data, &length, "the model") ||
      (copy = alloc(env, length, 1)) == NULL)
    return NULL;
  if (length > 0) memcpy(copy, data, length);
  return open_model(env, NULL, copy, length, argv[1]);
}

/* modelClose(model), contextClose(context), ledgerClose(ledger): the object
   freed now instead of at garbage collection (a model's privatizers keep
   working); the function's number is the kind of handle. */
static napi_value close_handle(napi_env env, napi_callback_info info) {
  napi_value argv[1];
  int kind = 0;
  box *b = get_args(env, info, argv, 1, &kind) ? unwrap(env, argv[0], (enum kind)kind) : NULL;
  if (b != NULL) box_close(b);
  return NULL;
}

static napi_value model_info(napi_env env, napi_callback_info info) {
  napi_value argv[1], o;
  box *m = handle_args(env, info, argv, 1, MODEL);
  dxt_model_info i;
  dxt_model_info_init(&i);
  if (m == NULL || check(env, dxt_model_get_info(m->object, &i))) return NULL;
  napi_create_object(env, &o);
  set_model_info_fields(env, o, &i);
  return o;
}

static napi_value model_fingerprint(napi_env env, napi_callback_info info) {
  napi_value argv[1];
  box *m = handle_args(env, info, argv, 1, MODEL);
  uint8_t digest[32];
  if (m == NULL || check(env, dxt_model_fingerprint(m->object, digest))) return NULL;
  return hex_value(env, digest, 32);
}

static napi_value model_lookup(napi_env env, napi_callback_info info) {
  napi_value argv[2], out;
  box *m = handle_args(env, info, argv, 2, MODEL);
  size_t length = 0;
  uint32_t index = 0;
  char *word = m != NULL ? get_string(env, argv[1], &length, "word") : NULL;
  dxt_status s;
  if (word == NULL) return NULL;
  s = dxt_model_lookup(m->object, word, length, &index);
  free(word);
  if (check(env, s)) return NULL;
  napi_create_uint32(env, index, &out);
  return out;
}

static napi_value model_word(napi_env env, napi_callback_info info) {
  napi_value argv[2];
  box *m = handle_args(env, info, argv, 2, MODEL);
  uint32_t index = 0;
  const char *word = NULL;
  size_t length = 0;
  if (m == NULL || !get_u32(env, argv[1], "index", &index) ||
      check(env, dxt_model_word(m->object, index, &word, &length)))
    return NULL;
  return string_value(env, word, length);
}

/* outputSetCreate(model, words) -> output set handle (which lib/index.js
   keeps: the library checks the words, the calls take them by name) */
static napi_value output_set_create(napi_env env, napi_callback_info info) {
  napi_value argv[2];
  box *m = handle_args(env, info, argv, 2, MODEL);
  uint32_t n = 0;
  char **words = m != NULL ? get_words(env, argv[1], &n, "an output word") : NULL;
  dxt_output_set *set = NULL;
  dxt_status s;
  if (words == NULL) return NULL;
  s = dxt_output_set_create(m->object, (const char *const *)words, n, &set);
  free_words(words, n);
  return check(env, s) ? NULL : wrap(env, OUTPUT_SET, set, NULL, NULL);
}

/* defaultModelPath(geometry): a path longer than PATH_MAX (4096 on Linux)
   opens no file: INPUT_TOO_LARGE. */
static napi_value default_model_path(napi_env env, napi_callback_info info) {
  napi_value argv[1];
  uint32_t geometry = 0;
  char path[4096];
  size_t required = 0;
  if (!get_args(env, info, argv, 1, NULL) || !get_u32(env, argv[0], "geometry", &geometry) ||
      check(env, dxt_default_model_path(geometry, path, sizeof path, &required)))
    return NULL;
  return string_value(env, path, required - 1);
}

/* contextCreate(model, seed) -> context handle; seed: 32 bytes, or null
   (the system generator) */
static napi_value context_create(napi_env env, napi_callback_info info) {
  napi_value argv[2];
  box *m = handle_args(env, info, argv, 2, MODEL);
  dxt_context_options options;
  dxt_context *context = NULL;
  const uint8_t *seed = NULL;
  size_t length = 0;
  dxt_status s;
  if (m == NULL) return NULL;
  dxt_context_options_init(&options);
  if (given(env, argv[1])) {
    if (!get_bytes(env, argv[1], &seed, &length, "seed")) return NULL;
    if (length != 32) return throw_error(env, DXT_E_INVALID_ARGUMENT, "seed must be 32 bytes");
    options.rng_mode = DXT_RNG_DETERMINISTIC;
    memcpy(options.seed, seed, 32);
  }
  s = dxt_context_create(m->object, &options, &context);
  memset(options.seed, 0, sizeof options.seed);
  return check(env, s) ? NULL : wrap(env, CONTEXT, context, NULL, m);
}

/* ------------------------------------------------------------------------ */
/* Asynchronous calls                                                        */
/* ------------------------------------------------------------------------ */

enum job_kind { JOB_WORD, JOB_TEXT, JOB_BAG, JOB_SYNTF, JOB_CALIBRATE, JOB_LEDGER_TEXT };

/* A call run on the thread pool: its inputs, read on the JavaScript thread;
   its outputs, made into the promise's value back on it. */
typedef struct job {
  enum job_kind kind;
  napi_async_work work;
  napi_deferred deferred;
  box *context, *ledger;
  napi_ref refs[2]; /* keep the context's handle and the ledger's alive */
  dxt_options *options;
  /* inputs */
  char *text;
  size_t text_length;
  dxt_bag_entry *bag; /* each word a get_string copy */
  uint32_t bag_size, n_out, words, trials;
  bool fresh;
  /* outputs */
  dxt_status status;
  char error[1024];
  char *out_text;
  size_t out_length;
  bool memoised;
  dxt_bag *out_bag;
  dxt_release_record record;
  dxt_local_diagnostics diagnostics;
  dxt_calibration calibration;
} job;

static void job_free(napi_env env, job *j) {
  uint32_t i;
  if (j->work != NULL) napi_delete_async_work(env, j->work);
  for (i = 0; i < 2; ++i)
    if (j->refs[i] != NULL) napi_delete_reference(env, j->refs[i]);
  for (i = 0; j->bag != NULL && i < j->bag_size; ++i) free((void *)j->bag[i].word);
  free(j->bag);
  free(j->text);
  dxt_options_destroy(j->options);
  dxt_text_free(j->out_text);
  dxt_bag_free(j->out_bag);
  free(j);
}

/* The bag of a call, from [[word, count], ...] (bagEntries of shared.js); 0
   after throwing. */
static int get_bag(napi_env env, napi_value array, job *j) {
  uint32_t i;
  if (napi_get_array_length(env, array, &j->bag_size) != napi_ok ||
      (j->bag = (dxt_bag_entry *)alloc(env, j->bag_size, sizeof *j->bag)) == NULL) {
    j->bag_size = 0;
    throw_error(env, DXT_E_INVALID_ARGUMENT, "the bag must be an array of [word, count] pairs");
    return 0;
  }
  for (i = 0; i < j->bag_size; ++i) {
    napi_value pair, word, count;
    double c = -1;
    dxt_bag_entry *e = &j->bag[i];
    if (napi_get_element(env, array, i, &pair) != napi_ok || napi_get_element(env, pair, 0, &word) != napi_ok ||
        napi_get_element(env, pair, 1, &count) != napi_ok || napi_get_value_double(env, count, &c) != napi_ok ||
        !(c >= 0 && c <= 9007199254740991.0) || c != (double)(uint64_t)c ||
        (e->word = get_string(env, word, &e->length, "a bag word")) == NULL) {
      throw_error(env, DXT_E_INVALID_ARGUMENT,
                  "each bag entry must be a [word, count] pair, the count an integer >= 0");
      return 0;
    }
    e->count = (uint64_t)c;
  }
  return 1;
}

/* On a thread-pool thread: only dxtext calls, no N-API. */
static void job_execute(napi_env env, void *data) {
  job *j = (job *)data;
  dxt_context *c = (dxt_context *)j->context->object;
  const dxt_privatize_options *o = dxt_options_get(j->options);
  switch (j->kind) {
    case JOB_WORD:
    case JOB_TEXT: /* the same arguments */
      j->status = (j->kind == JOB_WORD ? dxt_privatize_word : dxt_privatize_text)(
          c, o, j->text, j->text_length, &j->out_text, &j->out_length, &j->record, &j->diagnostics);
      break;
    case JOB_BAG:
      j->status = dxt_privatize_bag(c, o, j->bag, j->bag_size, &j->out_bag, &j->record, &j->diagnostics);
      break;
    case JOB_SYNTF:
      j->status = dxt_syntf(c, o, j->bag, j->bag_size, j->n_out, &j->out_bag, &j->record, &j->diagnostics);
      break;
    case JOB_CALIBRATE: j->status = dxt_calibrate(c, o, j->words, j->trials, &j->calibration); break;
    case JOB_LEDGER_TEXT:
      j->status =
          dxt_ledger_privatize_text(j->ledger->object, c, o, j->text, j->text_length, j->fresh ? DXT_LEDGER_FRESH : 0u,
                                    &j->out_text, &j->out_length, &j->memoised, &j->record, &j->diagnostics);
      break;
  }
  /* The message is thread-local: copy it on this thread. */
  if (j->status != DXT_OK) snprintf(j->error, sizeof j->error, "%s", dxt_last_error_message());
}

static void job_complete(napi_env env, napi_status status, void *data) {
  job *j = (job *)data;
  napi_value result;
  j->context->busy--;
  if (j->ledger != NULL) j->ledger->busy--;
  if (status != napi_ok || j->status != DXT_OK) {
    napi_reject_deferred(env, j->deferred,
                         status != napi_ok ? make_error(env, DXT_E_INTERNAL, "the asynchronous call was cancelled")
                                           : make_error(env, j->status, j->error));
    job_free(env, j);
    return;
  }
  napi_create_object(env, &result);
  if (j->kind == JOB_CALIBRATE) {
    set_calibration_fields(env, result, &j->calibration);
  } else {
    if (j->out_bag != NULL)
      napi_set_named_property(env, result, "bag", bag_array(env, j->out_bag));
    else
      napi_set_named_property(env, result, "text", string_value(env, j->out_text, j->out_length));
    if (j->kind == JOB_LEDGER_TEXT) set_boolean(env, result, "memoised", j->memoised);
    napi_set_named_property(env, result, "record", record_object(env, &j->record));
    napi_set_named_property(env, result, "diagnostics", diagnostics_object(env, &j->diagnostics));
  }
  napi_resolve_deferred(env, j->deferred, result);
  job_free(env, j);
}

/* privatizeWord(context, word, pairs), privatizeText(context, text, pairs),
   privatizeBag(context, [[word, count], ...], pairs),
   syntf(context, bag, nOut, pairs), calibrate(context, pairs, words, trials)
   and ledgerPrivatizeText(ledger, context, text, pairs, fresh), the
   function's number being the job_kind: the promise of { text or bag,
   record, diagnostics } (and memoised, of a ledger), or of the calibration's
   fields. */
static napi_value job_start(napi_env env, napi_callback_info info) {
  napi_value argv[5], *args = argv, name, promise;
  int kind = 0, ok = 1;
  job *j;
  if (!get_args(env, info, argv, 5, &kind) || (j = (job *)alloc(env, 1, sizeof *j)) == NULL) return NULL;
  j->kind = (enum job_kind)kind;
  dxt_release_record_init(&j->record);
  dxt_local_diagnostics_init(&j->diagnostics);
  dxt_calibration_init(&j->calibration);
  if (kind == JOB_LEDGER_TEXT) { /* the ledger, then privatizeText's arguments and fresh */
    ok = (j->ledger = unwrap(env, argv[0], LEDGER)) != NULL &&
         napi_create_reference(env, argv[0], 1, &j->refs[1]) == napi_ok;
    napi_get_value_bool(env, argv[4], &j->fresh); /* false when not a boolean */
    args++;
  }
  ok = ok && (j->context = unwrap(env, args[0], CONTEXT)) != NULL &&
       napi_create_reference(env, args[0], 1, &j->refs[0]) == napi_ok;
  switch (j->kind) {
    case JOB_BAG: ok = ok && get_bag(env, args[1], j) && get_options(env, j->context, args[2], &j->options); break;
    case JOB_SYNTF:
      ok = ok && get_bag(env, args[1], j) && get_u32(env, args[2], "nOut", &j->n_out) &&
           get_options(env, j->context, args[3], &j->options);
      break;
    case JOB_CALIBRATE:
      ok = ok && get_options(env, j->context, args[1], &j->options) && get_u32(env, args[2], "words", &j->words) &&
           get_u32(env, args[3], "trials", &j->trials);
      break;
    default: /* a word or a text */
      ok = ok && (j->text = get_string(env, args[1], &j->text_length, "text")) != NULL &&
           get_options(env, j->context, args[2], &j->options);
  }
  if (!ok || napi_create_string_utf8(env, "dxtext", NAPI_AUTO_LENGTH, &name) != napi_ok ||
      napi_create_promise(env, &j->deferred, &promise) != napi_ok ||
      napi_create_async_work(env, NULL, name, job_execute, job_complete, j, &j->work) != napi_ok ||
      napi_queue_async_work(env, j->work) != napi_ok) {
    job_free(env, j);
    return throw_error(env, DXT_E_INTERNAL, "cannot start the asynchronous call");
  }
  j->context->busy++;
  if (j->ledger != NULL) j->ledger->busy++;
  return promise;
}

/* ------------------------------------------------------------------------ */
/* Privacy ledger                                                            */
/* ------------------------------------------------------------------------ */

/* ledgerOpen(path, scope, {cap, memoCapacity, key, anchor}) -> ledger
   handle; key and anchor (LedgerAnchor.toBytes()) Uint8Arrays, each of
   them optional */
static napi_value ledger_open(napi_env env, napi_callback_info info) {
  napi_value argv[3], v, out = NULL;
  napi_valuetype type = napi_undefined;
  char *path = NULL, *scope = NULL;
  const uint8_t *bytes = NULL;
  size_t length = 0;
  dxt_ledger_options options;
  dxt_ledger_anchor anchor;
  dxt_ledger *ledger = NULL;
  dxt_ledger_options_init(&options);
  dxt_ledger_anchor_init(&anchor);
  if (!get_args(env, info, argv, 3, NULL) || (path = get_string(env, argv[0], NULL, "the path")) == NULL ||
      (scope = get_string(env, argv[1], NULL, "the scope")) == NULL || napi_typeof(env, argv[2], &type) != napi_ok ||
      type != napi_object) {
    throw_error(env, DXT_E_INVALID_ARGUMENT, "the ledger's options must be an object");
    goto done;
  }
  if (get_property(env, argv[2], "cap", &v) && napi_get_value_double(env, v, &options.cap) != napi_ok) {
    throw_error(env, DXT_E_INVALID_ARGUMENT, "options.cap must be a number");
    goto done;
  }
  if ((get_property(env, argv[2], "memoCapacity", &v) &&
       !get_u32(env, v, "options.memoCapacity", &options.memo_capacity)) ||
      (get_property(env, argv[2], "key", &v) && !get_bytes(env, v, &options.key, &options.key_length, "options.key")) ||
      (get_property(env, argv[2], "anchor", &v) && (!get_bytes(env, v, &bytes, &length, "options.anchor") ||
                                                    check(env, dxt_ledger_anchor_decode(bytes, length, &anchor)))))
    goto done;
  if (bytes != NULL) options.anchor = &anchor; /* given, and decoded */
  if (!check(env, dxt_ledger_open(path, scope, &options, &ledger))) out = wrap(env, LEDGER, ledger, NULL, NULL);
done:
  free(path);
  free(scope);
  return out;
}

static napi_value ledger_set_cap(napi_env env, napi_callback_info info) {
  napi_value argv[2];
  box *l = handle_args(env, info, argv, 2, LEDGER);
  double cap = 0;
  if (l == NULL) return NULL;
  if (napi_get_value_double(env, argv[1], &cap) != napi_ok)
    return throw_error(env, DXT_E_INVALID_ARGUMENT, "cap must be a number");
  check(env, dxt_ledger_set_cap(l->object, cap));
  return NULL;
}

/* ledgerTotals(ledger) -> {cap, spent, spentAnyInputs, releases, memoised, memoCapacity, words} */
static napi_value ledger_totals(napi_env env, napi_callback_info info) {
  napi_value argv[1], o;
  box *l = handle_args(env, info, argv, 1, LEDGER);
  dxt_ledger_totals t;
  dxt_ledger_totals_init(&t);
  if (l == NULL || check(env, dxt_ledger_get_totals(l->object, &t))) return NULL;
  napi_create_object(env, &o);
  set_ledger_totals_fields(env, o, &t);
  return o;
}

/* ledgerAnchor(ledger) -> a Buffer of DXT_LEDGER_ANCHOR_BYTES */
static napi_value ledger_anchor(napi_env env, napi_callback_info info) {
  napi_value argv[1], out;
  box *l = handle_args(env, info, argv, 1, LEDGER);
  dxt_ledger_anchor a;
  void *data = NULL;
  dxt_ledger_anchor_init(&a);
  if (l == NULL || check(env, dxt_ledger_get_anchor(l->object, &a))) return NULL;
  if (napi_create_buffer(env, DXT_LEDGER_ANCHOR_BYTES, &data, &out) != napi_ok)
    return throw_error(env, DXT_E_OUT_OF_MEMORY, "out of memory");
  return check(env, dxt_ledger_anchor_encode(&a, (uint8_t *)data, DXT_LEDGER_ANCHOR_BYTES)) ? NULL : out;
}

/* ledgerJson(ledger) -> the scope as `dxtext ledger` prints it */
static napi_value ledger_json(napi_env env, napi_callback_info info) {
  napi_value argv[1], out = NULL;
  box *l = handle_args(env, info, argv, 1, LEDGER);
  size_t required = 0;
  char *json;
  dxt_status s = l != NULL ? dxt_ledger_to_json(l->object, NULL, 0, &required) : DXT_OK;
  if (l == NULL || (s != DXT_E_INPUT_TOO_LARGE && check(env, s)) || (json = (char *)alloc(env, required, 1)) == NULL)
    return NULL;
  if (!check(env, dxt_ledger_to_json(l->object, json, required, &required)))
    out = string_value(env, json, NAPI_AUTO_LENGTH);
  free(json);
  return out;
}

static napi_value version_string(napi_env env, napi_callback_info info) {
  return string_value(env, dxt_version_string(), NAPI_AUTO_LENGTH);
}

NAPI_MODULE_INIT() {
  static const struct {
    const char *name;
    napi_callback function;
    int data; /* the kind of handle of close_handle, the job_kind of job_start */
  } functions[] = {
      {"versionString", version_string, 0},
      {"modelOpen", model_open, 0},
      {"modelFromBuffer", model_from_buffer, 0},
      {"modelClose", close_handle, MODEL},
      {"modelInfo", model_info, 0},
      {"modelFingerprint", model_fingerprint, 0},
      {"modelLookup", model_lookup, 0},
      {"modelWord", model_word, 0},
      {"outputSetCreate", output_set_create, 0},
      {"defaultModelPath", default_model_path, 0},
      {"contextCreate", context_create, 0},
      {"contextClose", close_handle, CONTEXT},
      {"privatizeWord", job_start, JOB_WORD},
      {"privatizeText", job_start, JOB_TEXT},
      {"privatizeBag", job_start, JOB_BAG},
      {"syntf", job_start, JOB_SYNTF},
      {"calibrate", job_start, JOB_CALIBRATE},
      {"ledgerOpen", ledger_open, 0},
      {"ledgerClose", close_handle, LEDGER},
      {"ledgerSetCap", ledger_set_cap, 0},
      {"ledgerTotals", ledger_totals, 0},
      {"ledgerAnchor", ledger_anchor, 0},
      {"ledgerJson", ledger_json, 0},
      {"ledgerPrivatizeText", job_start, JOB_LEDGER_TEXT},
  };
  size_t i;
  for (i = 0; i < sizeof functions / sizeof functions[0]; ++i) {
    napi_value f;
    if (napi_create_function(env, functions[i].name, NAPI_AUTO_LENGTH, functions[i].function,
                             (void *)(intptr_t)functions[i].data, &f) != napi_ok ||
        napi_set_named_property(env, exports, functions[i].name, f) != napi_ok)
      return NULL;
  }
  return exports;
}
