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
 *   dxt_context  random-number state and scratch space. One per thread; a
 *                context must not be used by two threads at the same time.
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
 *   Each options or report struct starts with `uint32_t struct_size`. Fill it
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
#define DXT_FORMAT_VERSION_MINOR 2

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
  DXT_OK = 0,
  DXT_E_INVALID_ARGUMENT = 1,    /**< NULL pointer, bad option, bad struct_size */
  DXT_E_INVALID_EPSILON = 2,     /**< epsilon not finite, <= 0 or below a bound */
  DXT_E_IO = 3,                  /**< a file could not be opened, read or written */
  DXT_E_NOT_A_MODEL = 4,         /**< bad magic: not a .dxe file */
  DXT_E_UNSUPPORTED_VERSION = 5, /**< unknown major format version */
  DXT_E_CORRUPT_MODEL = 6,       /**< a field of the model fails validation */
  DXT_E_TRUNCATED_MODEL = 7,     /**< the model is shorter than it says */
  DXT_E_DIGEST_MISMATCH = 8,     /**< a stored SHA-256 digest does not match */
  DXT_E_OUT_OF_MEMORY = 9,
  DXT_E_RNG_FAILURE = 10,     /**< the random generator failed; no output */
  DXT_E_INVALID_UTF8 = 11,    /**< input text is not valid UTF-8 */
  DXT_E_NOT_FOUND = 12,       /**< word or index not in the vocabulary */
  DXT_E_UNSUPPORTED = 13,     /**< mechanism/geometry/option not supported */
  DXT_E_INPUT_TOO_LARGE = 14, /**< a count or size exceeds a documented limit */
  DXT_E_PARSE = 15,           /**< malformed input to a converter */
  DXT_E_INTERNAL = 16         /**< a bug in dxtext; please report it */
};

/** @return a static, never-NULL English description of @p status. */
DXT_API const char *dxt_status_string(dxt_status status);

/**
 * @return the detailed message of the last failed call on this thread, or ""
 * when there was none. Valid until the next dxtext call on this thread.
 */
DXT_API const char *dxt_last_error_message(void);

/* ------------------------------------------------------------------------ */
/* Enumerations                                                              */
/* ------------------------------------------------------------------------ */

typedef enum dxt_geometry {
  DXT_GEOMETRY_UNKNOWN = 0,
  DXT_GEOMETRY_EUCLIDEAN = 1,
  DXT_GEOMETRY_POINCARE = 2
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
      eps > n-1 (Feyisetan, Diethe, Drake 2019). */
  DXT_MECHANISM_HYPERBOLIC = 2,
  /** Pr[o|w] ∝ exp(-eps*d(w,o)/2) over the vocabulary, in the model's
      geometry. eps*d(w,w') (SanText, Yue et al. 2021). */
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
  DXT_MECHANISM_TEM = 7
} dxt_mechanism;

/** The metric d of a report's guarantee eps*d. */
typedef enum dxt_metric {
  DXT_METRIC_UNKNOWN = 0,
  DXT_METRIC_EUCLIDEAN = 1,   /**< ||phi(w) - phi(w')|| */
  DXT_METRIC_HYPERBOLIC = 2,  /**< Poincare-ball distance */
  DXT_METRIC_MAHALANOBIS = 3, /**< ||Sigma_l^(-1/2)(phi(w) - phi(w'))|| */
  DXT_METRIC_DISCRETE = 4     /**< 1 for any two distinct words: plain eps-DP */
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
  DXT_POLICY_KEEP = 4         /**< pass through verbatim: a reported leak */
} dxt_token_policy;

/** Token classes; also the row index of dxt_report.counts. */
typedef enum dxt_token_class {
  DXT_CLASS_IN_VOCABULARY = 0,
  DXT_CLASS_OUT_OF_VOCABULARY = 1,
  DXT_CLASS_NUMBER = 2,
  DXT_CLASS_STOPWORD = 3
} dxt_token_class;
#define DXT_TOKEN_CLASS_COUNT 4
/** Columns of dxt_report.counts: DXT_POLICY_PRIVATIZE..KEEP minus one. */
#define DXT_TOKEN_ACTION_COUNT 4

