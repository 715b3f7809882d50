// SPDX-License-Identifier: Apache-2.0
package org.dxtext;

import java.util.Collections;
import java.util.Map;

/** A privatised bag of words (word to count, in vocabulary order) with its release record. */
public final class DxBag {
  private final Map<String, Long> words;
  private final DxReleaseRecord record;
  private final DxLocalDiagnostics localDiagnostics;

  DxBag(Map<String, Long> words, DxReleaseRecord record, DxLocalDiagnostics localDiagnostics) {
    this.words = Collections.unmodifiableMap(words);
    this.record = record;
    this.localDiagnostics = localDiagnostics;
  }

  public Map<String, Long> getWords() {
    return words;
  }

  /** The sum of the counts. */
  public long size() {
    return words.values().stream().mapToLong(Long::longValue).sum();
  }

  /** The release record: the guarantee; safe to send with the output. */
  public DxReleaseRecord getRecord() {
    return record;
  }

  /** The token counts of the input, when they were asked for (else null): keep them local. */
  public DxLocalDiagnostics getLocalDiagnostics() {
    return localDiagnostics;
  }
}
