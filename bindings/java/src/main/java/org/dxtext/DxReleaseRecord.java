// SPDX-License-Identifier: Apache-2.0
package org.dxtext;

import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.Set;

/**
 * What a privatisation call released and the guarantee it carries. Every field depends only on
 * the options, the model and the generator mode (and nOut for SynTF), never on the input: safe
 * to send beside the output.
 */
public final class DxReleaseRecord {
  // Layout of the array the native code fills.
  static final int RELEASE = 0, MECHANISM = 1, EPSILON = 2, METRIC = 3, RNG_MODE = 4, IS_PRIVATE = 5;
  static final int FINGERPRINT_VALID = 6, BOUND = 7, REVEALS = 8, DRAWS = 9, EPSILON_TOTAL = 10;
  static final int EPSILON_VOCABULARY = 11, RELEASE_SHAPE = 12, PRESET = 13, LENGTH = 14;

  /** The smallest and largest epsilon every call accepts (DXT_EPSILON_MIN, DXT_EPSILON_MAX). */
  public static final double EPSILON_MIN = 1e-6, EPSILON_MAX = 1e6;

  /** Which call made a release. */
  public enum Release {
    UNKNOWN,
    WORD,
    TEXT,
    BAG,
    SYNTHETIC_BAG
  }

  /** The distance d of the bound. */
  public enum Metric {
    UNKNOWN,
    EUCLIDEAN,
    HYPERBOLIC,
    MAHALANOBIS,
    /** 1 between any two distinct words: plain eps-DP. */
    DISCRETE,
    /** The most places between two words along the model's orderings. */
    ORDERING
  }

  /** The form of the guarantee (docs/guarantees.md). */
  public enum Bound {
    UNKNOWN,
    /** eps * d(w, w'). */
    WORD,
    /** Ordered text: eps * sum_i d(x_i, x'_i), position by position; not an EMD bound. */
    POSITIONWISE,
    /** Bags of equal size N: eps * N * EMD(b, b'). */
    BAG_EMD,
    /** getEpsilonTotal()-DP between any two inputs (SynTF). */
    ANY_INPUTS
  }

  /** Features of the input that the output shows as they are (DXT_REVEALS_* bits, in order). */
  public enum Reveals {
    WORD_COUNT,
    LAYOUT,
    CASE_SHAPE,
    TOKEN_CLASSES,
    KEPT_WORDS,
    SENTENCE_BOUNDARIES,
    CLAUSE_BOUNDARIES,
    /** Which tokens are of a typed class (names, places, ...), and of which. */
    TYPED_CLASSES,
    /** The model's geometry makes the mechanism keep its input words. */
    INPUT_WORDS,
    /** Which words are negators, and which: released as written (negations keep). */
    NEGATIONS
  }

  private final double[] values;
  private final byte[] fingerprint;
  private final String json;

  DxReleaseRecord(double[] values, byte[] fingerprint, byte[] json) {
    this.values = values.clone();
    this.fingerprint = fingerprint.clone();
    this.json = new String(json, StandardCharsets.UTF_8);
  }

  private static <E extends Enum<E>> E of(Class<E> type, double value) {
    E[] all = type.getEnumConstants();
    int i = (int) value;
    return i >= 0 && i < all.length ? all[i] : all[0];
  }

  public Release getRelease() {
    return of(Release.class, values[RELEASE]);
  }

  /** The mechanism, or null if this binding does not know it. */
  public DxMechanism getMechanism() {
    return DxMechanism.of((int) values[MECHANISM]);
  }

  /** Per word, per unit of the metric. */
  public double getEpsilon() {
    return values[EPSILON];
  }

  public Metric getMetric() {
    return of(Metric.class, values[METRIC]);
  }

  /** False when the noise came from a seeded (deterministic) privatizer. */
  public boolean isPrivate() {
    return values[IS_PRIVATE] != 0;
  }

  /** SHA-256 of the model file, or null when the record does not carry it. */
  public byte[] getModelFingerprint() {
    return values[FINGERPRINT_VALID] != 0 ? fingerprint.clone() : null;
  }

  public Bound getBound() {
    return of(Bound.class, values[BOUND]);
  }

  public Set<Reveals> getReveals() {
    Set<Reveals> out = EnumSet.noneOf(Reveals.class);
    int bits = (int) values[REVEALS];
    for (Reveals r : Reveals.values()) {
      if ((bits & (1 << r.ordinal())) != 0) {
        out.add(r);
      }
    }
    return out;
  }

  /** ANY_INPUTS: the number of draws; 0 otherwise. */
  public long getDraws() {
    return (long) values[DRAWS];
  }

  /** ANY_INPUTS: epsilon * draws; 0 otherwise. */
  public double getEpsilonTotal() {
    return values[EPSILON_TOTAL];
  }

  /** SynTF only (0 otherwise): eps + ln eta(eps, V) <= eps, usable in place of epsilon. */
  public double getEpsilonVocabulary() {
    return values[EPSILON_VOCABULARY];
  }

  /** The preset of the call's options ({@link DxPreset#NONE} without one). */
  public DxPreset getPreset() {
    return DxPreset.of((int) values[PRESET]);
  }

  /** What of the input's form the release copied. */
  public DxReleaseShape getReleaseShape() {
    return DxReleaseShape.of((int) values[RELEASE_SHAPE]);
  }

  /** The record as one line of JSON (dxt_release_record_to_json). */
  public String toJson() {
    return json;
  }

  @Override
  public String toString() {
    return json;
  }
}
