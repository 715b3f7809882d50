// SPDX-License-Identifier: Apache-2.0
package org.dxtext;

/** The mechanisms; docs/guarantees.md states and proves each guarantee. */
public enum DxMechanism {
  /** Multivariate Laplace noise, nearest word: eps * d2(w, w') per word. */
  LAPLACE(1),
  /** The same in the Poincare ball (Poincare models, eps > n - 1). */
  HYPERBOLIC(2),
  /** Pr[o|w] proportional to exp(-eps * d(w, o) / 2). */
  EXPONENTIAL(3),
  /** The SynTF rating of Weggenmann and Kerschbaum; plain eps-DP per word. */
  SYNTF(4),
  /** Laplace noise shaped by the embedding covariance. */
  MAHALANOBIS(5),
  /** Laplace noise, then the first or second nearest word. */
  VICKREY(6),
  /** Truncated exponential mechanism. */
  TEM(7),
  /** A few places along one of the model's public orderings of the vocabulary. */
  ORDERING(8);

  final int code;

  DxMechanism(int code) {
    this.code = code;
  }

  static DxMechanism of(int code) {
    for (DxMechanism m : values()) {
      if (m.code == code) {
        return m;
      }
    }
    return null;
  }
}
