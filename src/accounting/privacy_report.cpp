// SPDX-License-Identifier: Apache-2.0
#include "accounting/privacy_report.hpp"

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "accounting/syntf_loss.hpp"
#include "errors/error.hpp"
#include "model/sha256.hpp"
#include "text/privatize_presets.hpp"
#include "text/typed_classes.hpp"

namespace dxt {

const char* mechanism_name(dxt_mechanism id) {
  switch (id) {
    case DXT_MECHANISM_LAPLACE: return "laplace";
    case DXT_MECHANISM_HYPERBOLIC: return "hyperbolic";
    case DXT_MECHANISM_EXPONENTIAL: return "exponential";
    case DXT_MECHANISM_SYNTF: return "syntf";
    case DXT_MECHANISM_MAHALANOBIS: return "mahalanobis";
    case DXT_MECHANISM_VICKREY: return "vickrey";
    case DXT_MECHANISM_TEM: return "tem";
    case DXT_MECHANISM_ORDERING: return "ordering";
    default: return "unknown";
  }
}

dxt_mechanism mechanism_from_name(const std::string& name) {
  for (int id = DXT_MECHANISM_LAPLACE; id <= DXT_MECHANISM_LAST; ++id)
    if (name == mechanism_name(static_cast<dxt_mechanism>(id))) return static_cast<dxt_mechanism>(id);
  return DXT_MECHANISM_UNKNOWN;
}

const char* metric_name(dxt_metric m) {
  switch (m) {
    case DXT_METRIC_EUCLIDEAN: return "euclidean";
    case DXT_METRIC_HYPERBOLIC: return "hyperbolic";
    case DXT_METRIC_MAHALANOBIS: return "mahalanobis";
    case DXT_METRIC_DISCRETE: return "discrete";
    case DXT_METRIC_ORDERING: return "ordering";
    default: return "unknown";
  }
}

const char* geometry_name(dxt_geometry g) {
  switch (g) {
    case DXT_GEOMETRY_EUCLIDEAN: return "euclidean";
    case DXT_GEOMETRY_POINCARE: return "poincare";
    default: return "unknown";
  }
}

const char* quantization_name(dxt_quantization q) {
  switch (q) {
    case DXT_QUANT_F32: return "f32";
    case DXT_QUANT_F16: return "f16";
    case DXT_QUANT_INT8: return "int8";
    default: return "unknown";
  }
}

uint32_t revealed_typed_classes(const ReleaseShape& shape) {
  if (shape.kind == DXT_RELEASE_SYNTHETIC_BAG) return 0;
  uint32_t bits = 0;
  for (uint32_t c = DXT_TYPED_FIRST_NAME; c < DXT_TYPED_CLASS_COUNT; ++c) {
    const dxt_typed_policy p = shape.typed[typed_family(static_cast<dxt_typed_class>(c))];
    if (p == DXT_TYPED_REPLACE || p == DXT_TYPED_PLACEHOLDER) bits |= 1u << c;
  }
  return bits;
}

uint32_t dropped_typed_classes(const ReleaseShape& shape) {
  if (shape.kind == DXT_RELEASE_SYNTHETIC_BAG) return 0;
  uint32_t bits = 0;
  for (uint32_t c = DXT_TYPED_FIRST_NAME; c < DXT_TYPED_CLASS_COUNT; ++c)
    if (shape.typed[typed_family(static_cast<dxt_typed_class>(c))] == DXT_TYPED_DROP) bits |= 1u << c;
  return bits;
}

uint32_t release_reveals(const ReleaseShape& shape) {
  // dxt_syntf releases n_out draws whatever the input holds: its output
  // depends on the document only through them (dropping a class before the
  // draw is covered by the all-documents-adjacent bound).
  if (shape.kind == DXT_RELEASE_SYNTHETIC_BAG) return 0;
  uint32_t bits = 0;
  for (const dxt_token_policy p : shape.policy) {
    if (p == DXT_POLICY_PLACEHOLDER || p == DXT_POLICY_DROP) bits |= DXT_REVEALS_TOKEN_CLASSES;
    if (p == DXT_POLICY_KEEP) bits |= DXT_REVEALS_KEPT_WORDS;
  }
  for (const dxt_typed_policy p : shape.typed)
    if (p == DXT_TYPED_KEEP) bits |= DXT_REVEALS_KEPT_WORDS;
  if (shape.keep_negations) bits |= DXT_REVEALS_NEGATIONS;
  if (revealed_typed_classes(shape) != 0) bits |= DXT_REVEALS_TYPED_CLASSES;
  const bool keep = shape.text_shape == DXT_SHAPE_KEEP;
  switch (shape.kind) {
    // One word: keep restores its case shape; the other shapes do not.
    case DXT_RELEASE_WORD: return bits | (shape.case_shape && keep ? DXT_REVEALS_CASE_SHAPE : 0u);
    // A text (text/text_shaper.hpp): keep copies its spans and each word's
    // case shape; normalize one separator per gap (sentence end, clause,
    // space) and sentence capitals, which follow from the boundaries;
    // strict nothing but the words, one space apart.
    case DXT_RELEASE_TEXT:
      switch (shape.text_shape) {
        case DXT_SHAPE_NORMALIZE:
          return bits | DXT_REVEALS_WORD_COUNT | DXT_REVEALS_SENTENCE_BOUNDARIES | DXT_REVEALS_CLAUSE_BOUNDARIES;
        case DXT_SHAPE_STRICT: return bits | DXT_REVEALS_WORD_COUNT;
        default: return bits | DXT_REVEALS_WORD_COUNT | DXT_REVEALS_LAYOUT | DXT_REVEALS_CASE_SHAPE;
      }
    // A bag's words come from the vocabulary as they are spelt there.
    case DXT_RELEASE_BAG: return bits | DXT_REVEALS_WORD_COUNT;
    default: return bits;
  }
}

void fill_record(dxt_release_record& record, const Mechanism& mechanism, const Model& model, dxt_rng_mode rng_mode,
                 const ReleaseShape& shape) {
  dxt_release_record r;
  std::memset(&r, 0, sizeof r);
  r.struct_size = record.struct_size;
  r.mechanism = mechanism.id();
  r.epsilon = mechanism.epsilon();
  r.metric = mechanism.metric();
  r.rng_mode = rng_mode;
  r.is_private = rng_mode == DXT_RNG_SYSTEM;
  const Digest& d = model.fingerprint();
  std::memcpy(r.model_fingerprint, d.data(), d.size());
  r.fingerprint_valid = true;
  r.release = shape.kind;
  switch (shape.kind) {
    case DXT_RELEASE_WORD: r.bound = DXT_BOUND_WORD; break;
    case DXT_RELEASE_TEXT: r.bound = DXT_BOUND_POSITIONWISE; break;
    case DXT_RELEASE_BAG: r.bound = DXT_BOUND_BAG_EMD; break;
    case DXT_RELEASE_SYNTHETIC_BAG:
      r.bound = DXT_BOUND_ANY_INPUTS;
      r.draws = shape.draws;
      r.epsilon_total = mechanism.epsilon() * static_cast<double>(shape.draws);
      break;
    default: fail(DXT_E_INTERNAL, "unknown release kind");
  }
  r.reveals = release_reveals(shape);
  // A model whose words are so far apart at this epsilon that the mechanism
  // returns its input: the record must not call that private.
  if (mechanism.keeps_input()) {
    r.reveals |= DXT_REVEALS_INPUT_WORDS;
    r.is_private = false;
  }
  r.release_shape = shape.text_shape;
  // The output vocabulary: what the mechanism could release (public data).
  const OutputSet* output = mechanism.params().output.get();
  r.output_kind = output != nullptr ? output->kind : DXT_OUTPUT_VOCABULARY;
  r.output_size = output != nullptr ? output->size() : model.vocabulary_size();
  if (output != nullptr) std::memcpy(r.output_digest, output->digest.data(), output->digest.size());
  r.preset = shape.preset;
  r.typed_classes = revealed_typed_classes(shape);
  r.typed_flags = r.typed_classes != 0 ? shape.typed_flags : 0;
  r.typed_dropped = dropped_typed_classes(shape);
  r.uniform_floor = mechanism.params().floor;
  r.worst_case_per_word = mechanism.worst_case_per_word();
  r.context_prior = mechanism.params().context_prior;
  // syntf's L is the number of words it ranges over (docs/guarantees.md).
  if (mechanism.id() == DXT_MECHANISM_SYNTF)
    r.epsilon_vocabulary = syntf_vocabulary_bound(mechanism.epsilon(), r.output_size);
  // Copy no more than the caller's struct holds.
  std::memcpy(&record, &r, record.struct_size < sizeof r ? record.struct_size : sizeof r);
}

void fill_diagnostics(dxt_local_diagnostics& diagnostics, const TokenTally& tally) {
  dxt_local_diagnostics r;
  std::memset(&r, 0, sizeof r);
  r.struct_size = diagnostics.struct_size;
  std::memcpy(r.counts, tally.counts, sizeof r.counts);
  r.words_privatized = tally.privatized;
  r.words_leaked = tally.leaked;
  std::memcpy(&diagnostics, &r, diagnostics.struct_size < sizeof r ? diagnostics.struct_size : sizeof r);
}

namespace {

// The shortest decimal that reads back as the same double (3.7, not
// 3.7000000000000002).
std::string num(double v) {
  if (!std::isfinite(v)) return "null";
  char b[64];
  for (int digits = 15; digits <= 17; ++digits) {
    std::snprintf(b, sizeof b, "%.*g", digits, v);
    if (std::strtod(b, nullptr) == v) break;
  }
  return b;
}

// A number for the sentences of the guarantee: short, as people write it.
std::string short_num(double v) {
  char b[64];
  std::snprintf(b, sizeof b, "%.6g", v);
  return b;
}

const char* release_name(uint32_t kind) {
  switch (kind) {
    case DXT_RELEASE_WORD: return "word";
    case DXT_RELEASE_TEXT: return "text";
    case DXT_RELEASE_BAG: return "bag";
    case DXT_RELEASE_SYNTHETIC_BAG: return "synthetic_bag";
    default: return "unknown";
  }
}

const char* bound_name(uint32_t bound) {
  switch (bound) {
    case DXT_BOUND_WORD: return "word";
    case DXT_BOUND_POSITIONWISE: return "positionwise";
    case DXT_BOUND_BAG_EMD: return "bag_emd";
    case DXT_BOUND_ANY_INPUTS: return "any_inputs";
    default: return "unknown";
  }
}

struct RevealBit {
  uint32_t bit;
  const char* name;
  const char* words;
};
constexpr RevealBit kReveals[] = {
    {DXT_REVEALS_WORD_COUNT, "word_count", "the number of words"},
    {DXT_REVEALS_LAYOUT, "layout",
     "the text between words (whitespace, punctuation, line and sentence boundaries, symbols)"},
    {DXT_REVEALS_CASE_SHAPE, "case_shape", "each word's case shape (lower, Title, UPPER)"},
    {DXT_REVEALS_TOKEN_CLASSES, "token_classes",
     "which words belong to a class replaced by the placeholder or dropped"},
    {DXT_REVEALS_KEPT_WORDS, "kept_words", "the words of classes kept verbatim, unprotected"},
    {DXT_REVEALS_SENTENCE_BOUNDARIES, "sentence_boundaries",
     "between which words a sentence ends (. ! ? and their kin, all written '.'), and whether the text ends one"},
    {DXT_REVEALS_CLAUSE_BOUNDARIES, "clause_boundaries",
     "between which words other punctuation stands (, ; : dashes, quotes, brackets, all written ',')"},
    {DXT_REVEALS_TYPED_CLASSES, "typed_classes",
     "which words are names, places, numbers, addresses or health terms of the typed classes listed, and of which "
     "class (found from each word and the words and marks around it); a replaced time also shows its shape (12- or "
     "24-hour, hour alone, minutes or seconds, the am/pm spelling), except under the strict shape with number_shape "
     "hide"},
    {DXT_REVEALS_INPUT_WORDS, "input_words",
     "the input's words themselves: at this epsilon the model's words are so far apart that the mechanism "
     "returns them unchanged"},
    {DXT_REVEALS_NEGATIONS, "negations",
     "which words are negators (not, never, no, nothing, nobody, none, neither, nor, nowhere, without, cannot, "
     "nope, nah, and words ending in n't), and which, as written"},
};

const char* shape_name(uint32_t shape) {
  switch (shape) {
    case DXT_SHAPE_KEEP: return "keep";
    case DXT_SHAPE_NORMALIZE: return "normalize";
    case DXT_SHAPE_STRICT: return "strict";
    default: return "unknown";
  }
}

// The loss of one word, "eps * d(x, y)", or with a floor's cap C
// "min(eps * d(x, y), C)".
std::string word_loss(const dxt_release_record& r, const std::string& E, const std::string& d, const char* x,
                      const char* y) {
  const std::string metric = E + " * " + d + "(" + x + ", " + y + ")";
  // A context prior's renormalisation adds at most ln(1 + B), and at most
  // the metric term again.
  const std::string loss =
      r.context_prior > 0 ? metric + " + min(" + metric + ", " + short_num(std::log1p(r.context_prior)) + ")" : metric;
  if (!(r.uniform_floor > 0) || !std::isfinite(r.worst_case_per_word)) return loss;
  return "min(" + loss + ", " + short_num(r.worst_case_per_word) + ")";
}

// The bound of one release in words, with epsilon `e` per word.
std::string bound_sentence(const dxt_release_record& r, double e) {
  const bool discrete = r.metric == DXT_METRIC_DISCRETE;
  const std::string d = std::string("d_") + metric_name(static_cast<dxt_metric>(r.metric));
  const std::string E = short_num(e);
  switch (r.bound) {
    case DXT_BOUND_WORD: return discrete ? E + "-DP between any two words" : word_loss(r, E, d, "w", "w'");
    case DXT_BOUND_POSITIONWISE:
      return (discrete ? E + " * (the number of positions i where x_i != x'_i)"
              : r.context_prior > 0 || (r.uniform_floor > 0 && std::isfinite(r.worst_case_per_word))
                  ? "sum_i " + word_loss(r, E, d, "x_i", "x'_i")
                  : E + " * sum_i " + d + "(x_i, x'_i)") +
             " for two texts with the same number of privatised words, paired in order (word order is not "
             "protected: this is not an EMD bound)";
    case DXT_BOUND_BAG_EMD:
      if (r.uniform_floor > 0 && std::isfinite(r.worst_case_per_word))
        return "the least, over pairings of the words of two bags of equal size N, of sum_i " +
               word_loss(r, E, d, "x_i", "x'_i") + " (at most " + E + " * N * EMD(b, b') with ground metric " + d + ")";
      return E + " * N * EMD(b, b') for two bags of equal size N, with ground metric " + d + " (= " + E +
             " * the least sum of " + d + " over pairings of their words)";
    case DXT_BOUND_ANY_INPUTS:
      return short_num(e * static_cast<double>(r.draws)) + "-DP between any two documents (" + std::to_string(r.draws) +
             " draws, each " + E + "-DP)";
    default: return "unknown";
  }
}

}  // namespace

std::string record_to_json(const dxt_release_record& r) {
  std::string s = "{\"release\":\"";
  s += release_name(r.release);
  s += "\",\"mechanism\":\"";
  s += mechanism_name(static_cast<dxt_mechanism>(r.mechanism));
  s += "\",\"epsilon\":" + num(r.epsilon);
  s += ",\"metric\":\"";
  s += metric_name(static_cast<dxt_metric>(r.metric));
  s += "\",\"rng\":\"";
  s += r.rng_mode == DXT_RNG_SYSTEM ? "system" : r.rng_mode == DXT_RNG_DETERMINISTIC ? "deterministic" : "unknown";
  s += "\",\"private\":";
  s += r.is_private ? "true" : "false";
  if (!r.is_private && r.rng_mode != DXT_RNG_SYSTEM)
    s += ",\"warning\":\"deterministic seeded noise: NOT private, for testing only\"";
  else if (!r.is_private && (r.reveals & DXT_REVEALS_INPUT_WORDS) != 0)
    s += ",\"warning\":\"the model's geometry makes the mechanism return its input at this epsilon: NOT private\"";
  s += ",\"model_sha256\":";
  s += r.fingerprint_valid ? "\"" + to_hex(r.model_fingerprint, 32) + "\"" : "null";
  s += ",\"bound\":\"";
  s += bound_name(r.bound);
  s += "\"";
  if (r.bound == DXT_BOUND_ANY_INPUTS)
    s += ",\"draws\":" + std::to_string(r.draws) + ",\"epsilon_total\":" + num(r.epsilon_total);
  // A record from before the floor has neither field (0): left out.
  if (r.uniform_floor > 0) s += ",\"floor\":" + num(r.uniform_floor);
  if (r.worst_case_per_word != 0) s += ",\"worst_case_per_word\":" + num(r.worst_case_per_word);
  if (r.context_prior > 0) s += ",\"context_prior\":" + num(r.context_prior);
  if (r.epsilon_vocabulary > 0) s += ",\"epsilon_vocabulary\":" + num(r.epsilon_vocabulary);
  // A caller's record older than the field has no shape (0): left out.
  if (r.release_shape != DXT_SHAPE_DEFAULT) s += ",\"shape\":\"" + std::string(shape_name(r.release_shape)) + "\"";
  if (r.output_kind == DXT_OUTPUT_TOP || r.output_kind == DXT_OUTPUT_LIST) {
    s += ",\"output_vocabulary\":{\"kind\":\"";
    s += r.output_kind == DXT_OUTPUT_TOP ? "top" : "list";
    s += "\",\"size\":" + std::to_string(r.output_size) + ",\"sha256\":\"" + to_hex(r.output_digest, 32) + "\"}";
  }
  if (r.preset != DXT_PRESET_NONE) s += ",\"preset\":\"" + std::string(preset_name(r.preset)) + "\"";
  if (r.typed_classes != 0) {
    s += ",\"typed_classes\":[";
    bool first_class = true;
    for (uint32_t c = 1; c < DXT_TYPED_CLASS_COUNT; ++c) {
      if ((r.typed_classes & (1u << c)) == 0) continue;
      s += first_class ? "\"" : ",\"";
      s += typed_class_name(static_cast<dxt_typed_class>(c));
      s += "\"";
      first_class = false;
    }
    s += "]";
    if ((r.typed_flags & DXT_TYPED_FLAG_CONSISTENT) != 0) s += ",\"typed_consistent\":true";
    if ((r.typed_flags & DXT_TYPED_FLAG_NUMBER_SHAPE) != 0) s += ",\"number_shape\":\"keep\"";
  }
  if (r.typed_dropped != 0) {
    s += ",\"typed_dropped\":[";
    bool first_class = true;
    for (uint32_t c = 1; c < DXT_TYPED_CLASS_COUNT; ++c) {
      if ((r.typed_dropped & (1u << c)) == 0) continue;
      s += first_class ? "\"" : ",\"";
      s += typed_class_name(static_cast<dxt_typed_class>(c));
      s += "\"";
      first_class = false;
    }
    s += "]";
  }
  s += ",\"reveals\":[";
  std::string shown;
  bool first = true;
  for (const RevealBit& b : kReveals) {
    if ((r.reveals & b.bit) == 0) continue;
    s += first ? "\"" : ",\"";
    s += b.name;
    s += "\"";
    shown += (first ? "" : "; ") + std::string(b.words);
    first = false;
  }
  s += "],\"guarantee\":{";
  dxt_release_record word = r;
  word.bound = DXT_BOUND_WORD;
  s += "\"per_word\":\"" + bound_sentence(word, r.epsilon) + "\"";
  s += ",\"release\":\"" + bound_sentence(r, r.epsilon) + "\"";
  if (r.worst_case_per_word != 0)
    s += ",\"worst_case\":\"" +
         (std::isfinite(r.worst_case_per_word)
              ? "at most " + short_num(r.worst_case_per_word) +
                    " nats per privatised word between any two inputs, whatever their distance (N times it for N "
                    "words)"
              : std::string("no finite bound between any two inputs: the metric has no known diameter; set a floor")) +
         "\"";
  if (r.epsilon_vocabulary > 0)
    s += ",\"release_vocabulary\":\"" + bound_sentence(r, r.epsilon_vocabulary) +
         ", by the vocabulary-size bound (epsilon + ln eta) per word\"";
  if (r.typed_dropped != 0)
    s += ",\"dropped\":\"tokens of the classes in typed_dropped are left out and leave no trace; the number of words "
         "shows how many words were released, not which were dropped\"";
  s += ",\"not_covered\":\"";
  s += shown.empty() ? "nothing of the input is shown as it is" : "the output shows as they are: " + shown;
  s += "\"}}";
  return s;
}

std::string diagnostics_to_json(const dxt_local_diagnostics& r) {
  static const char* kClasses[] = {"in_vocabulary", "out_of_vocabulary", "number", "stopword"};
  static const char* kActions[] = {"privatized", "placeholder", "dropped", "kept"};
  // The marker says what these numbers are wherever the JSON ends up.
  std::string s = "{\"local_diagnostics\":\"describes the input; covered by no guarantee; keep it on the device\"";
  s += ",\"tokens\":{";
  for (int c = 0; c < DXT_TOKEN_CLASS_COUNT; ++c) {
    if (c) s += ',';
    s += "\"";
    s += kClasses[c];
    s += "\":{";
    for (int a = 0; a < DXT_TOKEN_ACTION_COUNT; ++a) {
      if (a) s += ',';
      s += "\"";
      s += kActions[a];
      s += "\":" + std::to_string(r.counts[c][a]);
    }
    s += '}';
  }
  s += "},\"words_privatized\":" + std::to_string(r.words_privatized);
  s += ",\"words_leaked\":" + std::to_string(r.words_leaked);
  s += "}";
  return s;
}

}  // namespace dxt