/* ------------------------------------------------------------------------ */
/* Models                                                                    */
/* ------------------------------------------------------------------------ */

typedef struct dxt_model dxt_model;

/** Verify every section's SHA-256 at open (reads the whole file). */
#define DXT_OPEN_VERIFY_DIGESTS 0x1u

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
 * @param[in]  path     file name (UTF-8)
 * @param[in]  options  may be NULL for defaults
 * @param[out] out      the model on success, NULL on failure
 */
DXT_API DXT_NODISCARD dxt_status dxt_model_open_file(const char *path, const dxt_model_open_options *options,
                                                     dxt_model **out);

/**
 * Open a model from a caller's buffer, which must be 8-byte aligned and must
 * stay valid and unchanged until the model and all its contexts are gone.
 */
DXT_API DXT_NODISCARD dxt_status dxt_model_open_memory(const void *data, size_t size,
                                                       const dxt_model_open_options *options, dxt_model **out);

/** Release the caller's reference. NULL is a no-op. */
DXT_API void dxt_model_close(dxt_model *model);

/**
 * The path of the default model for @p geometry (dxt_geometry): the file
 * named by the environment variable DXTEXT_MODEL if set, else the newest
 * dxtext-en-euclid-*.dxe (Euclidean) or dxtext-wordnet-poincare-*.dxe
 * (Poincare) in the installed models directory, then in the source tree's
 * models/ directory. DXT_E_NOT_FOUND when there is none.
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
 * SHA-256 of the whole model file: the model's fingerprint in reports.
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

typedef struct dxt_privatize_options {
  uint32_t struct_size;
  uint32_t mechanism; /**< dxt_mechanism; default DXT_MECHANISM_LAPLACE */
  double epsilon;     /**< required: finite and > 0 */
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
} dxt_privatize_options;

/** Fill the first @p struct_size bytes of @p options with defaults (see
    "Options structs" above). NULL is a no-op. */
DXT_API void dxt_privatize_options_init_sized(dxt_privatize_options *options, size_t struct_size);
static inline void dxt_privatize_options_init(dxt_privatize_options *options) {
  dxt_privatize_options_init_sized(options, sizeof(*options));
}

/** What a call did and what it guarantees. */
typedef struct dxt_report {
  uint32_t struct_size;
  uint32_t mechanism; /**< dxt_mechanism */
  double epsilon;
  uint32_t metric;   /**< dxt_metric: the distance d in eps*d */
  uint32_t rng_mode; /**< dxt_rng_mode */
  bool is_private;   /**< false when rng_mode is deterministic */
  bool fingerprint_valid;
  uint8_t model_fingerprint[32];
  /** counts[class][policy - 1]: tokens of each class handled each way. */
  uint64_t counts[DXT_TOKEN_CLASS_COUNT][DXT_TOKEN_ACTION_COUNT];
  uint64_t words_privatized; /**< N: noise draws made */
  uint64_t words_leaked;     /**< tokens passed through by a KEEP policy */
  /** Per word: outputs for inputs w, w' differ by at most this * d(w,w'). */
  double epsilon_per_unit_distance;
  /** For the bag/text as a whole: this * EMD(b, b') for bags of equal size
      N = words_privatized (Fernandes et al. 2019, Thm. 2); for dxt_syntf,
      plain DP with all documents adjacent: eps * n_out. (The exact loss of
      a SynTF vocabulary, often smaller, is computed offline by
      `dxtext account syntf`.) */
  double epsilon_document;
  /** SynTF only (dxt_syntf and per-word syntf calls; 0 otherwise): the
      tighter bound (eps + ln eta(eps, V)) * words_privatized for a
      vocabulary of V words, plain DP with all documents adjacent
      (docs/guarantees.md, syntf). Never larger than epsilon_document. */
  double epsilon_document_vocabulary;
} dxt_report;

