// SPDX-License-Identifier: Apache-2.0
package org.dxtext;

/** The sampler of the exponential mechanism ({@code dxt_exponential_sampler}). */
public enum DxSampler {
  /** Gumbel-max (the default). */
  GUMBEL(1),
  /** Permute-and-flip (McKenna and Sheldon 2020). */
  PERMUTE_AND_FLIP(2);

  final int code;

  DxSampler(int code) {
    this.code = code;
  }
}
