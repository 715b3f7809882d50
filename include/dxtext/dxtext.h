/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dxtext — on-device text sanitisation under metric differential privacy.
 *
 * This is the one public header of the library. It is C99 and includes only
 * <stddef.h>, <stdint.h> and <stdbool.h>.
 *
 * Objects and threading
 *   dxt_model    an opened embedding file (.dxe). Immutable after open and safe
 *                to share between threads. Reference-counted internally:
 *                dxt_model_close() releases the caller's reference and the
 *                memory stays valid until every context made from it is
 *                destroyed too.
 *   dxt_ledger   a privacy ledger on a file the app owns (see "Privacy
 *                ledger"). One handle per thread; any number of handles, in
 *                any number of processes, may share one file: each call
 *                locks the file for its duration.
 *   dxt_context  random-number state and scratch space. One per thread; a
 *                context must not be used by two threads at the same time.
 *                A call that finds another thread inside a call on the
 *                same context returns DXT_E_CONTEXT_BUSY at once and does
 *                nothing (the other call is unaffected); destroying a
 *                context while another thread uses it is not detected. A
 *                context that another thread was using when the process
 *                forked stays busy in the child: make a new one there.
 *
 * Errors
 *   Every fallible call returns a dxt_status (0 = DXT_OK). dxt_status_string()
 *   names a status; dxt_last_error_message() gives a thread-local message with
 *   details of the last failure on the calling thread. New status codes may be
 *   added in later versions; treat unknown non-zero codes as errors.
 *
 * Memory
 *   Results whose size is not known in advance (text, bags) are allocated by
 *   the library and released with the matching dxt_*_free() call. Word strings
 *   returned by dxt_model_word() point into the model and live as long as it.
 *   Every close/destroy/free function accepts NULL.
 *
 * Options structs
 *   Each options, record or diagnostics struct starts with `uint32_t struct_size`. Fill it
 *   with the matching _init() function, then change fields. This lets later
 *   versions append fields without breaking compiled callers.
 *
 *   The _init() functions are static inline: they call the exported
 *   dxt_*_init_sized(p, sizeof(*p)) with the size of the struct as the
 *   CALLER's header declares it, so a program built against an older, smaller
 *   struct never gets bytes written past its end by a newer library.
 *   _init_sized() writes the defaults of the first min(struct_size, the
 *   library's sizeof) bytes, zero-fills any bytes the caller has beyond the
 *   library's struct, and sets struct_size to the caller's size. Language
 *   bindings (FFI) call the _sized functions with their own struct sizes.
 *   A struct_size below 4 (no room for struct_size itself) writes nothing;
 *   one above UINT32_MAX only sets struct_size to 0, which later calls
 *   reject.
 *   (ABI change within 0.1.0, no version number bumped: the exported
 *   _init() functions, which wrote the library's own sizeof, are replaced
 *   by the _init_sized() ones.)
 */
#ifndef DXTEXT_H
#define DXTEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(DXT_STATIC_DEFINE)
#define DXT_API
#elif defined(_WIN32)
#if defined(DXT_BUILDING_LIBRARY)
#define DXT_API __declspec(dllexport)
#else
#define DXT_API __declspec(dllimport)
#endif
#else
#define DXT_API __attribute__((visibility("default")))
#endif

#if defined(__GNUC__) || defined(__clang__)
#define DXT_NODISCARD __attribute__((warn_unused_result))
#else
#define DXT_NODISCARD
#endif

/* ------------------------------------------------------------------------ */
/* Versions                                                                  */
/* ------------------------------------------------------------------------ */

#define DXT_VERSION_MAJOR 0
#define DXT_VERSION_MINOR 1
#define DXT_VERSION_PATCH 0
/** major * 10000 + minor * 100 + patch */
#define DXT_VERSION_NUMBER (DXT_VERSION_MAJOR * 10000 + DXT_VERSION_MINOR * 100 + DXT_VERSION_PATCH)
/** Version of the C ABI; bumped on incompatible change (equals SOVERSION). */
#define DXT_ABI_VERSION 0
/** Major version of the .dxe model format this library reads and writes. */
#define DXT_FORMAT_VERSION_MAJOR 1
#define DXT_FORMAT_VERSION_MINOR 4

/** @return DXT_VERSION_NUMBER of the library actually loaded. */
DXT_API uint32_t dxt_version_number(void);
/** @return "major.minor.patch" of the library actually loaded (static). */
DXT_API const char *dxt_version_string(void);
/** @return DXT_ABI_VERSION of the library actually loaded. */
DXT_API uint32_t dxt_abi_version(void);
/** @return major * 100 + minor of the newest model format the library reads
    and writes (files without a covariance or search index section are
    written as 1.0). */
DXT_API uint32_t dxt_format_version(void);

/* ------------------------------------------------------------------------ */
/* Status codes                                                              */
/* ------------------------------------------------------------------------ */

typedef int32_t dxt_status;
enum {
  DXT_OK = 0, /**< The call succeeded. */
  /** A NULL pointer, a bad option or value, or a bad struct_size. */
  DXT_E_INVALID_ARGUMENT = 1,
  /** Epsilon is not finite, outside [DXT_EPSILON_MIN, DXT_EPSILON_MAX], or
      below the mechanism's bound. */
  DXT_E_INVALID_EPSILON = 2,
  DXT_E_IO = 3,                  /**< A file could not be opened, read or written. */
  DXT_E_NOT_A_MODEL = 4,         /**< The bytes are not a .dxe model (bad magic). */
  DXT_E_UNSUPPORTED_VERSION = 5, /**< The model's major format version is newer than this library. */
  DXT_E_CORRUPT_MODEL = 6,       /**< A field of the model fails validation. */
  DXT_E_TRUNCATED_MODEL = 7,     /**< The model is shorter than its header says. */
  DXT_E_DIGEST_MISMATCH = 8,     /**< A stored SHA-256 digest does not match. */
  DXT_E_OUT_OF_MEMORY = 9,       /**< Memory ran out; nothing was released. */
  DXT_E_RNG_FAILURE = 10,        /**< The random generator failed; nothing was released. */
  DXT_E_INVALID_UTF8 = 11,       /**< The input is not valid UTF-8. */
  /** A word or index is not in the vocabulary, or there is no default model. */
  DXT_E_NOT_FOUND = 12,
  DXT_E_UNSUPPORTED = 13,     /**< The mechanism, geometry or option is not supported here. */
  DXT_E_INPUT_TOO_LARGE = 14, /**< A count or size exceeds a documented limit, or a buffer is too small. */
  DXT_E_PARSE = 15,           /**< Malformed input to a converter. */
  DXT_E_INTERNAL = 16,        /**< A bug in dxtext; please report it. */
  /** Another thread is inside a call on the same context; nothing was done.
      A context is for one thread at a time: give each thread its own. */
  DXT_E_CONTEXT_BUSY = 17,
  /** A ledger refused the release: it would pass the scope's cap. Nothing
      was drawn, released or spent (see "Privacy ledger"). */
  DXT_E_BUDGET_EXCEEDED = 18,
  /** A ledger file fails its MAC or its format checks (damaged, truncated,
      edited, or opened with another app key); it is left as it is, never
      reset. */
  DXT_E_LEDGER_CORRUPT = 19,
  /** A ledger is older than the anchor the app kept for it (an earlier copy
      of its file was put back, or the file was deleted or replaced): the
      call is refused, nothing is drawn or released (see "Rollback"). */
  DXT_E_LEDGER_ROLLBACK = 20
};

/** @return a static, never-NULL English description of @p status. */
DXT_API const char *dxt_status_string(dxt_status status);

/**
 * @return the message of the last failed call on this thread, or "" when there
 * was none. Valid until the next dxtext call on this thread. It is the whole
 * message, meant to be shown as it is: it never needs dxt_status_string()
 * before it (that would repeat the status's words, "not a dxtext model: not a
 * dxtext model: ..."), and after a failure it is never empty.
 */
DXT_API const char *dxt_last_error_message(void);

/* ------------------------------------------------------------------------ */
/* Enumerations                                                              */
/* ------------------------------------------------------------------------ */

/** The geometry of a model's embedding space (dxt_model_info.geometry). */
typedef enum dxt_geometry {
  DXT_GEOMETRY_UNKNOWN = 0,
  DXT_GEOMETRY_EUCLIDEAN = 1, /**< Euclidean space */
  DXT_GEOMETRY_POINCARE = 2   /**< the Poincare ball: hyperbolic space */
} dxt_geometry;

typedef enum dxt_quantization {
  DXT_QUANT_UNKNOWN = 0,
  DXT_QUANT_F32 = 1,
  DXT_QUANT_F16 = 2,
  DXT_QUANT_INT8 = 3 /**< int8 with one f32 scale per row */
} dxt_quantization;

/** The mechanisms; docs/guarantees.md states and proves each guarantee. */
typedef enum dxt_mechanism {
  DXT_MECHANISM_UNKNOWN = 0,
  /** z = phi(w) + R*u, R ~ Gamma(n, 1/eps), u uniform on the sphere; output
      the nearest word. eps*d2(w,w') per word (Fernandes et al. 2019). */
  DXT_MECHANISM_LAPLACE = 1,
  /** Poincare models: noise of density ∝ exp(-eps*dH) w.r.t. hyperbolic
      volume, sampled exactly; nearest word in dH. eps*dH(w,w'); needs
      eps > n-1 (Feyisetan, Diethe, Drake 2019). Below that, use
      DXT_MECHANISM_EXPONENTIAL or DXT_MECHANISM_TEM on the same model:
      eps*dH(w,w') for any eps. */
  DXT_MECHANISM_HYPERBOLIC = 2,
  /** Pr[o|w] ∝ exp(-eps*d(w,o)/2) over the vocabulary, in the model's
      geometry (Euclidean or dH). eps*d(w,w') for any eps (SanText, Yue et
      al. 2021). */
  DXT_MECHANISM_EXPONENTIAL = 3,
  /** Exponential mechanism with rating cos(v,w) - s*Dice(bigrams(v),
      bigrams(w)) of range 2+s: eps-DP per word with all words adjacent
      (Weggenmann & Kerschbaum 2018); dxt_syntf builds synthetic bags. */
  DXT_MECHANISM_SYNTF = 4,
  /** z = phi(w) + R * Sigma_l^(1/2) u, Sigma_l = l*Sigma + (1-l)*I:
      eps*||Sigma_l^(-1/2)(x-y)|| (Xu et al. 2020). Needs a covariance. */
  DXT_MECHANISM_MAHALANOBIS = 5,
  /** laplace noise, then the 1st or 2nd nearest word of z with probability
      p = (1-t)d2/(t*d1+(1-t)d2) for the first: as laplace (Xu et al. 2021). */
  DXT_MECHANISM_VICKREY = 6,
  /** Truncated exponential mechanism: words within gamma of w compete with
      one "bottom" candidate standing for all others: eps*d (Carvalho et
      al. 2023). */
  DXT_MECHANISM_TEM = 7,
  /** One of the model's K public orderings of the vocabulary (cycles in
      which neighbours are near words; `dxtext order` adds them) is picked
      uniformly, and the word k places along it released, k two-sided
      geometric: Pr[k] ∝ exp(-eps*|k|), wrapped around the cycle.
      eps*d_ord(w,w') with d_ord the largest distance between w and w' along
      any of the orderings (after 1-Diffractor, Meisenbacher et al. 2024).
      Needs a model with an orderings section; eps is per place along an
      ordering, so its scale is not the Euclidean mechanisms'. */
  DXT_MECHANISM_ORDERING = 8
} dxt_mechanism;

/** The metric d of a release record's bound. */
typedef enum dxt_metric {
  DXT_METRIC_UNKNOWN = 0,
  DXT_METRIC_EUCLIDEAN = 1,   /**< ||phi(w) - phi(w')|| */
  DXT_METRIC_HYPERBOLIC = 2,  /**< Poincare-ball distance */
  DXT_METRIC_MAHALANOBIS = 3, /**< ||Sigma_l^(-1/2)(phi(w) - phi(w'))|| */
  DXT_METRIC_DISCRETE = 4,    /**< 1 for any two distinct words: plain eps-DP */
  /** max over the model's orderings of the number of places between w and
      w' along the cycle (DXT_MECHANISM_ORDERING) */
  DXT_METRIC_ORDERING = 5
} dxt_metric;

/** Samplers of the exponential mechanism. */
typedef enum dxt_exponential_sampler {
  DXT_SAMPLER_DEFAULT = 0,         /**< Gumbel-max */
  DXT_SAMPLER_GUMBEL = 1,          /**< argmax of score + Gumbel noise */
  DXT_SAMPLER_PERMUTE_AND_FLIP = 2 /**< McKenna & Sheldon 2020 */
} dxt_exponential_sampler;

/** How laplace, vickrey and mahalanobis decode a noisy point to a word. Both
    are deterministic functions of the noisy point alone (post-processing), so
    the privacy guarantee is the same; only utility can differ. */
typedef enum dxt_search {
  DXT_SEARCH_EXACT = 0, /**< the exact nearest word: a scan of the whole vocabulary (default) */
  /** approximate: the rows of the ivf_nprobe cells of the model's search
      index whose centroids are nearest the noisy point (docs/format.md §10.2;
      built by `dxtext index`). The word can differ from the exact one; `dxtext
      index` and `dxtext bench --search ivf` print the measured recall. Models
      without an index give DXT_E_UNSUPPORTED, and so do the other mechanisms
      (hyperbolic decodes exactly in hyperbolic distance; exponential, tem and
      syntf rate every word). */
  DXT_SEARCH_IVF = 1
} dxt_search;

typedef enum dxt_rng_mode {
  DXT_RNG_UNKNOWN = 0,
  DXT_RNG_SYSTEM = 1,       /**< OpenSSL RAND_priv_bytes: the private mode */
  DXT_RNG_DETERMINISTIC = 2 /**< AES-256-CTR keyed by a 32-byte seed: NOT
                                 private, for tests and reproducible research */
} dxt_rng_mode;

/** What to do with one class of token. 0 selects the class's default. */
typedef enum dxt_token_policy {
  DXT_POLICY_DEFAULT = 0,
  DXT_POLICY_PRIVATIZE = 1,   /**< replace by the mechanism's output */
  DXT_POLICY_PLACEHOLDER = 2, /**< replace by the placeholder string */
  DXT_POLICY_DROP = 3,        /**< remove the token */
  DXT_POLICY_KEEP = 4         /**< pass through verbatim: a leak (DXT_REVEALS_KEPT_WORDS) */
} dxt_token_policy;

/** What of the input's form a text release copies
    (dxt_privatize_options.release_shape; docs/guarantees.md, "Release
    shapes"). 0 selects keep. */
typedef enum dxt_release_shape {
  DXT_SHAPE_DEFAULT = 0,
  /** the text between words verbatim and each word's case shape (lower,
      Title, UPPER) restored: DXT_REVEALS_LAYOUT, DXT_REVEALS_CASE_SHAPE */
  DXT_SHAPE_KEEP = 1,
  /** words joined by one space; a sentence end between two words (or after
      the last) becomes ". ", any other punctuation ", "; everything else
      between words (whitespace, symbols, quotes, brackets) one space; words
      as the model spells them, the first of each sentence capitalised:
      DXT_REVEALS_SENTENCE_BOUNDARIES, DXT_REVEALS_CLAUSE_BOUNDARIES */
  DXT_SHAPE_NORMALIZE = 2,
  /** words as the model spells them, joined by one space, nothing else: the
      text is a function of the mechanism's draws and the number of tokens
      (and, with a placeholder or drop policy, of which tokens belong to
      that class). A keep policy is refused (DXT_E_INVALID_ARGUMENT). */
  DXT_SHAPE_STRICT = 3
} dxt_release_shape;

/** Token classes; also the row index of dxt_local_diagnostics.counts. */
typedef enum dxt_token_class {
  DXT_CLASS_IN_VOCABULARY = 0,     /**< words of the model's vocabulary */
  DXT_CLASS_OUT_OF_VOCABULARY = 1, /**< words not in it */
  DXT_CLASS_NUMBER = 2,            /**< numbers */
  DXT_CLASS_STOPWORD = 3           /**< stopwords */
} dxt_token_class;
#define DXT_TOKEN_CLASS_COUNT 4
/** Columns of dxt_local_diagnostics.counts: DXT_POLICY_PRIVATIZE..KEEP minus one. */
#define DXT_TOKEN_ACTION_COUNT 4

/** Typed classes (docs/guarantees.md, "Typed replacement"): tokens found to
    be names, places, organisations, health terms (from the lists of the
    model's typed classes section, docs/format.md §10.4) or numbers,
    phone numbers, clock times, e-mail addresses, URLs, user handles and
    street addresses (from their pattern, whatever the model), month names. Bit (1u << class) of
    dxt_release_record.typed_classes. */
typedef enum dxt_typed_class {
  DXT_TYPED_NONE = 0,
  DXT_TYPED_FIRST_NAME = 1,   /**< person's first name: "[name]" */
  DXT_TYPED_SURNAME = 2,      /**< person's surname: "[name]" */
  DXT_TYPED_CITY = 3,         /**< "[city]" */
  DXT_TYPED_REGION = 4,       /**< state, province, region: "[region]" */
  DXT_TYPED_COUNTRY = 5,      /**< "[country]" */
  DXT_TYPED_ORGANIZATION = 6, /**< "[organization]" */
  DXT_TYPED_CONDITION = 7,    /**< disease, illness: "[condition]" */
  DXT_TYPED_DRUG = 8,         /**< drug, medicine: "[drug]" */
  DXT_TYPED_NUMBER = 9,       /**< digits, amounts, dates, versions, ordinals, number words: "[number]" */
  DXT_TYPED_PHONE = 10,       /**< phone number: "[phone]" */
  DXT_TYPED_EMAIL = 11,       /**< e-mail address: "[email]" */
  DXT_TYPED_URL = 12,         /**< URL: "[url]" */
  DXT_TYPED_HANDLE = 13,      /**< user handle, "@name": "[handle]" */
  DXT_TYPED_STREET = 14,      /**< street address, "412 Spring Road, apt 4": "[street]" */
  DXT_TYPED_MONTH = 15,       /**< month name, "October" (part of a date): "[month]" */
  DXT_TYPED_TIME = 16         /**< clock time, "2:08 PM", "14:30", "9am" (its am/pm one token): "[time]" */
} dxt_typed_class;
#define DXT_TYPED_CLASS_COUNT 17

/** Families of typed classes: one policy each (dxt_privatize_options.typed). */
typedef enum dxt_typed_family {
  DXT_FAMILY_NAMES = 0,         /**< first names, surnames */
  DXT_FAMILY_PLACES = 1,        /**< cities, regions, countries */
  DXT_FAMILY_ORGANIZATIONS = 2, /**< organisations */
  DXT_FAMILY_NUMBERS = 3,       /**< numbers of every shape, phone numbers, month names, clock times */
  DXT_FAMILY_ADDRESSES = 4,     /**< e-mail addresses, URLs, user handles, street addresses */
  DXT_FAMILY_HEALTH = 5         /**< conditions, drugs */
} dxt_typed_family;
#define DXT_TYPED_FAMILY_COUNT 6

/** What to do with a token of a typed class. 0 selects privatize. */
typedef enum dxt_typed_policy {
  DXT_TYPED_DEFAULT = 0,
  /** no typed handling: the token is an ordinary word or number, under the
      policy of its dxt_token_class (the behaviour before typed classes) */
  DXT_TYPED_PRIVATIZE = 1,
  /** the class's placeholder ("[name]", "[city]", "[number]", ...): reveals
      the class (DXT_REVEALS_TYPED_CLASSES) */
  DXT_TYPED_PLACEHOLDER = 2,
  /** a member of the same class drawn uniformly by the context's generator:
      members of a class are perfectly indistinguishable, the class is
      revealed (DXT_REVEALS_TYPED_CLASSES; docs/guarantees.md) */
  DXT_TYPED_REPLACE = 3,
  /** verbatim: a named leak (DXT_REVEALS_KEPT_WORDS); refused with the
      strict release shape */
  DXT_TYPED_KEEP = 4,
  /** dropped: the token leaves nothing in any release shape (under keep the
      span before it goes too, so no doubled space marks its place); only
      the number of released words shows that tokens were dropped
      (dxt_release_record.typed_dropped) */
  DXT_TYPED_DROP = 5
} dxt_typed_policy;

/** dxt_privatize_options.negations: what happens to negators ("not",
    "never", "no", "nothing", "nobody", "none", "neither", "nor",
    "nowhere", "without", "cannot", "nope", "nah", and every word ending in
    "n't": docs/guarantees.md, "Negations"). */
typedef enum dxt_negation_policy {
  DXT_NEGATIONS_DEFAULT = 0, /**< privatize */
  /** negators are ordinary words: the mechanism may move them, and may
      release one for any other word */
  DXT_NEGATIONS_PRIVATIZE = 1,
  /** a negator is released as written, and no other word is released as
      one (the output vocabulary leaves negators out), so a release has
      exactly the input's negations: reveals which words are negators and
      which (DXT_REVEALS_NEGATIONS); refused with the strict release shape
      and with syntf */
  DXT_NEGATIONS_KEEP = 2
} dxt_negation_policy;

/** dxt_privatize_options.number_shape: what a replaced number keeps. */
typedef enum dxt_number_shape {
  /** a number becomes a uniform integer in 0..99, a phone number a uniform
      10-digit number written NNN-NNN-NNNN: only the class is revealed */
  DXT_NUMBER_SHAPE_HIDE = 0,
  /** every digit is drawn uniformly and everything else (separators, the
      number of digits in each group, an ordinal suffix) kept: the shape is
      revealed (DXT_TYPED_FLAG_NUMBER_SHAPE) */
  DXT_NUMBER_SHAPE_KEEP = 1
} dxt_number_shape;
/* A replaced clock time (DXT_TYPED_TIME) is a uniform time of day written in
   its input's shape (12- or 24-hour, hour only, minutes or seconds, the
   am/pm spelling) under the keep and normalize release shapes, whatever
   number_shape says; under strict it is a uniform "HH:MM" unless
   number_shape is keep (docs/guarantees.md, "Typed replacement"). */

/* ------------------------------------------------------------------------ */
/* Models                                                                    */
/* ------------------------------------------------------------------------ */

typedef struct dxt_model dxt_model;

/** Verify every section's SHA-256 at open (reads the whole file). */
#define DXT_OPEN_VERIFY_DIGESTS 0x1u
/** Read the whole file (or copy the whole buffer) into memory the model owns
    instead of mapping it: open time and memory grow with the file, and
    nothing done to the file or buffer afterwards (rewriting, truncating,
    freeing) reaches the model. Without it, see "Files that change" below. */
#define DXT_OPEN_PRIVATE_COPY 0x2u

typedef struct dxt_model_open_options {
  uint32_t struct_size;
  uint32_t flags; /**< DXT_OPEN_* bits; 0 = structural validation only */
} dxt_model_open_options;

/** Fill the first @p struct_size bytes of @p options with defaults (see
    "Options structs" above). NULL is a no-op. */
DXT_API void dxt_model_open_options_init_sized(dxt_model_open_options *options, size_t struct_size);
static inline void dxt_model_open_options_init(dxt_model_open_options *options) {
  dxt_model_open_options_init_sized(options, sizeof(*options));
}

/**
 * Open a model file by memory-mapping it. Validates the header and section
 * table; reads no per-word data, so the time does not grow with the file.
 * A path that is not a regular file (a FIFO, a device, a directory) gives
 * DXT_E_IO at once, without waiting for a writer.
 *
 * Files that change (docs/format.md §12.4). A mapped file is read for as
 * long as the model or any of its contexts lives. The application must not
 * write to or truncate it in place meanwhile; to update a model, write a new
 * file and rename() it over the old name (the open model keeps reading the
 * old file). If the file is rewritten in place anyway, dxtext never reads
 * outside the mapping: the words released may be wrong and calls may fail
 * with DXT_E_CORRUPT_MODEL. If it is truncated, the operating system
 * delivers SIGBUS on the next read of a page past the new end, as for any
 * mapped file, which a library cannot catch safely. When the application
 * cannot promise this, open with DXT_OPEN_PRIVATE_COPY.
 * @param[in]  path     file name (UTF-8)
 * @param[in]  options  may be NULL for defaults
 * @param[out] out      the model on success, NULL on failure
 */
DXT_API DXT_NODISCARD dxt_status dxt_model_open_file(const char *path, const dxt_model_open_options *options,
                                                     dxt_model **out);

/**
 * Open a model from a caller's buffer, which must be 8-byte aligned and must
 * stay valid and unchanged until the model and all its contexts are gone
 * (changed bytes are handled as for a file rewritten in place). With
 * DXT_OPEN_PRIVATE_COPY the buffer is copied, may have any alignment, and
 * may be freed as soon as the call returns.
 */
DXT_API DXT_NODISCARD dxt_status dxt_model_open_memory(const void *data, size_t size,
                                                       const dxt_model_open_options *options, dxt_model **out);

/** Release the caller's reference. NULL is a no-op. */
DXT_API void dxt_model_close(dxt_model *model);

/**
 * The path of the default model for @p geometry (dxt_geometry): the file
 * named by the environment variable DXTEXT_MODEL if set, else the newest
 * dxtext-en-euclid-*.dxe (Euclidean) or dxtext-wordnet-poincare-*.dxe
 * (Poincare) in the models directory of the tree the library sits in:
 * <libdir>/models or <prefix>/share/dxtext/models, found relative to the
 * library (or the program it is linked into), so a moved install tree
 * still finds its own; no absolute path is compiled in. A build tree's
 * libraries and programs find the source tree's models/ the same way.
 * DXT_E_NOT_FOUND when there is none.
 * @param[out] required  bytes needed including the NUL (may be NULL);
 * DXT_E_INPUT_TOO_LARGE when @p capacity is too small.
 */
DXT_API DXT_NODISCARD dxt_status dxt_default_model_path(uint32_t geometry, char *buffer, size_t capacity,
                                                        size_t *required);

typedef struct dxt_model_info {
  uint32_t struct_size;
  uint32_t format_major;
  uint32_t format_minor;
  uint32_t dimension;
  uint32_t vocabulary_size;
  uint32_t geometry;     /**< dxt_geometry */
  uint32_t quantization; /**< dxt_quantization */
  bool lowercase;        /**< vocabulary is lowercase; lookups fold case */
  bool has_frequencies;
} dxt_model_info;

/** Fill the first @p struct_size bytes of @p info with defaults (see
    "Options structs" above). NULL is a no-op. */
DXT_API void dxt_model_info_init_sized(dxt_model_info *info, size_t struct_size);
static inline void dxt_model_info_init(dxt_model_info *info) { dxt_model_info_init_sized(info, sizeof(*info)); }
DXT_API DXT_NODISCARD dxt_status dxt_model_get_info(const dxt_model *model, dxt_model_info *info);

/**
 * SHA-256 of the whole model file: the model's fingerprint in release records.
 * Computed on first request (one pass over the file) and cached.
 */
DXT_API DXT_NODISCARD dxt_status dxt_model_fingerprint(const dxt_model *model, uint8_t out[32]);

/** Look @p word up exactly as the text functions do (case folded when the
    vocabulary is lowercase). DXT_E_NOT_FOUND when absent. */
DXT_API DXT_NODISCARD dxt_status dxt_model_lookup(const dxt_model *model, const char *word, size_t length,
                                                  uint32_t *index);

/** The word at @p index: NUL-terminated, pointing into the model. */
DXT_API DXT_NODISCARD dxt_status dxt_model_word(const dxt_model *model, uint32_t index, const char **word,
                                                size_t *length);

/**
 * Exact nearest vocabulary word to @p vector (of the model's dimension) in
 * the model's geometry (for Poincare models, a point inside the unit ball);
 * ties go to the lowest index.
 */
DXT_API DXT_NODISCARD dxt_status dxt_model_nearest(const dxt_model *model, const float *vector, size_t dimension,
                                                   uint32_t *index);

/**
 * The number K of public orderings of the vocabulary in the model
 * (docs/format.md §10.3; `dxtext order` adds them, `dxtext orderings` prints
 * them): 0 for a model without an orderings section. Public data: mapping a
 * released word to its places along the orderings is post-processing and
 * costs no privacy (docs/guarantees.md, "`ordering`", "What it reveals").
 * The first call on a model checks the orderings' permutations (reads
 * 4*K*V bytes once); damaged ones give DXT_E_CORRUPT_MODEL here and in
 * dxt_model_ordering_place.
 * @param[in]  model
 * @param[out] count  K, 0 to 64
 */
DXT_API DXT_NODISCARD dxt_status dxt_model_ordering_count(const dxt_model *model, uint32_t *count);

/**
 * The place of the word at vocabulary @p index along ordering @p ordering
 * (0 <= ordering < K): the p with words[ordering][p] = index in
 * docs/format.md §10.3. The ordering is a cycle: the place after
 * *cycle_length - 1 is 0, and the distance of two words along it is
 * min(|p - q|, cycle_length - |p - q|); the cycle holds the whole
 * vocabulary (cycle_length = V). Without an orderings section
 * DXT_E_UNSUPPORTED (the message names `dxtext order`); @p ordering >= K or
 * @p index >= V give DXT_E_NOT_FOUND.
 * @param[in]  model
 * @param[in]  ordering      0 .. K - 1
 * @param[in]  index         a vocabulary index (dxt_model_lookup)
 * @param[out] place         0 .. cycle_length - 1
 * @param[out] cycle_length  the number of places of the cycle (may be NULL)
 */
DXT_API DXT_NODISCARD dxt_status dxt_model_ordering_place(const dxt_model *model, uint32_t ordering, uint32_t index,
                                                          uint32_t *place, uint32_t *cycle_length);

/* ------------------------------------------------------------------------ */
/* Contexts                                                                  */
/* ------------------------------------------------------------------------ */

typedef struct dxt_context dxt_context;

typedef struct dxt_context_options {
  uint32_t struct_size;
  uint32_t rng_mode; /**< dxt_rng_mode; default DXT_RNG_SYSTEM */
  uint8_t seed[32];  /**< key of the deterministic stream */
} dxt_context_options;

/** Fill the first @p struct_size bytes of @p options with defaults (see
    "Options structs" above). NULL is a no-op. */
DXT_API void dxt_context_options_init_sized(dxt_context_options *options, size_t struct_size);
static inline void dxt_context_options_init(dxt_context_options *options) {
  dxt_context_options_init_sized(options, sizeof(*options));
}

/** Create a context for @p model. @p options may be NULL (system RNG). */
DXT_API DXT_NODISCARD dxt_status dxt_context_create(dxt_model *model, const dxt_context_options *options,
                                                    dxt_context **out);

/** Destroy a context, wiping its random buffer. NULL is a no-op. */
DXT_API void dxt_context_destroy(dxt_context *context);

/* ------------------------------------------------------------------------ */
/* Privatisation                                                             */
/* ------------------------------------------------------------------------ */

/** The range of epsilon that every call accepts. Within it every
    intermediate of every mechanism stays finite (docs/guarantees.md, "The
    range of epsilon"); outside it the arithmetic can overflow and change the
    output law, so such epsilon gives DXT_E_INVALID_EPSILON. The hyperbolic
    mechanism also needs eps > n - 1. */
#define DXT_EPSILON_MIN 1e-6
#define DXT_EPSILON_MAX 1e6
/** DXT_EPSILON_MIN and DXT_EPSILON_MAX of the library actually loaded. */
DXT_API double dxt_epsilon_min(void);
DXT_API double dxt_epsilon_max(void);

/** Which words a mechanism may release (dxt_release_record.output_kind). */
typedef enum dxt_output_kind {
  DXT_OUTPUT_VOCABULARY = 0, /**< the whole vocabulary */
  DXT_OUTPUT_TOP = 1,        /**< the N most frequent words (output_top) */
  DXT_OUTPUT_LIST = 2        /**< a word list of the application (output_set) */
} dxt_output_kind;

/**
 * An output vocabulary: a public set S of the model's words that the
 * mechanisms may release (docs/guarantees.md, "Output vocabularies").
 * Decoding mechanisms (laplace, hyperbolic, mahalanobis, vickrey) release the
 * word of S nearest to the noisy point; exponential, tem and syntf range over
 * S. Every guarantee is unchanged PROVIDED S does not depend on the text being
 * privatised: a set built from the input leaks it. dxtext cannot detect where
 * a set came from; it refuses what it can check.
 * Immutable once created, safe to share across threads and contexts; it
 * holds a reference to its model. Only calls on contexts of that model accept
 * it (DXT_E_INVALID_ARGUMENT otherwise).
 */
typedef struct dxt_output_set dxt_output_set;

/**
 * Build an output set from @p count NUL-terminated UTF-8 words, each looked
 * up as dxt_model_lookup does. Refused with DXT_E_INVALID_ARGUMENT (the
 * message names the entry): count = 0, a NULL word, a word not in the
 * model, a word given twice (or two spellings of one vocabulary word).
 * Free with dxt_output_set_free.
 */
DXT_API DXT_NODISCARD dxt_status dxt_output_set_create(const dxt_model *model, const char *const *words, size_t count,
                                                       dxt_output_set **out);

/** The number of words of @p set (0 for NULL). */
DXT_API uint32_t dxt_output_set_size(const dxt_output_set *set);

/** NULL is a no-op. */
DXT_API void dxt_output_set_free(dxt_output_set *set);

/**
 * Named presets (dxt_privatize_options.preset): each bundles a mechanism,
 * epsilon, release shape, output vocabulary and token policies for a common
 * job. Their values are in tools/options/presets.table (docs/options.md,
 * "Presets", lists them; `dxtext presets` prints them), chosen on the
 * default model models/dxtext-en-euclid-100d-40k.dxe, and may be retuned in
 * later versions: the record of every release says which preset and which
 * values were used. With a preset, an option it fixes may only be left at
 * its default or given the preset's value (anything else is refused), and
 * an epsilon, when given, overrides the preset's. The guarantee of a preset
 * is that of its mechanism and release shape (docs/guarantees.md,
 * "Presets").
 */
typedef enum dxt_preset {
  DXT_PRESET_NONE = 0,     /**< no preset: every option as the caller set it (default) */
  DXT_PRESET_READABLE = 1, /**< text a person will read */
  DXT_PRESET_FEATURES = 2, /**< features for analytics or model training */
  DXT_PRESET_STRONGEST = 3 /**< the strongest privacy of the three */
} dxt_preset;

/** The options of a privatisation call. tools/options/privatize_options.table
    describes them once (name, field, type, default, values; docs/options.md):
    the CLI and every binding take them under the same names. Set them field
    by field after dxt_privatize_options_init, or by name through a
    dxt_options handle ("Options by name" below), which the bindings use. */
typedef struct dxt_privatize_options {
  uint32_t struct_size;
  uint32_t mechanism; /**< dxt_mechanism; default DXT_MECHANISM_LAPLACE */
  double epsilon;     /**< required: in [DXT_EPSILON_MIN, DXT_EPSILON_MAX]; with a preset, 0 = the preset's */
  /** dxt_token_policy per token class (index dxt_token_class). Defaults: privatise
      everything; out-of-vocabulary words are privatised from one fixed point
      shared by all of them (the origin), so they cannot be told apart. */
  uint32_t policy[DXT_TOKEN_CLASS_COUNT];
  /** Replacement for DXT_POLICY_PLACEHOLDER, UTF-8; NULL = "[redacted]". */
  const char *placeholder;
  /* Mechanism parameters; _init sets the defaults given. */
  double tem_gamma;             /**< tem: truncation radius; 0 = from tem_beta */
  double tem_beta;              /**< tem: beta of Carvalho et al. (0.001) */
  double vickrey_t;             /**< vickrey: t in [0, 1] (0.75) */
  double mahalanobis_lambda;    /**< mahalanobis: lambda in [0, 1] (0.75) */
  double syntf_s;               /**< syntf: weight s >= 0 of the bigram term (0.3) */
  uint32_t exponential_sampler; /**< dxt_exponential_sampler (Gumbel) */
  /* Appended with the search index: read only when struct_size covers both
     fields, so a caller compiled against the older struct decodes exactly. */
  uint32_t search;     /**< dxt_search; default DXT_SEARCH_EXACT */
  uint32_t ivf_nprobe; /**< DXT_SEARCH_IVF: cells probed; 0 = the default (docs/performance.md); above K means K */
  /* Appended with the release shapes, in what was the tail padding of the
     struct before them: read only when struct_size also covers output_top
     and output_set; a caller whose struct_size ends before output_set
     gets DXT_SHAPE_KEEP, the earlier behaviour. */
  uint32_t release_shape; /**< dxt_release_shape; default DXT_SHAPE_KEEP */
  /* Appended with output vocabularies (read only when struct_size covers
     both fields): restrict the released words to a public set S. At most one
     of the two may be set. Never build S from the text being privatised. */
  uint32_t output_top;              /**< the N most frequent words of the model; 0 = no limit */
  const dxt_output_set *output_set; /**< a word list (dxt_output_set_create); NULL = none */
  /** Appended with presets (a caller whose struct_size ends before it gets
      DXT_PRESET_NONE): a dxt_preset. When not NONE, the call takes
      mechanism, release_shape, output_top, policy[] and any mechanism
      parameter the preset sets from the preset. A field the caller set to a
      value other than both its _init default and the preset's value, or an
      output_set, is refused with DXT_E_INVALID_ARGUMENT (the message names
      the field and the preset). epsilon 0 takes the preset's epsilon; any
      other epsilon overrides it (and is range-checked as always). A preset
      whose output vocabulary is the N most frequent words needs the model's
      frequencies section (DXT_E_UNSUPPORTED without one); a model with fewer
      than N words is taken whole. Unknown values give
      DXT_E_INVALID_ARGUMENT. */
  uint32_t preset;
  /** Appended with typed classes (read only when struct_size covers
      typed_consistent and number_shape too; a caller whose struct_size ends
      before them gets DXT_TYPED_PRIVATIZE for every family, the earlier
      behaviour): a dxt_typed_policy per dxt_typed_family. A preset fixes
      them as it fixes policy[]. Tokens of a family whose policy is
      privatize are ordinary tokens. Names, places, organisations and health
      terms are found only with a model that has a typed classes section
      (docs/format.md §10.4); numbers, phone numbers, e-mail addresses, URLs
      and handles with any model. */
  uint32_t typed[DXT_TYPED_FAMILY_COUNT];
  /** 1: within one call, equal typed tokens (compared in lower case) get the
      same replacement, so the release shows which of its typed tokens were
      the same entity (DXT_TYPED_FLAG_CONSISTENT); 0 (default): each token
      is drawn afresh. Other values are refused. */
  uint32_t typed_consistent;
  /** dxt_number_shape (default DXT_NUMBER_SHAPE_HIDE). */
  uint32_t number_shape;
  /** Appended with the uniform floor (read only when struct_size covers it;
      0 before): the probability p in [0, 1) with which each privatised word
      is released as a word drawn uniformly from the output vocabulary S
      instead of the mechanism's word. It keeps the mechanism's
      epsilon * d(w, w') and caps the loss per word at
      ln(1 + (1 - p) m |S| / p) nats, m the largest probability the
      mechanism gives one output (docs/guarantees.md, "The uniform floor");
      dxt_release_record.worst_case_per_word states the result. 0: no floor.
      Not with syntf, which is already bounded for any two documents. */
  double uniform_floor;
  /** Appended with negations (read only when struct_size covers it; 0
      before): a dxt_negation_policy. */
  uint32_t negations;
  /** Appended with the context prior (read only when struct_size covers it;
      0 before): its strength B in [0, 1e6], 0 (default) for none. Ordering
      mechanism only, not with the strict release shape, and only with a
      model that has a context prior section (docs/format.md §10.5). After
      the release of a word c, each candidate y's probability is weighted by
      min(1 + B, lift(c, y)), how much more often y follows c in public text
      than elsewhere, and renormalised; c is the word released just before,
      when only spaces or tabs separate them. The loss per word becomes
      epsilon * d(w, w') + min(epsilon * d(w, w'), ln(1 + B)) (at most
      2 epsilon * d), and a floor's cap is taken with m (1 + B) for m
      (docs/guarantees.md, "The context prior"). */
  double context_prior;
} dxt_privatize_options;

/** Fill the first @p struct_size bytes of @p options with defaults (see
    "Options structs" above). NULL is a no-op. */
DXT_API void dxt_privatize_options_init_sized(dxt_privatize_options *options, size_t struct_size);
static inline void dxt_privatize_options_init(dxt_privatize_options *options) {
  dxt_privatize_options_init_sized(options, sizeof(*options));
}

/*
 * Options by name
 *
 * The same options, set by their names in tools/options/privatize_options.table
 * (docs/options.md) instead of by struct field: what the bindings use, so
 * that an option added to the table reaches every binding without code of
 * its own. A dxt_options handle owns a dxt_privatize_options and what its
 * fields point to (the placeholder text, the output word set);
 * dxt_options_get() gives the struct to pass to any call that takes a
 * `const dxt_privatize_options *`. Nothing else of the ABI changes.
 *
 * Names may be written in snake_case (`vickrey_t`), camelCase (`vickreyT`)
 * or kebab-case (`vickrey-t`); error messages quote the name as written.
 * Values are UTF-8 text: numbers in any decimal form that reads back exactly
 * (`0.75`, `7.5e-1`; a uint32 option also takes `20000.0`), enums by name
 * (`permute-and-flip`, in any case, `_` for `-`) or by number, strings as they are. Every value is
 * checked when it is set: an unknown name, an enum name not among the
 * option's values, a number that is not one or is outside the option's range
 * (dxt_option_info.values) give DXT_E_INVALID_ARGUMENT (DXT_E_INVALID_EPSILON
 * for epsilon) with a message that names the option, says what is allowed and
 * suggests the nearest name ("unknown option 'epsilom' (did you mean
 * 'epsilon'?)"); the handle is then unchanged. Checks that need the model or
 * the other options (the hyperbolic bound on epsilon, a mechanism's
 * parameters) happen when a call uses the options, as for the struct.
 *
 * Setting an option twice keeps the last value. A NULL value resets the
 * option to its default (as if never set).
 *
 * `preset` is an option like the others: an option that the preset fixes
 * (docs/options.md, "Presets") may be set only to the preset's value, even
 * when the other value is the option's default (preset "readable" with
 * release_shape "keep" is refused, as on the command line; the struct's
 * field cannot tell a default from "unset" and takes it as unset), and an
 * output word list not at all; the one set second is refused with
 * DXT_E_INVALID_ARGUMENT and a message that names the option as written.
 * epsilon, when set, overrides the preset's.
 *
 * A handle is not safe to modify from two threads at once; the struct it
 * gives may be read by any number of calls at once while it is not modified.
 */

/** An owning set of options (dxt_options_create). */
typedef struct dxt_options dxt_options;

/** The type of an option (dxt_option_info.type). New types may be added. */
typedef enum dxt_option_type {
  DXT_OPTION_TYPE_UNKNOWN = 0,
  DXT_OPTION_TYPE_DOUBLE = 1, /**< a number */
  DXT_OPTION_TYPE_UINT32 = 2, /**< a whole number in [0, 2^32 - 1] */
  DXT_OPTION_TYPE_STRING = 3, /**< UTF-8 text */
  DXT_OPTION_TYPE_ENUM = 4,   /**< one of the names of dxt_option_info.values */
  DXT_OPTION_TYPE_WORDS = 5   /**< a list of the model's words (dxt_options_set_words) */
} dxt_option_type;

/**
 * Create options with every option at its default (dxt_privatize_options_init).
 * @param[in]  model  the model whose words a word-list option names; NULL is
 *                    allowed, and then word-list options are refused. The
 *                    handle keeps the model alive.
 * @param[out] out    the new handle; free with dxt_options_destroy.
 */
DXT_API DXT_NODISCARD dxt_status dxt_options_create(const dxt_model *model, dxt_options **out);

/** Free options and what they own. NULL is a no-op. */
DXT_API void dxt_options_destroy(dxt_options *options);

/**
 * Set one option from its text (see "Options by name" above).
 * @param[in,out] options  the handle
 * @param[in]     name     the option's name, NUL-terminated
 * @param[in]     value    its value as UTF-8 text, NUL-terminated; NULL resets
 *                         the option to its default
 */
DXT_API DXT_NODISCARD dxt_status dxt_options_set(dxt_options *options, const char *name, const char *value);

/**
 * Set a word-list option (type DXT_OPTION_TYPE_WORDS, e.g. output_words)
 * from @p count NUL-terminated UTF-8 words, refused as dxt_output_set_create
 * refuses them. The handle owns the set it builds.
 */
DXT_API DXT_NODISCARD dxt_status dxt_options_set_words(dxt_options *options, const char *name, const char *const *words,
                                                       size_t count);

/** The struct to pass to the privatise, ledger and calibration calls; valid
    until the next dxt_options_set* or dxt_options_destroy on @p options.
    NULL for NULL. */
DXT_API const dxt_privatize_options *dxt_options_get(const dxt_options *options);

/** What the library says of one option (dxt_option_describe). Every string
    is static, UTF-8, and lives as long as the library. */
typedef struct dxt_option_info {
  uint32_t struct_size;      /**< set to sizeof(dxt_option_info) before the call */
  uint32_t kind;             /**< dxt_option_type */
  const char *name;          /**< snake_case, as in docs/options.md */
  const char *type_name;     /**< "double", "uint32", "string", "enum", "words" */
  const char *default_value; /**< as text ("required" for epsilon) */
  /** What is allowed: an enum's names separated by ", "; else the range or
      rule as docs/options.md words it. */
  const char *values;
  const char *meaning; /**< one line for the documentation */
} dxt_option_info;

/** The number of options dxt_option_describe knows. */
DXT_API uint32_t dxt_option_count(void);

/**
 * Describe option @p index (0 .. dxt_option_count() - 1), in the order of
 * docs/options.md. Fills the first @p info->struct_size bytes (at least
 * through `name`) and leaves struct_size as it was.
 */
DXT_API DXT_NODISCARD dxt_status dxt_option_describe(uint32_t index, dxt_option_info *info);

/*
 * Release records and local diagnostics
 *
 * A privatise call can describe itself in two separate structs:
 *
 *   dxt_release_record     what was released and the guarantee it carries:
 *                          mechanism, epsilon, metric, model fingerprint,
 *                          generator mode, the form of the bound, and which
 *                          features of the input the output still shows.
 *                          Every field is a function of the options, the
 *                          model and the generator mode (and, for dxt_syntf,
 *                          of n_out), never of the input: it is safe to send
 *                          beside the released text.
 *   dxt_local_diagnostics  counts of tokens by class and action, words
 *                          privatised, words passed through. These DESCRIBE
 *                          THE INPUT (for example its share of
 *                          out-of-vocabulary words) and no guarantee covers
 *                          them: keep them on the device.
 *
 * Both are optional out-parameters (NULL = not wanted) and follow the
 * struct_size convention above.
 * (ABI change within 0.1.0, no version number bumped: the single dxt_report,
 * which mixed the two, is replaced by these structs, and every privatise call
 * takes one pointer to each.)
 */

/** Which call made a release (dxt_release_record.release). */
typedef enum dxt_release_kind {
  DXT_RELEASE_UNKNOWN = 0,
  DXT_RELEASE_WORD = 1,         /**< dxt_privatize_index, dxt_privatize_word */
  DXT_RELEASE_TEXT = 2,         /**< dxt_privatize_text: words in their order */
  DXT_RELEASE_BAG = 3,          /**< dxt_privatize_bag */
  DXT_RELEASE_SYNTHETIC_BAG = 4 /**< dxt_syntf */
} dxt_release_kind;

/** The form of a release's guarantee (dxt_release_record.bound): for two
    inputs x, x' the probability of any set of outputs changes by at most the
    factor exp(B(x, x')), with d the record's metric and epsilon its epsilon
    (docs/guarantees.md proves each). */
typedef enum dxt_bound {
  DXT_BOUND_UNKNOWN = 0,
  /** one word: B = epsilon * d(w, w') */
  DXT_BOUND_WORD = 1,
  /** ordered text: B = epsilon * sum_i d(x_i, x'_i), the privatised words of
      two texts paired position by position (so texts with the same number
      of them). Texts that differ only in word order are NOT close: the EMD
      bound of bags does not hold for ordered text. */
  DXT_BOUND_POSITIONWISE = 2,
  /** bags of equal size N: B = epsilon * N * EMD_d(b, b') = epsilon * (the
      least sum of d over pairings of the two bags' words) (Fernandes, Dras &
      McIver 2019; proved in docs/guarantees.md). */
  DXT_BOUND_BAG_EMD = 3,
  /** plain DP with any two inputs adjacent: B = epsilon_total (dxt_syntf). */
  DXT_BOUND_ANY_INPUTS = 4
} dxt_bound;

/** Bits of dxt_release_record.reveals: features of the input that the
    output shows as they are. No guarantee covers them. */
/** how many words (bag: occurrences) were not dropped */
#define DXT_REVEALS_WORD_COUNT 0x1u
/** the text between words verbatim: whitespace, punctuation, line and
    sentence boundaries, symbols (it includes the two boundary bits below,
    which are not set beside it) */
#define DXT_REVEALS_LAYOUT 0x2u
/** each word's case shape (lower, Title, UPPER) */
#define DXT_REVEALS_CASE_SHAPE 0x4u
/** which words belong to a class whose policy is placeholder or drop */
#define DXT_REVEALS_TOKEN_CLASSES 0x8u
/** the words of classes whose policy is keep, verbatim */
#define DXT_REVEALS_KEPT_WORDS 0x10u
/** DXT_SHAPE_NORMALIZE: between which words a sentence ends (one of
    . ! ? and their Unicode kin), and whether the text ends with one */
#define DXT_REVEALS_SENTENCE_BOUNDARIES 0x20u
/** DXT_SHAPE_NORMALIZE: between which words, within a sentence, there was
    other punctuation (, ; : dashes, quotes, brackets, ...) */
#define DXT_REVEALS_CLAUSE_BOUNDARIES 0x40u
/** which tokens belong to a typed class (dxt_release_record.typed_classes)
    whose policy is replace or placeholder, and which class */
#define DXT_REVEALS_TYPED_CLASSES 0x80u

/** Bits of dxt_release_record.typed_flags. */
/** equal typed tokens got equal replacements (typed_consistent) */
#define DXT_TYPED_FLAG_CONSISTENT 0x1u
/** replaced numbers and phone numbers kept their shape (number_shape keep) */
#define DXT_TYPED_FLAG_NUMBER_SHAPE 0x2u
/** the input's words themselves: the model's words are so far apart at this
    epsilon that the mechanism returns every word of a fixed sample unchanged
    with probability at least 1 - 1e-9 (laplace, exponential, tem and mahalanobis on Euclidean
    models; docs/guarantees.md, "A mechanism that keeps its input"). The
    record's is_private is then false. */
#define DXT_REVEALS_INPUT_WORDS 0x100u
/** which words are negators, and which negator each is: they are released
    as written (dxt_privatize_options.negations keep) */
#define DXT_REVEALS_NEGATIONS 0x200u

/** What was released and what it guarantees: safe to transmit. */
typedef struct dxt_release_record {
  uint32_t struct_size;
  uint32_t mechanism; /**< dxt_mechanism */
  double epsilon;     /**< per word, per unit of the metric */
  uint32_t metric;    /**< dxt_metric: the distance d of the bound */
  uint32_t rng_mode;  /**< dxt_rng_mode */
  bool is_private;    /**< false when rng_mode is deterministic or DXT_REVEALS_INPUT_WORDS is set */
  bool fingerprint_valid;
  uint8_t model_fingerprint[32]; /**< SHA-256 of the model file */
  uint32_t release;              /**< dxt_release_kind */
  uint32_t bound;                /**< dxt_bound */
  uint32_t reveals;              /**< DXT_REVEALS_* bits */
  /** DXT_BOUND_ANY_INPUTS: the number of draws n_out; 0 otherwise. */
  uint64_t draws;
  /** DXT_BOUND_ANY_INPUTS: epsilon * draws; 0 otherwise. */
  double epsilon_total;
  /** syntf only (0 otherwise): epsilon + ln eta(epsilon, V) <= epsilon, from
      the vocabulary size V (docs/guarantees.md, syntf); it may replace
      epsilon in the bound. */
  double epsilon_vocabulary;
  /* Appended with the release shapes: written only when struct_size
     covers it. */
  uint32_t release_shape; /**< dxt_release_shape of the call (DXT_SHAPE_KEEP by default) */
  /** Appended with output vocabularies: dxt_output_kind of the words the
      mechanism could release, their number (the vocabulary size for
      DXT_OUTPUT_VOCABULARY), and the SHA-256 of those words in vocabulary
      order, each followed by a newline (all zero for the whole
      vocabulary), so a reader can check the set is a public one. */
  uint32_t output_kind;      /**< dxt_output_kind: the words the mechanism could release */
  uint32_t output_size;      /**< how many words those are */
  uint8_t output_digest[32]; /**< SHA-256 of those words (all zero for the whole vocabulary) */
  /** Appended with presets: the dxt_preset the options named
      (DXT_PRESET_NONE when none); the fields above are its resolved values. */
  uint32_t preset; /**< the dxt_preset the options named (DXT_PRESET_NONE when none) */
  /** Appended with typed classes (written only when struct_size covers
      both): bit (1u << dxt_typed_class) for every class whose tokens the
      release replaces by a member of the class or by its placeholder, so
      that it reveals which tokens are of that class; DXT_TYPED_FLAG_* bits. */
  uint32_t
      typed_classes; /**< bit (1u << dxt_typed_class) of each class whose tokens become a member or its placeholder */
  uint32_t typed_flags; /**< DXT_TYPED_FLAG_* bits */
  /** Appended with the uniform floor (written only when struct_size covers
      both): the floor p of the options (0: none), and the largest privacy
      loss, in nats, between any two words of the vocabulary (or the
      out-of-vocabulary point) for one privatised word: min(epsilon * D,
      ln(1 + (1 - p) m |S| / p)), D the largest distance of the metric
      between inputs and m the largest probability of one output
      (docs/guarantees.md, "Worst case per word"). A text of N privatised
      words loses at most N times it. Infinity when no bound is known (a
      metric without a finite diameter and no floor). */
  double uniform_floor;       /**< the floor p of the options (0: none) */
  double worst_case_per_word; /**< the largest loss in nats of one privatised word (infinity: none known) */
  /** Appended with the drop policy of typed classes (written only when
      struct_size covers it): bit (1u << dxt_typed_class) for every class
      whose tokens are dropped (DXT_TYPED_DROP): they leave nothing in the
      output, and only the number of words shows how many there were. */
  uint32_t typed_dropped; /**< bit (1u << dxt_typed_class) of each class whose tokens are dropped */
  /** Appended with the context prior (written only when struct_size covers
      it): the strength B of the options (0: none); worst_case_per_word
      includes it. */
  double context_prior; /**< the strength B of the context prior (0: none) */
} dxt_release_record;

/** Fill the first @p struct_size bytes of @p record with defaults (see
    "Options structs" above). NULL is a no-op. */
DXT_API void dxt_release_record_init_sized(dxt_release_record *record, size_t struct_size);
static inline void dxt_release_record_init(dxt_release_record *record) {
  dxt_release_record_init_sized(record, sizeof(*record));
}

/**
 * Write @p record as one line of JSON into @p buffer (NUL-terminated): its
 * fields, the guarantee in words, and the list of what the output reveals.
 * @param[out] required  bytes needed including the NUL (may be NULL)
 * @return DXT_E_INPUT_TOO_LARGE when @p capacity is too small; then
 * @p required says how much to allocate.
 */
DXT_API DXT_NODISCARD dxt_status dxt_release_record_to_json(const dxt_release_record *record, char *buffer,
                                                            size_t capacity, size_t *required);

/** What a call did to the tokens of its input: describes the input, is
    covered by no guarantee, and is meant to stay on the device. */
typedef struct dxt_local_diagnostics {
  uint32_t struct_size;
  /** counts[class][policy - 1]: tokens of each class handled each way. */
  uint64_t counts[DXT_TOKEN_CLASS_COUNT][DXT_TOKEN_ACTION_COUNT];
  uint64_t words_privatized; /**< noise draws made */
  uint64_t words_leaked;     /**< tokens passed through by a KEEP policy */
} dxt_local_diagnostics;

/** Fill the first @p struct_size bytes of @p diagnostics with defaults (see
    "Options structs" above). NULL is a no-op. */
DXT_API void dxt_local_diagnostics_init_sized(dxt_local_diagnostics *diagnostics, size_t struct_size);
static inline void dxt_local_diagnostics_init(dxt_local_diagnostics *diagnostics) {
  dxt_local_diagnostics_init_sized(diagnostics, sizeof(*diagnostics));
}

/** @p diagnostics as one line of JSON, as dxt_release_record_to_json. */
DXT_API DXT_NODISCARD dxt_status dxt_local_diagnostics_to_json(const dxt_local_diagnostics *diagnostics, char *buffer,
                                                               size_t capacity, size_t *required);

/**
 * Privatise the vocabulary word at @p index: the low-level call, with no
 * tokenisation and no policies.
 * @param[out] out_index    the released word
 * @param[out] record       may be NULL
 * @param[out] diagnostics  may be NULL; describes the input: keep it local
 */
DXT_API DXT_NODISCARD dxt_status dxt_privatize_index(dxt_context *context, const dxt_privatize_options *options,
                                                     uint32_t index, uint32_t *out_index, dxt_release_record *record,
                                                     dxt_local_diagnostics *diagnostics);

/**
 * Privatise one word (UTF-8, not NUL-terminated necessarily). The word is
 * looked up as dxt_model_lookup does; out-of-vocabulary words follow the
 * OUT_OF_VOCABULARY policy. The result is library-owned: free with
 * dxt_text_free. A dropped word yields an empty string.
 */
DXT_API DXT_NODISCARD dxt_status dxt_privatize_word(dxt_context *context, const dxt_privatize_options *options,
                                                    const char *word, size_t length, char **out, size_t *out_length,
                                                    dxt_release_record *record, dxt_local_diagnostics *diagnostics);

/**
 * Privatise UTF-8 text. Words are replaced; what else of the input shows
 * depends on options->release_shape: by default (DXT_SHAPE_KEEP) whitespace
 * and punctuation are kept and the case shape (lower, Title, UPPER) of each
 * word is restored; DXT_SHAPE_NORMALIZE and DXT_SHAPE_STRICT copy less. The
 * record's bound is DXT_BOUND_POSITIONWISE: eps * sum_i d(x_i, x'_i) for
 * texts with the same number of privatised words, in order; not EMD.
 * @param[out] out  NUL-terminated result; free with dxt_text_free
 */
DXT_API DXT_NODISCARD dxt_status dxt_privatize_text(dxt_context *context, const dxt_privatize_options *options,
                                                    const char *text, size_t length, char **out, size_t *out_length,
                                                    dxt_release_record *record, dxt_local_diagnostics *diagnostics);

DXT_API void dxt_text_free(char *text);

/** One entry of a bag of words. */
typedef struct dxt_bag_entry {
  const char *word; /**< UTF-8, need not be NUL-terminated */
  size_t length;
  uint64_t count; /**< 0 entries are ignored */
} dxt_bag_entry;

/** A bag returned by the library: entries merged, sorted by vocabulary index
    (placeholder / kept words after), words NUL-terminated and owned by it. */
typedef struct dxt_bag {
  dxt_bag_entry *entries;
  size_t size;
} dxt_bag;

/** Largest total count accepted by dxt_privatize_bag and dxt_syntf, and the
    largest entry_count (each entry holds a word). */
#define DXT_MAX_BAG_WORDS ((uint64_t)1 << 24)

/**
 * Privatise a bag of words: each of the N = sum of counts occurrences is
 * privatised independently. The record's bound is DXT_BOUND_BAG_EMD:
 * eps*N*EMD(b, b') for bags of equal size N (Fernandes et al.).
 * @param[out] out  free with dxt_bag_free
 */
DXT_API DXT_NODISCARD dxt_status dxt_privatize_bag(dxt_context *context, const dxt_privatize_options *options,
                                                   const dxt_bag_entry *entries, size_t entry_count, dxt_bag **out,
                                                   dxt_release_record *record, dxt_local_diagnostics *diagnostics);

DXT_API void dxt_bag_free(dxt_bag *bag);

/**
 * SynTF (Weggenmann & Kerschbaum 2018): a synthetic bag of exactly
 * @p n_out words. Each output word is drawn by picking a word of the input
 * bag with probability proportional to its count, then replacing it by the
 * SynTF exponential mechanism (options->mechanism is ignored; epsilon and
 * syntf_s are used). Words are looked up as dxt_model_lookup does; an
 * out-of-vocabulary word is rated by its own letter bigrams with cosine 0.
 * Token policies: DXT_POLICY_DROP removes a class of words from the input
 * bag before drawing; PLACEHOLDER and KEEP are refused (DXT_E_UNSUPPORTED),
 * since they would reveal which class the drawn word belongs to.
 * The record's bound is DXT_BOUND_ANY_INPUTS with epsilon_total = eps * n_out
 * (eps-DP per draw, all documents adjacent).
 * @param[in]  n_out  1 .. DXT_MAX_BAG_WORDS
 * @param[in]  entries  counts summing to at most DXT_MAX_BAG_WORDS, at least
 *                      one word left after dropping
 * @param[out] out  sorted by vocabulary index; free with dxt_bag_free
 */
DXT_API DXT_NODISCARD dxt_status dxt_syntf(dxt_context *context, const dxt_privatize_options *options,
                                           const dxt_bag_entry *entries, size_t entry_count, uint32_t n_out,
                                           dxt_bag **out, dxt_release_record *record,
                                           dxt_local_diagnostics *diagnostics);

/** Plausible-deniability statistics (Feyisetan et al. 2020) of a mechanism
    at one epsilon, over a sample of vocabulary words. */
typedef struct dxt_calibration {
  uint32_t struct_size;
  uint32_t words;  /**< words sampled */
  uint32_t trials; /**< privatisations per word */
  /** N_w: fraction of trials in which w came back unchanged. */
  double keep_mean, keep_median, keep_max;
  /** S_w: number of distinct outputs in the trials. */
  double distinct_mean, distinct_median, distinct_max;
} dxt_calibration;

/** Fill the first @p struct_size bytes of @p calibration with defaults (see
    "Options structs" above). NULL is a no-op. */
DXT_API void dxt_calibration_init_sized(dxt_calibration *calibration, size_t struct_size);
static inline void dxt_calibration_init(dxt_calibration *calibration) {
  dxt_calibration_init_sized(calibration, sizeof(*calibration));
}

/**
 * Estimate N_w and S_w: @p words words of the output vocabulary of @p options
 * (the words they can release, so the only ones they can keep; the whole
 * vocabulary without one) chosen uniformly at random (without replacement)
 * with the context's generator, each privatised @p trials times with
 * @p options.
 */
DXT_API DXT_NODISCARD dxt_status dxt_calibrate(dxt_context *context, const dxt_privatize_options *options,
                                               uint32_t words, uint32_t trials, dxt_calibration *out);

/* ------------------------------------------------------------------------ */
/* Privacy ledger                                                            */
/* ------------------------------------------------------------------------ */

/*
 * A ledger adds up what one user (or any scope the app names) has released,
 * refuses a release that would pass a cap before any noise is drawn, and
 * memoises releases so that the same input released again gives the same
 * output and costs nothing (docs/budgets.md; the proof in docs/guarantees.md,
 * "Composition and the ledger").
 *
 * Budget unit: epsilon, summed over releases. A release whose bound is
 * WORD, POSITIONWISE or BAG_EMD costs its epsilon (the coefficient of the
 * distance in its bound); an ANY_INPUTS release (syntf) costs its
 * epsilon_total. A scope whose spent total is E guarantees, for two
 * histories of releases whose inputs are pairwise at distance at most D (in
 * each release's own bound), the factor exp(E_metric * D + E_any_inputs).
 *
 * The file holds, per scope: the cap, one entry per release (mechanism,
 * epsilon, metric, release kind, bound, cost, word count), and, only when
 * the ledger is opened with an app key, a bounded memo of outputs keyed by
 * HMAC-SHA-256 of the input under that key; inputs are never stored. Every
 * change is written to a temporary file, synced, renamed over the ledger and
 * the directory synced, under an exclusive lock on FILE.lock, FILE being
 * the path with its symbolic links resolved (a link to a ledger is that
 * ledger; a file with two hard names is refused), so a crash leaves the
 * last committed state and processes sharing the file are serialised. Only
 * a regular file is read; a failed commit (a full disk, a file size limit)
 * is a status and leaves no temporary file behind. An HMAC over the whole file
 * detects corruption and edits (DXT_E_LEDGER_CORRUPT); without an app key
 * (dxt_ledger_options.key), anyone who can rewrite the file can also
 * recompute that MAC (docs/budgets.md, "Tamper evidence").
 *
 * A ledger can also live in the caller's storage instead of a file
 * (dxt_ledger_open_memory, dxt_ledger_save): the same bytes, MAC, budget,
 * refusal and memo, with persistence, crash safety and concurrency left to
 * the caller under the contract stated there. WebAssembly builds have only
 * that form: dxt_ledger_open gives DXT_E_UNSUPPORTED there.
 */
typedef struct dxt_ledger dxt_ledger;

/**
 * Rollback. A file holds no proof of its own age: a copy saved earlier and
 * put back (or the file deleted, and made anew by the next open) passes
 * every check of the file and hands back the budget spent since. The app
 * detects that with an anchor kept where the file's writer cannot change it
 * (the platform keystore, a server, a directory the user cannot write): read
 * it with dxt_ledger_get_anchor after every call that returns DXT_OK, store
 * it, and give it back in dxt_ledger_options.anchor at the next open. The
 * anchor binds the ledger and its whole history (every scope made, cap set
 * and release recorded, in order) by a hash chain. A handle opened with an
 * anchor, and every handle after its first call, refuses with
 * DXT_E_LEDGER_ROLLBACK a file whose history does not begin with the
 * anchor's: an older copy, one spent otherwise since (even to the same
 * count and total), another ledger, or a file made anew. Without an anchor
 * kept outside it, a rollback is not detected (docs/budgets.md, "Rollback").
 */
typedef struct dxt_ledger_anchor {
  uint32_t struct_size;
  /** the first 16 bytes of the head of the hash chain over the ledger's
      first `commits` events, started from its secret (and app key): no
      other history and no other ledger has it */
  uint8_t ledger_id[16];
  /** events in the ledger's history (scopes made, caps set, releases); only
      grows */
  uint64_t commits;
  /** epsilon spent by those events, over all scopes; only grows */
  double spent;
} dxt_ledger_anchor;

DXT_API void dxt_ledger_anchor_init_sized(dxt_ledger_anchor *anchor, size_t struct_size);
static inline void dxt_ledger_anchor_init(dxt_ledger_anchor *anchor) {
  dxt_ledger_anchor_init_sized(anchor, sizeof(*anchor));
}

/** The bytes of an anchor as an app stores it: ledger_id, then commits and
    the bits of spent (IEEE 754 binary64), each little-endian. */
#define DXT_LEDGER_ANCHOR_BYTES 32u

/** Write @p anchor as the DXT_LEDGER_ANCHOR_BYTES bytes to store into @p out
    (@p capacity at least that); DXT_E_INVALID_ARGUMENT otherwise. The same
    bytes in every binding and on every platform. */
DXT_API DXT_NODISCARD dxt_status dxt_ledger_anchor_encode(const dxt_ledger_anchor *anchor, uint8_t *out,
                                                          size_t capacity);

/** Read into @p anchor (dxt_ledger_anchor_init'ed by the call) the bytes
    dxt_ledger_anchor_encode wrote; DXT_E_INVALID_ARGUMENT for any other
    length, or a spent total that is negative or not finite. */
DXT_API DXT_NODISCARD dxt_status dxt_ledger_anchor_decode(const uint8_t *bytes, size_t length,
                                                          dxt_ledger_anchor *anchor);

/** Default and largest number of memoised outputs per scope. */
#define DXT_LEDGER_MEMO_DEFAULT 64u
#define DXT_LEDGER_MEMO_MAX 4096u

typedef struct dxt_ledger_options {
  uint32_t struct_size;
  /** The cap of a scope that does not exist yet, in the budget unit above;
      finite and >= 0 (default 0: nothing may be released until
      dxt_ledger_set_cap). An existing scope keeps its cap. */
  double cap;
  /** Memoised outputs kept for a new scope (default DXT_LEDGER_MEMO_DEFAULT,
      at most DXT_LEDGER_MEMO_MAX; 0 turns memoisation off); the least
      recently used entry is evicted first. */
  uint32_t memo_capacity;
  /** Optional app key (NULL = none), 16 to 64 bytes, e.g. from the platform
      keystore: mixed into the file's MAC and the memo keys, so that whoever
      can write the file but lacks the key cannot forge it. A file made with
      a key can only be opened with it. Without a key nothing is memoised:
      the memo secret would be in the file, and a memo would let whoever
      reads it test guesses of past inputs. */
  const uint8_t *key;
  size_t key_length;
  /** The anchor stored after the last call on this ledger (see "Rollback");
      NULL = none, and a rollback before the first call is not detected. With
      an anchor, a missing file is a rollback, not a new ledger. */
  const dxt_ledger_anchor *anchor;
} dxt_ledger_options;

/** Fill the first @p struct_size bytes of @p options with defaults (see
    "Options structs" above). NULL is a no-op. */
DXT_API void dxt_ledger_options_init_sized(dxt_ledger_options *options, size_t struct_size);
static inline void dxt_ledger_options_init(dxt_ledger_options *options) {
  dxt_ledger_options_init_sized(options, sizeof(*options));
}

/**
 * Open (and create, if absent) the ledger file @p path and select @p scope in
 * it (a UTF-8 name of 1 to 255 bytes, e.g. a user id). Creating writes the
 * file with a fresh random secret.
 * @param[in] options  NULL = defaults
 * @return DXT_E_LEDGER_CORRUPT for a damaged or edited file, or one made
 * with a different app key; DXT_E_IO when it cannot be read or written;
 * DXT_E_UNSUPPORTED on WebAssembly (use dxt_ledger_open_memory).
 */
DXT_API DXT_NODISCARD dxt_status dxt_ledger_open(const char *path, const char *scope, const dxt_ledger_options *options,
                                                 dxt_ledger **out);
DXT_API void dxt_ledger_close(dxt_ledger *ledger);

/**
 * Open a ledger kept in the caller's storage rather than in a file (browsers,
 * WebAssembly, an app with its own database), and select @p scope in it as
 * dxt_ledger_open does. @p bytes are what dxt_ledger_save gave before (the
 * bytes of a ledger file: either form opens the other's), or NULL with
 * @p length 0 for a new ledger with a fresh random secret. The MAC is
 * checked here and by every later call. The handle then holds the state;
 * every other ledger call works on it unchanged.
 *
 * The caller's part of the contract (docs/budgets.md, "A ledger in the
 * caller's storage"):
 * - Durability: after dxt_ledger_open_memory, dxt_ledger_set_cap and every
 *   dxt_ledger_privatize_text that returns DXT_OK, take the new bytes with
 *   dxt_ledger_save and store them, replacing the old ones in one atomic
 *   write, BEFORE the output is sent or shown. If storing fails, discard
 *   the output. (A memoised repeat changes only the eviction order: storing
 *   after it is optional.) A crash before the store loses a release that
 *   was never sent; a crash after it, one that was paid for.
 * - Concurrency: a handle is a private copy of the state. Two handles
 *   opened from the same bytes (two tabs, two workers, two processes) do not
 *   see each other's releases, and the one stored last overwrites the
 *   other: the cap then no longer holds. Keep one writer: serialise the
 *   load-call-store sequence under a lock (navigator.locks in a browser)
 *   and open the handle from the stored bytes inside it, or keep a single
 *   handle in a single thread or worker.
 * @param[in] options  NULL = defaults (cap and memo capacity of a new scope, app key)
 * @return DXT_E_LEDGER_CORRUPT for damaged or edited bytes, or ones made
 * with a different app key.
 */
DXT_API DXT_NODISCARD dxt_status dxt_ledger_open_memory(const uint8_t *bytes, size_t length, const char *scope,
                                                        const dxt_ledger_options *options, dxt_ledger **out);

/**
 * The state of a ledger opened with dxt_ledger_open_memory, as the bytes to
 * store: @p capacity bytes of @p buffer are written (no terminator). As
 * dxt_release_record_to_json for the size query.
 * @param[out] required  the number of bytes of the state (may be NULL)
 * @return DXT_E_INPUT_TOO_LARGE when @p capacity is too small;
 * DXT_E_INVALID_ARGUMENT for a file ledger (its file is its bytes).
 */
DXT_API DXT_NODISCARD dxt_status dxt_ledger_save(dxt_ledger *ledger, uint8_t *buffer, size_t capacity,
                                                 size_t *required);

/** Set the scope's cap (finite, >= 0). Lowering it below what is spent
    refuses every further release that costs anything. This is the only
    call that changes the cap of an existing scope: opening it with another
    dxt_ledger_options.cap leaves its cap as it is, in every interface. */
DXT_API DXT_NODISCARD dxt_status dxt_ledger_set_cap(dxt_ledger *ledger, double cap);

/** Flags of dxt_ledger_privatize_text. */
/** draw anew (and spend) even when the input is memoised; the new output
    replaces the memoised one */
#define DXT_LEDGER_FRESH 0x1u

/**
 * dxt_privatize_text through the ledger. If the ledger was opened with an
 * app key and the same text (under DXT_SHAPE_STRICT: the same words as
 * strict releases them) with the same resolved options (every mechanism
 * parameter, the output vocabulary, the policies, placeholder and release
 * shape), model, generator mode and seed, and library version is memoised
 * in the scope (and
 * DXT_LEDGER_FRESH is not set), its stored output is returned, nothing is
 * drawn or spent, and @p diagnostics (if given) are all zero. Otherwise the
 * cost (options->epsilon) is checked against the cap before anything is
 * drawn: DXT_E_BUDGET_EXCEEDED leaves the context's generator untouched. A
 * release is committed to the file before it is returned; if that fails the
 * output is discarded and the status says why. DXT_E_INPUT_TOO_LARGE, before
 * any draw, when the release could take the file past its size limit
 * (docs/budgets.md); DXT_E_LEDGER_ROLLBACK when the file is older than the
 * handle's anchor.
 * @param[out] memoised  may be NULL; true when the output came from the memo
 */
DXT_API DXT_NODISCARD dxt_status dxt_ledger_privatize_text(dxt_ledger *ledger, dxt_context *context,
                                                           const dxt_privatize_options *options, const char *text,
                                                           size_t length, uint32_t flags, char **out,
                                                           size_t *out_length, bool *memoised,
                                                           dxt_release_record *record,
                                                           dxt_local_diagnostics *diagnostics);

/** The scope's totals, read from the file. */
typedef struct dxt_ledger_totals {
  uint32_t struct_size;
  double cap;
  double spent;            /**< sum of the costs of all releases */
  double spent_any_inputs; /**< the part of spent from ANY_INPUTS releases */
  uint64_t releases;       /**< releases counted (memoised repeats are not) */
  uint64_t memoised;       /**< outputs in the memo now */
  uint32_t memo_capacity;
  uint64_t words; /**< words privatised over all releases */
} dxt_ledger_totals;

DXT_API void dxt_ledger_totals_init_sized(dxt_ledger_totals *totals, size_t struct_size);
static inline void dxt_ledger_totals_init(dxt_ledger_totals *totals) {
  dxt_ledger_totals_init_sized(totals, sizeof(*totals));
}

DXT_API DXT_NODISCARD dxt_status dxt_ledger_get_totals(dxt_ledger *ledger, dxt_ledger_totals *totals);

/**
 * The ledger's anchor now (see "Rollback"), read from the file and checked
 * against the handle's last one: store it after every call that returns
 * DXT_OK, replacing the one stored before.
 * @return DXT_E_LEDGER_ROLLBACK when the file is older than the handle's anchor.
 */
DXT_API DXT_NODISCARD dxt_status dxt_ledger_get_anchor(dxt_ledger *ledger, dxt_ledger_anchor *anchor);

/**
 * The scope as one line of JSON: scope, budget unit, cap, spent, remaining,
 * releases, memoised entries, the spent epsilon per metric and the composed
 * guarantee in words. As dxt_release_record_to_json for the buffer.
 */
DXT_API DXT_NODISCARD dxt_status dxt_ledger_to_json(dxt_ledger *ledger, char *buffer, size_t capacity,
                                                    size_t *required);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* DXTEXT_H */
