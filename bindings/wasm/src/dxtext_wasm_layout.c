/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the JavaScript wrapper needs to know about the public structs, taken
 * from the compiler rather than written by hand: each field's offset and each
 * struct's size in this (wasm32) build, and the struct's _init call. Only
 * the WebAssembly module exports these two functions; they are not part of
 * the C ABI.
 */
#include <stddef.h>
#include <string.h>

#include "dxtext/dxtext.h"

#define DXTW_STRUCT(type) \
  { #type, "sizeof", sizeof(type) }
#define DXTW_FIELD(type, field) \
  { #type, #field, offsetof(type, field) }

static const struct {
  const char *type;
  const char *field;
  size_t value;
} kLayout[] = {
    DXTW_STRUCT(dxt_model_open_options),
    DXTW_FIELD(dxt_model_open_options, flags),
    DXTW_STRUCT(dxt_model_info),
    DXTW_FIELD(dxt_model_info, format_major),
    DXTW_FIELD(dxt_model_info, format_minor),
    DXTW_FIELD(dxt_model_info, dimension),
    DXTW_FIELD(dxt_model_info, vocabulary_size),
    DXTW_FIELD(dxt_model_info, geometry),
    DXTW_FIELD(dxt_model_info, quantization),
    DXTW_FIELD(dxt_model_info, lowercase),
    DXTW_FIELD(dxt_model_info, has_frequencies),
    DXTW_STRUCT(dxt_context_options),
    DXTW_FIELD(dxt_context_options, rng_mode),
    DXTW_FIELD(dxt_context_options, seed),
    DXTW_STRUCT(dxt_release_record),
    DXTW_FIELD(dxt_release_record, release),
    DXTW_FIELD(dxt_release_record, mechanism),
    DXTW_FIELD(dxt_release_record, epsilon),
    DXTW_FIELD(dxt_release_record, metric),
    DXTW_FIELD(dxt_release_record, rng_mode),
    DXTW_FIELD(dxt_release_record, is_private),
    DXTW_FIELD(dxt_release_record, fingerprint_valid),
    DXTW_FIELD(dxt_release_record, model_fingerprint),
    DXTW_FIELD(dxt_release_record, bound),
    DXTW_FIELD(dxt_release_record, reveals),
    DXTW_FIELD(dxt_release_record, draws),
    DXTW_FIELD(dxt_release_record, epsilon_total),
    DXTW_FIELD(dxt_release_record, epsilon_vocabulary),
    DXTW_FIELD(dxt_release_record, release_shape),
    DXTW_FIELD(dxt_release_record, output_kind),
    DXTW_FIELD(dxt_release_record, output_size),
    DXTW_FIELD(dxt_release_record, output_digest),
    DXTW_FIELD(dxt_release_record, preset),
    DXTW_STRUCT(dxt_local_diagnostics),
    DXTW_FIELD(dxt_local_diagnostics, counts),
    DXTW_FIELD(dxt_local_diagnostics, words_privatized),
    DXTW_FIELD(dxt_local_diagnostics, words_leaked),
    DXTW_STRUCT(dxt_bag_entry),
    DXTW_FIELD(dxt_bag_entry, word),
    DXTW_FIELD(dxt_bag_entry, length),
    DXTW_FIELD(dxt_bag_entry, count),
    DXTW_STRUCT(dxt_bag),
    DXTW_FIELD(dxt_bag, entries),
    DXTW_FIELD(dxt_bag, size),
    DXTW_STRUCT(dxt_calibration),
    DXTW_FIELD(dxt_calibration, words),
    DXTW_FIELD(dxt_calibration, trials),
    DXTW_FIELD(dxt_calibration, keep_mean),
    DXTW_FIELD(dxt_calibration, keep_median),
    DXTW_FIELD(dxt_calibration, keep_max),
    DXTW_FIELD(dxt_calibration, distinct_mean),
    DXTW_FIELD(dxt_calibration, distinct_median),
    DXTW_FIELD(dxt_calibration, distinct_max),
    DXTW_STRUCT(dxt_ledger_options),
    DXTW_FIELD(dxt_ledger_options, cap),
    DXTW_FIELD(dxt_ledger_options, memo_capacity),
    DXTW_FIELD(dxt_ledger_options, key),
    DXTW_FIELD(dxt_ledger_options, key_length),
    DXTW_FIELD(dxt_ledger_options, anchor),
    DXTW_STRUCT(dxt_ledger_anchor),
    DXTW_STRUCT(dxt_ledger_totals),
    DXTW_FIELD(dxt_ledger_totals, cap),
    DXTW_FIELD(dxt_ledger_totals, spent),
    DXTW_FIELD(dxt_ledger_totals, spent_any_inputs),
    DXTW_FIELD(dxt_ledger_totals, releases),
    DXTW_FIELD(dxt_ledger_totals, memoised),
    DXTW_FIELD(dxt_ledger_totals, memo_capacity),
    DXTW_FIELD(dxt_ledger_totals, words),
};

/**
 * @param[in] type   a struct name, e.g. "dxt_release_record"
 * @param[in] field  a field name, or "sizeof" for the struct's size
 * @return the offset or size in bytes, or -1 when the pair is unknown
 */
long dxtwasm_layout(const char *type, const char *field) {
  size_t i;
  if (type == NULL || field == NULL) return -1;
  for (i = 0; i < sizeof kLayout / sizeof kLayout[0]; ++i)
    if (strcmp(kLayout[i].type, type) == 0 && strcmp(kLayout[i].field, field) == 0) return (long)kLayout[i].value;
  return -1;
}

/**
 * Fill the struct at @p memory (of dxtwasm_layout(type, "sizeof") bytes)
 * with its _init function. @return 0, or -1 for a type without one.
 */
int dxtwasm_init(const char *type, void *memory) {
  if (type == NULL || memory == NULL) return -1;
  if (strcmp(type, "dxt_model_open_options") == 0)
    dxt_model_open_options_init(memory);
  else if (strcmp(type, "dxt_model_info") == 0)
    dxt_model_info_init(memory);
  else if (strcmp(type, "dxt_context_options") == 0)
    dxt_context_options_init(memory);
  else if (strcmp(type, "dxt_release_record") == 0)
    dxt_release_record_init(memory);
  else if (strcmp(type, "dxt_local_diagnostics") == 0)
    dxt_local_diagnostics_init(memory);
  else if (strcmp(type, "dxt_calibration") == 0)
    dxt_calibration_init(memory);
  else if (strcmp(type, "dxt_ledger_options") == 0)
    dxt_ledger_options_init(memory);
  else if (strcmp(type, "dxt_ledger_totals") == 0)
    dxt_ledger_totals_init(memory);
  else if (strcmp(type, "dxt_ledger_anchor") == 0)
    dxt_ledger_anchor_init(memory);
  else
    return -1;
  return 0;
}
