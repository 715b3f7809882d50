// SPDX-License-Identifier: Apache-2.0
package org.dxtext;

/** What {@link DxLedger#privatizeText} returns. */
public final class DxLedgerRelease {
  private final String text;
  private final boolean memoised;
  private final DxReleaseRecord record;

  DxLedgerRelease(String text, boolean memoised, DxReleaseRecord record) {
    this.text = text;
    this.memoised = memoised;
    this.record = record;
  }

  public String getText() {
    return text;
  }

  /** True when the output came from the memo: nothing was drawn or spent. */
  public boolean isMemoised() {
    return memoised;
  }

  public DxReleaseRecord getRecord() {
    return record;
  }

  @Override
  public String toString() {
    return text;
  }
}
