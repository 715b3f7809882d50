// SPDX-License-Identifier: Apache-2.0
package org.dxtext;

/** The status codes of the C API ({@code dxt_status}), with their numbers. */
public enum DxStatus {
  OK(0),
  INVALID_ARGUMENT(1),
  INVALID_EPSILON(2),
  IO(3),
  NOT_A_MODEL(4),
  UNSUPPORTED_VERSION(5),
  CORRUPT_MODEL(6),
  TRUNCATED_MODEL(7),
  DIGEST_MISMATCH(8),
  OUT_OF_MEMORY(9),
  RNG_FAILURE(10),
  INVALID_UTF8(11),
  NOT_FOUND(12),
  UNSUPPORTED(13),
  INPUT_TOO_LARGE(14),
  PARSE(15),
  INTERNAL(16),
  /** Another thread is inside a call on the same privatizer; nothing was done. */
  CONTEXT_BUSY(17),
  /** A ledger refused the release: it would pass the scope's cap. Nothing was drawn or spent. */
  BUDGET_EXCEEDED(18),
  /** The ledger file fails its MAC or format checks; it is left as it is. */
  LEDGER_CORRUPT(19),
  /**
   * The ledger file is older than the anchor the app kept for it (an earlier copy was put back,
   * or the file was deleted or replaced); nothing was drawn or released. See {@link DxLedgerAnchor}.
   */
  LEDGER_ROLLBACK(20),
  /** A status this binding does not know (a newer library). */
  UNKNOWN(-1);

  private final int code;

  DxStatus(int code) {
    this.code = code;
  }

  /** The numeric {@code dxt_status}. */
  public int code() {
    return code;
  }

  static DxStatus of(int code) {
    for (DxStatus s : values()) {
      if (s.code == code) {
        return s;
      }
    }
    return UNKNOWN;
  }

  /** True for the statuses that say a model file or buffer is unusable. */
  public boolean isModelError() {
    return this == NOT_A_MODEL
        || this == UNSUPPORTED_VERSION
        || this == CORRUPT_MODEL
        || this == TRUNCATED_MODEL
        || this == DIGEST_MISMATCH;
  }
}
