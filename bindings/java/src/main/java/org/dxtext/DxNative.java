package org.dxtext;

/**
 * The JNI entry points (src/main/c/dxtext_jni.c). Strings cross as UTF-8
 * byte arrays; failures throw {@link DxException}.
 *
 * <p>The library is loaded from the file named by the system property
 * {@code dxtext.jni.path} if set, else by {@code System.loadLibrary("dxtext_jni")}
 * (on Android: the libdxtext_jni.so packaged in the APK).
 */
final class DxNative {
  static {
    String path = System.getProperty("dxtext.jni.path");
    if (path != null && !path.isEmpty()) {
      System.load(path);
    } else {
      System.loadLibrary("dxtext_jni");
    }
  }

  private DxNative() {}

  static native byte[] versionString();

  static native long modelOpen(byte[] path, boolean verifyDigests);

  static native long modelFromBytes(byte[] data, boolean verifyDigests);

  static native void modelClose(long model);

  static native int[] modelInfo(long model);

  static native byte[] modelFingerprint(long model);

  static native int modelLookup(long model, byte[] word);

  static native byte[] modelWord(long model, int index);

  static native byte[] defaultModelPath(int geometry);

  static native long contextCreate(long model, byte[] seed);

  static native void contextDestroy(long context);

  /** report, fingerprint, json: outputs, or all null for no report. */
  static native byte[] privatizeText(long context, double[] doubles, int[] ints, byte[] placeholder,
      byte[] text, double[] report, byte[] fingerprint, byte[][] json);

  static native byte[] privatizeWord(long context, double[] doubles, int[] ints, byte[] placeholder,
      byte[] word, double[] report, byte[] fingerprint, byte[][] json);

  /** Returns {byte[][] words, long[] counts}; nOut < 0 privatises, else SynTF. */
  static native Object[] privatizeBag(long context, double[] doubles, int[] ints, byte[] placeholder,
      byte[][] words, long[] counts, int nOut, double[] report, byte[] fingerprint, byte[][] json);

  static native double[] calibrate(long context, double[] doubles, int[] ints, byte[] placeholder,
      int words, int trials);
}
