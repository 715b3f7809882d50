// SPDX-License-Identifier: Apache-2.0
package org.dxtext;

/**
 * Named presets ({@code dxt_preset}): each sets the mechanism, epsilon, release shape, output
 * vocabulary and token policies for a common job. Their values are in
 * tools/options/presets.table (docs/options.md, "Presets"). With a preset, an option it fixes may
 * only be left unset or given the preset's value (the library refuses anything else), and an
 * epsilon, when given, overrides the preset's.
 */
public enum DxPreset {
  /** No preset: every option as set (the default). */
  NONE(0),
  /** Text a person will read. */
  READABLE(1),
  /** Features for analytics or model training. */
  FEATURES(2),
  /** The strongest privacy of the three. */
  STRONGEST(3);

  final int code;

  DxPreset(int code) {
    this.code = code;
  }

  static DxPreset of(int code) {
    for (DxPreset p : values()) {
      if (p.code == code) {
        return p;
      }
    }
    return NONE;
  }
}
