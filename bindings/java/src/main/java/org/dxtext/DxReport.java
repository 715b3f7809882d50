package org.dxtext;

import java.nio.charset.StandardCharsets;

/** What a privatisation call did and what it guarantees. */
public final class DxReport {
  // Layout of the array the native code fills.
  static final int MECHANISM = 0, EPSILON = 1, METRIC = 2, RNG_MODE = 3, IS_PRIVATE = 4;
  static final int FINGERPRINT_VALID = 5, COUNTS = 6, WORDS_PRIVATIZED = 22, WORDS_LEAKED = 23;
  static final int EPSILON_PER_UNIT_DISTANCE = 24, EPSILON_DOCUMENT = 25, EPSILON_DOCUMENT_VOCABULARY = 26,
      LENGTH = 27;

  /** The distance d of a guarantee eps * d. */
  public enum Metric {
    UNKNOWN,
    EUCLIDEAN,
    HYPERBOLIC,
    MAHALANOBIS,
    /** 1 between any two distinct words: plain eps-DP. */
    DISCRETE
  }

  private final double[] values;
  private final byte[] fingerprint;
  private final String json;

  DxReport(double[] values, byte[] fingerprint, byte[] json) {
    this.values = values.clone();
    this.fingerprint = fingerprint.clone();
    this.json = new String(json, StandardCharsets.UTF_8);
  }

  /** The mechanism, or null if this binding does not know it. */
  public DxMechanism getMechanism() {
    return DxMechanism.of((int) values[MECHANISM]);
  }

  public double getEpsilon() {
    return values[EPSILON];
  }

  public Metric getMetric() {
    int m = (int) values[METRIC];
    return m >= 0 && m < Metric.values().length ? Metric.values()[m] : Metric.UNKNOWN;
  }

  /** False when the noise came from a seeded (deterministic) privatizer. */
  public boolean isPrivate() {
    return values[IS_PRIVATE] != 0;
  }

  /** SHA-256 of the model file, or null when the report does not carry it. */
  public byte[] getModelFingerprint() {
    return values[FINGERPRINT_VALID] != 0 ? fingerprint.clone() : null;
  }

  /** Tokens of a class handled by a policy. */
  public long getCount(DxTokenClass tokenClass, DxPolicy policy) {
    return (long) values[COUNTS + 4 * tokenClass.ordinal() + policy.code - 1];
  }

  /** N: the number of noise draws made. */
  public long getWordsPrivatized() {
    return (long) values[WORDS_PRIVATIZED];
  }

  /** Tokens passed through verbatim by a KEEP policy. */
  public long getWordsLeaked() {
    return (long) values[WORDS_LEAKED];
  }

  /** Per word: outputs for w, w' differ by at most this * d(w, w'). */
  public double getEpsilonPerUnitDistance() {
    return values[EPSILON_PER_UNIT_DISTANCE];
  }

  /** For the text or bag as a whole: this * EMD for bags of equal size N. */
  public double getEpsilonDocument() {
    return values[EPSILON_DOCUMENT];
  }

  /** SynTF only (0 otherwise): (eps + ln eta(eps, V)) * N, from the vocabulary size V. */
  public double getEpsilonDocumentVocabulary() {
    return values[EPSILON_DOCUMENT_VOCABULARY];
  }

  /** The report as one line of JSON (dxt_report_to_json). */
  public String toJson() {
    return json;
  }

  @Override
  public String toString() {
    return json;
  }
}
