/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dxtext for the JVM and Android: the JNI side of org.dxtext.DxNative, over
 * the public C header only. Strings cross as UTF-8 byte arrays (JNI's own
 * "modified UTF-8" is not UTF-8 for NUL and characters beyond U+FFFF).
 * Failures throw org.dxtext.DxException with the status and the message.
 *
 * A model handle is a box shared by the Java DxModel and every context made
 * from it; the box (and the aligned copy of a model opened from bytes) is
 * freed when the last of them lets go. The count is atomic: Java threads
 * may close a model and a privatizer at the same time.
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
  void *buffer;
  int refs;
} model_box;

typedef struct context_box {
  dxt_context *context;
  model_box *model;
} context_box;

static void model_release(model_box *m) {
  if (__atomic_sub_fetch(&m->refs, 1, __ATOMIC_ACQ_REL) > 0) return;
  free(m->buffer);
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
  if (error != NULL) (*env)->Throw(env, (jthrowable)error);
}

/* Throws for a failed call on this thread, with the library's message as it
   is (dxt_last_error_message); returns 1 if the status is a failure. */
static int check(JNIEnv *env, dxt_status status) {
  const char *message = dxt_last_error_message();
  if (status == DXT_OK) return 0;
  throw_dx(env, status, "%s", message != NULL && message[0] != '\0' ? message : dxt_status_string(status));
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

static model_box *model_of(JNIEnv *env, jlong handle) {
  model_box *m = (model_box *)(intptr_t)handle;
  if (m == NULL || m->model == NULL) throw_dx(env, DXT_E_INVALID_ARGUMENT, "the model is closed");
  return m == NULL || m->model == NULL ? NULL : m;
}

static dxt_context *context_of(JNIEnv *env, jlong handle) {
  context_box *c = (context_box *)(intptr_t)handle;
  if (c == NULL) throw_dx(env, DXT_E_INVALID_ARGUMENT, "the privatizer is closed");
  return c == NULL ? NULL : c->context;
}

/* ------------------------------------------------------------------------ */
/* Options                                                                   */
/* ------------------------------------------------------------------------ */

/* The options of one call: a dxt_options handle, which owns what its struct
   points to, and that struct. */
typedef struct options_copy {
  dxt_options *handle;
  const dxt_privatize_options *options;
} options_copy;

static void options_release(options_copy *o) {
  dxt_options_destroy(o->handle);
  o->handle = NULL;
}

/* pairs[2k], pairs[2k + 1]: the name and the value of an option passed to the
   library by name (UTF-8); when lists[k], the value is a word list, each word
   ended by a NUL (dxt_options_set_words). DxOptions makes them; the library
   checks names and values. On failure throws, frees everything and returns 0. */
static int get_options(JNIEnv *env, jlong context_handle, jobjectArray pairs, jbooleanArray lists, options_copy *o) {
  const context_box *c = (const context_box *)(intptr_t)context_handle;
  jsize n, k;
  memset(o, 0, sizeof *o);
  if (c == NULL || pairs == NULL || lists == NULL ||
      (n = (*env)->GetArrayLength(env, lists)) * 2 != (*env)->GetArrayLength(env, pairs)) {
    throw_dx(env, DXT_E_INVALID_ARGUMENT, "malformed options");
    return 0;
  }
  if (check(env, dxt_options_create(c->model->model, &o->handle))) return 0;
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
        s = dxt_options_set_words(o->handle, name, words, count);
        free((void *)words);
      } /* else alloc threw */
    } else if (value != NULL) {
      s = dxt_options_set(o->handle, name, value);
    }
    free(name);
    free(value);
    (*env)->DeleteLocalRef(env, name_bytes);
    (*env)->DeleteLocalRef(env, value_bytes);
    if (check(env, s)) { /* which throws nothing more when alloc or copy_bytes threw */
      options_release(o);
      return 0;
    }
  }
  o->options = dxt_options_get(o->handle);
  return 1;
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

/* The record into DxReleaseRecord's arrays, and its JSON into json[0]. */
static void put_record(JNIEnv *env, const dxt_release_record *r, jdoubleArray values, jbyteArray bytes,
                       jobjectArray json) {
  jdouble v[RECORD_VALUES];
  jbyte b[RECORD_BYTES];
  char text[4096];
  size_t required = 0;
  if (values == NULL || bytes == NULL) return;
  record_values(r, v, b);
  (*env)->SetDoubleArrayRegion(env, values, 0, RECORD_VALUES, v);
  (*env)->SetByteArrayRegion(env, bytes, 0, RECORD_BYTES, b);
  if (json != NULL && dxt_release_record_to_json(r, text, sizeof text, &required) == DXT_OK)
    (*env)->SetObjectArrayElement(env, json, 0, new_bytes(env, text, required - 1));
}

