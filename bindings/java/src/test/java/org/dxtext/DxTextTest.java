// SPDX-License-Identifier: Apache-2.0
package org.dxtext;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.File;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;
import org.junit.function.ThrowingRunnable;

/**
 * What is the Java binding's own, on the default model: its types, resources, models from memory
 * and ledger files. Seeded outputs, records, errors and ledger spending are the conformance
 * suite's (ConformanceTest), which also checks the typed records and statuses.
 */
public class DxTextTest {
  private static final String SENTENCE = "The president spoke to the nation about the war.";
  private static final Path GOLDEN =
      Paths.get(System.getProperty("dxtext.source.root", "."), "tests/data/golden_v1.dxe");
  private static DxModel model;

  @BeforeClass
  public static void openModel() {
    model = DxModel.openDefault();
  }

  @AfterClass
  public static void closeModel() {
    model.close();
  }

  private static Map<String, Long> bag(Object... pairs) {
    Map<String, Long> m = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      m.put((String) pairs[i], ((Number) pairs[i + 1]).longValue());
    }
    return m;
  }

  /** The status of the DxException that {@code call} throws. */
  private static DxStatus failure(ThrowingRunnable call) {
    return assertThrows(DxException.class, call).getStatus();
  }

  @Test
  public void opensTheDefaultModel() {
    assertTrue(new File(DxModel.defaultPath(DxModelInfo.Geometry.EUCLIDEAN)).isFile());
    DxModelInfo info = model.getInfo();
    assertEquals(DxModelInfo.Geometry.EUCLIDEAN, info.geometry);
    assertTrue(info.quantization != DxModelInfo.Quantization.UNKNOWN);
    assertTrue(info.vocabularySize > 1000);
    assertEquals("house", model.word(model.lookup("house")));
    assertEquals(32, model.fingerprint().length);
    assertTrue(DxModel.libraryVersion().matches("\\d+\\.\\d+\\.\\d+"));
  }

  @Test
  public void privatizesATextWithARecordAndDiagnostics() {
    // The system generator and the local diagnostics; seeded texts and records are the suite's.
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
    }
  }

  @Test
  public void outputWordsRestrictWhatIsReleased() {
    List<String> allowed = Arrays.asList("house", "river", "music");
    DxOutputSet set = model.outputSet(allowed);
    set.close(); // which does nothing: the words reach each call by name
    assertEquals(3, set.size());
    assertEquals(allowed, set.getWords());
    try (DxPrivatizer p = new DxPrivatizer(model)) {
      DxOptions options = DxOptions.epsilon(2).mechanism(DxMechanism.EXPONENTIAL).outputWords(set);
      DxText out = p.privatizeTextWithRecord("the cat sat on the mat tonight", options.releaseShape(DxReleaseShape.STRICT));
      for (String w : out.getText().split(" ")) {
        assertTrue(w, allowed.contains(w));
      }
      assertTrue(out.getRecord().toJson(), out.getRecord().toJson().contains("\"kind\":\"list\",\"size\":3"));
    }
    // Refused when made, as a call would refuse them.
    for (List<String> bad : List.of(List.of("house", "house"), List.of("house", "zzqxv"), List.<String>of())) {
      assertEquals(DxStatus.INVALID_ARGUMENT, failure(() -> model.outputSet(bad)));
    }
  }

  @Test
  public void privatizesABag() {
    try (DxPrivatizer p = new DxPrivatizer(model)) {
      // Seeded bags and their records are the conformance suite's; here the local diagnostics.
      DxBag out = p.privatizeBagWithLocalDiagnostics(bag("war", 3, "peace", 2, "zzqxv", 1), DxOptions.epsilon(10));
      assertEquals(6, out.size());
      assertEquals(6, out.getLocalDiagnostics().getWordsPrivatized());
      assertEquals(1, out.getLocalDiagnostics().getCount(DxTokenClass.OUT_OF_VOCABULARY, DxPolicy.PRIVATIZE));
      DxBag dropped = p.privatizeBagWithLocalDiagnostics(bag("war", 3, "peace", 2, "zzqxv", 1),
          DxOptions.epsilon(10).policy(DxTokenClass.OUT_OF_VOCABULARY, DxPolicy.DROP));
      assertEquals(1, dropped.getLocalDiagnostics().getCount(DxTokenClass.OUT_OF_VOCABULARY, DxPolicy.DROP));
      assertNull(p.privatizeBag(bag("war", 1), DxOptions.epsilon(10)).getLocalDiagnostics());
    }
  }

  @Test
  public void nonFiniteEpsilonIsATypedError() {
    // 0, -1 and out of range: the conformance suite; here the doubles JSON cannot write.
    try (DxPrivatizer p = new DxPrivatizer(model)) {
      for (double epsilon : new double[] {Double.NaN, Double.POSITIVE_INFINITY}) {
        assertEquals(DxStatus.INVALID_EPSILON, failure(() -> p.privatizeText(SENTENCE, DxOptions.epsilon(epsilon))));
      }
    }
  }

  @Test
  public void badArgumentsAreRefusedNotWrapped() {
    assertEquals(DxStatus.INVALID_ARGUMENT, failure(() -> new DxPrivatizer(model, new byte[5])));
    // A negative Java int would be a huge uint32_t or uint64_t in C.
    DxOptions options = DxOptions.epsilon(1);
    try (DxPrivatizer p = new DxPrivatizer(model)) {
      assertEquals(DxStatus.INVALID_ARGUMENT, failure(() -> p.calibrate(options, -1, 1)));
      assertEquals(DxStatus.INVALID_ARGUMENT, failure(() -> p.calibrate(options, 1, Integer.MIN_VALUE)));
      assertEquals(DxStatus.INVALID_ARGUMENT, failure(() -> p.syntf(bag("war", 1, "peace", 1), -1, options)));
      assertEquals(DxStatus.INVALID_ARGUMENT, failure(() -> p.privatizeBag(bag("war", -1, "peace", 1), options)));
    }
    assertEquals(DxStatus.NOT_FOUND, failure(() -> model.word(-1)));
    // Codes no case of the suite gives (ConformanceTest checks the typed status of those it gives).
    assertEquals(DxStatus.CONTEXT_BUSY, DxStatus.of(17));
    assertNull(DxMechanism.of(99));
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
  public void opensModelsFromBuffersAndStreams() throws Exception {
    byte[] bytes = Files.readAllBytes(GOLDEN);
    String fingerprint = null;
    ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length + 3);
    direct.put(new byte[3]).put(bytes).flip().position(3); // an odd position: copied, so alignment is not an issue
    for (DxModel m : new DxModel[] {DxModel.fromBytes(bytes), DxModel.fromByteBuffer(direct),
        DxModel.fromByteBuffer(ByteBuffer.wrap(bytes)), DxModel.fromStream(new ByteArrayInputStream(bytes))}) {
      try (DxModel opened = m) {
        String hex = Arrays.toString(opened.fingerprint());
        assertTrue(fingerprint == null || fingerprint.equals(hex));
        fingerprint = hex;
        assertEquals(opened.word(0), opened.word(opened.lookup(opened.word(0))));
      }
    }
    assertEquals(3, direct.position()); // the caller's buffer is left as it was
    // Damaged models in memory; the same from files, with their messages: the conformance suite.
    byte[] half = Arrays.copyOf(bytes, bytes.length / 2);
    assertEquals(DxStatus.TRUNCATED_MODEL, failure(() -> DxModel.fromBytes(half)));
    ByteBuffer truncated = ByteBuffer.allocateDirect(100).put(bytes, 0, 100).flip();
    assertTrue(failure(() -> DxModel.fromByteBuffer(truncated)).isModelError());
  }

  @Test
  public void onePrivatizerPerThreadOverASharedModel() throws Exception {
    Callable<Integer> task = () -> {
      try (DxPrivatizer p = new DxPrivatizer(model)) {
        int n = 0;
        for (int i = 0; i < 20; ++i) {
          n += p.privatizeText(SENTENCE, DxOptions.epsilon(15)).isEmpty() ? 0 : 1;
        }
        return n;
      }
    };
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      for (Future<Integer> f : pool.invokeAll(Collections.nCopies(4, task))) {
        assertEquals(20, (int) f.get());
      }
    } finally {
      pool.shutdown();
    }
  }

  @Test
  public void aPrivatizerOutlivesItsModel() throws Exception {
    DxModel m = DxModel.fromBytes(Files.readAllBytes(GOLDEN));
    String word = m.word(0);
    DxOutputSet set = m.outputSet(List.of(word, m.word(1)));
    DxPrivatizer p = new DxPrivatizer(m);
    m.close();
    assertThrows(IllegalStateException.class, () -> m.word(0));
    assertTrue(set.getWords().contains(p.privatizeWord(word, DxOptions.epsilon(1).outputWords(set))));
    p.close();
    p.close(); // idempotent
    assertThrows(IllegalStateException.class, () -> p.privatizeWord(word, DxOptions.epsilon(1)));
  }

  @Test
  public void ledgerTotalsFreshSetCapAndCorruption() throws Exception {
    Path dir = Files.createTempDirectory("dxtext-java-ledger");
    String file = dir.resolve("privacy.dxl").toString();
    // An app key: without one a ledger memoises nothing.
    byte[] key = new byte[32];
    try (DxPrivatizer p = new DxPrivatizer(model); DxLedger ledger = DxLedger.open(file, "alice", 10, -1, key)) {
      // Spending, refusals and memoised repeats are the conformance suite's; here the binding's
      // totals, fresh, setCap and the file.
      ledger.privatizeText(p, SENTENCE, DxOptions.epsilon(4), false);
      ledger.privatizeText(p, "hello world", DxOptions.epsilon(4), false);
      DxLedgerTotals t = ledger.totals();
      assertEquals(8.0, t.getSpent(), 0.0);
      assertEquals(2, t.getReleases());
      assertEquals(2, t.getMemoised());
      assertEquals(10.0, t.getCap(), 0.0);
      // fresh draws anew (and spends) though the text is memoised.
      assertEquals(DxStatus.BUDGET_EXCEEDED,
          failure(() -> ledger.privatizeText(p, SENTENCE, DxOptions.epsilon(4), true)));
      ledger.setCap(20);
      assertFalse(ledger.privatizeText(p, SENTENCE, DxOptions.epsilon(4), true).isMemoised());
      assertEquals(12.0, ledger.totals().getSpent(), 0.0);
      assertEquals(DxStatus.INVALID_ARGUMENT, failure(() -> ledger.setCap(Double.NaN)));
    }
    // A scope with a NUL would be cut at it by the C call: refused.
    assertEquals(DxStatus.INVALID_ARGUMENT, failure(() -> DxLedger.open(file, "alice\0day1", 1)));
    byte[] bytes = Files.readAllBytes(Paths.get(file));
    bytes[bytes.length / 2] ^= 1;
    Files.write(Paths.get(file), bytes);
    assertEquals(DxStatus.LEDGER_CORRUPT, failure(() -> DxLedger.open(file, "alice", 0)));
  }

  // The anchor stored after the last call (a refused one) refuses the copy saved after the first
  // release, put back after the second. A reopen without it, a deleted file, another ledger's
  // anchor and every other rollback: tests/unit/test_ledger.cpp.
  @Test
  public void ledgerAnchorsDetectARollback() throws Exception {
    Path path = Files.createTempDirectory("dxtext-java-anchor").resolve("privacy.dxl");
    String file = path.toString();
    byte[] key = new byte[32];
    byte[] saved;
    DxLedgerAnchor anchor;
    try (DxPrivatizer p = new DxPrivatizer(model); DxLedger ledger = DxLedger.open(file, "default", 8, -1, key)) {
      assertEquals(0.0, ledger.anchor().getSpent(), 0.0);
      ledger.privatizeText(p, "hello", DxOptions.epsilon(4), false);
      saved = Files.readAllBytes(path);
      ledger.privatizeText(p, "world", DxOptions.epsilon(4), false);
      assertEquals(DxStatus.BUDGET_EXCEEDED,
          failure(() -> ledger.privatizeText(p, "again", DxOptions.epsilon(4), false)));
      anchor = ledger.anchor();
      assertEquals(anchor, ledger.anchor()); // nothing changed since
    }
    assertEquals(8.0, anchor.getSpent(), 0.0);
    assertTrue(anchor.toString(), anchor.getCommits() >= 2);
    assertEquals(16, anchor.getLedgerId().length);
    // toBytes() round-trips and is a copy; fromBytes takes 32 bytes only.
    byte[] stored = anchor.toBytes();
    assertEquals(DxLedgerAnchor.BYTES, stored.length);
    assertEquals(anchor, DxLedgerAnchor.fromBytes(stored));
    assertEquals(anchor.hashCode(), DxLedgerAnchor.fromBytes(stored).hashCode());
    stored[0] ^= 1;
    assertFalse(anchor.equals(DxLedgerAnchor.fromBytes(stored)));
    for (byte[] bad : new byte[][] {new byte[31], new byte[33], new byte[0], null}) {
      DxException e = assertThrows(DxException.class, () -> DxLedgerAnchor.fromBytes(bad));
      assertEquals(DxStatus.INVALID_ARGUMENT, e.getStatus());
      assertTrue(e.getMessage(), e.getMessage().contains("32 bytes"));
    }
    try (DxLedger reopened = DxLedger.open(file, "default", 0, -1, key, anchor)) {
      assertEquals(anchor, reopened.anchor());
    }

    Files.write(path, saved);
    DxException rolledBack = assertThrows(DxException.class,
        () -> DxLedger.open(file, "default", 0, -1, key, anchor));
    assertEquals(DxStatus.LEDGER_ROLLBACK, rolledBack.getStatus());
    assertTrue(rolledBack.getMessage(), rolledBack.getMessage().contains("rolled back"));
  }
}
