// SPDX-License-Identifier: Apache-2.0
package org.dxtext;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Options of a privatisation call, built by chaining:
 * {@code DxOptions.epsilon(8).mechanism(DxMechanism.VICKREY).vickreyT(0.5)}.
 * One method per option of docs/options.md, named as there in camelCase,
 * generated from tools/options/privatize_options.table; {@link #set(String,
 * String)} sets any option by its name. The options reach the library by
 * name ({@code dxt_options_set}), which checks names and values when a call
 * uses them: an unknown name or a bad value throws {@link DxException} with
 * the library's message. Setting an option twice keeps the last value.
 * Immutable: every setter returns a copy.
 */
public final class DxOptions {
  // Option name -> its value as text, or a List<String> of words; in order.
  private final Map<String, Object> values;

  private DxOptions(Map<String, Object> values) {
    this.values = values;
  }

  private DxOptions with(String name, Object value) {
    Map<String, Object> copy = new LinkedHashMap<>(values);
    copy.remove(name); // the last value set comes last
    copy.put(name, value);
    return new DxOptions(copy);
  }

  /**
   * Any option by its name in docs/options.md (snake_case or camelCase) and its value as text:
   * a number ("0.75"), an enum's name ("permute-and-flip") or a string.
   */
  public DxOptions set(String name, String value) {
    return with(name, value);
  }

  private DxOptions set(String name, double value) {
    return with(name, Double.toString(value));
  }

  /** A word-list option (type words) by its name. */
  public DxOptions setWords(String name, List<String> words) {
    return with(name, Collections.unmodifiableList(new ArrayList<>(words)));
  }

  /**
   * The library's defaults, with no epsilon set: for options set by name ({@link #set}), as
   * Rust's {@code Options::default()}; a call needs an epsilon or a preset.
   */
  public static DxOptions defaults() {
    return new DxOptions(new LinkedHashMap<>());
  }

  /**
   * The options of a preset, at its epsilon: {@code DxOptions.of(DxPreset.READABLE)}; {@link
   * #withEpsilon} overrides the epsilon.
   */
  public static DxOptions of(DxPreset preset) {
    return new DxOptions(new LinkedHashMap<>()).preset(preset);
  }

  /** The epsilon set, or 0 when none is (a preset then gives it). */
  public double getEpsilon() {
    Object e = values.get("epsilon");
    return e instanceof String ? Double.parseDouble((String) e) : 0;
  }

  /** The policy of one token class (the options inVocabulary, oov, numbers, stopwords). */
  public DxOptions policy(DxTokenClass tokenClass, DxPolicy policy) {
    String[] names = {"in_vocabulary", "oov", "numbers", "stopwords"};
    return with(names[tokenClass.ordinal()], policy.name().toLowerCase(Locale.ROOT));
  }

  // For the native code: each option's name and value one after the other (UTF-8; a word list
  // as its words each ended by NUL), and which values are word lists.
  byte[][] pairs() {
    byte[][] out = new byte[2 * values.size()][];
    int i = 0;
    for (Map.Entry<String, Object> option : values.entrySet()) {
      Object value = option.getValue();
      if (value instanceof List) {
        StringBuilder joined = new StringBuilder();
        for (Object word : (List<?>) value) {
          String w = (String) word;
          if (w.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("an output word contains a NUL character");
          }
          joined.append(w).append('\0');
        }
        value = joined.toString();
      }
      out[i++] = option.getKey().getBytes(StandardCharsets.UTF_8);
      out[i++] = ((String) value).getBytes(StandardCharsets.UTF_8);
    }
    return out;
  }

  boolean[] lists() {
    boolean[] out = new boolean[values.size()];
    int i = 0;
    for (Object value : values.values()) {
      out[i++] = value instanceof List;
    }
    return out;
  }

  // generated: options (tools/options/generate.py, from tools/options/privatize_options.table)
  /** the privacy parameter: outputs for w and w' differ by at most epsilon * d(w, w') (epsilon; default required). */
  public static DxOptions epsilon(double value) {
    return new DxOptions(new LinkedHashMap<>()).set("epsilon", value);
  }

