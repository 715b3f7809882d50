// SPDX-License-Identifier: Apache-2.0
package org.dxtext;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;

/**
 * What a privatisation call released and the guarantee it carries. Every field depends only on
 * the options, the model and the generator mode (and nOut for SynTF), never on the input: safe
 * to send beside the output.
 */
public final class DxReleaseRecord {
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

  /** The C API's {@code dxt_rng_mode}. */
  public enum RngMode {
    UNKNOWN,
    /** OpenSSL RAND_priv_bytes: the private mode. */
    SYSTEM,
    /** AES-256-CTR keyed by a 32-byte seed: NOT private, for tests and reproducible research. */
    DETERMINISTIC
  }

  /**
   * Which words a mechanism may release (dxt_release_record.output_kind). The C API's {@code
   * dxt_output_kind}.
   */
  public enum OutputKind {
    /** The whole vocabulary. */
    VOCABULARY,
    /** The N most frequent words (output_top). */
    TOP,
    /** A word list of the application (output_set). */
    LIST
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
  private final byte[] bytes;
  private final String json;

  // reports: what a call filled (DxNative.reports): the values, the bytes and the JSON.
  DxReleaseRecord(Object[] reports) {
    this.values = (double[]) reports[0];
    this.bytes = (byte[]) reports[1];
    this.json = DxNative.string((byte[]) reports[2]);
  }

  private static <E extends Enum<E>> E of(Class<E> type, double value) {
    E[] all = type.getEnumConstants();
    int i = (int) value;
    return i >= 0 && i < all.length ? all[i] : all[0];
  }

  private static <E extends Enum<E>> Set<E> bits(Class<E> type, double value) {
    Set<E> out = EnumSet.noneOf(type);
    long bits = (long) value;
    for (E e : type.getEnumConstants()) {
      if ((bits & (1L << e.ordinal())) != 0) {
        out.add(e);
      }
    }
    return out;
  }

  // generated: fields (tools/options/generate.py, from include/dxtext/dxtext.h)
  // Layout of the arrays the native code fills (record_values in dxtext_jni.c).
  static final int MECHANISM = 0;
  static final int EPSILON = 1;
  static final int METRIC = 2;
  static final int RNG_MODE = 3;
  static final int IS_PRIVATE = 4;
  static final int RELEASE = 5;
  static final int BOUND = 6;
  static final int REVEALS = 7;
  static final int DRAWS = 8;
  static final int EPSILON_TOTAL = 9;
  static final int EPSILON_VOCABULARY = 10;
  static final int RELEASE_SHAPE = 11;
  static final int OUTPUT_KIND = 12;
  static final int OUTPUT_SIZE = 13;
  static final int PRESET = 14;
  static final int TYPED_CLASSES = 15;
  static final int TYPED_FLAGS = 16;
  static final int UNIFORM_FLOOR = 17;
  static final int WORST_CASE_PER_WORD = 18;
  static final int TYPED_DROPPED = 19;
  static final int CONTEXT_PRIOR = 20;
  static final int FINGERPRINT_VALID = 21;
  static final int VALUES = 22, BYTES = 64;

  public DxMechanism getMechanism() {
    return DxMechanism.of((int) values[MECHANISM]);
  }

  /** Per word, per unit of the metric. */
  public double getEpsilon() {
    return values[EPSILON];
  }

  /** dxt_metric: the distance d of the bound. */
  public Metric getMetric() {
    return of(Metric.class, values[METRIC]);
  }

  public RngMode getRngMode() {
    return of(RngMode.class, values[RNG_MODE]);
  }

  /** False when rng_mode is deterministic or DXT_REVEALS_INPUT_WORDS is set. */
  public boolean isPrivate() {
    return values[IS_PRIVATE] != 0;
  }

  /** SHA-256 of the model file, or null when the record does not carry it. */
  public byte[] getModelFingerprint() {
    return values[FINGERPRINT_VALID] != 0 ? Arrays.copyOfRange(bytes, 0, 32) : null;
  }

  public Release getRelease() {
    return of(Release.class, values[RELEASE]);
  }

  public Bound getBound() {
    return of(Bound.class, values[BOUND]);
  }

  public Set<Reveals> getReveals() {
    return bits(Reveals.class, values[REVEALS]);
  }

  /** DXT_BOUND_ANY_INPUTS: the number of draws n_out; 0 otherwise. */
  public long getDraws() {
    return (long) values[DRAWS];
  }

  /** DXT_BOUND_ANY_INPUTS: epsilon * draws; 0 otherwise. */
  public double getEpsilonTotal() {
    return values[EPSILON_TOTAL];
  }

  /**
   * Syntf only (0 otherwise): epsilon + ln eta(epsilon, V) &lt;= epsilon, from the vocabulary
   * size V (docs/guarantees.md, syntf); it may replace epsilon in the bound.
   */
  public double getEpsilonVocabulary() {
    return values[EPSILON_VOCABULARY];
  }

  /** dxt_release_shape of the call (DXT_SHAPE_KEEP by default). */
  public DxReleaseShape getReleaseShape() {
    return DxReleaseShape.of((int) values[RELEASE_SHAPE]);
  }

  /** dxt_output_kind: the words the mechanism could release. */
  public OutputKind getOutputKind() {
    return of(OutputKind.class, values[OUTPUT_KIND]);
  }

  /** How many words those are. */
  public long getOutputSize() {
    return (long) values[OUTPUT_SIZE];
  }

  /** SHA-256 of those words (all zero for the whole vocabulary). */
  public byte[] getOutputDigest() {
    return Arrays.copyOfRange(bytes, 32, 64);
  }

  /** The dxt_preset the options named (DXT_PRESET_NONE when none). */
  public DxPreset getPreset() {
    return DxPreset.of((int) values[PRESET]);
  }

  /**
   * Bit (1u &lt;&lt; dxt_typed_class) of each class whose tokens become a member or its
   * placeholder.
   */
  public long getTypedClasses() {
    return (long) values[TYPED_CLASSES];
  }

  public long getTypedFlags() {
    return (long) values[TYPED_FLAGS];
  }

  /** The floor p of the options (0: none). */
  public double getUniformFloor() {
    return values[UNIFORM_FLOOR];
  }

  /** The largest loss in nats of one privatised word (infinity: none known). */
  public double getWorstCasePerWord() {
    return values[WORST_CASE_PER_WORD];
  }

  /** Bit (1u &lt;&lt; dxt_typed_class) of each class whose tokens are dropped. */
  public long getTypedDropped() {
    return (long) values[TYPED_DROPPED];
  }

  /** The strength B of the context prior (0: none). */
  public double getContextPrior() {
    return values[CONTEXT_PRIOR];
  }
  // generated: end fields

  /** The record as one line of JSON (dxt_release_record_to_json). */
  public String toJson() {
    return json;
  }

  @Override
  public String toString() {
    return json;
  }
}
