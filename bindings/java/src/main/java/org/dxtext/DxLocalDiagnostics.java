// SPDX-License-Identifier: Apache-2.0
package org.dxtext;

import java.nio.charset.StandardCharsets;

/**
 * What a call did to the tokens of its input. These numbers DESCRIBE THE INPUT (for example its
 * share of out-of-vocabulary words) and no guarantee covers them: keep them on the device.
 */
public final class DxLocalDiagnostics {
  // Layout of the array the native code fills.
  static final int COUNTS = 0, WORDS_PRIVATIZED = 16, WORDS_LEAKED = 17, LENGTH = 18;

  private final double[] values;
  private final String json;

  DxLocalDiagnostics(double[] values, byte[] json) {
    this.values = values.clone();
    this.json = new String(json, StandardCharsets.UTF_8);
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
