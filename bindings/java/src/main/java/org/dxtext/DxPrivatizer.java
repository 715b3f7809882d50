// SPDX-License-Identifier: Apache-2.0
package org.dxtext;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Random-number state for privatisation calls (a C {@code dxt_context}).
 * Calls on one privatizer are serialised (its methods are synchronized), so
 * sharing one between threads is safe but gives no parallelism: make one per
 * thread, e.g. with a {@link ThreadLocal}. Close it when done.
 */
public final class DxPrivatizer implements AutoCloseable {
  private long handle;
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
    if (seed != null && seed.length != 32) {
      throw new DxException(DxStatus.INVALID_ARGUMENT.code(), "invalid argument: the seed must be 32 bytes");
    }
    this.model = model;
    this.handle = model.withHandle(h -> DxNative.contextCreate(h, seed));
  }

  public DxModel getModel() {
    return model;
  }

  /** The live context handle; callers hold this privatizer's lock. */
  long liveHandle() {
    return live();
  }

  private long live() {
    if (handle == 0) {
      throw new IllegalStateException("the privatizer is closed");
    }
    return handle;
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static String string(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }

  /** Privatise UTF-8 text: words replaced, spacing and punctuation kept, case shape restored. */
  public synchronized String privatizeText(String text, DxOptions options) {
    return string(DxNative.privatizeText(live(), false, options.pairs(), options.lists(), utf8(text), null, null,
        null, null));
  }

  /**
   * {@link #privatizeText} with the release record of the call (its bound is positionwise: eps *
   * sum_i d(x_i, x'_i)).
   */
  public synchronized DxText privatizeTextWithRecord(String text, DxOptions options) {
    return textCall(text, options, false);
  }

  /** {@link #privatizeTextWithRecord} and the token counts of the input, which must stay local. */
  public synchronized DxText privatizeTextWithLocalDiagnostics(String text, DxOptions options) {
    return textCall(text, options, true);
  }

  private DxText textCall(String text, DxOptions options, boolean withDiagnostics) {
    double[] r = new double[DxReleaseRecord.VALUES];
    double[] d = withDiagnostics ? new double[DxLocalDiagnostics.LENGTH] : null;
    byte[] recordBytes = new byte[DxReleaseRecord.BYTES];
    byte[][] json = new byte[2][];
    byte[] out = DxNative.privatizeText(live(), false, options.pairs(), options.lists(), utf8(text), r, d, recordBytes,
        json);
    return new DxText(string(out), new DxReleaseRecord(r, recordBytes, json[0]),
        d == null ? null : new DxLocalDiagnostics(d, json[1]));
  }

  /** Privatise one word (a dropped word gives ""). */
  public synchronized String privatizeWord(String word, DxOptions options) {
    return string(DxNative.privatizeText(live(), true, options.pairs(), options.lists(), utf8(word), null, null,
        null, null));
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
    if (nOut < 0) {  // 0 and nOut above the largest bag: the library refuses them, with its message
      throw new DxException(DxStatus.INVALID_ARGUMENT.code(), "invalid argument: nOut must not be negative");
    }
    return bagCall(bag, nOut, options, false);
  }

  private DxBag bagCall(Map<String, Long> bag, int nOut, DxOptions options, boolean withDiagnostics) {
    byte[][] words = new byte[bag.size()][];
    long[] counts = new long[bag.size()];
    int i = 0;
    for (Map.Entry<String, Long> e : bag.entrySet()) {
      words[i] = utf8(e.getKey());
      counts[i] = e.getValue();
      ++i;
    }
    double[] r = new double[DxReleaseRecord.VALUES];
    double[] d = withDiagnostics ? new double[DxLocalDiagnostics.LENGTH] : null;
    byte[] recordBytes = new byte[DxReleaseRecord.BYTES];
    byte[][] json = new byte[2][];
    Object[] out = DxNative.privatizeBag(live(), options.pairs(), options.lists(), words, counts, nOut, r, d,
        recordBytes, json);
    byte[][] outWords = (byte[][]) out[0];
    long[] outCounts = (long[]) out[1];
    Map<String, Long> result = new LinkedHashMap<>();
    for (int k = 0; k < outWords.length; ++k) {
      result.put(string(outWords[k]), outCounts[k]);
    }
    return new DxBag(result, new DxReleaseRecord(r, recordBytes, json[0]),
        d == null ? null : new DxLocalDiagnostics(d, json[1]));
  }

  /** N_w and S_w over {@code words} random vocabulary words, {@code trials} each. */
  public synchronized DxCalibration calibrate(DxOptions options, int words, int trials) {
    return new DxCalibration(DxNative.calibrate(live(), options.pairs(), options.lists(), words, trials));
  }

  @Override
  public synchronized void close() {
    if (handle != 0) {
      DxNative.contextDestroy(handle);
      handle = 0;
    }
  }
}
