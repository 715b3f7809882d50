// SPDX-License-Identifier: Apache-2.0
package org.dxtext;

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
public final class DxLedger extends DxHandle {
  private DxLedger(long handle) {
    super(handle, "ledger", DxNative::ledgerClose);
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
    return new DxLedger(DxNative.ledgerOpen(DxNative.utf8(path), DxNative.utf8(scope), cap, memoCapacity, key, a));
  }

  /**
   * {@link DxPrivatizer#privatizeText} through the ledger; {@code fresh} draws anew (and spends)
   * even when the text is memoised.
   */
  public synchronized DxLedgerRelease privatizeText(DxPrivatizer privatizer, String text, DxOptions options,
      boolean fresh) {
    byte[] input = DxNative.utf8(text);
    boolean[] memoised = new boolean[1];
    Object[] reports = DxNative.reports(false);
    byte[] out;
    synchronized (privatizer) {
      out = call(l -> privatizer.call(c -> DxNative.ledgerPrivatizeText(l, c, options.pairs(), options.lists(),
          input, fresh, memoised, reports)));
    }
    return new DxLedgerRelease(DxNative.string(out), memoised[0], new DxReleaseRecord(reports));
  }

  /** The scope's totals, read from the file. */
  public synchronized DxLedgerTotals totals() {
    return new DxLedgerTotals(call(DxNative::ledgerTotals));
  }

  /**
   * The ledger's anchor now, read from the file: store its {@link DxLedgerAnchor#toBytes()} outside
   * the file after every call, replacing the one before, and pass it to {@code open} next time.
   * Fails with {@link DxStatus#LEDGER_ROLLBACK} when the file is older than what this handle last saw.
   */
  public synchronized DxLedgerAnchor anchor() {
    return DxLedgerAnchor.fromBytes(call(DxNative::ledgerAnchor));
  }

  /** The scope as one line of JSON, as {@code dxtext ledger} prints it. */
  public synchronized String toJson() {
    return DxNative.string(call(DxNative::ledgerJson));
  }

  /** Set the scope's cap (finite, at least 0). */
  public synchronized void setCap(double cap) {
    call(h -> {
      DxNative.ledgerSetCap(h, cap);
      return null;
    });
  }
}
