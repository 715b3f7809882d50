// SPDX-License-Identifier: Apache-2.0
package org.dxtext;

/**
 * Plausible-deniability statistics of a mechanism at one epsilon (Feyisetan
 * et al. 2020): N_w, how often a word survives, and S_w, how many distinct
 * words it becomes, over a sample of vocabulary words ({@code dxt_calibration}).
 */
public final class DxCalibration {
  // generated: fields (tools/options/generate.py, from include/dxtext/dxtext.h)
  /** Words sampled. */
  public final int words;
  /** Privatisations per word. */
  public final int trials;
  /** N_w: fraction of trials in which w came back unchanged. */
  public final double keepMean;
  /** N_w: fraction of trials in which w came back unchanged. */
  public final double keepMedian;
  /** N_w: fraction of trials in which w came back unchanged. */
  public final double keepMax;
  /** S_w: number of distinct outputs in the trials. */
  public final double distinctMean;
  /** S_w: number of distinct outputs in the trials. */
  public final double distinctMedian;
  /** S_w: number of distinct outputs in the trials. */
  public final double distinctMax;

  DxCalibration(double[] v) {
    words = (int) v[0];
    trials = (int) v[1];
    keepMean = v[2];
    keepMedian = v[3];
    keepMax = v[4];
    distinctMean = v[5];
    distinctMedian = v[6];
    distinctMax = v[7];
  }
  // generated: end fields
}
