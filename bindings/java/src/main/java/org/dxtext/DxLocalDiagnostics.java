// SPDX-License-Identifier: Apache-2.0
package org.dxtext;

/**
 * What a call did to the tokens of its input. These numbers DESCRIBE THE INPUT (for example its
 * share of out-of-vocabulary words) and no guarantee covers them: keep them on the device.
 */
public final class DxLocalDiagnostics {
  // Layout of the array the native code fills.
  static final int COUNTS = 0, WORDS_PRIVATIZED = 16, WORDS_LEAKED = 17;

  private final double[] values;
  private final String json;

  private DxLocalDiagnostics(double[] values, byte[] json) {
    this.values = values;
    this.json = DxNative.string(json);
  }

  /** The diagnostics in what a call filled (DxNative.reports), or null when it was not asked for them. */
  static DxLocalDiagnostics of(Object[] reports) {
    return reports.length < 5 ? null : new DxLocalDiagnostics((double[]) reports[3], (byte[]) reports[4]);
  }

  /** Tokens of a class handled by a policy. */
  public long getCount(DxTokenClass tokenClass, DxPolicy policy) {
    return (long) values[COUNTS + 4 * tokenClass.ordinal() + policy.code - 1];
  }

  /** The number of noise draws made. */
  public long getWordsPrivatized() {
    return (long) values[WORDS_PRIVATIZED];
  }

  /** Tokens passed through verbatim by a KEEP policy. */
  public long getWordsLeaked() {
    return (long) values[WORDS_LEAKED];
  }

  /** As one line of JSON (dxt_local_diagnostics_to_json). */
  public String toJson() {
    return json;
  }

  @Override
  public String toString() {
    return json;
  }
}
