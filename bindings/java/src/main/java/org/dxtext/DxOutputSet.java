// SPDX-License-Identifier: Apache-2.0
package org.dxtext;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import java.util.ArrayList;

/**
 * An output vocabulary ({@code dxt_output_set}): a public list of a model's words that the
 * mechanisms may release, made once by {@link DxModel#outputSet(List)} and passed to any number of
 * calls with {@link DxOptions#outputWords(DxOutputSet)}. The words must be fixed in advance and
 * never made from the text being privatised (docs/guarantees.md, "Output vocabularies").
 * Immutable and safe to share between threads; it keeps its model's memory alive. Close it when
 * done (calls that use it afterwards fail).
 */
public final class DxOutputSet implements AutoCloseable {
  private long handle;
  private final List<String> words;

  DxOutputSet(long modelHandle, List<String> words) {
    byte[][] utf8 = new byte[words.size()][];
    for (int i = 0; i < utf8.length; ++i) {
      String w = words.get(i);
      if (w == null) {
        throw new NullPointerException("output word " + i + " is null");
      }
      if (w.indexOf('\0') >= 0) {
        throw new IllegalArgumentException("output word " + i + " contains a NUL character");
      }
      utf8[i] = w.getBytes(StandardCharsets.UTF_8);
    }
    this.handle = DxNative.outputSetCreate(modelHandle, utf8);
    this.words = Collections.unmodifiableList(new ArrayList<>(words));
  }

  synchronized long handle() {
    if (handle == 0) {
      throw new IllegalStateException("the output set is closed");
    }
    return handle;
  }

  /** The words, as given. */
  public List<String> getWords() {
    return words;
  }

  /** The number of words. */
  public int size() {
    return words.size();
  }

  @Override
  public synchronized void close() {
    if (handle != 0) {
      DxNative.outputSetFree(handle);
      handle = 0;
    }
  }
}
