// SPDX-License-Identifier: Apache-2.0
package org.dxtext;

import java.nio.charset.StandardCharsets;

/**
 * The JNI entry points (src/main/c/dxtext_jni.c). Strings cross as UTF-8
 * byte arrays (null stays null, which the native code refuses with
 * INVALID_ARGUMENT); failures throw {@link DxException}. Handles come from
 * a live {@link DxHandle}. The native library is loaded by {@link DxNativeLoader}.
 */
final class DxNative {
  static {
    DxNativeLoader.load();
  }

  private DxNative() {}

  static byte[] utf8(String s) {
    return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
  }

  static String string(byte[] utf8) {
    return new String(utf8, StandardCharsets.UTF_8);
  }

  /**
   * The array a call fills with its reports: the release record (DxReleaseRecord(Object[])) and,
   * when {@code diagnostics}, the local diagnostics (DxLocalDiagnostics.of).
   */
  static Object[] reports(boolean diagnostics) {
    return new Object[diagnostics ? 5 : 3];
  }

  static native byte[] versionString();

  static native long modelOpen(byte[] path, boolean verifyDigests);

  static native long modelFromBytes(byte[] data);

  /** The {@code length} bytes from {@code position} of a direct buffer. */
  static native long modelFromDirectBuffer(java.nio.ByteBuffer buffer, int position, int length);

  static native void modelClose(long model);

  /** The fields of dxt_model_info in order, as DxModelInfo(double[]) reads them. */
  static native double[] modelInfo(long model);

  static native byte[] modelFingerprint(long model);

  static native int modelLookup(long model, byte[] word);

  static native byte[] modelWord(long model, int index);

  static native byte[] defaultModelPath(int geometry);

  /** Sets the options on a dxt_options of the model: throws what a call would for them. */
  static native void optionsCheck(long model, byte[][] pairs, boolean[] lists);

  static native long contextCreate(long model, byte[] seed);

  static native void contextDestroy(long context);

  /**
   * word: privatise one word (dxt_privatize_word), else a text;
   * pairs, lists: DxOptions.pairs() and lists();
   * reports: null, or reports(...) to fill.
   */
  static native byte[] privatizeText(long context, boolean word, byte[][] pairs, boolean[] lists, byte[] text,
      Object[] reports);

  /** Returns {byte[][] words, long[] counts}; nOut < 0 privatises, else SynTF. */
  static native Object[] privatizeBag(long context, byte[][] pairs, boolean[] lists, byte[][] words, long[] counts,
      int nOut, Object[] reports);

  /**
   * memoCapacity < 0: the default; key may be null; anchor is null or the 32 bytes of
   * DxLedgerAnchor.toBytes().
   */
  static native long ledgerOpen(byte[] path, byte[] scope, double cap, int memoCapacity, byte[] key,
      byte[] anchor);

  /** The ledger's anchor as the 32 bytes of DxLedgerAnchor.toBytes(). */
  static native byte[] ledgerAnchor(long ledger);

  static native void ledgerClose(long ledger);

  static native void ledgerSetCap(long ledger, double cap);

  /** The fields of dxt_ledger_totals in order, as DxLedgerTotals(double[]) reads them. */
  static native double[] ledgerTotals(long ledger);

  static native byte[] ledgerJson(long ledger);

  static native byte[] ledgerPrivatizeText(long ledger, long context, byte[][] pairs, boolean[] lists, byte[] text,
      boolean fresh, boolean[] memoised, Object[] reports);

  static native double[] calibrate(long context, byte[][] pairs, boolean[] lists, int words, int trials);
}
