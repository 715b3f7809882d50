/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dxtext for the JVM and Android: the JNI side of org.dxtext.DxNative, over
 * the public C header only. Strings cross as UTF-8 byte arrays (JNI's own
 * "modified UTF-8" is not UTF-8 for NUL and characters beyond U+FFFF).
 * Failures throw org.dxtext.DxException with the status and the message.
 * Handles come from org.dxtext.DxHandle, which passes only live ones.
 *
 * A model handle is a box shared by the Java DxModel and every context made
 * from it: the last of them to let go closes the model (dxt_model_close
 * frees the dxt_model, which a context's options still name). The count is
 * atomic: Java threads may close a model and a privatizer at the same time.
 */
#include <jni.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dxtext/dxtext.h"
#ifdef DXT_JNI_GENERATED_HEADER
#include "org_dxtext_DxNative.h" /* javac -h: the compiler checks these signatures */
#endif

typedef struct model_box {
  dxt_model *model;
  int refs;
} model_box;

typedef struct context_box {
  dxt_context *context;
  model_box *model;
} context_box;

static void model_release(model_box *m) {
  if (__atomic_sub_fetch(&m->refs, 1, __ATOMIC_ACQ_REL) > 0) return;
  dxt_model_close(m->model);
  free(m);
}

/* ------------------------------------------------------------------------ */
/* Errors and arrays                                                         */
/* ------------------------------------------------------------------------ */

static jbyteArray new_bytes(JNIEnv *env, const char *data, size_t length) {
  jbyteArray a;
  if (length > INT32_MAX) return NULL;
  a = (*env)->NewByteArray(env, (jsize)length);
  if (a != NULL && length > 0) (*env)->SetByteArrayRegion(env, a, 0, (jsize)length, (const jbyte *)data);
  return a;
}

static jdoubleArray new_doubles(JNIEnv *env, const jdouble *values, jsize length) {
  jdoubleArray a = (*env)->NewDoubleArray(env, length);
  if (a != NULL) (*env)->SetDoubleArrayRegion(env, a, 0, length, values);
  return a;
}

/* Throws DxException(status, the message printf writes of format), unless an
   exception is pending already. */
static void throw_dx(JNIEnv *env, dxt_status status, const char *format, ...) {
  char message[1024];
  va_list args;
  jclass cls;
  jmethodID factory;
  jbyteArray bytes;
  jobject error;
  if ((*env)->ExceptionCheck(env)) return;
  va_start(args, format);
  vsnprintf(message, sizeof message, format, args);
  va_end(args);
  cls = (*env)->FindClass(env, "org/dxtext/DxException");
  if (cls == NULL) return;
  factory = (*env)->GetStaticMethodID(env, cls, "fromNative", "(I[B)Lorg/dxtext/DxException;");
  if (factory == NULL) return;
  bytes = new_bytes(env, message, strlen(message));
  if (bytes == NULL) return;
  error = (*env)->CallStaticObjectMethod(env, cls, factory, (jint)status, bytes);
  if (error != NULL && !(*env)->ExceptionCheck(env)) (*env)->Throw(env, (jthrowable)error);
}

/* Throws for a failed call on this thread, with the library's message as it
   is (dxt_last_error_message); returns 1 if the status is a failure. */
static int check(JNIEnv *env, dxt_status status) {
  if (status == DXT_OK) return 0;
  throw_dx(env, status, "%s", dxt_last_error_message());
  return 1;
}

/* calloc of at least one byte, which throws OUT_OF_MEMORY when it fails. */
static void *alloc(JNIEnv *env, size_t count, size_t size) {
  void *p = calloc(count > 0 ? count : 1, size);
  if (p == NULL) throw_dx(env, DXT_E_OUT_OF_MEMORY, "out of memory");
  return p;
}

/* A malloc'd NUL-terminated copy of a byte array (NULL after throwing). */
static char *copy_bytes(JNIEnv *env, jbyteArray array, size_t *length, const char *what) {
  jsize n;
  char *s;
  if (array == NULL) {
    throw_dx(env, DXT_E_INVALID_ARGUMENT, "%s is null", what);
    return NULL;
  }
  n = (*env)->GetArrayLength(env, array);
  if ((s = (char *)alloc(env, (size_t)n + 1, 1)) == NULL) return NULL;
  (*env)->GetByteArrayRegion(env, array, 0, n, (jbyte *)s);
  if (length != NULL) *length = (size_t)n;
  return s;
}

/* copy_bytes of a string the library reads up to its first NUL: one with a
   NUL inside is refused ("user\0day1" would be the scope "user"). */
static char *copy_string(JNIEnv *env, jbyteArray array, const char *what) {
  size_t length = 0;
  char *s = copy_bytes(env, array, &length, what);
  if (s != NULL && strlen(s) != length) {
    free(s);
    throw_dx(env, DXT_E_INVALID_ARGUMENT, "the %s contains a NUL character", what);
    return NULL;
  }
  return s;
}

static dxt_model *model_of(jlong handle) { return ((model_box *)(intptr_t)handle)->model; }

static context_box *context_of(jlong handle) { return (context_box *)(intptr_t)handle; }

/* ------------------------------------------------------------------------ */
/* Options                                                                   */
/* ------------------------------------------------------------------------ */

/* The options of one call (dxt_options_get of it gives the struct; the caller
   destroys it), or NULL after throwing. pairs[2k], pairs[2k + 1]: the name
   and the value of an option passed to the library by name (UTF-8); when
   lists[k], the value is a word list, each word ended by a NUL
   (dxt_options_set_words). DxOptions makes them; the library checks names
   and values, and word lists against model. */
static dxt_options *get_options(JNIEnv *env, const dxt_model *model, jobjectArray pairs, jbooleanArray lists) {
  jsize n = (*env)->GetArrayLength(env, lists), k;
  dxt_options *o = NULL;
  if (check(env, dxt_options_create(model, &o))) return NULL;
  for (k = 0; k < n; ++k) {
    jbyteArray name_bytes = (jbyteArray)(*env)->GetObjectArrayElement(env, pairs, 2 * k);
    jbyteArray value_bytes = (jbyteArray)(*env)->GetObjectArrayElement(env, pairs, 2 * k + 1);
    size_t length = 0;
    char *name = copy_bytes(env, name_bytes, NULL, "option name");
    char *value = name != NULL ? copy_bytes(env, value_bytes, &length, name) : NULL;
    jboolean list = JNI_FALSE;
    dxt_status s = DXT_E_INVALID_ARGUMENT; /* copy_bytes threw, unless set below */
    (*env)->GetBooleanArrayRegion(env, lists, k, 1, &list);
    if (value != NULL && list) {
      size_t count = 0, i, at = 0;
      const char **words;
      for (i = 0; i < length; ++i) count += value[i] == '\0';
      if ((words = (const char **)alloc(env, count, sizeof *words)) != NULL) {
        for (i = 0; i < count; ++i) {
          words[i] = value + at;
          at += strlen(value + at) + 1;
        }
        s = dxt_options_set_words(o, name, words, count);
        free((void *)words);
      } /* else alloc threw */
    } else if (value != NULL) {
      s = dxt_options_set(o, name, value);
    }
    free(name);
    free(value);
    (*env)->DeleteLocalRef(env, name_bytes);
    (*env)->DeleteLocalRef(env, value_bytes);
    if (check(env, s)) { /* which throws nothing more when alloc or copy_bytes threw */
      dxt_options_destroy(o);
      return NULL;
    }
  }
  return o;
}

// generated: structs (tools/options/generate.py, from include/dxtext/dxtext.h)
enum { RECORD_VALUES = 22, RECORD_BYTES = 64 };

/* The record as DxReleaseRecord's arrays (of RECORD_VALUES and RECORD_BYTES). */
static void record_values(const dxt_release_record *r, jdouble *v, jbyte *bytes) {
  v[0] = (jdouble)r->mechanism;
  v[1] = (jdouble)r->epsilon;
  v[2] = (jdouble)r->metric;
  v[3] = (jdouble)r->rng_mode;
  v[4] = (jdouble)r->is_private;
  v[5] = (jdouble)r->release;
  v[6] = (jdouble)r->bound;
  v[7] = (jdouble)r->reveals;
  v[8] = (jdouble)r->draws;
  v[9] = (jdouble)r->epsilon_total;
  v[10] = (jdouble)r->epsilon_vocabulary;
  v[11] = (jdouble)r->release_shape;
  v[12] = (jdouble)r->output_kind;
  v[13] = (jdouble)r->output_size;
  v[14] = (jdouble)r->preset;
  v[15] = (jdouble)r->typed_classes;
  v[16] = (jdouble)r->typed_flags;
  v[17] = (jdouble)r->uniform_floor;
  v[18] = (jdouble)r->worst_case_per_word;
  v[19] = (jdouble)r->typed_dropped;
  v[20] = (jdouble)r->context_prior;
  v[21] = (jdouble)r->fingerprint_valid;
  memcpy(bytes + 0, r->model_fingerprint, 32);
  memcpy(bytes + 32, r->output_digest, 32);
}

/* The dxt_model_info as the array DxModelInfo(double[]) reads. */
static jdoubleArray model_info_array(JNIEnv *env, const dxt_model_info *r) {
  jdouble v[8];
  v[0] = (jdouble)r->format_major;
  v[1] = (jdouble)r->format_minor;
  v[2] = (jdouble)r->dimension;
  v[3] = (jdouble)r->vocabulary_size;
  v[4] = (jdouble)r->geometry;
  v[5] = (jdouble)r->quantization;
  v[6] = (jdouble)r->lowercase;
  v[7] = (jdouble)r->has_frequencies;
  return new_doubles(env, v, 8);
}

/* The dxt_calibration as the array DxCalibration(double[]) reads. */
static jdoubleArray calibration_array(JNIEnv *env, const dxt_calibration *r) {
  jdouble v[8];
  v[0] = (jdouble)r->words;
  v[1] = (jdouble)r->trials;
  v[2] = (jdouble)r->keep_mean;
  v[3] = (jdouble)r->keep_median;
  v[4] = (jdouble)r->keep_max;
  v[5] = (jdouble)r->distinct_mean;
  v[6] = (jdouble)r->distinct_median;
  v[7] = (jdouble)r->distinct_max;
  return new_doubles(env, v, 8);
}

/* The dxt_ledger_totals as the array DxLedgerTotals(double[]) reads. */
static jdoubleArray ledger_totals_array(JNIEnv *env, const dxt_ledger_totals *r) {
  jdouble v[7];
  v[0] = (jdouble)r->cap;
  v[1] = (jdouble)r->spent;
  v[2] = (jdouble)r->spent_any_inputs;
  v[3] = (jdouble)r->releases;
  v[4] = (jdouble)r->memoised;
  v[5] = (jdouble)r->memo_capacity;
  v[6] = (jdouble)r->words;
  return new_doubles(env, v, 7);
}
// generated: end structs

/* The JSON text a to_json call wrote with status s, as reports[slot]. */
static void put_json(JNIEnv *env, jobjectArray reports, jsize slot, dxt_status s, const char *text) {
  if (!check(env, s)) (*env)->SetObjectArrayElement(env, reports, slot, new_bytes(env, text, strlen(text)));
}

/* The reports of a call into the array of DxNative.reports: the record's
   values, bytes and JSON at 0, 1 and 2 (as DxReleaseRecord reads them) and,
   when it has the room, the local diagnostics' values and JSON at 3 and 4
   (DxLocalDiagnostics). Neither JSON depends on the input: the buffer holds
   the longest. */
static void put_reports(JNIEnv *env, const dxt_release_record *r, const dxt_local_diagnostics *d,
                        jobjectArray reports) {
  jdouble v[RECORD_VALUES], counts[18];
  jbyte b[RECORD_BYTES];
  char text[16384];
  int c, a;
  record_values(r, v, b);
  (*env)->SetObjectArrayElement(env, reports, 0, new_doubles(env, v, RECORD_VALUES));
  (*env)->SetObjectArrayElement(env, reports, 1, new_bytes(env, (const char *)b, RECORD_BYTES));
  put_json(env, reports, 2, dxt_release_record_to_json(r, text, sizeof text, NULL), text);
  if ((*env)->GetArrayLength(env, reports) < 5) return;
  for (c = 0; c < DXT_TOKEN_CLASS_COUNT; ++c)
    for (a = 0; a < DXT_TOKEN_ACTION_COUNT; ++a) counts[4 * c + a] = (jdouble)d->counts[c][a];
  counts[16] = (jdouble)d->words_privatized;
  counts[17] = (jdouble)d->words_leaked;
  (*env)->SetObjectArrayElement(env, reports, 3, new_doubles(env, counts, 18));
  put_json(env, reports, 4, dxt_local_diagnostics_to_json(d, text, sizeof text, NULL), text);
}

/* ------------------------------------------------------------------------ */
/* Models                                                                    */
/* ------------------------------------------------------------------------ */

static dxt_model_open_options open_options(uint32_t flags) {
  dxt_model_open_options options;
  dxt_model_open_options_init(&options);
  options.flags = flags;
  return options;
}

/* A new box for the model an open call gave with status s; 0 after throwing. */
static jlong box_model(JNIEnv *env, dxt_status s, dxt_model *model) {
  model_box *m = NULL;
  if (check(env, s) || (m = (model_box *)alloc(env, 1, sizeof *m)) == NULL) {
    dxt_model_close(model);
    return 0;
  }
  m->model = model;
  m->refs = 1;
  return (jlong)(intptr_t)m;
}

JNIEXPORT jbyteArray JNICALL Java_org_dxtext_DxNative_versionString(JNIEnv *env, jclass cls) {
  return new_bytes(env, dxt_version_string(), strlen(dxt_version_string()));
}

JNIEXPORT jlong JNICALL Java_org_dxtext_DxNative_modelOpen(JNIEnv *env, jclass cls, jbyteArray path, jboolean verify) {
  dxt_model_open_options options = open_options(verify ? DXT_OPEN_VERIFY_DIGESTS : 0);
  dxt_model *model = NULL;
  char *p = copy_string(env, path, "path");
  dxt_status s;
  if (p == NULL) return 0;
  s = dxt_model_open_file(p, &options, &model);
  free(p);
  return box_model(env, s, model);
}

/* The library copies the bytes (DXT_OPEN_PRIVATE_COPY) while the array is
   pinned, and no other JNI call is made meanwhile. */
JNIEXPORT jlong JNICALL Java_org_dxtext_DxNative_modelFromBytes(JNIEnv *env, jclass cls, jbyteArray data) {
  dxt_model_open_options options = open_options(DXT_OPEN_PRIVATE_COPY);
  dxt_model *model = NULL;
  jsize length;
  void *bytes;
  dxt_status s;
  if (data == NULL) {
    throw_dx(env, DXT_E_INVALID_ARGUMENT, "data is null");
    return 0;
  }
  length = (*env)->GetArrayLength(env, data);
  if ((bytes = (*env)->GetPrimitiveArrayCritical(env, data, NULL)) == NULL) return 0; /* OutOfMemoryError */
  s = dxt_model_open_memory(bytes, (size_t)length, &options, &model);
  (*env)->ReleasePrimitiveArrayCritical(env, data, bytes, JNI_ABORT);
  return box_model(env, s, model);
}

/* The length bytes from position of a direct buffer, which the library copies. */
JNIEXPORT jlong JNICALL Java_org_dxtext_DxNative_modelFromDirectBuffer(JNIEnv *env, jclass cls, jobject buffer,
                                                                       jint position, jint length) {
  dxt_model_open_options options = open_options(DXT_OPEN_PRIVATE_COPY);
  dxt_model *model = NULL;
  const char *base = (const char *)(*env)->GetDirectBufferAddress(env, buffer);
  dxt_status s;
  if (base == NULL) {
    throw_dx(env, DXT_E_INVALID_ARGUMENT, "not a direct ByteBuffer");
    return 0;
  }
  s = dxt_model_open_memory(base + position, (size_t)length, &options, &model);
  return box_model(env, s, model);
}

JNIEXPORT void JNICALL Java_org_dxtext_DxNative_modelClose(JNIEnv *env, jclass cls, jlong handle) {
  model_release((model_box *)(intptr_t)handle);
}

JNIEXPORT jdoubleArray JNICALL Java_org_dxtext_DxNative_modelInfo(JNIEnv *env, jclass cls, jlong handle) {
  dxt_model_info info;
  dxt_model_info_init(&info);
  if (check(env, dxt_model_get_info(model_of(handle), &info))) return NULL;
  return model_info_array(env, &info);
}

JNIEXPORT jbyteArray JNICALL Java_org_dxtext_DxNative_modelFingerprint(JNIEnv *env, jclass cls, jlong handle) {
  uint8_t digest[32];
  if (check(env, dxt_model_fingerprint(model_of(handle), digest))) return NULL;
  return new_bytes(env, (const char *)digest, 32);
}

JNIEXPORT jint JNICALL Java_org_dxtext_DxNative_modelLookup(JNIEnv *env, jclass cls, jlong handle, jbyteArray word) {
  size_t length = 0;
  uint32_t index = 0;
  dxt_status s;
  char *w = copy_bytes(env, word, &length, "word");
  if (w == NULL) return -1;
  s = dxt_model_lookup(model_of(handle), w, length, &index);
  free(w);
  return check(env, s) ? -1 : (jint)index;
}

/* A negative index is a uint32_t past the vocabulary: NOT_FOUND. */
JNIEXPORT jbyteArray JNICALL Java_org_dxtext_DxNative_modelWord(JNIEnv *env, jclass cls, jlong handle, jint index) {
  const char *word = NULL;
  size_t length = 0;
  if (check(env, dxt_model_word(model_of(handle), (uint32_t)index, &word, &length))) return NULL;
  return new_bytes(env, word, length);
}

/* A longer path than PATH_MAX (4096 on Linux and Android) opens no file:
   INPUT_TOO_LARGE. */
JNIEXPORT jbyteArray JNICALL Java_org_dxtext_DxNative_defaultModelPath(JNIEnv *env, jclass cls, jint geometry) {
  char path[4096];
  size_t required = 0;
  if (check(env, dxt_default_model_path((uint32_t)geometry, path, sizeof path, &required))) return NULL;
  return new_bytes(env, path, required - 1);
}

JNIEXPORT void JNICALL Java_org_dxtext_DxNative_optionsCheck(JNIEnv *env, jclass cls, jlong handle, jobjectArray pairs,
                                                             jbooleanArray lists) {
  dxt_options_destroy(get_options(env, model_of(handle), pairs, lists));
}

/* ------------------------------------------------------------------------ */
/* Contexts                                                                  */
/* ------------------------------------------------------------------------ */

JNIEXPORT jlong JNICALL Java_org_dxtext_DxNative_contextCreate(JNIEnv *env, jclass cls, jlong model_handle,
                                                               jbyteArray seed) {
  model_box *m = (model_box *)(intptr_t)model_handle;
  dxt_context_options options;
  dxt_context *context = NULL;
  context_box *c;
  dxt_status s;
  dxt_context_options_init(&options);
  if (seed != NULL) {
    if ((*env)->GetArrayLength(env, seed) != 32) {
      throw_dx(env, DXT_E_INVALID_ARGUMENT, "the seed must be 32 bytes");
      return 0;
    }
    options.rng_mode = DXT_RNG_DETERMINISTIC;
    (*env)->GetByteArrayRegion(env, seed, 0, 32, (jbyte *)options.seed);
  }
  s = dxt_context_create(m->model, &options, &context);
  memset(options.seed, 0, sizeof options.seed);
  if (check(env, s)) return 0;
  if ((c = (context_box *)alloc(env, 1, sizeof *c)) == NULL) {
    dxt_context_destroy(context);
    return 0;
  }
  c->context = context;
  c->model = m;
  __atomic_add_fetch(&m->refs, 1, __ATOMIC_ACQ_REL);
  return (jlong)(intptr_t)c;
}

JNIEXPORT void JNICALL Java_org_dxtext_DxNative_contextDestroy(JNIEnv *env, jclass cls, jlong handle) {
  context_box *c = context_of(handle);
  dxt_context_destroy(c->context);
  model_release(c->model);
  free(c);
}

/* ------------------------------------------------------------------------ */
/* Privatisation                                                             */
/* ------------------------------------------------------------------------ */

typedef dxt_status (*text_function)(dxt_context *, const dxt_privatize_options *, const char *, size_t, char **,
                                    size_t *, dxt_release_record *, dxt_local_diagnostics *);

/* Whether the array of DxNative.reports asks for the local diagnostics. */
static int wants_diagnostics(JNIEnv *env, jobjectArray reports) {
  return reports != NULL && (*env)->GetArrayLength(env, reports) >= 5;
}

/* privatizeText (function: text or word), and ledgerPrivatizeText (with a
   ledger, fresh and memoised_out; function is then NULL). */
static jbyteArray text_call(JNIEnv *env, text_function function, dxt_ledger *ledger, jboolean fresh,
                            jbooleanArray memoised_out, jlong handle, jobjectArray pairs, jbooleanArray lists,
                            jbyteArray input, jobjectArray reports) {
  context_box *c = context_of(handle);
  dxt_release_record record;
  dxt_local_diagnostics diagnostics;
  /* The diagnostics are computed only when asked for. */
  dxt_local_diagnostics *wanted = wants_diagnostics(env, reports) ? &diagnostics : NULL;
  size_t length = 0, out_length = 0;
  char *text, *out = NULL;
  bool memoised = false;
  dxt_status s;
  jbyteArray result = NULL;
  dxt_options *o = get_options(env, c->model->model, pairs, lists);
  if (o == NULL) return NULL;
  if ((text = copy_bytes(env, input, &length, "text")) == NULL) {
    dxt_options_destroy(o);
    return NULL;
  }
  dxt_release_record_init(&record);
  dxt_local_diagnostics_init(&diagnostics);
  if (ledger != NULL)
    s = dxt_ledger_privatize_text(ledger, c->context, dxt_options_get(o), text, length, fresh ? DXT_LEDGER_FRESH : 0u,
                                  &out, &out_length, &memoised, &record, wanted);
  else
    s = function(c->context, dxt_options_get(o), text, length, &out, &out_length, &record, wanted);
  free(text);
  dxt_options_destroy(o);
  if (!check(env, s)) {
    jboolean m = memoised ? JNI_TRUE : JNI_FALSE;
    if (reports != NULL) put_reports(env, &record, &diagnostics, reports);
    if (memoised_out != NULL) (*env)->SetBooleanArrayRegion(env, memoised_out, 0, 1, &m);
    result = new_bytes(env, out, out_length);
  }
  dxt_text_free(out);
  return result;
}

/* word: dxt_privatize_word rather than dxt_privatize_text. */
JNIEXPORT jbyteArray JNICALL Java_org_dxtext_DxNative_privatizeText(JNIEnv *env, jclass cls, jlong handle,
                                                                    jboolean word, jobjectArray pairs,
                                                                    jbooleanArray lists, jbyteArray text,
                                                                    jobjectArray reports) {
  return text_call(env, word ? dxt_privatize_word : dxt_privatize_text, NULL, false, NULL, handle, pairs, lists, text,
                   reports);
}

/* A negative count would be a huge uint64_t: refused. */
JNIEXPORT jobjectArray JNICALL Java_org_dxtext_DxNative_privatizeBag(JNIEnv *env, jclass cls, jlong handle,
                                                                     jobjectArray pairs, jbooleanArray lists,
                                                                     jobjectArray words, jlongArray counts, jint n_out,
                                                                     jobjectArray reports) {
  context_box *c = context_of(handle);
  dxt_release_record record;
  dxt_local_diagnostics diagnostics;
  dxt_local_diagnostics *wanted = wants_diagnostics(env, reports) ? &diagnostics : NULL;
  dxt_bag_entry *entries = NULL; /* each word a copy_bytes */
  dxt_bag *bag = NULL;
  jobjectArray result = NULL;
  jsize n = (*env)->GetArrayLength(env, words), i;
  dxt_status s;
  dxt_options *o = get_options(env, c->model->model, pairs, lists);
  if (o == NULL) return NULL;
  if ((entries = (dxt_bag_entry *)alloc(env, (size_t)n, sizeof *entries)) == NULL) goto done;
  for (i = 0; i < n; ++i) {
    jbyteArray w = (jbyteArray)(*env)->GetObjectArrayElement(env, words, i);
    jlong count = 0;
    (*env)->GetLongArrayRegion(env, counts, i, 1, &count);
    if (count < 0) {
      throw_dx(env, DXT_E_INVALID_ARGUMENT, "bag counts must not be negative");
      goto done;
    }
    entries[i].word = copy_bytes(env, w, &entries[i].length, "a bag word");
    entries[i].count = (uint64_t)count;
    (*env)->DeleteLocalRef(env, w);
    if (entries[i].word == NULL) goto done;
  }
  dxt_release_record_init(&record);
  dxt_local_diagnostics_init(&diagnostics);
  if (n_out < 0)
    s = dxt_privatize_bag(c->context, dxt_options_get(o), entries, (size_t)n, &bag, &record, wanted);
  else
    s = dxt_syntf(c->context, dxt_options_get(o), entries, (size_t)n, (uint32_t)n_out, &bag, &record, wanted);
  if (check(env, s)) goto done;
  {
    jclass byte_array = (*env)->FindClass(env, "[B");
    jclass object = (*env)->FindClass(env, "java/lang/Object");
    jobjectArray out_words;
    jlongArray out_counts;
    size_t k;
    if (byte_array == NULL || object == NULL || bag->size > INT32_MAX) goto done;
    out_words = (*env)->NewObjectArray(env, (jsize)bag->size, byte_array, NULL);
    out_counts = (*env)->NewLongArray(env, (jsize)bag->size);
    if (out_words == NULL || out_counts == NULL) goto done;
    for (k = 0; k < bag->size; ++k) {
      jbyteArray w = new_bytes(env, bag->entries[k].word, bag->entries[k].length);
      jlong count = (jlong)bag->entries[k].count;
      if (w == NULL) goto done;
      (*env)->SetObjectArrayElement(env, out_words, (jsize)k, w);
      (*env)->DeleteLocalRef(env, w);
      (*env)->SetLongArrayRegion(env, out_counts, (jsize)k, 1, &count);
    }
    result = (*env)->NewObjectArray(env, 2, object, NULL);
    if (result == NULL) goto done;
    (*env)->SetObjectArrayElement(env, result, 0, out_words);
    (*env)->SetObjectArrayElement(env, result, 1, out_counts);
    put_reports(env, &record, &diagnostics, reports);
  }
done:
  dxt_bag_free(bag);
  if (entries != NULL)
    for (i = 0; i < n; ++i) free((void *)entries[i].word);
  free(entries);
  dxt_options_destroy(o);
  return result;
}

/* A negative count would be a huge uint32_t: refused. */
JNIEXPORT jdoubleArray JNICALL Java_org_dxtext_DxNative_calibrate(JNIEnv *env, jclass cls, jlong handle,
                                                                  jobjectArray pairs, jbooleanArray lists, jint words,
                                                                  jint trials) {
  context_box *c = context_of(handle);
  dxt_options *o;
  dxt_calibration calibration;
  dxt_status s;
  if (words < 0 || trials < 0) {
    throw_dx(env, DXT_E_INVALID_ARGUMENT, "words and trials must not be negative");
    return NULL;
  }
  if ((o = get_options(env, c->model->model, pairs, lists)) == NULL) return NULL;
  dxt_calibration_init(&calibration);
  s = dxt_calibrate(c->context, dxt_options_get(o), (uint32_t)words, (uint32_t)trials, &calibration);
  dxt_options_destroy(o);
  if (check(env, s)) return NULL;
  return calibration_array(env, &calibration);
}

/* ------------------------------------------------------------------------ */
/* Privacy ledger                                                            */
/* ------------------------------------------------------------------------ */

static dxt_ledger *ledger_of(jlong handle) { return (dxt_ledger *)(intptr_t)handle; }

/* memo_capacity < 0: the default; key and anchor (its stored bytes) may be null. */
JNIEXPORT jlong JNICALL Java_org_dxtext_DxNative_ledgerOpen(JNIEnv *env, jclass cls, jbyteArray path, jbyteArray scope,
                                                            jdouble cap, jint memo_capacity, jbyteArray key,
                                                            jbyteArray anchor) {
  dxt_ledger_options options;
  dxt_ledger_anchor stored_anchor;
  uint8_t anchor_bytes[DXT_LEDGER_ANCHOR_BYTES] = {0};
  dxt_ledger *ledger = NULL;
  char *p = NULL, *sc = NULL, *k = NULL;
  size_t key_length = 0;
  if ((p = copy_string(env, path, "path")) == NULL || (sc = copy_string(env, scope, "scope")) == NULL) goto done;
  dxt_ledger_anchor_init(&stored_anchor);
  if (anchor != NULL) {
    jsize length = (*env)->GetArrayLength(env, anchor);
    if (length == DXT_LEDGER_ANCHOR_BYTES) (*env)->GetByteArrayRegion(env, anchor, 0, length, (jbyte *)anchor_bytes);
    if (check(env, dxt_ledger_anchor_decode(anchor_bytes, (size_t)length, &stored_anchor))) goto done;
  }
  if (key != NULL && (k = copy_bytes(env, key, &key_length, "key")) == NULL) goto done;
  dxt_ledger_options_init(&options);
  options.cap = cap;
  if (memo_capacity >= 0) options.memo_capacity = (uint32_t)memo_capacity;
  options.key = (const uint8_t *)k;
  options.key_length = key_length;
  if (anchor != NULL) options.anchor = &stored_anchor;
  if (check(env, dxt_ledger_open(p, sc, &options, &ledger))) ledger = NULL;
done:
  free(p);
  free(sc);
  if (k != NULL) memset(k, 0, key_length);
  free(k);
  return (jlong)(intptr_t)ledger;
}

JNIEXPORT void JNICALL Java_org_dxtext_DxNative_ledgerClose(JNIEnv *env, jclass cls, jlong handle) {
  dxt_ledger_close(ledger_of(handle));
}

JNIEXPORT void JNICALL Java_org_dxtext_DxNative_ledgerSetCap(JNIEnv *env, jclass cls, jlong handle, jdouble cap) {
  check(env, dxt_ledger_set_cap(ledger_of(handle), cap));
}

JNIEXPORT jdoubleArray JNICALL Java_org_dxtext_DxNative_ledgerTotals(JNIEnv *env, jclass cls, jlong handle) {
  dxt_ledger_totals t;
  dxt_ledger_totals_init(&t);
  if (check(env, dxt_ledger_get_totals(ledger_of(handle), &t))) return NULL;
  return ledger_totals_array(env, &t);
}

/* The ledger's anchor as its stored bytes. */
JNIEXPORT jbyteArray JNICALL Java_org_dxtext_DxNative_ledgerAnchor(JNIEnv *env, jclass cls, jlong handle) {
  dxt_ledger_anchor a;
  uint8_t bytes[DXT_LEDGER_ANCHOR_BYTES];
  dxt_ledger_anchor_init(&a);
  if (check(env, dxt_ledger_get_anchor(ledger_of(handle), &a))) return NULL;
  if (check(env, dxt_ledger_anchor_encode(&a, bytes, sizeof bytes))) return NULL;
  return new_bytes(env, (const char *)bytes, sizeof bytes);
}

JNIEXPORT jbyteArray JNICALL Java_org_dxtext_DxNative_ledgerJson(JNIEnv *env, jclass cls, jlong handle) {
  dxt_ledger *l = ledger_of(handle);
  size_t required = 0;
  char *buffer;
  jbyteArray out = NULL;
  dxt_status s = dxt_ledger_to_json(l, NULL, 0, &required);
  if (s != DXT_E_INPUT_TOO_LARGE && check(env, s)) return NULL;
  if ((buffer = (char *)alloc(env, required, 1)) == NULL) return NULL;
  if (!check(env, dxt_ledger_to_json(l, buffer, required, &required))) out = new_bytes(env, buffer, strlen(buffer));
  free(buffer);
  return out;
}

JNIEXPORT jbyteArray JNICALL Java_org_dxtext_DxNative_ledgerPrivatizeText(JNIEnv *env, jclass cls, jlong ledger_handle,
                                                                          jlong context_handle, jobjectArray pairs,
                                                                          jbooleanArray lists, jbyteArray input,
                                                                          jboolean fresh, jbooleanArray memoised_out,
                                                                          jobjectArray reports) {
  return text_call(env, NULL, ledger_of(ledger_handle), fresh, memoised_out, context_handle, pairs, lists, input,
                   reports);
}
