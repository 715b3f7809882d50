// SPDX-License-Identifier: Apache-2.0
package org.dxtext;

import java.nio.charset.StandardCharsets;

/**
 * A privacy budget per scope (a user, a user and a day, ...) kept in a file the app owns
 * (docs/budgets.md): the epsilon of every release is added up, a release that would pass the cap
 * is refused with {@link DxStatus#BUDGET_EXCEEDED} before any noise is drawn, and the same text
 * privatised again returns the memoised output at no cost. Methods are synchronized; any number of
 * ledgers, in any number of processes, may share one file. Close it when done.
 *
 * <p>Rollback: store {@link #anchor()}{@code .toBytes()} outside the ledger file (the Android
 * Keystore, a server) after every call, and give {@link DxLedgerAnchor#fromBytes} of it to {@link
 * #open(String, String, double, int, byte[], DxLedgerAnchor)} next time: an older copy of the file
 * put back, or the file deleted, then fails with {@link DxStatus#LEDGER_ROLLBACK}. Without an anchor
 * a rollback is not detected (docs/budgets.md, "Rollback").
 */
public final class DxLedger implements AutoCloseable {
  private long handle;

  private DxLedger(long handle) {
    this.handle = handle;
  }

  /** Open (or create) {@code path} and select {@code scope}; {@code cap} applies to a new scope. */
  public static DxLedger open(String path, String scope, double cap) {
    return open(path, scope, cap, -1, null);
  }

  /**
   * With {@code memoCapacity} (negative: the default, 64) for a new scope and an app {@code key}
   * (16 to 64 bytes, e.g. from the Android Keystore; null for none) that makes the file's MAC
   * unforgeable without it.
   */
  public static DxLedger open(String path, String scope, double cap, int memoCapacity, byte[] key) {
    return open(path, scope, cap, memoCapacity, key, null);
  }

  /**
   * With the {@code anchor} stored after the last call on this ledger (null for none): a file older
   * than it (an earlier copy put back, or the file deleted) fails with {@link
   * DxStatus#LEDGER_ROLLBACK}, and a missing file is not made anew.
   */
  public static DxLedger open(String path, String scope, double cap, int memoCapacity, byte[] key,
      DxLedgerAnchor anchor) {
    byte[] a = anchor == null ? null : anchor.toBytes();
    return new DxLedger(DxNative.ledgerOpen(utf8(path), utf8(scope), cap, memoCapacity, key, a));
  }

  private static byte[] utf8(String s) {
    if (s == null) {
      throw new DxException(DxStatus.INVALID_ARGUMENT.code(), "invalid argument: a string is null");
    }
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private long live() {
    if (handle == 0) {
      throw new IllegalStateException("the ledger is closed");
    }
    return handle;
  }

  /**
   * {@link DxPrivatizer#privatizeText} through the ledger; {@code fresh} draws anew (and spends)
   * even when the text is memoised.
   */
  public synchronized DxLedgerRelease privatizeText(DxPrivatizer privatizer, String text, DxOptions options,
      boolean fresh) {
    long ledger = live();
    double[] r = new double[DxReleaseRecord.VALUES];
    byte[] recordBytes = new byte[DxReleaseRecord.BYTES];
    byte[][] json = new byte[2][];
    boolean[] memoised = new boolean[1];
    byte[] out;
    synchronized (privatizer) {
      out = DxNative.ledgerPrivatizeText(ledger, privatizer.liveHandle(), options.pairs(), options.lists(),
          utf8(text), fresh, memoised, r, recordBytes, json);
    }
    return new DxLedgerRelease(new String(out, StandardCharsets.UTF_8), memoised[0],
        new DxReleaseRecord(r, recordBytes, json[0]));
  }

  /** The scope's totals, read from the file. */
  public synchronized DxLedgerTotals totals() {
    return new DxLedgerTotals(DxNative.ledgerTotals(live()));
  }

  /**
   * The ledger's anchor now, read from the file: store its {@link DxLedgerAnchor#toBytes()} outside
   * the file after every call, replacing the one before, and pass it to {@code open} next time.
   * Fails with {@link DxStatus#LEDGER_ROLLBACK} when the file is older than what this handle last saw.
   */
  public synchronized DxLedgerAnchor anchor() {
    return DxLedgerAnchor.fromBytes(DxNative.ledgerAnchor(live()));
  }

  /** The scope as one line of JSON, as {@code dxtext ledger} prints it. */
  public synchronized String toJson() {
    return new String(DxNative.ledgerJson(live()), StandardCharsets.UTF_8);
  }

  /** Set the scope's cap (finite, at least 0). */
  public synchronized void setCap(double cap) {
    DxNative.ledgerSetCap(live(), cap);
  }

  @Override
  public synchronized void close() {
    if (handle != 0) {
      DxNative.ledgerClose(handle);
      handle = 0;
    }
  }
}
