// SPDX-License-Identifier: Apache-2.0
package org.dxtext;

import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.LongConsumer;
import java.util.function.LongFunction;

/**
 * A native object (a model, a context or a ledger) that calls share and {@link #close()} frees
 * once, when the calls in progress are done: a call after it throws IllegalStateException. There
 * is no finaliser: an object never closed keeps its native memory until the process ends.
 */
abstract class DxHandle implements AutoCloseable {
  private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
  private final String name;
  private final LongConsumer free;
  private long handle;

  DxHandle(long handle, String name, LongConsumer free) {
    this.handle = handle;
    this.name = name;
    this.free = free;
  }

  /** Calls the native code with the live handle; close() waits for such calls. */
  <T> T call(LongFunction<T> body) {
    lock.readLock().lock();
    try {
      if (handle == 0) {
        throw new IllegalStateException("the " + name + " is closed");
      }
      return body.apply(handle);
    } finally {
      lock.readLock().unlock();
    }
  }

  /** Frees the native object once the calls in progress are done; closing again does nothing. */
  @Override
  public void close() {
    lock.writeLock().lock();
    try {
      if (handle != 0) {
        free.accept(handle);
        handle = 0;
      }
    } finally {
      lock.writeLock().unlock();
    }
  }
}
