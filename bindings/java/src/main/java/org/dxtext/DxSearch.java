// SPDX-License-Identifier: Apache-2.0
package org.dxtext;

/** How laplace, vickrey and mahalanobis decode a noisy point ({@code dxt_search}). */
public enum DxSearch {
  /** The exact nearest word (the default). */
  EXACT(0),
  /**
   * The model's search index ({@code dxtext index}): approximate, faster on
   * large vocabularies; the library refuses it for models without one.
   */
  IVF(1);

  final int code;

  DxSearch(int code) {
    this.code = code;
  }
}
