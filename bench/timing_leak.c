/* SPDX-License-Identifier: Apache-2.0 */
/* A dudect-style timing test (Reparaz, Balasch & Verbauwhede 2017): does the
   time of a privatise call depend on which input word was given, when the
   output word is the same?

   Usage: timing_leak MODEL.dxe [CALLS_PER_CLASS] [EPSILON]

   For each mechanism the model supports, two input words A and B (two
   vocabulary words of equal byte length, so the lookup does the same work)
   are privatised CALLS_PER_CLASS times each, in random interleaved order, on
   one context. Among the calls whose output was the word W that both
   inputs produced most often, the times of A-calls and B-calls are compared
   with Welch's t statistic, on all samples and on those below the pooled
   50th and 90th percentiles (cropping the long tail of interrupts and
   preemption, as dudect does). |t| > 4.5 is dudect's threshold for "the
   time depends on the class"; below it no dependence was detected with this
   many samples. A third row compares an in-vocabulary word with an
   out-of-vocabulary one of the same length (no condition on the output).

   Not a test: the numbers depend on the machine and its load. Results and
   conclusions are recorded in docs/limitations.md. */
#define _POSIX_C_SOURCE 199309L
#include <dxtext/dxtext.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
  double time;
  int cls;
  uint32_t out;
} sample;

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return 1e9 * (double)t.tv_sec + (double)t.tv_nsec;
}

static int by_time(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Welch's t of the two classes among samples with time <= limit (and, when
   out_filter is not UINT32_MAX, output == out_filter). */
static double welch_t(const sample *s, size_t n, uint32_t out_filter, double limit, size_t *na_out, size_t *nb_out) {
  double sum[2] = {0, 0}, sq[2] = {0, 0}, cnt[2] = {0, 0};
  size_t i;
  for (i = 0; i < n; ++i) {
    if (out_filter != UINT32_MAX && s[i].out != out_filter) continue;
    if (s[i].time > limit) continue;
    sum[s[i].cls] += s[i].time;
    sq[s[i].cls] += s[i].time * s[i].time;
    cnt[s[i].cls] += 1;
  }
  *na_out = (size_t)cnt[0];
  *nb_out = (size_t)cnt[1];
  if (cnt[0] < 2 || cnt[1] < 2) return NAN;
  {
    const double ma = sum[0] / cnt[0], mb = sum[1] / cnt[1];
    const double va = (sq[0] - cnt[0] * ma * ma) / (cnt[0] - 1), vb = (sq[1] - cnt[1] * mb * mb) / (cnt[1] - 1);
    return (ma - mb) / sqrt(va / cnt[0] + vb / cnt[1]);
  }
}

static double percentile(const sample *s, size_t n, uint32_t out_filter, double p) {
  double *t = malloc(n * sizeof *t), v;
  size_t i, k = 0;
  if (t == NULL) exit(1);
  for (i = 0; i < n; ++i)
    if (out_filter == UINT32_MAX || s[i].out == out_filter) t[k++] = s[i].time;
  if (k == 0) {
    free(t);
    return 0;
  }
  qsort(t, k, sizeof *t, by_time);
  v = t[(size_t)(p * (double)(k - 1))];
  free(t);
  return v;
}

/* xorshift64: only to shuffle the order of the classes. */
static uint64_t shuffle_state = 0x9E3779B97F4A7C15ull;
static int coin(void) {
  shuffle_state ^= shuffle_state << 13;
  shuffle_state ^= shuffle_state >> 7;
  shuffle_state ^= shuffle_state << 17;
  return (int)(shuffle_state >> 63);
}

static void report(const char *label, const char *a, const char *b, const sample *s, size_t n, uint32_t w,
                   const char *wname) {
  size_t na, nb, na50, nb50, na90, nb90;
  const double t = welch_t(s, n, w, INFINITY, &na, &nb);
  const double t50 = welch_t(s, n, w, percentile(s, n, w, 0.5), &na50, &nb50);
  const double t90 = welch_t(s, n, w, percentile(s, n, w, 0.9), &na90, &nb90);
  printf("%-12s %-14s %-14s %-14s %8zu %8zu %8.2f %8.2f %8.2f %9.0f\n", label, a, b, wname, na, nb, t, t50, t90,
         percentile(s, n, w, 0.5));
}

/* 2*calls privatisations of words[0] (class 0) and words[1] (class 1) in
   random order; the output is recorded as a vocabulary index (UINT32_MAX
   when it is not a vocabulary word). */
static int run(dxt_model *model, dxt_context *ctx, const dxt_privatize_options *o, const char *words[2], size_t calls,
               sample *s) {
  size_t i, k[2] = {0, 0};
  for (i = 0; i < 2 * calls; ++i) {
    int cls = coin();
    char *out = NULL;
    size_t len = 0;
    double t0, t1;
    uint32_t idx = UINT32_MAX;
    if (k[cls] == calls) cls = 1 - cls;
    ++k[cls];
    t0 = now_ns();
    if (dxt_privatize_word(ctx, o, words[cls], strlen(words[cls]), &out, &len, NULL, NULL) != DXT_OK) {
      fprintf(stderr, "privatize_word: %s\n", dxt_last_error_message());
      return 1;
    }
    t1 = now_ns();
    s[i].time = t1 - t0;
    s[i].cls = cls;
    if (dxt_model_lookup(model, out, len, &idx) != DXT_OK) idx = UINT32_MAX;
    s[i].out = idx;
    dxt_text_free(out);
  }
  return 0;
}

