// SPDX-License-Identifier: Apache-2.0
package org.dxtext;

/** Classes of token; each has its own {@link DxPolicy}. */
public enum DxTokenClass {
  IN_VOCABULARY,
  OUT_OF_VOCABULARY,
  NUMBER,
  STOPWORD
}
