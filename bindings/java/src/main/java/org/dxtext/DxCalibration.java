// SPDX-License-Identifier: Apache-2.0
package org.dxtext;

/**
 * Plausible-deniability statistics of a mechanism at one epsilon (Feyisetan
 * et al. 2020): N_w, how often a word survives, and S_w, how many distinct
 * words it becomes, over a sample of vocabulary words.
 */
public final class DxCalibration {
  public final int words;
  public final int trials;
  public final double keepMean, keepMedian, keepMax;
  public final double distinctMean, distinctMedian, distinctMax;

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
}
