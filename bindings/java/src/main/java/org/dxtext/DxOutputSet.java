// SPDX-License-Identifier: Apache-2.0
package org.dxtext;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * An output vocabulary: a public list of a model's words that the mechanisms may release, made
 * once by {@link DxModel#outputSet(List)} and passed to any number of calls with {@link
 * DxOptions#outputWords(DxOutputSet)}. The words must be fixed in advance and never made from the
 * text being privatised (docs/guarantees.md, "Output vocabularies"). Immutable and safe to share
 * between threads. The words reach each call by name (the option output_words), so it holds no
 * native memory: {@link #close()} does nothing, and calls that use it afterwards work as before.
 */
public final class DxOutputSet implements AutoCloseable {
  private final List<String> words;

  // The library refuses the words here as a call would (dxt_options_set_words).
  DxOutputSet(DxModel model, List<String> words) {
    DxOptions options = DxOptions.defaults().setWords("output_words", words);
    model.call(h -> {
      DxNative.optionsCheck(h, options.pairs(), options.lists());
      return null;
    });
    this.words = Collections.unmodifiableList(new ArrayList<>(words));
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
  public void close() {}
}
