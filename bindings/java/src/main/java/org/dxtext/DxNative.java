// SPDX-License-Identifier: Apache-2.0
package org.dxtext;

/**
 * The JNI entry points (src/main/c/dxtext_jni.c). Strings cross as UTF-8
 * byte arrays; failures throw {@link DxException}. The native library is
 * loaded by {@link DxNativeLoader}.
 */
final class DxNative {
  static {
    DxNativeLoader.load();
  }

  private DxNative() {}

  static native byte[] versionString();

  static native long modelOpen(byte[] path, boolean verifyDigests);

  static native long modelFromBytes(byte[] data, boolean verifyDigests);

  static native long modelFromDirectBuffer(java.nio.ByteBuffer buffer, int position, int length,
      boolean verifyDigests);

  static native void modelClose(long model);

  /** The fields of dxt_model_info in order, as DxModelInfo(double[]) reads them. */
  static native double[] modelInfo(long model);

  static native byte[] modelFingerprint(long model);

  static native int modelLookup(long model, byte[] word);

  static native byte[] modelWord(long model, int index);

  static native byte[] defaultModelPath(int geometry);

  static native long outputSetCreate(long model, byte[][] words);

  static native void outputSetFree(long set);

  static native long contextCreate(long model, byte[] seed);

  static native void contextDestroy(long context);

  /**
   * word: privatise one word (dxt_privatize_word), else a text;
   * pairs, lists: DxOptions.pairs() and lists();
   * record, recordBytes, json (of length 2): the release record's outputs (DxReleaseRecord.VALUES
   * and BYTES long), or all null for none;
   * diagnostics: the local diagnostics' values (JSON in json[1]), or null for none.
   */
  static native byte[] privatizeText(long context, boolean word, byte[][] pairs, boolean[] lists, byte[] text,
      double[] record, double[] diagnostics, byte[] recordBytes, byte[][] json);

  /** Returns {byte[][] words, long[] counts}; nOut < 0 privatises, else SynTF. */
  static native Object[] privatizeBag(long context, byte[][] pairs, boolean[] lists, byte[][] words, long[] counts,
      int nOut, double[] record, double[] diagnostics, byte[] recordBytes, byte[][] json);

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
      boolean fresh, boolean[] memoised, double[] record, byte[] recordBytes, byte[][] json);

  static native double[] calibrate(long context, byte[][] pairs, boolean[] lists, int words, int trials);
}
