/* SPDX-License-Identifier: Apache-2.0 */
/* Compiled with -std=c99 -Wall -Wextra -Wpedantic -Werror: the public header
   must be plain C99, and its calls must behave from C. */
#include <stdio.h>
#include <string.h>

#include "dxtext/dxtext.h"

#define EXPECT(cond)                                                     \
  do {                                                                   \
    if (!(cond)) {                                                       \
      fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__, #cond); \
      return 1;                                                          \
    }                                                                    \
  } while (0)

int main(void) {
  dxt_model *model = NULL;
  dxt_model_open_options options;
  dxt_privatize_options popts;
  dxt_release_record record;
  dxt_local_diagnostics diagnostics;
  static const unsigned char garbage[64] = {1, 2, 3};
  dxt_status s;

  EXPECT(dxt_version_number() == DXT_VERSION_NUMBER);
  EXPECT(strlen(dxt_version_string()) > 0);
  EXPECT(dxt_abi_version() == DXT_ABI_VERSION);
  EXPECT(strcmp(dxt_status_string(DXT_OK), "ok") == 0);

  dxt_model_open_options_init(&options);
  EXPECT(options.struct_size == sizeof options);
  s = dxt_model_open_file("/nonexistent/model.dxe", &options, &model);
  EXPECT(s == DXT_E_IO);
  EXPECT(model == NULL);
  EXPECT(strlen(dxt_last_error_message()) > 0);

  s = dxt_model_open_memory(garbage, sizeof garbage, NULL, &model);
  EXPECT(s == DXT_E_NOT_A_MODEL);

  dxt_privatize_options_init(&popts);
  EXPECT(popts.mechanism == DXT_MECHANISM_LAPLACE);
  EXPECT(popts.struct_size == sizeof popts);
  dxt_release_record_init(&record);
  EXPECT(record.struct_size == sizeof record);
  dxt_local_diagnostics_init(&diagnostics);
  EXPECT(diagnostics.struct_size == sizeof diagnostics);
  EXPECT(dxt_epsilon_min() == DXT_EPSILON_MIN && dxt_epsilon_max() == DXT_EPSILON_MAX);

  /* A caller built against an older, 16-byte dxt_privatize_options: the
     library fills those 16 bytes and writes nothing after them. */
  {
    union {
      dxt_privatize_options options;
      unsigned char bytes[sizeof(dxt_privatize_options) + 16];
    } old;
    size_t i;
    memset(&old, 0xA5, sizeof old);
    dxt_privatize_options_init_sized(&old.options, 16);
    EXPECT(old.options.struct_size == 16);
    EXPECT(old.options.mechanism == DXT_MECHANISM_LAPLACE);
    for (i = 16; i < sizeof old.bytes; ++i) EXPECT(old.bytes[i] == 0xA5);
    /* ... and a newer, larger one gets its unknown tail zeroed. */
    dxt_privatize_options_init_sized(&old.options, sizeof old.bytes);
    EXPECT(old.options.struct_size == sizeof old.bytes);
    for (i = sizeof(dxt_privatize_options); i < sizeof old.bytes; ++i) EXPECT(old.bytes[i] == 0);
  }

  dxt_model_close(NULL);
  dxt_context_destroy(NULL);
  dxt_text_free(NULL);
  dxt_bag_free(NULL);
  puts("header C99 test passed");
  return 0;
}
