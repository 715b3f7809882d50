// SPDX-License-Identifier: Apache-2.0
package org.dxtext;

import static org.junit.Assert.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.AfterClass;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;

/**
 * The conformance suite of tests/conformance/cases.json (its README says what a case is) through
 * this binding: the same outputs, records and errors as the C ABI and every other binding. The
 * source tree is the system property dxtext.source.root (tools/ci/60-package-java.sh sets it).
 */
@RunWith(Parameterized.class)
public class ConformanceTest {
  private static final Path ROOT = Paths.get(System.getProperty("dxtext.source.root", "."));
  private static Map<String, Object> suite;
  // The models the privatising cases name (the suite's, or their own), opened once.
  private static final Map<String, DxModel> models = new LinkedHashMap<>();

  @Parameterized.Parameter(0)
  public String name;

  @Parameterized.Parameter(1)
  public Map<String, Object> testCase;

  @Parameterized.Parameters(name = "{0}")
  public static Collection<Object[]> cases() throws IOException {
    byte[] bytes = Files.readAllBytes(ROOT.resolve("tests/conformance/cases.json"));
    suite = asMap(new Json(new String(bytes, StandardCharsets.UTF_8)).document());
    List<Object[]> cases = new ArrayList<>();
    for (Object c : (List<?>) suite.get("cases")) {
      cases.add(new Object[] {asMap(c).get("name"), asMap(c)});
    }
    return cases;
  }

  private static DxModel model(String path) {
    return models.computeIfAbsent(path, p -> DxModel.open(ROOT.resolve(p)));
  }

  @AfterClass
  public static void closeModels() {
    models.values().forEach(DxModel::close);
  }

  @Test
  public void conformance() throws IOException {
    boolean opens = testCase.get("call").equals("open");
    DxModel model = model((String) (opens ? suite : testCase).getOrDefault("model", suite.get("model")));
    Map<String, Object> expect = asMap(testCase.get("expect"));
    Map<String, Object> got = new LinkedHashMap<>();
    DxReleaseRecord record = null;
    // A file's path in a message is "{path}" in the suite.
    String file = ROOT.resolve((String) testCase.getOrDefault("model", suite.get("model"))).toString();
    try {
      String call = (String) testCase.get("call");
      if (call.equals("ledger")) {
        got.putAll(ledgerOutcome(model));
      } else if (call.equals("open")) {
        DxModel.open(file).close();
        got.put("opened", true);
      } else {
        DxOptions options = options(asMap(testCase.get("options")));
        try (DxPrivatizer privatizer = new DxPrivatizer(model, seed((String) testCase.get("seed")))) {
          if (call.equals("calibrate")) {
            DxCalibration c = privatizer.calibrate(options, ((Double) testCase.get("words")).intValue(),
                ((Double) testCase.get("trials")).intValue());
            Map<String, Object> calibration = new LinkedHashMap<>();
            calibration.put("words", (double) c.words);
            calibration.put("trials", (double) c.trials);
            calibration.put("keep_mean", c.keepMean);
            calibration.put("keep_median", c.keepMedian);
            calibration.put("keep_max", c.keepMax);
            calibration.put("distinct_mean", c.distinctMean);
            calibration.put("distinct_median", c.distinctMedian);
            calibration.put("distinct_max", c.distinctMax);
            got.put("calibration", calibration);
          } else if (call.equals("bag") || call.equals("syntf")) {
            Map<String, Long> bag = new LinkedHashMap<>();
            for (Object pair : (List<?>) testCase.get("bag")) { // [word, count], in the order of the draws
              bag.put((String) ((List<?>) pair).get(0), ((Double) ((List<?>) pair).get(1)).longValue());
            }
            DxBag out = call.equals("bag") ? privatizer.privatizeBag(bag, options)
                : privatizer.syntf(bag, ((Double) testCase.get("n_out")).intValue(), options);
            Map<String, Object> words = new LinkedHashMap<>();
            out.getWords().forEach((word, count) -> words.put(word, (double) count));
            record = out.getRecord();
            got.put("bag", words);
            got.put("record", new Json(record.toJson()).document());
          } else if (call.equals("word")) { // this binding gives no record for one word
            got.put("text", privatizer.privatizeWord((String) testCase.get("input"), options));
            expect = new LinkedHashMap<>(expect);
            if (expect.remove("record") == null) {
              throw new AssertionError("a word case without a record");
            }
          } else {
            DxText result = privatizer.privatizeTextWithRecord((String) testCase.get("input"), options);
            record = result.getRecord();
            got.put("text", result.getText());
            got.put("record", new Json(record.toJson()).document());
          }
        }
      }
    } catch (DxException e) {
      got.put("error", error(e, file));
    }
    assertEquals(expect, got);
    if (record != null) { // the typed record says what its JSON says
      Map<String, Object> json = asMap(expect.get("record"));
      Map<String, Object> typed = new LinkedHashMap<>();
      typed.put("release", name(record.getRelease()));
      typed.put("mechanism", name(record.getMechanism()));
      typed.put("epsilon", record.getEpsilon());
      typed.put("metric", name(record.getMetric()));
      typed.put("private", record.isPrivate());
      StringBuilder sha256 = new StringBuilder();
      for (byte b : record.getModelFingerprint()) {
        sha256.append(String.format("%02x", b));
      }
      typed.put("model_sha256", sha256.toString());
      typed.put("bound", name(record.getBound()));
      List<String> reveals = new ArrayList<>();
      record.getReveals().forEach(r -> reveals.add(name(r)));
      typed.put("reveals", reveals);
      typed.put("shape", name(record.getReleaseShape()));
      typed.put("preset", name(record.getPreset()));
      Map<String, Object> fromJson = new LinkedHashMap<>();
      for (String key : typed.keySet()) {
        fromJson.put(key, json.getOrDefault(key, key.equals("preset") ? "none" : null));
      }
      List<Object> sorted = new ArrayList<>((List<?>) json.get("reveals"));
      sorted.sort(null);
      fromJson.put("reveals", sorted);
      reveals.sort(null);
      assertEquals(fromJson, typed);
    }
  }