/** Fill the first @p struct_size bytes of @p report with defaults (see
    "Options structs" above). NULL is a no-op. */
DXT_API void dxt_report_init_sized(dxt_report *report, size_t struct_size);
static inline void dxt_report_init(dxt_report *report) { dxt_report_init_sized(report, sizeof(*report)); }

/**
 * Write @p report as one line of JSON into @p buffer (NUL-terminated).
 * @param[out] required  bytes needed including the NUL (may be NULL)
 * @return DXT_E_INPUT_TOO_LARGE when @p capacity is too small; then
 * @p required says how much to allocate.
 */
DXT_API DXT_NODISCARD dxt_status dxt_report_to_json(const dxt_report *report, char *buffer, size_t capacity,
                                                    size_t *required);

/**
 * Privatise the vocabulary word at @p index: the low-level call, with no
 * tokenisation and no policies.
 * @param[out] out_index  the released word
 * @param[out] report     may be NULL
 */
DXT_API DXT_NODISCARD dxt_status dxt_privatize_index(dxt_context *context, const dxt_privatize_options *options,
                                                     uint32_t index, uint32_t *out_index, dxt_report *report);

/**
 * Privatise one word (UTF-8, not NUL-terminated necessarily). The word is
 * looked up as dxt_model_lookup does; out-of-vocabulary words follow the
 * OUT_OF_VOCABULARY policy. The result is library-owned: free with
 * dxt_text_free. A dropped word yields an empty string.
 */
DXT_API DXT_NODISCARD dxt_status dxt_privatize_word(dxt_context *context, const dxt_privatize_options *options,
                                                    const char *word, size_t length, char **out, size_t *out_length,
                                                    dxt_report *report);

/**
 * Privatise UTF-8 text. Words are replaced, whitespace and punctuation are
 * kept, the case shape (lower, Title, UPPER) of each word is restored.
 * @param[out] out  NUL-terminated result; free with dxt_text_free
 */
DXT_API DXT_NODISCARD dxt_status dxt_privatize_text(dxt_context *context, const dxt_privatize_options *options,
                                                    const char *text, size_t length, char **out, size_t *out_length,
                                                    dxt_report *report);

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

/** Largest total count accepted by dxt_privatize_bag. */
#define DXT_MAX_BAG_WORDS ((uint64_t)1 << 24)

/**
 * Privatise a bag of words: each of the N = sum of counts occurrences is
 * privatised independently. The report gives eps*N*EMD (Fernandes et al.).
 * @param[out] out  free with dxt_bag_free
 */
DXT_API DXT_NODISCARD dxt_status dxt_privatize_bag(dxt_context *context, const dxt_privatize_options *options,
                                                   const dxt_bag_entry *entries, size_t entry_count, dxt_bag **out,
                                                   dxt_report *report);

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
 * The report gives eps * n_out (eps-DP per draw, all documents adjacent).
 * @param[in]  n_out  1 .. DXT_MAX_BAG_WORDS
 * @param[in]  entries  counts summing to at most DXT_MAX_BAG_WORDS, at least
 *                      one word left after dropping
 * @param[out] out  sorted by vocabulary index; free with dxt_bag_free
 */
DXT_API DXT_NODISCARD dxt_status dxt_syntf(dxt_context *context, const dxt_privatize_options *options,
                                           const dxt_bag_entry *entries, size_t entry_count, uint32_t n_out,
                                           dxt_bag **out, dxt_report *report);

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
 * Estimate N_w and S_w: @p words vocabulary words chosen uniformly at random
 * (without replacement) with the context's generator, each privatised
 * @p trials times with @p options.
 */
DXT_API DXT_NODISCARD dxt_status dxt_calibrate(dxt_context *context, const dxt_privatize_options *options,
                                               uint32_t words, uint32_t trials, dxt_calibration *out);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* DXTEXT_H */