/* The output both classes produced most often: argmax of min(count_A, count_B). */
static uint32_t common_output(const sample *s, size_t n, uint32_t vocabulary) {
  size_t *c = calloc(2 * (size_t)vocabulary, sizeof *c), i, best = 0;
  uint32_t w, arg = UINT32_MAX;
  if (c == NULL) exit(1);
  for (i = 0; i < n; ++i)
    if (s[i].out < vocabulary) ++c[2 * (size_t)s[i].out + (size_t)s[i].cls];
  for (w = 0; w < vocabulary; ++w) {
    const size_t m = c[2 * (size_t)w] < c[2 * (size_t)w + 1] ? c[2 * (size_t)w] : c[2 * (size_t)w + 1];
    if (m > best) best = m, arg = w;
  }
  free(c);
  return arg;
}

/* Two vocabulary words of the same byte length: index 0's word and the next
   one of its length. */
static int pick_words(dxt_model *model, uint32_t vocabulary, const char *words[2]) {
  uint32_t i, j;
  for (i = 0; i < vocabulary; ++i) {
    size_t li = 0;
    const char *wi = NULL;
    if (dxt_model_word(model, i, &wi, &li) != DXT_OK || li < 3) continue;
    for (j = vocabulary - 1; j > i; --j) {
      size_t lj = 0;
      const char *wj = NULL;
      if (dxt_model_word(model, j, &wj, &lj) == DXT_OK && lj == li) {
        words[0] = wi;
        words[1] = wj;
        return 0;
      }
    }
  }
  return 1;
}

int main(int argc, char **argv) {
  static const struct {
    const char *name;
    uint32_t id;
    int poincare;
  } mechanisms[] = {{"laplace", DXT_MECHANISM_LAPLACE, 0},
                    {"hyperbolic", DXT_MECHANISM_HYPERBOLIC, 1},
                    {"exponential", DXT_MECHANISM_EXPONENTIAL, -1},
                    {"pf", DXT_MECHANISM_EXPONENTIAL, -1},
                    {"syntf", DXT_MECHANISM_SYNTF, -1},
                    {"mahalanobis", DXT_MECHANISM_MAHALANOBIS, 0},
                    {"vickrey", DXT_MECHANISM_VICKREY, 0},
                    {"tem", DXT_MECHANISM_TEM, -1}};
  dxt_model *model = NULL;
  dxt_context *ctx = NULL;
  dxt_model_info info;
  const char *words[2];
  char oov[64];
  size_t calls = argc > 2 ? (size_t)strtoull(argv[2], NULL, 10) : 20000, m;
  sample *s;
  if (argc < 2) return fprintf(stderr, "usage: %s MODEL.dxe [CALLS_PER_CLASS] [EPSILON]\n", argv[0]), 2;
  if (dxt_model_open_file(argv[1], NULL, &model) != DXT_OK || dxt_context_create(model, NULL, &ctx) != DXT_OK)
    return fprintf(stderr, "%s\n", dxt_last_error_message()), 1;
  dxt_model_info_init(&info);
  if (dxt_model_get_info(model, &info) != DXT_OK) return 1;
  if (pick_words(model, info.vocabulary_size, words) != 0) return fprintf(stderr, "no two words of one length\n"), 1;
  s = malloc(2 * calls * sizeof *s);
  if (s == NULL) return 1;
  printf("model %s: %u words, %u dimensions; %zu calls per class\n", argv[1], info.vocabulary_size, info.dimension,
         calls);
  printf("%-12s %-14s %-14s %-14s %8s %8s %8s %8s %8s %9s\n", "mechanism", "A", "B", "output W", "n_A|W", "n_B|W", "t",
         "t<p50", "t<p90", "median ns");
  for (m = 0; m < sizeof mechanisms / sizeof mechanisms[0]; ++m) {
    dxt_privatize_options o;
    uint32_t w;
    const char *wname = NULL;
    size_t wl = 0;
    const int poincare = info.geometry == DXT_GEOMETRY_POINCARE;
    if (mechanisms[m].poincare >= 0 && mechanisms[m].poincare != poincare) continue;
    dxt_privatize_options_init(&o);
    o.mechanism = mechanisms[m].id;
    if (strcmp(mechanisms[m].name, "pf") == 0) o.exponential_sampler = DXT_SAMPLER_PERMUTE_AND_FLIP;
    o.epsilon = argc > 3 ? atof(argv[3]) : (poincare ? info.dimension + 1.0 : 2.0);
    if (run(model, ctx, &o, words, calls, s) != 0) {
      /* e.g. mahalanobis on a model without a covariance section */
      continue;
    }
    w = common_output(s, 2 * calls, info.vocabulary_size);
    if (w == UINT32_MAX || dxt_model_word(model, w, &wname, &wl) != DXT_OK) {
      printf("%-12s no common output\n", mechanisms[m].name);
      continue;
    }
    report(mechanisms[m].name, words[0], words[1], s, 2 * calls, w, wname);
    /* In-vocabulary A against an unknown word of the same length. */
    memset(oov, 'q', sizeof oov);
    oov[strlen(words[0]) < sizeof oov ? strlen(words[0]) : sizeof oov - 1] = '\0';
    {
      const char *pair[2];
      pair[0] = words[0];
      pair[1] = oov;
      if (run(model, ctx, &o, pair, calls, s) == 0)
        report(mechanisms[m].name, words[0], oov, s, 2 * calls, UINT32_MAX, "(any)");
    }
  }
  free(s);
  dxt_context_destroy(ctx);
  dxt_model_close(model);
  return 0;
}
