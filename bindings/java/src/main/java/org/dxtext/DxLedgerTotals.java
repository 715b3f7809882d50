// SPDX-License-Identifier: Apache-2.0
package org.dxtext;

/** A ledger scope's totals; the budget unit is epsilon summed over releases. */
public final class DxLedgerTotals {
  private final double[] v;

  DxLedgerTotals(double[] values) {
    this.v = values.clone();
  }

  public double getCap() {
    return v[0];
  }

  public double getSpent() {
    return v[1];
  }

  /** The part of the spent total from syntf's any-input releases. */
  public double getSpentAnyInputs() {
    return v[2];
  }

  public long getReleases() {
    return (long) v[3];
  }

  public long getMemoised() {
    return (long) v[4];
  }

  public int getMemoCapacity() {
    return (int) v[5];
  }

  public long getWords() {
    return (long) v[6];
  }

  public double getRemaining() {
    return Math.max(0.0, v[0] - v[1]);
  }
}