  /** the privacy parameter: outputs for w and w' differ by at most epsilon * d(w, w') (epsilon; default required). */
  public DxOptions withEpsilon(double value) {
    return set("epsilon", value);
  }

  /** the mechanism (docs/guarantees.md) (mechanism; default laplace). One of laplace, hyperbolic, exponential, syntf, mahalanobis, vickrey, tem, ordering. */
  public DxOptions mechanism(String value) {
    return set("mechanism", value);
  }

  /** the mechanism (docs/guarantees.md) (mechanism; default laplace). The constant's name is the value's (PERMUTE_AND_FLIP: permute-and-flip). */
  public DxOptions mechanism(Enum<?> value) {
    return set("mechanism", value.name().toLowerCase(Locale.ROOT).replace('_', '-'));
  }

  /** words of the vocabulary (in_vocabulary; default privatize). One of privatize, placeholder, drop, keep. */
  public DxOptions inVocabulary(String value) {
    return set("in_vocabulary", value);
  }

  /** words of the vocabulary (in_vocabulary; default privatize). The constant's name is the value's (PERMUTE_AND_FLIP: permute-and-flip). */
  public DxOptions inVocabulary(Enum<?> value) {
    return set("in_vocabulary", value.name().toLowerCase(Locale.ROOT).replace('_', '-'));
  }

  /** out-of-vocabulary words (privatised from one fixed point shared by all of them) (oov; default privatize). One of privatize, placeholder, drop, keep. */
  public DxOptions oov(String value) {
    return set("oov", value);
  }

  /** out-of-vocabulary words (privatised from one fixed point shared by all of them) (oov; default privatize). The constant's name is the value's (PERMUTE_AND_FLIP: permute-and-flip). */
  public DxOptions oov(Enum<?> value) {
    return set("oov", value.name().toLowerCase(Locale.ROOT).replace('_', '-'));
  }

  /** numbers (numbers; default privatize). One of privatize, placeholder, drop, keep. */
  public DxOptions numbers(String value) {
    return set("numbers", value);
  }

  /** numbers (numbers; default privatize). The constant's name is the value's (PERMUTE_AND_FLIP: permute-and-flip). */
  public DxOptions numbers(Enum<?> value) {
    return set("numbers", value.name().toLowerCase(Locale.ROOT).replace('_', '-'));
  }

  /** stopwords (stopwords; default privatize). One of privatize, placeholder, drop, keep. */
  public DxOptions stopwords(String value) {
    return set("stopwords", value);
  }

  /** stopwords (stopwords; default privatize). The constant's name is the value's (PERMUTE_AND_FLIP: permute-and-flip). */
  public DxOptions stopwords(Enum<?> value) {
    return set("stopwords", value.name().toLowerCase(Locale.ROOT).replace('_', '-'));
  }

  /** what the placeholder policy writes (placeholder; default [redacted]). */
  public DxOptions placeholder(String value) {
    return set("placeholder", value);
  }

  /** tem: the truncation radius gamma (tem_gamma; default 0). */
  public DxOptions temGamma(double value) {
    return set("tem_gamma", value);
  }

  /** tem: beta of Carvalho et al. 2023 (tem_beta; default 0.001). */
  public DxOptions temBeta(double value) {
    return set("tem_beta", value);
  }

  /** vickrey: the weight t of the first neighbour (vickrey_t; default 0.75). */
  public DxOptions vickreyT(double value) {
    return set("vickrey_t", value);
  }

  /** mahalanobis: lambda of Sigma_lambda = lambda Sigma + (1 - lambda) I (mahalanobis_lambda; default 0.75). */
  public DxOptions mahalanobisLambda(double value) {
    return set("mahalanobis_lambda", value);
  }