/* Layout of DxLocalDiagnostics' array; its JSON goes to json[1]. */
static void put_diagnostics(JNIEnv *env, const dxt_local_diagnostics *d, jdoubleArray values, jobjectArray json) {
  jdouble v[18];
  int c, a;
  char text[4096];
  size_t required = 0;
  if (values == NULL) return;
  for (c = 0; c < DXT_TOKEN_CLASS_COUNT; ++c)
    for (a = 0; a < DXT_TOKEN_ACTION_COUNT; ++a) v[4 * c + a] = (jdouble)d->counts[c][a];
  v[16] = (jdouble)d->words_privatized;
  v[17] = (jdouble)d->words_leaked;
  (*env)->SetDoubleArrayRegion(env, values, 0, 18, v);
  if (json != NULL && dxt_local_diagnostics_to_json(d, text, sizeof text, &required) == DXT_OK)
    (*env)->SetObjectArrayElement(env, json, 1, new_bytes(env, text, required - 1));
}

/* ------------------------------------------------------------------------ */
/* Models                                                                    */
/* ------------------------------------------------------------------------ */

/* Opens the model file at path, or else the length bytes at copy (from the
   heap, whose alignment, at least 8, is what dxt_model_open_memory needs; the
   box then owns them), into a new box; 0 after throwing. */
static jlong open_model(JNIEnv *env, const char *path, char *copy, size_t length, jboolean verify) {
  dxt_model_open_options options;
  dxt_model *model = NULL;
  model_box *m = NULL;
  dxt_status s;
  dxt_model_open_options_init(&options);
  options.flags = verify ? DXT_OPEN_VERIFY_DIGESTS : 0;
  if (path != NULL)
    s = dxt_model_open_file(path, &options, &model);
  else
    s = dxt_model_open_memory(copy, length, &options, &model);
  if (check(env, s) || (m = (model_box *)alloc(env, 1, sizeof *m)) == NULL) {
    dxt_model_close(model);
    free(copy);
    return 0;
  }
  m->model = model;
  m->buffer = copy;
  m->refs = 1;
  return (jlong)(intptr_t)m;
}

JNIEXPORT jbyteArray JNICALL Java_org_dxtext_DxNative_versionString(JNIEnv *env, jclass cls) {
  return new_bytes(env, dxt_version_string(), strlen(dxt_version_string()));
}

JNIEXPORT jlong JNICALL Java_org_dxtext_DxNative_modelOpen(JNIEnv *env, jclass cls, jbyteArray path, jboolean verify) {
  char *p = copy_string(env, path, "path");
  jlong m = p != NULL ? open_model(env, p, NULL, 0, verify) : 0;
  free(p);
  return m;
}

JNIEXPORT jlong JNICALL Java_org_dxtext_DxNative_modelFromBytes(JNIEnv *env, jclass cls, jbyteArray data,
                                                                jboolean verify) {
  size_t length = 0;
  char *copy = copy_bytes(env, data, &length, "data");
  return copy != NULL ? open_model(env, NULL, copy, length, verify) : 0;
}

/* A direct ByteBuffer's bytes [position, position + length), copied into an
   aligned buffer as modelFromBytes does (the caller may reuse the buffer). */
JNIEXPORT jlong JNICALL Java_org_dxtext_DxNative_modelFromDirectBuffer(JNIEnv *env, jclass cls, jobject buffer,
                                                                       jint position, jint length, jboolean verify) {
  const char *base = buffer != NULL ? (const char *)(*env)->GetDirectBufferAddress(env, buffer) : NULL;
  jlong capacity = buffer != NULL ? (*env)->GetDirectBufferCapacity(env, buffer) : -1;
  char *copy;
  if (base == NULL || capacity < 0) {
    throw_dx(env, DXT_E_INVALID_ARGUMENT, "not a direct ByteBuffer");
    return 0;
  }
  if (position < 0 || length < 0 || (jlong)position + (jlong)length > capacity) {
    throw_dx(env, DXT_E_INVALID_ARGUMENT, "the buffer's position and remaining bytes are out of range");
    return 0;
  }
  if ((copy = (char *)alloc(env, (size_t)length, 1)) == NULL) return 0;
  memcpy(copy, base + position, (size_t)length);
  return open_model(env, NULL, copy, (size_t)length, verify);
}

