// SPDX-License-Identifier: Apache-2.0
package org.dxtext;

/** Facts about a model. */
public final class DxModelInfo {
  /** The geometry of the embedding space. */
  public enum Geometry {
    UNKNOWN,
    EUCLIDEAN,
    POINCARE
  }

  public final int formatMajor;
  public final int formatMinor;
  public final int dimension;
  public final int vocabularySize;
  public final Geometry geometry;
  /** The vocabulary is lowercase; lookups fold case. */
  public final boolean lowercase;
  public final boolean hasFrequencies;

  DxModelInfo(int[] v) {
    formatMajor = v[0];
    formatMinor = v[1];
    dimension = v[2];
    vocabularySize = v[3];
    geometry = v[4] >= 0 && v[4] < Geometry.values().length ? Geometry.values()[v[4]] : Geometry.UNKNOWN;
    lowercase = v[6] != 0;
    hasFrequencies = v[7] != 0;
  }
}
