// SPDX-License-Identifier: Apache-2.0
package org.dxtext;

import static org.junit.Assert.assertEquals;

import java.io.IOException;
import java.lang.reflect.Field;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.AfterClass;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;

/**
 * The conformance suite of tests/conformance/cases.json (its README says what a case is) through
 * this binding: the same outputs, records and errors as the C ABI and every other binding, and
 * typed records and statuses that say what the JSON and the status code say. The source tree is
 * the system property dxtext.source.root (tools/ci/60-package-java.sh sets it).
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
    suite = asMap(Json.parse(Files.readString(ROOT.resolve("tests/conformance/cases.json"))));
    return ((List<?>) suite.get("cases")).stream().map(c -> new Object[] {asMap(c).get("name"), asMap(c)})
        .collect(Collectors.toList());
  }

  @AfterClass
  public static void closeModels() {
    models.values().forEach(DxModel::close);
  }

  @Test
  public void conformance() throws Exception {
    String call = (String) testCase.get("call");
    String model = (String) testCase.getOrDefault("model", suite.get("model"));
    String file = ROOT.resolve(model).toString(); // "{path}" in a message of the suite
    Map<String, Object> expect = new LinkedHashMap<>(asMap(testCase.get("expect")));
    if (call.equals("word")) { // this binding gives no record for one word: its text only
      expect.remove("record");
    }
    Map<String, Object> got = new LinkedHashMap<>();
    try {
      if (call.equals("open")) {
        DxModel.open(file).close();
        got.put("opened", true);
      } else if (call.equals("ledger")) {
        ledger(model(model), got);
      } else {
        privatize(call, model(model), got);
      }
    } catch (DxException e) {
      got.put("error", error(e, file));
    }
    assertEquals(expect, got);
  }

  private static DxModel model(String path) {
    return models.computeIfAbsent(path, p -> DxModel.open(ROOT.resolve(p)));
  }

  /** A text, word, bag, SynTF or calibration case through a privatizer of the case's seed. */
  private void privatize(String call, DxModel model, Map<String, Object> got) throws IllegalAccessException {
    DxOptions options = options(testCase.get("options"));
    String input = (String) testCase.get("input");
    try (DxPrivatizer privatizer = new DxPrivatizer(model, seed((String) testCase.get("seed")))) {
      if (call.equals("text")) {
        DxText result = privatizer.privatizeTextWithRecord(input, options);
        got.put("text", result.getText());
        got.put("record", record(result.getRecord()));
      } else if (call.equals("word")) {
        got.put("text", privatizer.privatizeWord(input, options));
      } else if (call.equals("calibrate")) {
        DxCalibration c = privatizer.calibrate(options, integer("words"), integer("trials"));
        Map<String, Object> calibration = new LinkedHashMap<>();
        for (Field field : DxCalibration.class.getFields()) { // keepMean: keep_mean of dxt_calibration
          String key = field.getName().replaceAll("([A-Z])", "_$1").toLowerCase(Locale.ROOT);
          calibration.put(key, ((Number) field.get(c)).doubleValue());
        }
        got.put("calibration", calibration);
      } else {
        Map<String, Long> bag = new LinkedHashMap<>();
        for (Object each : (List<?>) testCase.get("bag")) { // [word, count], in the order of the draws
          List<?> pair = (List<?>) each;
          bag.put((String) pair.get(0), ((Double) pair.get(1)).longValue());
        }
        DxBag out = call.equals("bag") ? privatizer.privatizeBag(bag, options)
            : privatizer.syntf(bag, integer("n_out"), options);
        Map<String, Object> words = new LinkedHashMap<>();
        out.getWords().forEach((word, count) -> words.put(word, (double) count));
        got.put("bag", words);
        got.put("record", record(out.getRecord()));
      }
    }
  }

  /**
   * A ledger case: its releases, each with a new privatizer of the seed, through a new ledger
   * file, and the scope's JSON.
   */
  private void ledger(DxModel model, Map<String, Object> got) throws IOException {
    Path directory = Files.createTempDirectory("dxtext-conformance");
    Path file = directory.resolve("ledger.dxl");
    String key = (String) testCase.get("key");
    List<Object> releases = new ArrayList<>();
    try (DxLedger ledger = DxLedger.open(file.toString(), (String) testCase.get("scope"),
        (Double) testCase.get("cap"), -1, key == null ? null : seed(key))) {
      for (Object each : (List<?>) testCase.get("releases")) {
        Map<String, Object> release = new LinkedHashMap<>();
        try (DxPrivatizer privatizer = new DxPrivatizer(model, seed((String) testCase.get("seed")))) {
          DxLedgerRelease done = ledger.privatizeText(privatizer, (String) asMap(each).get("input"),
              options(asMap(each).get("options")), false);
          release.put("text", done.getText());
          release.put("memoised", done.isMemoised());
        } catch (DxException e) {
          release.put("error", error(e, file.toString()));
        }
        releases.add(release);
      }
      got.put("releases", releases);
      got.put("ledger", Json.parse(ledger.toJson()));
    } finally {
      Files.deleteIfExists(file);
      Files.deleteIfExists(directory.resolve("ledger.dxl.lock"));
      Files.deleteIfExists(directory);
    }
  }

  /** The record's JSON, once the typed record is checked to say what it says. */
  private static Object record(DxReleaseRecord record) {
    Map<String, Object> json = asMap(Json.parse(record.toJson()));
    Map<String, Object> typed = new LinkedHashMap<>();
    typed.put("release", name(record.getRelease()));
    typed.put("mechanism", name(record.getMechanism()));
    typed.put("epsilon", record.getEpsilon());
    typed.put("metric", name(record.getMetric()));
    typed.put("rng", name(record.getRngMode()));
    typed.put("private", record.isPrivate());
    typed.put("model_sha256", String.format("%064x", new BigInteger(1, record.getModelFingerprint())));
    typed.put("bound", name(record.getBound()));
    typed.put("reveals", record.getReveals().stream().map(ConformanceTest::name).collect(Collectors.toSet()));
    typed.put("shape", name(record.getReleaseShape()));
    typed.put("preset", name(record.getPreset()));
    typed.put("draws", (double) record.getDraws());
    typed.put("epsilon_total", record.getEpsilonTotal());
    typed.put("epsilon_vocabulary", record.getEpsilonVocabulary());
    double worstCase = record.getWorstCasePerWord();
    typed.put("worst_case_per_word", Double.isFinite(worstCase) ? worstCase : null); // JSON: null
    typed.put("floor", record.getUniformFloor());
    typed.put("context_prior", record.getContextPrior());
    Map<String, Object> said = new LinkedHashMap<>(json);
    said.keySet().retainAll(typed.keySet());
    said.put("reveals", new HashSet<>((List<?>) json.get("reveals"))); // a set, in any order
    said.putIfAbsent("preset", "none"); // these are written only when they apply
    for (String key : List.of("draws", "epsilon_total", "epsilon_vocabulary", "worst_case_per_word", "floor",
        "context_prior")) {
      said.putIfAbsent(key, 0.0);
    }
    assertEquals(said, typed);
    return json;
  }

  private static String name(Enum<?> value) {
    return value.name().toLowerCase(Locale.ROOT);
  }

  private static Map<String, Object> error(DxException e, String file) {
    assertEquals(e.getCode(), e.getStatus().code()); // the typed status is the code's
    Map<String, Object> error = new LinkedHashMap<>();
    error.put("status", (double) e.getCode());
    error.put("message", e.getMessage().replace(file, "{path}"));
    return error;
  }

  private static DxOptions options(Object given) {
    DxOptions options = DxOptions.defaults();
    for (Map.Entry<String, Object> option : asMap(given).entrySet()) {
      options = options.set(option.getKey(), optionText(option.getValue()));
    }
    return options;
  }

  // A JSON number as the other bindings write it: whole numbers without ".0".
  private static String optionText(Object value) {
    if (value instanceof Double) {
      double d = (Double) value;
      return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
    }
    return (String) value;
  }

  private int integer(String key) {
    return ((Double) testCase.get(key)).intValue();
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
   * Just enough JSON for the suite and the library's JSON, which are generated and so well-formed:
   * objects (LinkedHashMap), arrays (ArrayList), strings, numbers (Double), true, false and null.
   * Commas and colons are skipped: a member is a key and a value, one after the other.
   */
  static final class Json {
    // A string, a number, a literal or a bracket.
    private static final Pattern TOKEN = Pattern.compile(
        "\"[^\"\\\\]*+(?:\\\\.[^\"\\\\]*+)*+\"|-?[0-9][-+0-9.eE]*|true|false|null|[{}\\[\\]]");
    private static final Pattern ESCAPE = Pattern.compile("\\\\(u[0-9a-fA-F]{4}|[\"\\\\/bfnrt])");

    private Json() {}

    static Object parse(String text) {
      Deque<String> tokens = new ArrayDeque<>();
      for (Matcher token = TOKEN.matcher(text); token.find(); ) {
        tokens.add(token.group());
      }
      return value(tokens);
    }

    private static Object value(Deque<String> tokens) {
      String token = tokens.pop();
      switch (token) {
        case "{":
          Map<String, Object> object = new LinkedHashMap<>();
          while (!tokens.getFirst().equals("}")) {
            object.put(string(tokens.pop()), value(tokens));
          }
          tokens.pop();
          return object;
        case "[":
          List<Object> array = new ArrayList<>();
          while (!tokens.getFirst().equals("]")) {
            array.add(value(tokens));
          }
          tokens.pop();
          return array;
        case "true":
        case "false":
          return Boolean.valueOf(token);
        case "null":
          return null;
        default:
          return token.startsWith("\"") ? string(token) : Double.valueOf(token);
      }
    }

    private static String string(String token) {
      Matcher escape = ESCAPE.matcher(token.substring(1, token.length() - 1));
      return escape.replaceAll(e -> {
        String s = e.group(1);
        char c = s.length() == 5 ? (char) Integer.parseInt(s.substring(1), 16)
            : "\"\\/\b\f\n\r\t".charAt("\"\\/bfnrt".indexOf(s));
        return Matcher.quoteReplacement(String.valueOf(c));
      });
    }
  }
}
