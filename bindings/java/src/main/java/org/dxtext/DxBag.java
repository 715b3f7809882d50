package org.dxtext;

import java.util.Collections;
import java.util.Map;

/** A privatised bag of words (word to count, in vocabulary order) with its report. */
public final class DxBag {
  private final Map<String, Long> words;
  private final DxReport report;

  DxBag(Map<String, Long> words, DxReport report) {
    this.words = Collections.unmodifiableMap(words);
    this.report = report;
  }

  public Map<String, Long> getWords() {
    return words;
  }

  /** The sum of the counts. */
  public long size() {
    long n = 0;
    for (long c : words.values()) {
      n += c;
    }
    return n;
  }

  public DxReport getReport() {
    return report;
  }
}