JNIEXPORT void JNICALL Java_org_dxtext_DxNative_modelClose(JNIEnv *env, jclass cls, jlong handle) {
  model_box *m = (model_box *)(intptr_t)handle;
  if (m == NULL) return;
  dxt_model_close(m->model); /* contexts keep their own reference */
  m->model = NULL;
  model_release(m);
}

JNIEXPORT jdoubleArray JNICALL Java_org_dxtext_DxNative_modelInfo(JNIEnv *env, jclass cls, jlong handle) {
  model_box *m = model_of(env, handle);
  dxt_model_info info;
  if (m == NULL) return NULL;
  dxt_model_info_init(&info);
  if (check(env, dxt_model_get_info(m->model, &info))) return NULL;
  return model_info_array(env, &info);
}

JNIEXPORT jbyteArray JNICALL Java_org_dxtext_DxNative_modelFingerprint(JNIEnv *env, jclass cls, jlong handle) {
  model_box *m = model_of(env, handle);
  uint8_t digest[32];
  if (m == NULL || check(env, dxt_model_fingerprint(m->model, digest))) return NULL;
  return new_bytes(env, (const char *)digest, 32);
}

JNIEXPORT jint JNICALL Java_org_dxtext_DxNative_modelLookup(JNIEnv *env, jclass cls, jlong handle, jbyteArray word) {
  model_box *m = model_of(env, handle);
  size_t length = 0;
  uint32_t index = 0;
  dxt_status s;
  char *w;
  if (m == NULL || (w = copy_bytes(env, word, &length, "word")) == NULL) return -1;
  s = dxt_model_lookup(m->model, w, length, &index);
  free(w);
  if (check(env, s)) return -1;
  return (jint)index;
}

JNIEXPORT jbyteArray JNICALL Java_org_dxtext_DxNative_modelWord(JNIEnv *env, jclass cls, jlong handle, jint index) {
  model_box *m = model_of(env, handle);
  const char *word = NULL;
  size_t length = 0;
  if (m == NULL) return NULL;
  if (index < 0) {
    throw_dx(env, DXT_E_NOT_FOUND, "negative index");
    return NULL;
  }
  if (check(env, dxt_model_word(m->model, (uint32_t)index, &word, &length))) return NULL;
  return new_bytes(env, word, length);
}

JNIEXPORT jlong JNICALL Java_org_dxtext_DxNative_outputSetCreate(JNIEnv *env, jclass cls, jlong handle,
                                                                 jobjectArray words) {
  model_box *m = model_of(env, handle);
  jsize n, k;
  char **copies;
  dxt_output_set *set = NULL;
  if (m == NULL) return 0;
  if (words == NULL) {
    throw_dx(env, DXT_E_INVALID_ARGUMENT, "the word list is null");
    return 0;
  }
  n = (*env)->GetArrayLength(env, words);
  if ((copies = (char **)alloc(env, (size_t)n, sizeof *copies)) == NULL) return 0;
  for (k = 0; k < n; ++k) {
    jbyteArray word = (jbyteArray)(*env)->GetObjectArrayElement(env, words, k);
    copies[k] = copy_bytes(env, word, NULL, "an output word");
    (*env)->DeleteLocalRef(env, word);
    if (copies[k] == NULL) break;
  }
  if (k == n) check(env, dxt_output_set_create(m->model, (const char *const *)copies, (size_t)n, &set));
  for (k = 0; k < n; ++k) free(copies[k]);
  free(copies);
  return (*env)->ExceptionCheck(env) ? 0 : (jlong)(intptr_t)set;
}

JNIEXPORT void JNICALL Java_org_dxtext_DxNative_outputSetFree(JNIEnv *env, jclass cls, jlong set) {
  dxt_output_set_free((dxt_output_set *)(intptr_t)set);
}

/* A longer path than PATH_MAX (4096 on Linux and Android) opens no file:
   INPUT_TOO_LARGE. */
JNIEXPORT jbyteArray JNICALL Java_org_dxtext_DxNative_defaultModelPath(JNIEnv *env, jclass cls, jint geometry) {
  char path[4096];
  size_t required = 0;
  if (check(env, dxt_default_model_path((uint32_t)geometry, path, sizeof path, &required))) return NULL;
  return new_bytes(env, path, required - 1);
}

/* ------------------------------------------------------------------------ */
/* Contexts                                                                  */
/* ------------------------------------------------------------------------ */

