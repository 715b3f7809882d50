package org.dxtext;

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
   * The path of the default model: the file named by the environment variable
   * DXTEXT_MODEL, else the newest dxtext-en-euclid-*.dxe (Euclidean) or
   * dxtext-wordnet-poincare-*.dxe (Poincare) of the installed models
   * directory, then of the source tree's models/. NOT_FOUND when none.
   */
  public static String defaultPath(DxModelInfo.Geometry geometry) {
    return new String(DxNative.defaultModelPath(geometry.ordinal()), StandardCharsets.UTF_8);
  }

  /** The default Euclidean model. */
  public static DxModel openDefault() {
    return open(defaultPath(DxModelInfo.Geometry.EUCLIDEAN));
  }

  public static DxModel openDefault(DxModelInfo.Geometry geometry) {
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
