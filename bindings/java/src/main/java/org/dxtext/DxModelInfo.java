// SPDX-License-Identifier: Apache-2.0
package org.dxtext;

/** Facts about a model ({@code dxt_model_info}). */
public final class DxModelInfo {
  // generated: fields (tools/options/generate.py, from include/dxtext/dxtext.h)
  /**
   * The geometry of a model's embedding space (dxt_model_info.geometry). The C API's {@code
   * dxt_geometry}.
   */
  public enum Geometry {
    UNKNOWN,
    /** Euclidean space. */
    EUCLIDEAN,
    /** The Poincare ball: hyperbolic space. */
    POINCARE
  }

  /** The C API's {@code dxt_quantization}. */
  public enum Quantization {
    UNKNOWN,
    F32,
    F16,
    /** int8 with one f32 scale per row. */
    INT8
  }

  public final int formatMajor;
  public final int formatMinor;
  public final int dimension;
  public final int vocabularySize;
  public final Geometry geometry;
  public final Quantization quantization;
  /** Vocabulary is lowercase; lookups fold case. */
  public final boolean lowercase;
  public final boolean hasFrequencies;

  DxModelInfo(double[] v) {
    formatMajor = (int) v[0];
    formatMinor = (int) v[1];
    dimension = (int) v[2];
    vocabularySize = (int) v[3];
    geometry = v[4] < Geometry.values().length ? Geometry.values()[(int) v[4]] : Geometry.UNKNOWN;
    quantization = v[5] < Quantization.values().length ? Quantization.values()[(int) v[5]]
        : Quantization.UNKNOWN;
    lowercase = v[6] != 0;
    hasFrequencies = v[7] != 0;
  }
  // generated: end fields
}