JNIEXPORT jlong JNICALL Java_org_dxtext_DxNative_contextCreate(JNIEnv *env, jclass cls, jlong model_handle,
                                                               jbyteArray seed) {
  model_box *m = model_of(env, model_handle);
  dxt_context_options options;
  dxt_context *context = NULL;
  context_box *c;
  dxt_status s;
  if (m == NULL) return 0;
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
  context_box *c = (context_box *)(intptr_t)handle;
  if (c == NULL) return;
  dxt_context_destroy(c->context);
  model_release(c->model);
  free(c);
}

/* ------------------------------------------------------------------------ */
/* Privatisation                                                             */
/* ------------------------------------------------------------------------ */

typedef dxt_status (*text_function)(dxt_context *, const dxt_privatize_options *, const char *, size_t, char **,
                                    size_t *, dxt_release_record *, dxt_local_diagnostics *);

/* privatizeText (function: text or word), and ledgerPrivatizeText (with a
   ledger, fresh and memoised_out; function is then NULL). */
static jbyteArray text_call(JNIEnv *env, text_function function, dxt_ledger *ledger, jboolean fresh,
                            jbooleanArray memoised_out, jlong handle, jobjectArray pairs, jbooleanArray lists,
                            jbyteArray input, jdoubleArray record_values, jdoubleArray diagnostics_values,
                            jbyteArray fingerprint, jobjectArray json) {
  dxt_context *context = context_of(env, handle);
  options_copy o;
  dxt_release_record record;
  dxt_local_diagnostics diagnostics;
  /* The diagnostics are computed only when asked for. */
  dxt_local_diagnostics *wanted = diagnostics_values != NULL ? &diagnostics : NULL;
  size_t length = 0, out_length = 0;
  char *text, *out = NULL;
  bool memoised = false;
  dxt_status s;
  jbyteArray result = NULL;
  if (context == NULL) return NULL;
  if (!get_options(env, handle, pairs, lists, &o)) return NULL;
  if ((text = copy_bytes(env, input, &length, "text")) == NULL) {
    options_release(&o);
    return NULL;
  }
  dxt_release_record_init(&record);
  dxt_local_diagnostics_init(&diagnostics);
  if (ledger != NULL)
    s = dxt_ledger_privatize_text(ledger, context, o.options, text, length, fresh ? DXT_LEDGER_FRESH : 0u, &out,
                                  &out_length, &memoised, &record, wanted);
  else
    s = function(context, o.options, text, length, &out, &out_length, &record, wanted);
  free(text);
  options_release(&o);
  if (!check(env, s)) {
    jboolean m = memoised ? JNI_TRUE : JNI_FALSE;
    put_record(env, &record, record_values, fingerprint, json);
    put_diagnostics(env, &diagnostics, diagnostics_values, json);
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
                                                                    jdoubleArray record, jdoubleArray diagnostics,
                                                                    jbyteArray fingerprint, jobjectArray json) {
  return text_call(env, word ? dxt_privatize_word : dxt_privatize_text, NULL, false, NULL, handle, pairs, lists, text,
                   record, diagnostics, fingerprint, json);
}

JNIEXPORT jobjectArray JNICALL Java_org_dxtext_DxNative_privatizeBag(JNIEnv *env, jclass cls, jlong handle,
                                                                     jobjectArray pairs, jbooleanArray lists,
                                                                     jobjectArray words, jlongArray counts, jint n_out,
                                                                     jdoubleArray record_values,
                                                                     jdoubleArray diagnostics_values,
                                                                     jbyteArray fingerprint, jobjectArray json) {
  dxt_context *context = context_of(env, handle);
  options_copy o;
  dxt_release_record record;
  dxt_local_diagnostics diagnostics;
  dxt_local_diagnostics *wanted = diagnostics_values != NULL ? &diagnostics : NULL;
  dxt_bag_entry *entries = NULL; /* each word a copy_bytes */
  dxt_bag *bag = NULL;
  jobjectArray result = NULL;
  jsize n = 0, i;
  dxt_status s;
  if (context == NULL) return NULL;
  if (words == NULL || counts == NULL || (*env)->GetArrayLength(env, words) != (*env)->GetArrayLength(env, counts)) {
    throw_dx(env, DXT_E_INVALID_ARGUMENT, "malformed bag");
    return NULL;
  }
  if (!get_options(env, handle, pairs, lists, &o)) return NULL;
  n = (*env)->GetArrayLength(env, words);
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
    s = dxt_privatize_bag(context, o.options, entries, (size_t)n, &bag, &record, wanted);
  else
    s = dxt_syntf(context, o.options, entries, (size_t)n, (uint32_t)n_out, &bag, &record, wanted);
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
      jlong c = (jlong)bag->entries[k].count;
      if (w == NULL) goto done;
      (*env)->SetObjectArrayElement(env, out_words, (jsize)k, w);
      (*env)->DeleteLocalRef(env, w);
      (*env)->SetLongArrayRegion(env, out_counts, (jsize)k, 1, &c);
    }
    result = (*env)->NewObjectArray(env, 2, object, NULL);
    if (result == NULL) goto done;
    (*env)->SetObjectArrayElement(env, result, 0, out_words);
    (*env)->SetObjectArrayElement(env, result, 1, out_counts);
    put_record(env, &record, record_values, fingerprint, json);
    put_diagnostics(env, &diagnostics, diagnostics_values, json);
  }
