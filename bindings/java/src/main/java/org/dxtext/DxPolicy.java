// SPDX-License-Identifier: Apache-2.0
package org.dxtext;

/** What to do with one class of token. */
public enum DxPolicy {
  /** Replace by the mechanism's output (the default). */
  PRIVATIZE(1),
  /** Replace by the placeholder string. */
  PLACEHOLDER(2),
  /** Remove the token. */
  DROP(3),
  /** Pass it through verbatim: reported as a leak. */
  KEEP(4);

  final int code;

  DxPolicy(int code) {
    this.code = code;
  }
}
