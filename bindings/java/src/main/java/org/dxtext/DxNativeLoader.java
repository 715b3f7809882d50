// SPDX-License-Identifier: Apache-2.0
package org.dxtext;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
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
    if (path != null && !path.isEmpty()) {
      System.load(path);
      return;
    }
    String resource = "/org/dxtext/native/" + platform() + "/" + System.mapLibraryName("dxtext_jni");
    try (InputStream in = DxNativeLoader.class.getResourceAsStream(resource)) {
      if (in != null) {
        System.load(extract(in, System.mapLibraryName("dxtext_jni")).getAbsolutePath());
        return;
      }
    } catch (IOException e) {
      throw new UnsatisfiedLinkError("cannot extract " + resource + " from the jar: " + e.getMessage());
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
    String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
    if (os.startsWith("mac") || os.startsWith("darwin")) {
      os = "macos";
    } else if (os.startsWith("windows")) {
      os = "windows";
    } else if (os.startsWith("linux")) {
      os = "linux";
    }
    if (arch.equals("amd64") || arch.equals("x86_64")) {
      arch = "x86_64";
    } else if (arch.equals("arm64") || arch.equals("aarch64")) {
      arch = "aarch64";
    }
    return os + "-" + arch;
  }

  private static File extract(InputStream in, String name) throws IOException {
    File dir = Files.createTempDirectory("dxtext-jni").toFile();
    File file = new File(dir, name);
    dir.deleteOnExit(); // registered first, so deleted after the file
    file.deleteOnExit();
    Files.copy(in, file.toPath(), StandardCopyOption.REPLACE_EXISTING);
    return file;
  }
}