  private static String name(Enum<?> value) {
    return value.name().toLowerCase(Locale.ROOT);
  }

  /**
   * A ledger case: its releases, each with a new privatizer of the seed, through a new ledger
   * file, and the scope's JSON.
   */
  private Map<String, Object> ledgerOutcome(DxModel model) throws IOException {
    Path directory = Files.createTempDirectory("dxtext-conformance");
    Path file = directory.resolve("ledger.dxl");
    String key = (String) testCase.get("key");
    List<Object> releases = new ArrayList<>();
    Map<String, Object> outcome = new LinkedHashMap<>();
    try (DxLedger ledger = DxLedger.open(file.toString(), (String) testCase.get("scope"),
        (Double) testCase.get("cap"), -1, key == null ? null : seed(key))) {
      for (Object each : (List<?>) testCase.get("releases")) {
        Map<String, Object> release = asMap(each);
        Map<String, Object> got = new LinkedHashMap<>();
        try (DxPrivatizer privatizer = new DxPrivatizer(model, seed((String) testCase.get("seed")))) {
          DxLedgerRelease done = ledger.privatizeText(privatizer, (String) release.get("input"),
              options(asMap(release.get("options"))), false);
          got.put("text", done.getText());
          got.put("memoised", done.isMemoised());
        } catch (DxException e) {
          got.put("error", error(e, file.toString()));
        }
        releases.add(got);
      }
      outcome.put("releases", releases);
      outcome.put("ledger", new Json(ledger.toJson()).document());
    } finally {
      Files.deleteIfExists(file);
      Files.deleteIfExists(directory.resolve("ledger.dxl.lock"));
      Files.deleteIfExists(directory);
    }
    return outcome;
  }

