// SPDX-License-Identifier: Apache-2.0
package org.dxtext;

/** A privatised text or word with the release record of the call. */
public final class DxText {
  private final String text;
  private final DxReleaseRecord record;
  private final DxLocalDiagnostics localDiagnostics;

  DxText(String text, DxReleaseRecord record, DxLocalDiagnostics localDiagnostics) {
    this.text = text;
    this.record = record;
    this.localDiagnostics = localDiagnostics;
  }

  public String getText() {
    return text;
  }

  /** The release record: the guarantee; safe to send with the output. */
  public DxReleaseRecord getRecord() {
    return record;
  }

  /** The token counts of the input, when they were asked for (else null): keep them local. */
  public DxLocalDiagnostics getLocalDiagnostics() {
    return localDiagnostics;
  }

  @Override
  public String toString() {
    return text;
  }
}
