// SPDX-License-Identifier: Apache-2.0
package org.dxtext;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.LongFunction;

/**
 * An opened {@code .dxe} embedding model. Immutable and safe to share between
 * threads: open it once and make one {@link DxPrivatizer} per thread from it.
 * Close it when done (try-with-resources); privatizers made from it keep
 * working after it is closed.
 */
public final class DxModel implements AutoCloseable {
  private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
  private long handle;
  private final String path;
  private volatile DxModelInfo info;

  private DxModel(long handle, String path) {
    this.handle = handle;
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
    return new DxModel(DxNative.modelOpen(path.getBytes(StandardCharsets.UTF_8), verifyDigests), path);
  }

  /** Open a model held in memory; the bytes are copied into an aligned native buffer. */
  public static DxModel fromBytes(byte[] data) {
    return new DxModel(DxNative.modelFromBytes(data, false), null);
  }

  /**
   * Open a model from a ByteBuffer: its bytes from position to limit are
   * copied into an aligned native buffer (the buffer's position is not
   * changed, and it may be reused afterwards). Direct and heap buffers both
   * work, e.g. a memory-mapped file or an Android asset read into memory.
   */
  public static DxModel fromByteBuffer(ByteBuffer buffer) {
    if (buffer.isDirect()) {
      return new DxModel(DxNative.modelFromDirectBuffer(buffer, buffer.position(), buffer.remaining(), false), null);
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

  /** The resource of the Euclidean model carried by this jar, or null. */
  static String bundledModelResource() {
    try (InputStream in = DxModel.class.getResourceAsStream("/org/dxtext/models/default-euclidean")) {
      return in == null ? null : "/org/dxtext/models/" + new String(readAll(in), StandardCharsets.UTF_8).trim();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
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
    return new String(DxNative.defaultModelPath(geometry.ordinal()), StandardCharsets.UTF_8);
  }

  /**
   * The default Euclidean model: the file named by DXTEXT_MODEL if set, else
   * the model carried inside the dxtext jar, else {@link #defaultPath}'s.
   */
  public static DxModel openDefault() {
    String env = System.getenv("DXTEXT_MODEL");
    String resource = env == null || env.isEmpty() ? bundledModelResource() : null;
    if (resource == null) {
      return open(defaultPath(DxModelInfo.Geometry.EUCLIDEAN));
    }
    try (InputStream in = DxModel.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new DxException(DxStatus.NOT_FOUND.code(), "the jar names " + resource + " but does not carry it");
      }
      return fromStream(in);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + resource + " from the jar", e);
    }
  }

  public static DxModel openDefault(DxModelInfo.Geometry geometry) {
    if (geometry == DxModelInfo.Geometry.EUCLIDEAN) {
      return openDefault();
    }
    return open(defaultPath(geometry));
  }

  /** "major.minor.patch" of the native library actually loaded. */
  public static String libraryVersion() {
    return new String(DxNative.versionString(), StandardCharsets.UTF_8);
  }

  // Calls the native code with the live handle; close() waits for such calls.
  <T> T withHandle(LongFunction<T> body) {
    lock.readLock().lock();
    try {
      if (handle == 0) {
        throw new IllegalStateException("the model is closed");
      }
      return body.apply(handle);
    } finally {
      lock.readLock().unlock();
    }
  }

  /** The file the model was opened from, or null. */
  public String getPath() {
    return path;
  }

  public DxModelInfo getInfo() {
    DxModelInfo i = info;
    if (i == null) {
      i = new DxModelInfo(withHandle(DxNative::modelInfo));
      info = i;
    }
    return i;
  }

  public int getVocabularySize() {
    return getInfo().vocabularySize;
  }

  /** SHA-256 of the model file: its fingerprint in reports. */
  public byte[] fingerprint() {
    return withHandle(DxNative::modelFingerprint);
  }

  /** The vocabulary index of {@code word}; NOT_FOUND when absent. */
  public int lookup(String word) {
    byte[] utf8 = word.getBytes(StandardCharsets.UTF_8);
    return withHandle(h -> DxNative.modelLookup(h, utf8));
  }

  /** The word at {@code index}. */
  public String word(int index) {
    return new String(withHandle(h -> DxNative.modelWord(h, index)), StandardCharsets.UTF_8);
  }

  /**
   * An output vocabulary of this model: {@code words}, a public list fixed in advance, for {@link
   * DxOptions#outputWords}. An empty list, a word not in the model and a word given twice are
   * refused (INVALID_ARGUMENT).
   */
  public DxOutputSet outputSet(java.util.List<String> words) {
    return withHandle(h -> new DxOutputSet(h, words));
  }

  @Override
  public void close() {
    lock.writeLock().lock();
    try {
      if (handle != 0) {
        DxNative.modelClose(handle);
        handle = 0;
      }
    } finally {
      lock.writeLock().unlock();
    }
  }
}
