// SPDX-License-Identifier: Apache-2.0
package org.dxtext;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.util.Locale;

/**
 * Loads libdxtext_jni, in this order:
 *
 * <ol>
 *   <li>the file named by the system property {@code dxtext.jni.path};
 *   <li>the copy inside the jar, {@code /org/dxtext/native/<os>-<arch>/<library>}
 *       (as sqlite-jdbc and zstd-jni do): copied to a private temporary
 *       directory, loaded from there, and deleted when the JVM exits;
 *   <li>{@code System.loadLibrary("dxtext_jni")}: on Android, the library of
 *       the APK (the AAR's jni/&lt;abi&gt;/), elsewhere java.library.path.
 * </ol>
 */
final class DxNativeLoader {
  private DxNativeLoader() {}

  static void load() {
    String path = System.getProperty("dxtext.jni.path");
    String name = System.mapLibraryName("dxtext_jni");
    String resource = "/org/dxtext/native/" + platform() + "/" + name;
    if (path == null || path.isEmpty()) {
      try (InputStream in = DxNativeLoader.class.getResourceAsStream(resource)) {
        path = in == null ? null : extract(in, name);
      } catch (IOException e) {
        throw new UnsatisfiedLinkError("cannot extract " + resource + " from the jar: " + e.getMessage());
      }
    }
    if (path != null && !path.isEmpty()) {
      System.load(path);
      return;
    }
    try {
      System.loadLibrary("dxtext_jni");
    } catch (UnsatisfiedLinkError e) {
      UnsatisfiedLinkError error = new UnsatisfiedLinkError("this dxtext jar has no native library for "
          + platform() + " (" + resource + "), and dxtext_jni is not on java.library.path; set the system "
          + "property dxtext.jni.path to a libdxtext_jni built for this platform");
      error.initCause(e);
      throw error;
    }
  }

  /** "linux-x86_64", "linux-aarch64", "macos-aarch64", ...: the jar's native directory names. */
  static String platform() {
    String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT).split(" ")[0];
    String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
    os = os.startsWith("mac") || os.equals("darwin") ? "macos" : os;
    arch = arch.equals("amd64") ? "x86_64" : arch.equals("arm64") ? "aarch64" : arch;
    return os + "-" + arch;
  }

  // A copy in a private temporary directory, both deleted when the JVM exits.
  private static String extract(InputStream in, String name) throws IOException {
    File dir = Files.createTempDirectory("dxtext-jni").toFile();
    File file = new File(dir, name);
    dir.deleteOnExit(); // registered first, so deleted after the file
    file.deleteOnExit();
    Files.copy(in, file.toPath());
    return file.getAbsolutePath();
  }
}