  private static DxOptions options(Map<String, Object> given) {
    DxOptions options = DxOptions.defaults();
    for (Map.Entry<String, Object> option : given.entrySet()) {
      options = options.set(option.getKey(), optionText(option.getValue()));
    }
    return options;
  }

  private static Map<String, Object> error(DxException e, String file) {
    Map<String, Object> error = new LinkedHashMap<>();
    error.put("status", (double) e.getCode());
    error.put("message", e.getMessage().replace(file, "{path}"));
    return error;
  }

  // A JSON number as the other bindings write it: whole numbers without ".0".
  private static String optionText(Object value) {
    if (value instanceof Double) {
      double d = (Double) value;
      return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
    }
    return (String) value;
  }

  private static byte[] seed(String hex) {
    byte[] seed = new byte[hex.length() / 2];
    for (int i = 0; i < seed.length; i++) {
      seed[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
    }
    return seed;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> asMap(Object value) {
    return (Map<String, Object>) value;
  }

  /**
   * Just enough JSON for the suite and release records: objects (LinkedHashMap), arrays
   * (ArrayList), strings, numbers (Double), true, false and null.
   */
  static final class Json {
    private final String s;
    private int at;

    Json(String s) {
      this.s = s;
    }

    Object document() {
      Object value = value();
      space();
      if (at != s.length()) {
        throw error("trailing text");
      }
      return value;
    }

    private Object value() {
      space();
      if (at >= s.length()) {
        throw error("unexpected end");
      }
      char c = s.charAt(at);
      if (c == '{') {
        Map<String, Object> object = new LinkedHashMap<>();
        at++;
        space();
        if (s.charAt(at) == '}') {
          at++;
          return object;
        }
        do {
          space();
          String key = string();
          space();
          expect(':');
          object.put(key, value());
          space();
        } while (s.charAt(at++) == ',');
        if (s.charAt(at - 1) != '}') {
          throw error("expected , or }");
        }
        return object;
      }
      if (c == '[') {
        List<Object> array = new ArrayList<>();
        at++;
        space();
        if (s.charAt(at) == ']') {
          at++;
          return array;
        }
        do {
          array.add(value());
          space();
        } while (s.charAt(at++) == ',');
        if (s.charAt(at - 1) != ']') {
          throw error("expected , or ]");
        }
        return array;
      }
      if (c == '"') {
        return string();
      }
      for (String word : new String[] {"true", "false", "null"}) {
        if (s.startsWith(word, at)) {
          at += word.length();
          return word.equals("null") ? null : Boolean.valueOf(word);
        }
      }
      int start = at;
      while (at < s.length() && "+-0123456789.eE".indexOf(s.charAt(at)) >= 0) {
        at++;
      }
      if (start == at) {
        throw error("unexpected character");
      }
      return Double.valueOf(s.substring(start, at));
    }

    private String string() {
      expect('"');
      StringBuilder out = new StringBuilder();
      for (char c = s.charAt(at++); c != '"'; c = s.charAt(at++)) {
        if (c != '\\') {
          out.append(c);
          continue;
        }
        char e = s.charAt(at++);
        switch (e) {
          case 'n': out.append('\n'); break;
          case 't': out.append('\t'); break;
          case 'r': out.append('\r'); break;
          case 'b': out.append('\b'); break;
          case 'f': out.append('\f'); break;
          case 'u':
            out.append((char) Integer.parseInt(s.substring(at, at + 4), 16));
            at += 4;
            break;
          default: out.append(e); // " \ /
        }
      }
      return out.toString();
    }

    private void expect(char c) {
      if (at >= s.length() || s.charAt(at) != c) {
        throw error("expected " + c);
      }
      at++;
    }

    private void space() {
      while (at < s.length() && Character.isWhitespace(s.charAt(at))) {
        at++;
      }
    }

    private IllegalArgumentException error(String what) {
      return new IllegalArgumentException("JSON: " + what + " at offset " + at);
    }
  }
}
