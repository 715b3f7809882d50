package org.dxtext;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/** The Java binding end to end, on the default model. */
public class DxTextTest {
  private static final String SENTENCE = "The president spoke to the nation about the war.";
  private static DxModel model;

  @BeforeClass
  public static void openModel() {
    model = DxModel.openDefault();
  }

  @AfterClass
  public static void closeModel() {
    model.close();
  }

  private static Path golden() {
    // The tests run from the build directory; the source tree is found from
    // the default model's path (<root>/models/...) or the working directory.
    Path models = Paths.get(DxModel.defaultPath(DxModelInfo.Geometry.EUCLIDEAN)).getParent();
    Path candidate = models.getParent().resolve("tests/data/golden_v1.dxe");
    String root = System.getProperty("dxtext.source.root");
    return root != null ? Paths.get(root, "tests/data/golden_v1.dxe") : candidate;
  }

  private static Map<String, Long> bag(Object... pairs) {
    Map<String, Long> m = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      m.put((String) pairs[i], ((Number) pairs[i + 1]).longValue());
    }
    return m;
  }

  @Test
  public void opensTheDefaultModel() {
    assertTrue(new File(DxModel.defaultPath(DxModelInfo.Geometry.EUCLIDEAN)).isFile());
    DxModelInfo info = model.getInfo();
    assertEquals(DxModelInfo.Geometry.EUCLIDEAN, info.geometry);
    assertTrue(info.vocabularySize > 1000);
    assertEquals("house", model.word(model.lookup("house")));
    assertEquals(32, model.fingerprint().length);
    assertTrue(DxModel.libraryVersion().matches("\\d+\\.\\d+\\.\\d+"));
  }

  @Test
  public void privatizesATextWithAReport() {
    try (DxPrivatizer p = new DxPrivatizer(model)) {
      DxText result = p.privatizeTextWithReport(SENTENCE, DxOptions.epsilon(20));
      assertTrue(result.getText(), result.getText().endsWith("."));
      DxReport r = result.getReport();
      assertEquals(DxMechanism.LAPLACE, r.getMechanism());
      assertEquals(DxReport.Metric.EUCLIDEAN, r.getMetric());
      assertEquals(20.0, r.getEpsilon(), 0);
      assertTrue(r.isPrivate());
      assertEquals(9, r.getWordsPrivatized());
      assertEquals(9, r.getCount(DxTokenClass.IN_VOCABULARY, DxPolicy.PRIVATIZE)
          + r.getCount(DxTokenClass.STOPWORD, DxPolicy.PRIVATIZE));
      assertEquals(180.0, r.getEpsilonDocument(), 0);
      assertArrayEquals(model.fingerprint(), r.getModelFingerprint());
      assertTrue(r.toJson(), r.toJson().contains("\"words_privatized\":9"));
      // Non-ASCII text crosses JNI as UTF-8, including characters beyond U+FFFF.
      String out = p.privatizeText("Caf\u00e9 \ud83d\ude00 war", DxOptions.epsilon(20));
      assertTrue(out, out.contains("\ud83d\ude00"));
    }
  }

  @Test
  public void privatizesABag() {
    try (DxPrivatizer p = new DxPrivatizer(model)) {
      DxBag out = p.privatizeBag(bag("war", 3, "peace", 2, "zzqxv", 1), DxOptions.epsilon(10));
      assertEquals(6, out.size());
      assertEquals(6, out.getReport().getWordsPrivatized());
      assertEquals(1, out.getReport().getCount(DxTokenClass.OUT_OF_VOCABULARY, DxPolicy.PRIVATIZE));
      assertEquals(60.0, out.getReport().getEpsilonDocument(), 0);
      DxBag dropped = p.privatizeBag(bag("war", 3, "peace", 2, "zzqxv", 1),
          DxOptions.epsilon(10).policy(DxTokenClass.OUT_OF_VOCABULARY, DxPolicy.DROP));
      assertEquals(5, dropped.size());
      assertEquals(1, dropped.getReport().getCount(DxTokenClass.OUT_OF_VOCABULARY, DxPolicy.DROP));
    }
  }

  @Test
  public void wordsSyntfAndCalibration() {
    try (DxPrivatizer p = new DxPrivatizer(model)) {
      assertEquals("house", p.privatizeWord("house", DxOptions.epsilon(1000)));
      DxOptions placeholder = DxOptions.epsilon(5)
          .policy(DxTokenClass.OUT_OF_VOCABULARY, DxPolicy.PLACEHOLDER).placeholder("[x]");
      assertEquals("[x]", p.privatizeWord("zzqxv", placeholder));
      DxBag synthetic = p.syntf(bag("war", 2, "peace", 1), 5, DxOptions.epsilon(2));
      assertEquals(5, synthetic.size());
      assertEquals(10.0, synthetic.getReport().getEpsilonDocument(), 0);
      double vocabularyBound = synthetic.getReport().getEpsilonDocumentVocabulary();
      assertTrue(vocabularyBound > 0 && vocabularyBound < 10);
      DxCalibration c = p.calibrate(DxOptions.epsilon(20), 20, 10);
      assertEquals(20, c.words);
      assertEquals(10, c.trials);
      assertTrue(c.keepMean >= 0 && c.keepMean <= 1);
    }
  }

  @Test
  public void seededPrivatizersRepeatAndAreNotPrivate() {
    byte[] seed = new byte[32];
    java.util.Arrays.fill(seed, (byte) 7);
    try (DxPrivatizer a = new DxPrivatizer(model, seed); DxPrivatizer b = new DxPrivatizer(model, seed)) {
      DxText ra = a.privatizeTextWithReport(SENTENCE, DxOptions.epsilon(5));
      assertEquals(ra.getText(), b.privatizeText(SENTENCE, DxOptions.epsilon(5)));
      assertFalse(ra.getReport().isPrivate());
    }
    DxException e = assertThrows(DxException.class, () -> new DxPrivatizer(model, new byte[5]));
    assertEquals(DxStatus.INVALID_ARGUMENT, e.getStatus());
  }

  @Test
  public void badEpsilonIsATypedError() {
    try (DxPrivatizer p = new DxPrivatizer(model)) {
      for (double epsilon : new double[] {0, -1, Double.NaN, Double.POSITIVE_INFINITY}) {
        DxException e = assertThrows(DxException.class, () -> p.privatizeText(SENTENCE, DxOptions.epsilon(epsilon)));
        assertEquals(DxStatus.INVALID_EPSILON, e.getStatus());
        assertEquals(2, e.getCode());
        assertTrue(e.getMessage(), e.getMessage().contains("epsilon"));
      }
      DxException e = assertThrows(DxException.class,
          () -> p.privatizeWord("war", DxOptions.epsilon(3).mechanism(DxMechanism.HYPERBOLIC)));
      assertEquals(DxStatus.UNSUPPORTED, e.getStatus());
    }
  }

  @Test
  public void searchOptionReachesTheLibrary() {
    try (DxPrivatizer p = new DxPrivatizer(model)) {
      assertTrue(!p.privatizeText(SENTENCE, DxOptions.epsilon(4).exactSearch()).isEmpty());
      // The default model has no search index: the library itself refuses IVF.
      DxException e = assertThrows(DxException.class,
          () -> p.privatizeText(SENTENCE, DxOptions.epsilon(4).ivfSearch(4)));
      assertEquals(DxStatus.UNSUPPORTED, e.getStatus());
      assertThrows(IllegalArgumentException.class, () -> DxOptions.epsilon(4).ivfSearch(-1));
    }
  }

  @Test
  public void missingFileIsAnIoError() {
    DxException e = assertThrows(DxException.class, () -> DxModel.open("/nonexistent/dxtext/model.dxe"));
    assertEquals(DxStatus.IO, e.getStatus());
    assertTrue(e.getMessage(), e.getMessage().contains("model.dxe"));
  }

  @Test
  public void corruptModelsAreTypedErrors() throws Exception {
    byte[] bytes = Files.readAllBytes(golden());
    DxModel.fromBytes(bytes).close();
    DxException truncated =
        assertThrows(DxException.class, () -> DxModel.fromBytes(java.util.Arrays.copyOf(bytes, bytes.length / 2)));
    assertEquals(DxStatus.TRUNCATED_MODEL, truncated.getStatus());
    assertTrue(truncated.getStatus().isModelError());
    byte[] garbage = new byte[256];
    java.util.Arrays.fill(garbage, (byte) 0x42);
    assertEquals(DxStatus.NOT_A_MODEL, assertThrows(DxException.class, () -> DxModel.fromBytes(garbage)).getStatus());
    byte[] damaged = bytes.clone();
    damaged[60] = 1;
    Path file = Files.createTempFile("dxtext-java-", ".dxe");
    try {
      Files.write(file, damaged);
      DxException e = assertThrows(DxException.class, () -> DxModel.open(file));
      assertEquals(DxStatus.DIGEST_MISMATCH, e.getStatus());
      assertTrue(e.getStatus().isModelError());
    } finally {
      Files.delete(file);
    }
  }

  @Test
  public void onePrivatizerPerThreadOverASharedModel() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<Integer>> results = new ArrayList<>();
      for (int t = 0; t < 4; ++t) {
        results.add(pool.submit(() -> {
          try (DxPrivatizer p = new DxPrivatizer(model)) {
            int n = 0;
            for (int i = 0; i < 20; ++i) {
              n += p.privatizeText(SENTENCE, DxOptions.epsilon(15)).isEmpty() ? 0 : 1;
            }
            return n;
          }
        }));
      }
      int total = 0;
      for (Future<Integer> f : results) {
        total += f.get();
      }
      assertEquals(80, total);
    } finally {
      pool.shutdown();
    }
  }

  @Test
  public void aPrivatizerOutlivesItsModel() throws Exception {
    DxModel m = DxModel.fromBytes(Files.readAllBytes(golden()));
    String word = m.word(0);
    DxPrivatizer p = new DxPrivatizer(m);
    m.close();
    assertThrows(IllegalStateException.class, () -> m.word(0));
    assertNotNull(p.privatizeWord(word, DxOptions.epsilon(1)));
    p.close();
    p.close(); // idempotent
    assertThrows(IllegalStateException.class, () -> p.privatizeWord(word, DxOptions.epsilon(1)));
    assertNull(DxMechanism.of(99));
  }
}
