// SPDX-License-Identifier: Apache-2.0
package org.dxtext;

/**
 * A ledger scope's totals ({@code dxt_ledger_totals}); the budget unit is epsilon summed over
 * releases.
 */
public final class DxLedgerTotals {
  // generated: fields (tools/options/generate.py, from include/dxtext/dxtext.h)
  private final double cap;
  private final double spent;
  private final double spentAnyInputs;
  private final long releases;
  private final long memoised;
  private final int memoCapacity;
  private final long words;

  DxLedgerTotals(double[] v) {
    cap = v[0];
    spent = v[1];
    spentAnyInputs = v[2];
    releases = (long) v[3];
    memoised = (long) v[4];
    memoCapacity = (int) v[5];
    words = (long) v[6];
  }

  public double getCap() {
    return cap;
  }

  /** Sum of the costs of all releases. */
  public double getSpent() {
    return spent;
  }

  /** The part of spent from ANY_INPUTS releases. */
  public double getSpentAnyInputs() {
    return spentAnyInputs;
  }

  /** Releases counted (memoised repeats are not). */
  public long getReleases() {
    return releases;
  }

  /** Outputs in the memo now. */
  public long getMemoised() {
    return memoised;
  }

  public int getMemoCapacity() {
    return memoCapacity;
  }

  /** Words privatised over all releases. */
  public long getWords() {
    return words;
  }
  // generated: end fields

  /** The cap less the spent total, at least 0. */
  public double getRemaining() {
    return Math.max(0.0, cap - spent);
  }
}
