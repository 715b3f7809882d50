// SPDX-License-Identifier: Apache-2.0
package org.dxtext;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Random-number state for privatisation calls (a C {@code dxt_context}).
 * Calls on one privatizer are serialised (its methods are synchronized), so
 * sharing one between threads is safe but gives no parallelism: make one per
 * thread, e.g. with a {@link ThreadLocal}. Close it when done.
 */
public final class DxPrivatizer extends DxHandle {
  private final DxModel model;

  /** Noise from the operating system's CSPRNG: the private mode. */
  public DxPrivatizer(DxModel model) {
    this(model, null);
  }

  /**
   * With a 32-byte {@code seed}, the noise is a reproducible keyed stream:
   * NOT private (release records say so), for tests and research only. A null seed
   * is the private mode.
   */
  public DxPrivatizer(DxModel model, byte[] seed) {
    super(model.call(h -> DxNative.contextCreate(h, seed)), "privatizer", DxNative::contextDestroy);
    this.model = model;
  }

  public DxModel getModel() {
    return model;
  }

  /** Privatise UTF-8 text: words replaced, spacing and punctuation kept, case shape restored. */
  public synchronized String privatizeText(String text, DxOptions options) {
    return textCall(false, text, options, null);
  }

  /**
   * {@link #privatizeText} with the release record of the call (its bound is positionwise: eps *
   * sum_i d(x_i, x'_i)).
   */
  public synchronized DxText privatizeTextWithRecord(String text, DxOptions options) {
    return withReports(text, options, DxNative.reports(false));
  }

  /** {@link #privatizeTextWithRecord} and the token counts of the input, which must stay local. */
  public synchronized DxText privatizeTextWithLocalDiagnostics(String text, DxOptions options) {
    return withReports(text, options, DxNative.reports(true));
  }

  private DxText withReports(String text, DxOptions options, Object[] reports) {
    String out = textCall(false, text, options, reports);
    return new DxText(out, new DxReleaseRecord(reports), DxLocalDiagnostics.of(reports));
  }

  private String textCall(boolean word, String text, DxOptions options, Object[] reports) {
    byte[] input = DxNative.utf8(text);
    return DxNative.string(call(h -> DxNative.privatizeText(h, word, options.pairs(), options.lists(), input,
        reports)));
  }

  /** Privatise one word (a dropped word gives ""). */
  public synchronized String privatizeWord(String word, DxOptions options) {
    return textCall(true, word, options, null);
  }

  /** Privatise every occurrence in a bag of word counts; the record's bound is eps * N * EMD. */
  public synchronized DxBag privatizeBag(Map<String, Long> bag, DxOptions options) {
    return bagCall(bag, -1, options, false);
  }

  /** {@link #privatizeBag} and the token counts of the input, which must stay local. */
  public synchronized DxBag privatizeBagWithLocalDiagnostics(Map<String, Long> bag, DxOptions options) {
    return bagCall(bag, -1, options, true);
  }

  /** SynTF: a synthetic bag of exactly {@code nOut} words drawn from {@code bag}. */
  public synchronized DxBag syntf(Map<String, Long> bag, int nOut, DxOptions options) {
    if (nOut < 0) {  // -1 would privatise the bag; 0 and nOut above the largest bag: the library refuses them
      throw new DxException(DxStatus.INVALID_ARGUMENT.code(), "invalid argument: nOut must not be negative");
    }
    return bagCall(bag, nOut, options, false);
  }

  private DxBag bagCall(Map<String, Long> bag, int nOut, DxOptions options, boolean withDiagnostics) {
    byte[][] words = new byte[bag.size()][];
    long[] counts = new long[bag.size()];
    int i = 0;
    for (Map.Entry<String, Long> e : bag.entrySet()) {
      words[i] = DxNative.utf8(e.getKey());
      counts[i] = e.getValue();
      ++i;
    }
    Object[] reports = DxNative.reports(withDiagnostics);
    Object[] out = call(h -> DxNative.privatizeBag(h, options.pairs(), options.lists(), words, counts, nOut, reports));
    byte[][] outWords = (byte[][]) out[0];
    long[] outCounts = (long[]) out[1];
    Map<String, Long> result = new LinkedHashMap<>();
    for (int k = 0; k < outWords.length; ++k) {
      result.put(DxNative.string(outWords[k]), outCounts[k]);
    }
    return new DxBag(result, new DxReleaseRecord(reports), DxLocalDiagnostics.of(reports));
  }

  /** N_w and S_w over {@code words} random vocabulary words, {@code trials} each. */
  public synchronized DxCalibration calibrate(DxOptions options, int words, int trials) {
    return new DxCalibration(call(h -> DxNative.calibrate(h, options.pairs(), options.lists(), words, trials)));
  }
}
