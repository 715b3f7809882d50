// SPDX-License-Identifier: Apache-2.0
package org.dxtext;

/** What of the input's form a text release copies ({@code dxt_release_shape}). */
public enum DxReleaseShape {
  /** The text between words and each word's case shape, verbatim (the default). */
  KEEP(1),
  /** One canonical mark per gap ('.', ',' or a space), sentence capitals. */
  NORMALIZE(2),
  /** The words alone, one space apart; refuses a keep policy. */
  STRICT(3);

  final int code;

  DxReleaseShape(int code) {
    this.code = code;
  }

  static DxReleaseShape of(int code) {
    for (DxReleaseShape s : values()) {
      if (s.code == code) {
        return s;
      }
    }
    return KEEP;
  }
}
