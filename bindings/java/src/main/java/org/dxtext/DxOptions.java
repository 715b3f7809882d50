// SPDX-License-Identifier: Apache-2.0
package org.dxtext;

import java.nio.charset.StandardCharsets;

/**
 * Options of a privatisation call, built by chaining:
 * {@code DxOptions.epsilon(8).mechanism(DxMechanism.VICKREY).vickreyT(0.5)}.
 * One method per option of docs/options.md, named as there in camelCase.
 * Unset parameters take the library's defaults; values are checked by the
 * library when a call uses them. Immutable: every setter returns a copy.
 */
public final class DxOptions {
  // Indexes into doubles / ints, as read by the native code.
  static final int D_EPSILON = 0, D_TEM_GAMMA = 1, D_TEM_BETA = 2, D_VICKREY_T = 3;
  static final int D_MAHALANOBIS_LAMBDA = 4, D_SYNTF_S = 5, D_COUNT = 6;
  static final int I_MECHANISM = 0, I_SAMPLER = 1, I_POLICY = 2, I_SEARCH = 6, I_NPROBE = 7;
  static final int I_RELEASE_SHAPE = 8, I_OUTPUT_TOP = 9, I_PRESET = 10;
  // The output set's native handle, low and high 32 bits (set in ints() only).
  static final int I_OUTPUT_SET_LOW = 11, I_OUTPUT_SET_HIGH = 12, I_COUNT = 13;

  // NaN / -1: not set, the library's default applies.
  final double[] doubles;
  final int[] ints;
  final byte[] placeholder; // UTF-8, or null for the default
  final DxOutputSet outputSet; // or null

  private DxOptions(double[] doubles, int[] ints, byte[] placeholder, DxOutputSet outputSet) {
    this.doubles = doubles;
    this.ints = ints;
    this.placeholder = placeholder;
    this.outputSet = outputSet;
  }

  /** Defaults (Laplace, privatise every token) with this epsilon. */
  public static DxOptions epsilon(double epsilon) {
    double[] d = new double[D_COUNT];
    java.util.Arrays.fill(d, Double.NaN);
    d[D_EPSILON] = epsilon;
    int[] i = new int[I_COUNT];
    java.util.Arrays.fill(i, -1);
    return new DxOptions(d, i, null, null);
  }

  /**
   * The options of a preset, at its epsilon: {@code DxOptions.of(DxPreset.READABLE)}; {@link
   * #withEpsilon} overrides the epsilon.
   */
  public static DxOptions of(DxPreset preset) {
    return epsilon(0).preset(preset);
  }

  private DxOptions withDouble(int index, double value) {
    double[] d = doubles.clone();
    d[index] = value;
    return new DxOptions(d, ints, placeholder, outputSet);
  }

  private DxOptions withInt(int index, int value) {
    int[] i = ints.clone();
    i[index] = value;
    return new DxOptions(doubles, i, placeholder, outputSet);
  }

  /** The ints the native code reads, with the output set's handle (the set must be open). */
  int[] ints() {
    int[] i = ints.clone();
    long h = outputSet != null ? outputSet.handle() : 0;
    i[I_OUTPUT_SET_LOW] = (int) h;
    i[I_OUTPUT_SET_HIGH] = (int) (h >>> 32);
    return i;
  }

  public double getEpsilon() {
    return doubles[D_EPSILON];
  }

  public DxOptions withEpsilon(double epsilon) {
    return withDouble(D_EPSILON, epsilon);
  }

  public DxOptions mechanism(DxMechanism mechanism) {
    return withInt(I_MECHANISM, mechanism.code);
  }

  public DxOptions policy(DxTokenClass tokenClass, DxPolicy policy) {
    return withInt(I_POLICY + tokenClass.ordinal(), policy.code);
  }

  /** The policy of in-vocabulary words. */
  public DxOptions inVocabulary(DxPolicy policy) {
    return policy(DxTokenClass.IN_VOCABULARY, policy);
  }

  /** The policy of out-of-vocabulary words. */
  public DxOptions oov(DxPolicy policy) {
    return policy(DxTokenClass.OUT_OF_VOCABULARY, policy);
  }

  /** The policy of numbers. */
  public DxOptions numbers(DxPolicy policy) {
    return policy(DxTokenClass.NUMBER, policy);
  }

  /** The policy of stopwords. */
  public DxOptions stopwords(DxPolicy policy) {
    return policy(DxTokenClass.STOPWORD, policy);
  }

  /** The replacement of {@link DxPolicy#PLACEHOLDER} ("[redacted]" by default). */
  public DxOptions placeholder(String text) {
    return new DxOptions(doubles, ints, text.getBytes(StandardCharsets.UTF_8), outputSet);
  }

  public DxOptions temGamma(double gamma) {
    return withDouble(D_TEM_GAMMA, gamma);
  }

  public DxOptions temBeta(double beta) {
    return withDouble(D_TEM_BETA, beta);
  }

  public DxOptions vickreyT(double t) {
    return withDouble(D_VICKREY_T, t);
  }

  public DxOptions mahalanobisLambda(double lambda) {
    return withDouble(D_MAHALANOBIS_LAMBDA, lambda);
  }

  public DxOptions syntfS(double s) {
    return withDouble(D_SYNTF_S, s);
  }

  /** The exponential mechanism's sampler (Gumbel-max by default). */
  public DxOptions sampler(DxSampler sampler) {
    return withInt(I_SAMPLER, sampler.code);
  }

  /**
   * What of the input's form a text shows ({@code dxt_release_shape}): KEEP
   * (the default), NORMALIZE or STRICT; docs/guarantees.md, "Release shapes".
   */
  public DxOptions releaseShape(DxReleaseShape shape) {
    return withInt(I_RELEASE_SHAPE, shape.code);
  }

  /**
   * How laplace, vickrey and mahalanobis decode: {@link DxSearch#EXACT} (the
   * default) or through the model's search index ({@code dxtext index}).
   */
  public DxOptions search(DxSearch search) {
    return withInt(I_SEARCH, search.code);
  }

  /**
   * With {@link DxSearch#IVF}: the index cells scanned (0: the library's
   * default); the library refuses it with exact search.
   */
  public DxOptions ivfNprobe(int nprobe) {
    if (nprobe < 0) {
      throw new IllegalArgumentException("ivfNprobe must be >= 0");
    }
    return withInt(I_NPROBE, nprobe);
  }

  /**
   * The output vocabulary: release only the model's {@code n} most frequent words (its frequencies
   * section); 0 = the whole vocabulary. docs/guarantees.md, "Output vocabularies".
   */
  public DxOptions outputTop(int n) {
    if (n < 0) {
      throw new IllegalArgumentException("outputTop must be >= 0");
    }
    return withInt(I_OUTPUT_TOP, n);
  }

  /**
   * The output vocabulary: release only words of {@code set}, a public list the application ships
   * ({@link DxModel#outputSet}); not with {@link #outputTop}. Never make it from the text being
   * privatised. docs/guarantees.md, "Output vocabularies".
   */
  public DxOptions outputWords(DxOutputSet set) {
    return new DxOptions(doubles, ints, placeholder, set);
  }

  /**
   * A preset (docs/options.md, "Presets"): its mechanism, release shape, output vocabulary and
   * token policies, and its epsilon when this one is 0 ({@link #of(DxPreset)}). An option the
   * preset fixes may only be left unset or given the preset's value: the library refuses others.
   */
  public DxOptions preset(DxPreset preset) {
    return withInt(I_PRESET, preset.code);
  }
}