  /** syntf: the weight s of the letter-bigram term (syntf_s; default 0.3). */
  public DxOptions syntfS(double value) {
    return set("syntf_s", value);
  }

  /** exponential: the sampler (sampler; default gumbel). One of gumbel, permute-and-flip. */
  public DxOptions sampler(String value) {
    return set("sampler", value);
  }

  /** exponential: the sampler (sampler; default gumbel). The constant's name is the value's (PERMUTE_AND_FLIP: permute-and-flip). */
  public DxOptions sampler(Enum<?> value) {
    return set("sampler", value.name().toLowerCase(Locale.ROOT).replace('_', '-'));
  }

  /** decoding of laplace, vickrey, mahalanobis: exact, or the model's search index (search; default exact). One of exact, ivf. */
  public DxOptions search(String value) {
    return set("search", value);
  }

  /** decoding of laplace, vickrey, mahalanobis: exact, or the model's search index (search; default exact). The constant's name is the value's (PERMUTE_AND_FLIP: permute-and-flip). */
  public DxOptions search(Enum<?> value) {
    return set("search", value.name().toLowerCase(Locale.ROOT).replace('_', '-'));
  }

  /** ivf: the index cells scanned (ivf_nprobe; default 0). */
  public DxOptions ivfNprobe(long value) {
    return set("ivf_nprobe", Long.toString(value));
  }

  /** what of the input's form a text shows: keep (spans and case shape verbatim), normalize (one canonical separator per gap, sentence capitals), strict (words only, one space apart); docs/guarantees.md (release_shape; default keep). One of keep, normalize, strict. */
  public DxOptions releaseShape(String value) {
    return set("release_shape", value);
  }

  /** what of the input's form a text shows: keep (spans and case shape verbatim), normalize (one canonical separator per gap, sentence capitals), strict (words only, one space apart); docs/guarantees.md (release_shape; default keep). The constant's name is the value's (PERMUTE_AND_FLIP: permute-and-flip). */
  public DxOptions releaseShape(Enum<?> value) {
    return set("release_shape", value.name().toLowerCase(Locale.ROOT).replace('_', '-'));
  }

  /** the output vocabulary: release only the N most frequent words of the model (its frequencies section); docs/guarantees.md, "Output vocabularies" (output_top; default 0). */
  public DxOptions outputTop(long value) {
    return set("output_top", Long.toString(value));
  }

  /** the output vocabulary: release only words of a public list the application ships (never one made from the text being privatised); docs/guarantees.md, "Output vocabularies" (output_words; default none). */
  public DxOptions outputWords(List<String> words) {
    return setWords("output_words", words);
  }

  /** the output vocabulary: release only words of a public list the application ships (never one made from the text being privatised); docs/guarantees.md, "Output vocabularies" (output_words; default none). The words of an output set of the model. */
  public DxOptions outputWords(DxOutputSet set) {
    return setWords("output_words", set.getWords());
  }

  /** a named bundle of mechanism, epsilon, release shape, output vocabulary and token policies (Presets, below): the options it fixes may only be left at their defaults or set to its values; epsilon, when given, overrides its epsilon (preset; default none). One of none, readable, features, strongest. */
  public DxOptions preset(String value) {
    return set("preset", value);
  }

  /** a named bundle of mechanism, epsilon, release shape, output vocabulary and token policies (Presets, below): the options it fixes may only be left at their defaults or set to its values; epsilon, when given, overrides its epsilon (preset; default none). The constant's name is the value's (PERMUTE_AND_FLIP: permute-and-flip). */
  public DxOptions preset(Enum<?> value) {
    return set("preset", value.name().toLowerCase(Locale.ROOT).replace('_', '-'));
  }

  /** person names (first names, surnames; the model's typed classes section): replace = a name drawn uniformly from the same list, placeholder = [name], drop = nothing (only the word count shows it), privatize = an ordinary word, keep = a named leak; docs/guarantees.md, "Typed replacement" (names; default privatize). One of privatize, placeholder, replace, keep, drop. */
  public DxOptions names(String value) {
    return set("names", value);
  }

