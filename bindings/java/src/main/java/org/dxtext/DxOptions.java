package org.dxtext;

import java.nio.charset.StandardCharsets;

/**
 * Options of a privatisation call, built by chaining:
 * {@code DxOptions.epsilon(8).mechanism(DxMechanism.VICKREY).vickreyT(0.5)}.
 * Unset parameters take the library's defaults; values are checked by the
 * library when a call uses them. Immutable: every setter returns a copy.
 */
public final class DxOptions {
  // Indexes into doubles / ints, as read by the native code.
  static final int D_EPSILON = 0, D_TEM_GAMMA = 1, D_TEM_BETA = 2, D_VICKREY_T = 3;
  static final int D_MAHALANOBIS_LAMBDA = 4, D_SYNTF_S = 5, D_COUNT = 6;
  static final int I_MECHANISM = 0, I_SAMPLER = 1, I_POLICY = 2, I_SEARCH = 6, I_NPROBE = 7, I_COUNT = 8;

  // NaN / -1: not set, the library's default applies.
  final double[] doubles;
  final int[] ints;
  final byte[] placeholder; // UTF-8, or null for the default

  private DxOptions(double[] doubles, int[] ints, byte[] placeholder) {
    this.doubles = doubles;
    this.ints = ints;
    this.placeholder = placeholder;
  }

  /** Defaults (Laplace, privatise every token) with this epsilon. */
  public static DxOptions epsilon(double epsilon) {
    double[] d = new double[D_COUNT];
    java.util.Arrays.fill(d, Double.NaN);
    d[D_EPSILON] = epsilon;
    int[] i = new int[I_COUNT];
    java.util.Arrays.fill(i, -1);
    return new DxOptions(d, i, null);
  }

  private DxOptions withDouble(int index, double value) {
    double[] d = doubles.clone();
    d[index] = value;
    return new DxOptions(d, ints, placeholder);
  }

  private DxOptions withInt(int index, int value) {
    int[] i = ints.clone();
    i[index] = value;
    return new DxOptions(doubles, i, placeholder);
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

  /** The replacement of {@link DxPolicy#PLACEHOLDER} ("[redacted]" by default). */
  public DxOptions placeholder(String text) {
    return new DxOptions(doubles, ints, text.getBytes(StandardCharsets.UTF_8));
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

  /** Permute-and-flip instead of Gumbel-max in the exponential mechanism. */
  public DxOptions permuteAndFlip(boolean on) {
    return withInt(I_SAMPLER, on ? 2 : 1);
  }

  /**
   * Decode through the model's search index ({@code dxtext index}) instead of
   * exactly, scanning {@code nprobe} cells (0: the library's default). The
   * library refuses it for models without an index and for mechanisms that
   * do not decode a noisy point.
   */
  public DxOptions ivfSearch(int nprobe) {
    if (nprobe < 0) throw new IllegalArgumentException("nprobe must be >= 0");
    return withInt(I_SEARCH, 1).withInt(I_NPROBE, nprobe);
  }

  /** Exact decoding (the default). */
  public DxOptions exactSearch() {
    return withInt(I_SEARCH, 0).withInt(I_NPROBE, -1);
  }
}
