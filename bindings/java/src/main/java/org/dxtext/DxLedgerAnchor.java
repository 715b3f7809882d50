// SPDX-License-Identifier: Apache-2.0
package org.dxtext;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * What the app keeps outside a ledger file to detect a rollback (an older copy of the file put
 * back, or the file deleted): take it with {@link DxLedger#anchor()} after every call, store {@link
 * #toBytes()} where the file's writer cannot change it (the Android Keystore, a server), and give
 * {@link #fromBytes} of it back to {@link DxLedger#open(String, String, double, int, byte[],
 * DxLedgerAnchor)}. Without it a rollback is not detected (docs/budgets.md, "Rollback"). Immutable.
 */
public final class DxLedgerAnchor {
  /** The length of {@link #toBytes()}. */
  public static final int BYTES = 32;

  private final byte[] bytes;

  private DxLedgerAnchor(byte[] bytes) {
    this.bytes = bytes;
  }

  /**
   * The anchor from the 32 bytes {@link #toBytes()} gave.
   *
   * @throws DxException with {@link DxStatus#INVALID_ARGUMENT} for null or any other length
   */
  public static DxLedgerAnchor fromBytes(byte[] bytes) {
    if (bytes == null || bytes.length != BYTES) {
      throw new DxException(DxStatus.INVALID_ARGUMENT.code(),
          "invalid argument: a ledger anchor is " + BYTES + " bytes");
    }
    return new DxLedgerAnchor(bytes.clone());
  }

  /** The 32 bytes to store: the ledger id, then the commits and the spent total (little-endian). */
  public byte[] toBytes() {
    return bytes.clone();
  }

  /** 16 bytes naming the ledger: the same for every copy of its file. */
  public byte[] getLedgerId() {
    return Arrays.copyOf(bytes, 16);
  }

  /** Commits made to the ledger, an unsigned 64-bit number; only grows. */
  public long getCommits() {
    return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getLong(16);
  }

  /** Epsilon spent over all the ledger's scopes; only grows. */
  public double getSpent() {
    return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getDouble(24);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof DxLedgerAnchor && Arrays.equals(bytes, ((DxLedgerAnchor) other).bytes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes);
  }

  @Override
  public String toString() {
    return "DxLedgerAnchor{commits=" + Long.toUnsignedString(getCommits()) + ", spent=" + getSpent() + "}";
  }
}