  /** person names (first names, surnames; the model's typed classes section): replace = a name drawn uniformly from the same list, placeholder = [name], drop = nothing (only the word count shows it), privatize = an ordinary word, keep = a named leak; docs/guarantees.md, "Typed replacement" (names; default privatize). The constant's name is the value's (PERMUTE_AND_FLIP: permute-and-flip). */
  public DxOptions names(Enum<?> value) {
    return set("names", value.name().toLowerCase(Locale.ROOT).replace('_', '-'));
  }

  /** cities, regions, countries: replace = one of the same class drawn uniformly, placeholder = [city] [region] [country] (places; default privatize). One of privatize, placeholder, replace, keep, drop. */
  public DxOptions places(String value) {
    return set("places", value);
  }

  /** cities, regions, countries: replace = one of the same class drawn uniformly, placeholder = [city] [region] [country] (places; default privatize). The constant's name is the value's (PERMUTE_AND_FLIP: permute-and-flip). */
  public DxOptions places(Enum<?> value) {
    return set("places", value.name().toLowerCase(Locale.ROOT).replace('_', '-'));
  }

  /** organisations the model lists: replace = one drawn uniformly, placeholder = [organization] (organizations; default privatize). One of privatize, placeholder, replace, keep, drop. */
  public DxOptions organizations(String value) {
    return set("organizations", value);
  }

  /** organisations the model lists: replace = one drawn uniformly, placeholder = [organization] (organizations; default privatize). The constant's name is the value's (PERMUTE_AND_FLIP: permute-and-flip). */
  public DxOptions organizations(Enum<?> value) {
    return set("organizations", value.name().toLowerCase(Locale.ROOT).replace('_', '-'));
  }

  /** numbers of every shape (digits, amounts, dates, versions, ordinals, number words), phone numbers, month names and clock times: replace = a uniform number (number_shape), month or time of day (in the time's 12- or 24-hour shape), placeholder = [number] [phone] [month] [time]; privatize leaves them to the numbers policy (typed_numbers; default privatize). One of privatize, placeholder, replace, keep, drop. */
  public DxOptions typedNumbers(String value) {
    return set("typed_numbers", value);
  }

  /** numbers of every shape (digits, amounts, dates, versions, ordinals, number words), phone numbers, month names and clock times: replace = a uniform number (number_shape), month or time of day (in the time's 12- or 24-hour shape), placeholder = [number] [phone] [month] [time]; privatize leaves them to the numbers policy (typed_numbers; default privatize). The constant's name is the value's (PERMUTE_AND_FLIP: permute-and-flip). */
  public DxOptions typedNumbers(Enum<?> value) {
    return set("typed_numbers", value.name().toLowerCase(Locale.ROOT).replace('_', '-'));
  }

  /** e-mail addresses, URLs, user handles, street addresses (each one token): replace = one drawn uniformly from a public pattern (name00@example.com, https://example.com/xxxxxx, @name00, 123 Oak Street), placeholder = [email] [url] [handle] [street] (addresses; default privatize). One of privatize, placeholder, replace, keep, drop. */
  public DxOptions addresses(String value) {
    return set("addresses", value);
  }

  /** e-mail addresses, URLs, user handles, street addresses (each one token): replace = one drawn uniformly from a public pattern (name00@example.com, https://example.com/xxxxxx, @name00, 123 Oak Street), placeholder = [email] [url] [handle] [street] (addresses; default privatize). The constant's name is the value's (PERMUTE_AND_FLIP: permute-and-flip). */
  public DxOptions addresses(Enum<?> value) {
    return set("addresses", value.name().toLowerCase(Locale.ROOT).replace('_', '-'));
  }

  /** health terms (conditions, drugs; WordNet): replace = one of the same class drawn uniformly, placeholder = [condition] [drug] (health; default privatize). One of privatize, placeholder, replace, keep, drop. */
  public DxOptions health(String value) {
    return set("health", value);
  }