done:
  dxt_bag_free(bag);
  if (entries != NULL)
    for (i = 0; i < n; ++i) free((void *)entries[i].word);
  free(entries);
  options_release(&o);
  return result;
}

JNIEXPORT jdoubleArray JNICALL Java_org_dxtext_DxNative_calibrate(JNIEnv *env, jclass cls, jlong handle,
                                                                  jobjectArray pairs, jbooleanArray lists, jint words,
                                                                  jint trials) {
  dxt_context *context = context_of(env, handle);
  options_copy o;
  dxt_calibration c;
  dxt_status s;
  if (context == NULL) return NULL;
  if (words < 0 || trials < 0) {
    throw_dx(env, DXT_E_INVALID_ARGUMENT, "words and trials must not be negative");
    return NULL;
  }
  if (!get_options(env, handle, pairs, lists, &o)) return NULL;
  dxt_calibration_init(&c);
  s = dxt_calibrate(context, o.options, (uint32_t)words, (uint32_t)trials, &c);
  options_release(&o);
  if (check(env, s)) return NULL;
  return calibration_array(env, &c);
}

/* ------------------------------------------------------------------------ */
/* Privacy ledger                                                            */
/* ------------------------------------------------------------------------ */

static dxt_ledger *ledger_of(JNIEnv *env, jlong handle) {
  dxt_ledger *l = (dxt_ledger *)(intptr_t)handle;
  if (l == NULL) throw_dx(env, DXT_E_INVALID_ARGUMENT, "the ledger is closed");
  return l;
}

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
  dxt_ledger_close((dxt_ledger *)(intptr_t)handle);
}

JNIEXPORT void JNICALL Java_org_dxtext_DxNative_ledgerSetCap(JNIEnv *env, jclass cls, jlong handle, jdouble cap) {
  dxt_ledger *l = ledger_of(env, handle);
  if (l != NULL) check(env, dxt_ledger_set_cap(l, cap));
}

JNIEXPORT jdoubleArray JNICALL Java_org_dxtext_DxNative_ledgerTotals(JNIEnv *env, jclass cls, jlong handle) {
  dxt_ledger *l = ledger_of(env, handle);
  dxt_ledger_totals t;
  if (l == NULL) return NULL;
  dxt_ledger_totals_init(&t);
  if (check(env, dxt_ledger_get_totals(l, &t))) return NULL;
  return ledger_totals_array(env, &t);
}

/* The ledger's anchor as its stored bytes. */
JNIEXPORT jbyteArray JNICALL Java_org_dxtext_DxNative_ledgerAnchor(JNIEnv *env, jclass cls, jlong handle) {
  dxt_ledger *l = ledger_of(env, handle);
  dxt_ledger_anchor a;
  uint8_t bytes[DXT_LEDGER_ANCHOR_BYTES];
  if (l == NULL) return NULL;
  dxt_ledger_anchor_init(&a);
  if (check(env, dxt_ledger_get_anchor(l, &a))) return NULL;
  if (check(env, dxt_ledger_anchor_encode(&a, bytes, sizeof bytes))) return NULL;
  return new_bytes(env, (const char *)bytes, sizeof bytes);
}

JNIEXPORT jbyteArray JNICALL Java_org_dxtext_DxNative_ledgerJson(JNIEnv *env, jclass cls, jlong handle) {
  dxt_ledger *l = ledger_of(env, handle);
  size_t required = 0;
  char *buffer;
  jbyteArray out = NULL;
  dxt_status s;
  if (l == NULL) return NULL;
  s = dxt_ledger_to_json(l, NULL, 0, &required);
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
                                                                          jdoubleArray record_values,
                                                                          jbyteArray fingerprint, jobjectArray json) {
  dxt_ledger *l = ledger_of(env, ledger_handle);
  if (l == NULL) return NULL;
  return text_call(env, NULL, l, fresh, memoised_out, context_handle, pairs, lists, input, record_values, NULL,
                   fingerprint, json);
}
