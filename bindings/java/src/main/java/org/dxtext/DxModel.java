// SPDX-License-Identifier: Apache-2.0
package org.dxtext;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;

/**
 * An opened {@code .dxe} embedding model. Immutable and safe to share between
 * threads: open it once and make one {@link DxPrivatizer} per thread from it.
 * Close it when done (try-with-resources); privatizers made from it keep
 * working after it is closed.
 */
public final class DxModel extends DxHandle {
  private final String path;

  private DxModel(long handle, String path) {
    super(handle, "model", DxNative::modelClose);
    this.path = path;
  }

  /** Memory-map and validate the model file at {@code path}. */
  public static DxModel open(String path) {
    return open(path, false);
  }

  public static DxModel open(Path path) {
    return open(path.toString(), false);
  }

  /** As {@link #open(String)}; {@code verifyDigests} also checks every section's SHA-256. */
  public static DxModel open(String path, boolean verifyDigests) {
    return new DxModel(DxNative.modelOpen(DxNative.utf8(path), verifyDigests), path);
  }

  /** Open a model held in memory; the bytes are copied into an aligned native buffer. */
  public static DxModel fromBytes(byte[] data) {
    return new DxModel(DxNative.modelFromBytes(data), null);
  }

  /**
   * Open a model from a ByteBuffer: its bytes from position to limit are
   * copied into an aligned native buffer (the buffer's position is not
   * changed, and it may be reused afterwards). Direct and heap buffers both
   * work, e.g. a memory-mapped file or an Android asset read into memory.
   */
  public static DxModel fromByteBuffer(ByteBuffer buffer) {
    if (buffer.isDirect()) {
      return new DxModel(DxNative.modelFromDirectBuffer(buffer, buffer.position(), buffer.remaining()), null);
    }
    byte[] bytes = new byte[buffer.remaining()];
    buffer.duplicate().get(bytes);
    return fromBytes(bytes);
  }

  /**
   * Open a model from a stream read to its end (not closed here), e.g. an
   * Android asset: {@code DxModel.fromStream(context.getAssets().open("model.dxe"))}.
   */
  public static DxModel fromStream(InputStream in) throws IOException {
    return fromBytes(readAll(in));
  }

  // InputStream.readAllBytes, which Android has only from API 33.
  private static byte[] readAll(InputStream in) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(1 << 16);
    byte[] chunk = new byte[1 << 16];
    for (int n; (n = in.read(chunk)) > 0; ) {
      out.write(chunk, 0, n);
    }
    return out.toByteArray();
  }

  /**
   * The path of the default model: the file named by the environment variable
   * DXTEXT_MODEL, else the newest dxtext-en-euclid-*.dxe (Euclidean) or
   * dxtext-wordnet-poincare-*.dxe (Poincare) found beside the native
   * library, in the installed models directory, or in the source tree's
   * models/. NOT_FOUND when none. (The model inside a packaged jar has no
   * path: {@link #openDefault()} opens it.)
   */
  public static String defaultPath(DxModelInfo.Geometry geometry) {
    return DxNative.string(DxNative.defaultModelPath(geometry.ordinal()));
  }

  /**
   * The default Euclidean model: the file named by DXTEXT_MODEL if set, else
   * the model carried inside the dxtext jar, else {@link #defaultPath}'s.
   */
  public static DxModel openDefault() {
    String env = System.getenv("DXTEXT_MODEL");
    InputStream name = env == null || env.isEmpty()
        ? DxModel.class.getResourceAsStream("/org/dxtext/models/default-euclidean") : null;
    if (name == null) {
      return open(defaultPath(DxModelInfo.Geometry.EUCLIDEAN));
    }
    try (name; InputStream in = DxModel.class.getResourceAsStream(
        "/org/dxtext/models/" + DxNative.string(readAll(name)).trim())) {
      if (in == null) {
        throw new DxException(DxStatus.NOT_FOUND.code(), "the jar names a default model but does not carry it");
      }
      return fromStream(in);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the default model from the jar", e);
    }
  }

  public static DxModel openDefault(DxModelInfo.Geometry geometry) {
    return geometry == DxModelInfo.Geometry.EUCLIDEAN ? openDefault() : open(defaultPath(geometry));
  }

  /** "major.minor.patch" of the native library actually loaded. */
  public static String libraryVersion() {
    return DxNative.string(DxNative.versionString());
  }

  /** The file the model was opened from, or null. */
  public String getPath() {
    return path;
  }

  public DxModelInfo getInfo() {
    return new DxModelInfo(call(DxNative::modelInfo));
  }

  public int getVocabularySize() {
    return getInfo().vocabularySize;
  }

  /** SHA-256 of the model file: its fingerprint in reports. */
  public byte[] fingerprint() {
    return call(DxNative::modelFingerprint);
  }

  /** The vocabulary index of {@code word}; NOT_FOUND when absent. */
  public int lookup(String word) {
    return call(h -> DxNative.modelLookup(h, DxNative.utf8(word)));
  }

  /** The word at {@code index}. */
  public String word(int index) {
    return DxNative.string(call(h -> DxNative.modelWord(h, index)));
  }

  /**
   * An output vocabulary of this model: {@code words}, a public list fixed in advance, for {@link
   * DxOptions#outputWords}. An empty list, a word not in the model and a word given twice are
   * refused (INVALID_ARGUMENT).
   */
  public DxOutputSet outputSet(List<String> words) {
    return new DxOutputSet(this, words);
  }
}
