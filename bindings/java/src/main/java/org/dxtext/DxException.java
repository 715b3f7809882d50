// SPDX-License-Identifier: Apache-2.0
package org.dxtext;

/**
 * A failed dxtext call. {@link #getStatus()} says what went wrong; the message
 * is the library's, as it is (dxt_last_error_message), e.g. "not a dxtext model:
 * bad magic bytes (in '...')".
 */
public class DxException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final DxStatus status;
  private final int code;

  public DxException(int code, String message) {
    super(message);
    this.code = code;
    this.status = DxStatus.of(code);
  }

  /** Called by the native library: the message crosses as UTF-8 bytes. */
  static DxException fromNative(int code, byte[] message) {
    return new DxException(code, DxNative.string(message));
  }

  public DxStatus getStatus() {
    return status;
  }

  /** The numeric status, also for codes newer than this binding. */
  public int getCode() {
    return code;
  }
}
