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

  // generated: enums (tools/options/generate.py, from include/dxtext/dxtext.h)
  /**
   * Which call made a release (dxt_release_record.release). The C API's {@code
   * dxt_release_kind}.
   */
  public enum Release {
    UNKNOWN,
    /** dxt_privatize_index, dxt_privatize_word. */
    WORD,
    /** dxt_privatize_text: words in their order. */
    TEXT,
    /** dxt_privatize_bag. */
    BAG,
    /** dxt_syntf. */
    SYNTHETIC_BAG
  }

  /** The metric d of a release record's bound. The C API's {@code dxt_metric}. */
  public enum Metric {
    UNKNOWN,
    /** ||phi(w) - phi(w')||. */
    EUCLIDEAN,
    /** Poincare-ball distance. */
    HYPERBOLIC,
    /** ||Sigma_l^(-1/2)(phi(w) - phi(w'))||. */
    MAHALANOBIS,
    /** 1 for any two distinct words: plain eps-DP. */
    DISCRETE,
    /**
     * Max over the model's orderings of the number of places between w and w' along the
     * cycle (DXT_MECHANISM_ORDERING).
     */
    ORDERING
  }

  /**
   * The form of a release's guarantee (dxt_release_record.bound): for two inputs x, x' the
   * probability of any set of outputs changes by at most the factor exp(B(x, x')), with d the
   * record's metric and epsilon its epsilon (docs/guarantees.md proves each). The C API's
   * {@code dxt_bound}.
   */
  public enum Bound {
    UNKNOWN,
    /** One word: B = epsilon * d(w, w'). */
    WORD,
    /**
     * Ordered text: B = epsilon * sum_i d(x_i, x'_i), the privatised words of two texts
     * paired position by position (so texts with the same number of them). Texts that differ
     * only in word order are NOT close: the EMD bound of bags does not hold for ordered
     * text.
     */
    POSITIONWISE,
    /**
     * Bags of equal size N: B = epsilon * N * EMD_d(b, b') = epsilon * (the least sum of d
     * over pairings of the two bags' words) (Fernandes, Dras &amp; McIver 2019; proved in
     * docs/guarantees.md).
     */
    BAG_EMD,
    /** Plain DP with any two inputs adjacent: B = epsilon_total (dxt_syntf). */
    ANY_INPUTS
  }

  /** Features of the input that the output shows as they are (DXT_REVEALS_* bits, in order). */
  public enum Reveals {
    /** How many words (bag: occurrences) were not dropped. */
    WORD_COUNT,
    /**
     * The text between words verbatim: whitespace, punctuation, line and sentence
     * boundaries, symbols (it includes the two boundary bits below, which are not set beside
     * it).
     */
    LAYOUT,
    /** Each word's case shape (lower, Title, UPPER). */
    CASE_SHAPE,
    /** Which words belong to a class whose policy is placeholder or drop. */
    TOKEN_CLASSES,
    /** The words of classes whose policy is keep, verbatim. */
    KEPT_WORDS,
    /**
     * DXT_SHAPE_NORMALIZE: between which words a sentence ends (one of . ! ? and their
     * Unicode kin), and whether the text ends with one.
     */
    SENTENCE_BOUNDARIES,
    /**
     * DXT_SHAPE_NORMALIZE: between which words, within a sentence, there was other
     * punctuation (, ; : dashes, quotes, brackets, ...).
     */
    CLAUSE_BOUNDARIES,
    /**
     * Which tokens belong to a typed class (dxt_release_record.typed_classes) whose policy
     * is replace or placeholder, and which class.
     */
    TYPED_CLASSES,
    /**
     * The input's words themselves: the model's words are so far apart at this epsilon that
     * the mechanism returns every word of a fixed sample unchanged with probability at least
     * 1 - 1e-9 (laplace, exponential, tem and mahalanobis on Euclidean models;
     * docs/guarantees.md, "A mechanism that keeps its input"). The record's is_private is
     * then false.
     */
    INPUT_WORDS,
    /**
     * Which words are negators, and which negator each is: they are released as written
     * (dxt_privatize_options.negations keep).
     */
    NEGATIONS
  }
  // generated: end enums

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