  /** health terms (conditions, drugs; WordNet): replace = one of the same class drawn uniformly, placeholder = [condition] [drug] (health; default privatize). The constant's name is the value's (PERMUTE_AND_FLIP: permute-and-flip). */
  public DxOptions health(Enum<?> value) {
    return set("health", value.name().toLowerCase(Locale.ROOT).replace('_', '-'));
  }

  /** on: within one call, equal typed tokens get the same replacement (the release then shows which typed tokens were the same entity) (typed_consistent; default off). One of off, on. */
  public DxOptions typedConsistent(String value) {
    return set("typed_consistent", value);
  }

  /** on: within one call, equal typed tokens get the same replacement (the release then shows which typed tokens were the same entity) (typed_consistent; default off). The constant's name is the value's (PERMUTE_AND_FLIP: permute-and-flip). */
  public DxOptions typedConsistent(Enum<?> value) {
    return set("typed_consistent", value.name().toLowerCase(Locale.ROOT).replace('_', '-'));
  }

  /** what a replaced number keeps: hide (a uniform 0..99; a phone a uniform NNN-NNN-NNNN) or keep (separators and digit count kept, every digit drawn: reveals the shape); a clock time keeps its 12- or 24-hour shape either way, except under the strict shape with hide (a uniform HH:MM) (number_shape; default hide). One of hide, keep. */
  public DxOptions numberShape(String value) {
    return set("number_shape", value);
  }

  /** what a replaced number keeps: hide (a uniform 0..99; a phone a uniform NNN-NNN-NNNN) or keep (separators and digit count kept, every digit drawn: reveals the shape); a clock time keeps its 12- or 24-hour shape either way, except under the strict shape with hide (a uniform HH:MM) (number_shape; default hide). The constant's name is the value's (PERMUTE_AND_FLIP: permute-and-flip). */
  public DxOptions numberShape(Enum<?> value) {
    return set("number_shape", value.name().toLowerCase(Locale.ROOT).replace('_', '-'));
  }

  /** the uniform floor p: each privatised word is released, with probability p, as a word drawn uniformly from the output vocabulary (n words), which caps the loss per word at ln(1 + (1 - p) m n / p) nats, m the largest probability of one output (the record's worst_case_per_word); docs/guarantees.md, "The uniform floor" (floor; default 0). */
  public DxOptions floor(double value) {
    return set("floor", value);
  }

  /** negators (not, never, no, nothing, nobody, none, neither, nor, nowhere, without, cannot, nope, nah, words ending in n't): keep = released as written, and no other word is released as one (the output vocabulary leaves them out), so a release keeps exactly its input's negations; reveals which words are negators; not with the strict shape nor syntf; docs/guarantees.md, "Negations" (negations; default privatize). One of privatize, keep. */
  public DxOptions negations(String value) {
    return set("negations", value);
  }

  /** negators (not, never, no, nothing, nobody, none, neither, nor, nowhere, without, cannot, nope, nah, words ending in n't): keep = released as written, and no other word is released as one (the output vocabulary leaves them out), so a release keeps exactly its input's negations; reveals which words are negators; not with the strict shape nor syntf; docs/guarantees.md, "Negations" (negations; default privatize). The constant's name is the value's (PERMUTE_AND_FLIP: permute-and-flip). */
  public DxOptions negations(Enum<?> value) {
    return set("negations", value.name().toLowerCase(Locale.ROOT).replace('_', '-'));
  }

  /** the context prior's strength B: after the release of a word c, each candidate y is weighted by min(1 + B, lift(c, y)), how much more often y follows c in the model's public text, and the law renormalised, so that replacements fit the word before them; c is the word released just before, when only spaces separate them; the loss per word becomes eps * d + min(eps * d, ln(1 + B)); docs/guarantees.md, "The context prior" (context_prior; default 0). */
  public DxOptions contextPrior(double value) {
    return set("context_prior", value);
  }
  // generated: end options
}
