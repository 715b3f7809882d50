// SPDX-License-Identifier: Apache-2.0
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
    String root = System.getProperty("dxtext.source.root");
    if (root != null) {
      return Paths.get(root, "tests/data/golden_v1.dxe");
    }
    Path models = Paths.get(DxModel.defaultPath(DxModelInfo.Geometry.EUCLIDEAN)).toAbsolutePath().getParent();
    return models.getParent().resolve("tests/data/golden_v1.dxe");
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
  public void privatizesATextWithARecordAndDiagnostics() {
    // Seeded texts and their records are the conformance suite's
    // (ConformanceTest); here the system generator and the diagnostics.
    try (DxPrivatizer p = new DxPrivatizer(model)) {
      DxText result = p.privatizeTextWithLocalDiagnostics(SENTENCE, DxOptions.epsilon(20));
      DxReleaseRecord r = result.getRecord();
      assertTrue(r.isPrivate());
      assertArrayEquals(model.fingerprint(), r.getModelFingerprint());
      assertFalse(r.toJson(), r.toJson().contains("words_privatized"));
      DxLocalDiagnostics d = result.getLocalDiagnostics();
      assertEquals(9, d.getWordsPrivatized());
      assertEquals(9, d.getCount(DxTokenClass.IN_VOCABULARY, DxPolicy.PRIVATIZE)
          + d.getCount(DxTokenClass.STOPWORD, DxPolicy.PRIVATIZE));
      assertTrue(d.toJson(), d.toJson().contains("\"words_privatized\":9"));
      assertNull(p.privatizeTextWithRecord(SENTENCE, DxOptions.epsilon(20)).getLocalDiagnostics());
      // Non-ASCII text across JNI, characters beyond U+FFFF included: the conformance suite.
    }
  }

  @Test
  public void outputWordsRestrictWhatIsReleased() {
    List<String> allowed = java.util.Arrays.asList("house", "river", "music");
    try (DxPrivatizer p = new DxPrivatizer(model); DxOutputSet set = model.outputSet(allowed)) {
      assertEquals(3, set.size());
      assertEquals(allowed, set.getWords());
      DxOptions options = DxOptions.epsilon(2).mechanism(DxMechanism.EXPONENTIAL).outputWords(set);
      for (int call = 0; call < 3; ++call) {
        DxText out = p.privatizeTextWithRecord("the cat sat on the mat tonight", options.releaseShape(DxReleaseShape.STRICT));
        for (String w : out.getText().split(" ")) {
          assertTrue(w, allowed.contains(w));
        }
        assertTrue(out.getRecord().toJson(), out.getRecord().toJson().contains("\"kind\":\"list\",\"size\":3"));
      }
      DxException twice = assertThrows(DxException.class, () -> model.outputSet(java.util.Arrays.asList("house", "house")));
      assertEquals(DxStatus.INVALID_ARGUMENT, twice.getStatus());
      DxException unknown = assertThrows(DxException.class, () -> model.outputSet(java.util.Arrays.asList("house", "zzqxv")));
      assertTrue(unknown.getMessage(), unknown.getMessage().contains("zzqxv"));
      DxException empty = assertThrows(DxException.class, () -> model.outputSet(java.util.Collections.emptyList()));
      assertEquals(DxStatus.INVALID_ARGUMENT, empty.getStatus());
      // Not beside output_top, and not beside a preset.
      assertThrows(DxException.class, () -> p.privatizeText("cat", options.outputTop(10)));
      DxException preset = assertThrows(DxException.class,
          () -> p.privatizeText("cat", DxOptions.of(DxPreset.FEATURES).outputWords(set)));
      assertTrue(preset.getMessage(), preset.getMessage().contains("output_words: the preset 'features' fixes the output vocabulary"));
    }
  }

  @Test
  public void privatizesABag() {
    try (DxPrivatizer p = new DxPrivatizer(model)) {
      // Seeded bags and their records are the conformance suite's; here the local diagnostics.
      DxBag out = p.privatizeBagWithLocalDiagnostics(bag("war", 3, "peace", 2, "zzqxv", 1), DxOptions.epsilon(10));
      assertEquals(6, out.getLocalDiagnostics().getWordsPrivatized());
      assertEquals(1, out.getLocalDiagnostics().getCount(DxTokenClass.OUT_OF_VOCABULARY, DxPolicy.PRIVATIZE));
      DxBag dropped = p.privatizeBagWithLocalDiagnostics(bag("war", 3, "peace", 2, "zzqxv", 1),
          DxOptions.epsilon(10).policy(DxTokenClass.OUT_OF_VOCABULARY, DxPolicy.DROP));
      assertEquals(1, dropped.getLocalDiagnostics().getCount(DxTokenClass.OUT_OF_VOCABULARY, DxPolicy.DROP));
      assertNull(p.privatizeBag(bag("war", 1), DxOptions.epsilon(10)).getLocalDiagnostics());
    }
  }

  @Test
  public void syntfAndCalibrationTypes() {
    // Words, SynTF bags and calibrations by seed are the conformance suite's; here the typed fields it does not read.
    try (DxPrivatizer p = new DxPrivatizer(model)) {
      DxBag synthetic = p.syntf(bag("war", 2, "peace", 1), 5, DxOptions.epsilon(2));
      assertEquals(5, synthetic.getRecord().getDraws());
      assertEquals(10.0, synthetic.getRecord().getEpsilonTotal(), 0);
      double vocabularyBound = synthetic.getRecord().getEpsilonVocabulary();
      assertTrue(vocabularyBound > 0 && vocabularyBound < 2);
      assertEquals(20, p.calibrate(DxOptions.epsilon(20), 20, 10).words);
    }
  }

  @Test
  public void seededPrivatizersRepeatAndAreNotPrivate() {
    byte[] seed = new byte[32];
    java.util.Arrays.fill(seed, (byte) 7);
    try (DxPrivatizer a = new DxPrivatizer(model, seed); DxPrivatizer b = new DxPrivatizer(model, seed)) {
      DxText ra = a.privatizeTextWithRecord(SENTENCE, DxOptions.epsilon(5));
      assertEquals(ra.getText(), b.privatizeText(SENTENCE, DxOptions.epsilon(5)));
      assertFalse(ra.getRecord().isPrivate());
    }
    DxException e = assertThrows(DxException.class, () -> new DxPrivatizer(model, new byte[5]));
    assertEquals(DxStatus.INVALID_ARGUMENT, e.getStatus());
  }

  @Test
  public void badEpsilonIsATypedError() {
    try (DxPrivatizer p = new DxPrivatizer(model)) {
      // 0, -1 and out of range: the conformance suite; here the doubles JSON cannot write.
      for (double epsilon : new double[] {Double.NaN, Double.POSITIVE_INFINITY}) {
        DxException e = assertThrows(DxException.class, () -> p.privatizeText(SENTENCE, DxOptions.epsilon(epsilon)));
        assertEquals(DxStatus.INVALID_EPSILON, e.getStatus());
        assertEquals(2, e.getCode());
        assertTrue(e.getMessage(), e.getMessage().contains("epsilon"));
      }
    }
  }

  @Test
  public void integersOutOfRangeAreRefusedNotWrapped() {
    // A negative Java int would be a huge uint32_t or uint64_t in C.
    try (DxPrivatizer p = new DxPrivatizer(model)) {
      assertEquals(DxStatus.INVALID_ARGUMENT,
          assertThrows(DxException.class, () -> p.calibrate(DxOptions.epsilon(1), -1, 1)).getStatus());
      assertEquals(DxStatus.INVALID_ARGUMENT,
          assertThrows(DxException.class, () -> p.calibrate(DxOptions.epsilon(1), 1, Integer.MIN_VALUE)).getStatus());
      assertEquals(DxStatus.INVALID_ARGUMENT,
          assertThrows(DxException.class, () -> p.syntf(bag("war", 1, "peace", 1), -1, DxOptions.epsilon(1)))
              .getStatus());
      assertEquals(DxStatus.INVALID_ARGUMENT,
          assertThrows(DxException.class, () -> p.privatizeBag(bag("war", -1, "peace", 1), DxOptions.epsilon(1)))
              .getStatus());
    }
    assertEquals(DxStatus.NOT_FOUND, assertThrows(DxException.class, () -> model.word(-1)).getStatus());
    assertEquals(DxStatus.NOT_FOUND, assertThrows(DxException.class, () -> model.word(Integer.MAX_VALUE)).getStatus());
    assertEquals(DxStatus.CONTEXT_BUSY, DxStatus.of(17));
    assertEquals(DxStatus.BUDGET_EXCEEDED, DxStatus.of(18));
    assertEquals(DxStatus.LEDGER_CORRUPT, DxStatus.of(19));
    assertEquals(DxStatus.LEDGER_ROLLBACK, DxStatus.of(20));
    assertEquals(20, DxStatus.LEDGER_ROLLBACK.code());
  }

  @Test
  public void typedOptionValuesReachTheLibrary() {
    // A negative Java long is a value the library refuses, not a huge uint32_t.
    try (DxPrivatizer p = new DxPrivatizer(model)) {
      assertTrue(!p.privatizeText(SENTENCE, DxOptions.epsilon(4).search(DxSearch.EXACT)).isEmpty());
      DxException negative = assertThrows(DxException.class,
          () -> p.privatizeText(SENTENCE, DxOptions.epsilon(4).ivfNprobe(-1)));
      assertTrue(negative.getMessage(), negative.getMessage().contains("ivf_nprobe: '-1'"));
    }
  }

  @Test
  public void missingFileIsAnIoError() {
    // A damaged header, a truncated file, not a model: the conformance suite.
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
    DxException notAModel = assertThrows(DxException.class, () -> DxModel.fromBytes(garbage));
    assertEquals(DxStatus.NOT_A_MODEL, notAModel.getStatus());
  }

  @Test
  public void opensModelsFromBuffersAndStreams() throws Exception {
    byte[] bytes = Files.readAllBytes(golden());
    String fingerprint = null;
    java.nio.ByteBuffer direct = java.nio.ByteBuffer.allocateDirect(bytes.length + 3);
    direct.put(new byte[3]).put(bytes).flip().position(3); // an odd position: copied, so alignment is not an issue
    java.nio.ByteBuffer heap = java.nio.ByteBuffer.wrap(bytes);
    for (DxModel m : new DxModel[] {DxModel.fromByteBuffer(direct), DxModel.fromByteBuffer(heap),
        DxModel.fromStream(new java.io.ByteArrayInputStream(bytes))}) {
      try (DxModel opened = m) {
        String hex = java.util.Arrays.toString(opened.fingerprint());
        assertTrue(fingerprint == null || fingerprint.equals(hex));
        fingerprint = hex;
        assertEquals(opened.word(0), opened.word(opened.lookup(opened.word(0))));
      }
    }
    assertEquals(3, direct.position()); // the caller's buffer is left as it was
    java.nio.ByteBuffer truncated = java.nio.ByteBuffer.allocateDirect(100);
    truncated.put(bytes, 0, 100).flip();
    assertTrue(assertThrows(DxException.class, () -> DxModel.fromByteBuffer(truncated)).getStatus().isModelError());
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

  @Test
  public void ledgerCapsMemoisesAndDetectsCorruption() throws Exception {
    Path dir = Files.createTempDirectory("dxtext-java-ledger");
    String file = dir.resolve("privacy.dxl").toString();
    // An app key: without one a ledger memoises nothing.
    byte[] key = new byte[32];
    try (DxPrivatizer p = new DxPrivatizer(model); DxLedger ledger = DxLedger.open(file, "alice", 10, -1, key)) {
      // Spending, refusal and the memo are the conformance suite's; here the
      // binding's totals, fresh, setCap and the file.
      ledger.privatizeText(p, SENTENCE, DxOptions.epsilon(4), false);
      assertTrue(ledger.privatizeText(p, SENTENCE, DxOptions.epsilon(4), false).isMemoised());
      ledger.privatizeText(p, "hello world", DxOptions.epsilon(4), false);
      DxLedgerTotals t = ledger.totals();
      assertEquals(8.0, t.getSpent(), 0.0);
      assertEquals(2, t.getReleases());
      assertEquals(2, t.getMemoised());
      assertEquals(10.0, t.getCap(), 0.0);
      assertEquals(DxStatus.BUDGET_EXCEEDED,
          assertThrows(DxException.class, () -> ledger.privatizeText(p, SENTENCE, DxOptions.epsilon(4), true))
              .getStatus());
      ledger.setCap(20);
      assertFalse(ledger.privatizeText(p, SENTENCE, DxOptions.epsilon(4), true).isMemoised());
      assertEquals(12.0, ledger.totals().getSpent(), 0.0);
      assertEquals(DxStatus.INVALID_ARGUMENT,
          assertThrows(DxException.class, () -> ledger.setCap(Double.NaN)).getStatus());
    }
    // A scope with a NUL would be cut at it by the C call: refused.
    assertEquals(DxStatus.INVALID_ARGUMENT,
        assertThrows(DxException.class, () -> DxLedger.open(file, "alice\0day1", 1)).getStatus());
    byte[] bytes = Files.readAllBytes(Paths.get(file));
    bytes[bytes.length / 2] ^= 1;
    Files.write(Paths.get(file), bytes);
    assertEquals(DxStatus.LEDGER_CORRUPT,
        assertThrows(DxException.class, () -> DxLedger.open(file, "alice", 0)).getStatus());
    assertArrayEquals(bytes, Files.readAllBytes(Paths.get(file)));
  }

  // Issue 27, case 1: the copy saved after the first release, put back after the second, is
  // refused against the anchor stored after the last call.
  @Test
  public void ledgerRollbackIsRefusedAgainstTheStoredAnchor() throws Exception {
    Path dir = Files.createTempDirectory("dxtext-java-anchor");
    Path path = dir.resolve("privacy.dxl");
    String file = path.toString();
    byte[] key = new byte[32];
    byte[] saved;
    DxLedgerAnchor anchor;
    try (DxPrivatizer p = new DxPrivatizer(model); DxLedger ledger = DxLedger.open(file, "default", 8, -1, key)) {
      ledger.privatizeText(p, "hello", DxOptions.epsilon(4), false);
      saved = Files.readAllBytes(path);
      ledger.privatizeText(p, "world", DxOptions.epsilon(4), false);
      assertEquals(DxStatus.BUDGET_EXCEEDED,
          assertThrows(DxException.class, () -> ledger.privatizeText(p, "again", DxOptions.epsilon(4), false))
              .getStatus());
      anchor = ledger.anchor();
    }
    assertEquals(8.0, anchor.getSpent(), 0.0);
    assertEquals(16, anchor.getLedgerId().length);
    byte[] stored = anchor.toBytes();
    assertEquals(DxLedgerAnchor.BYTES, stored.length);
    DxLedgerAnchor restored = DxLedgerAnchor.fromBytes(stored);
    assertEquals(anchor, restored);
    assertEquals(anchor.getCommits(), restored.getCommits());

    Files.write(path, saved);
    DxException rolledBack = assertThrows(DxException.class,
        () -> DxLedger.open(file, "default", 0, -1, key, restored));
    assertEquals(DxStatus.LEDGER_ROLLBACK, rolledBack.getStatus());
    assertTrue(rolledBack.getMessage(), rolledBack.getMessage().contains("rolled back"));
    // Without the anchor it is not detected (documented).
    try (DxLedger blind = DxLedger.open(file, "default", 0, -1, key)) {
      assertEquals(4.0, blind.totals().getSpent(), 0.0);
    }
    // A deleted file is a rollback too, and is not made anew.
    Files.delete(path);
    assertEquals(DxStatus.LEDGER_ROLLBACK,
        assertThrows(DxException.class, () -> DxLedger.open(file, "default", 0, -1, key, anchor)).getStatus());
    assertFalse(Files.exists(path));
  }

  @Test
  public void ledgerAnchorRoundTripsAndABadOneIsRefused() throws Exception {
    Path dir = Files.createTempDirectory("dxtext-java-anchor");
    String file = dir.resolve("privacy.dxl").toString();
    DxLedgerAnchor anchor;
    try (DxLedger ledger = DxLedger.open(file, "default", 1)) {
      anchor = ledger.anchor();
      assertEquals(0.0, anchor.getSpent(), 0.0);
      assertEquals(anchor, ledger.anchor()); // nothing changed since
      assertEquals(anchor, DxLedgerAnchor.fromBytes(anchor.toBytes()));
      assertEquals(anchor.hashCode(), DxLedgerAnchor.fromBytes(anchor.toBytes()).hashCode());
    }
    try (DxLedger reopened = DxLedger.open(file, "default", 1, -1, null, DxLedgerAnchor.fromBytes(anchor.toBytes()))) {
      assertEquals(anchor, reopened.anchor());
    }
    for (byte[] bad : new byte[][] {new byte[31], new byte[33], new byte[0], null}) {
      DxException e = assertThrows(DxException.class, () -> DxLedgerAnchor.fromBytes(bad));
      assertEquals(DxStatus.INVALID_ARGUMENT, e.getStatus());
      assertTrue(e.getMessage(), e.getMessage().contains("32 bytes"));
    }
    // toBytes() is a copy: changing it does not change the anchor.
    byte[] copy = anchor.toBytes();
    copy[0] ^= 1;
    assertFalse(anchor.equals(DxLedgerAnchor.fromBytes(copy)));
    assertEquals(DxStatus.LEDGER_ROLLBACK,
        assertThrows(DxException.class, () -> DxLedger.open(file, "default", 1, -1, null, DxLedgerAnchor.fromBytes(copy)))
            .getStatus());
  }
}
