// SPDX-License-Identifier: Apache-2.0
#include "text/privatize_presets.hpp"

#include <string>

#include "accounting/privacy_report.hpp"
#include "errors/error.hpp"
#include "mechanisms/mechanism.hpp"
#include "model/typed_lists.hpp"

namespace dxt {

namespace {

const char* shape_word(uint32_t shape) {
  switch (shape) {
    case DXT_SHAPE_KEEP: return "keep";
    case DXT_SHAPE_NORMALIZE: return "normalize";
    case DXT_SHAPE_STRICT: return "strict";
    default: return "unknown";
  }
}

const char* policy_word(uint32_t policy) {
  switch (policy) {
    case DXT_POLICY_PRIVATIZE: return "privatize";
    case DXT_POLICY_PLACEHOLDER: return "placeholder";
    case DXT_POLICY_DROP: return "drop";
    case DXT_POLICY_KEEP: return "keep";
    default: return "unknown";
  }
}

}  // namespace

const char* typed_policy_name(uint32_t policy) {
  switch (policy) {
    case DXT_TYPED_PRIVATIZE: return "privatize";
    case DXT_TYPED_PLACEHOLDER: return "placeholder";
    case DXT_TYPED_REPLACE: return "replace";
    case DXT_TYPED_KEEP: return "keep";
    case DXT_TYPED_DROP: return "drop";
    default: return "unknown";
  }
}

// The typed families and the four token policies by their option names
// (tools/options/privatize_options.table), which every binding and the
// command line share: messages name options, not C fields.
const char* const kTypedFields[DXT_TYPED_FAMILY_COUNT] = {"names",         "places",    "organizations",
                                                          "typed_numbers", "addresses", "health"};

const char* typed_family_option(uint32_t family) {
  return family < DXT_TYPED_FAMILY_COUNT ? kTypedFields[family] : "unknown";
}

namespace {

const char* const kPolicyFields[DXT_TOKEN_CLASS_COUNT] = {"in_vocabulary", "oov", "numbers", "stopwords"};

[[noreturn]] void conflict(const Preset& p, const std::string& field, const std::string& given,
                           const std::string& fixed) {
  fail(DXT_E_INVALID_ARGUMENT, "the option " + field + " is " + given + ", but the preset '" + p.name +
                                   "' sets it to " + fixed +
                                   ": leave it at its default, set the preset's value, or use no preset");
}

// An enum field the caller left alone: 0 (the C "default" value) or what
// dxt_privatize_options_init writes.
bool unset(uint32_t value, uint32_t init_default) { return value == 0 || value == init_default; }

// The list classes of each typed family (typed_family), in class order.
bool family_has_class(int family, uint32_t cls) {
  switch (family) {
    case DXT_FAMILY_NAMES: return cls == DXT_TYPED_FIRST_NAME || cls == DXT_TYPED_SURNAME;
    case DXT_FAMILY_PLACES: return cls == DXT_TYPED_CITY || cls == DXT_TYPED_REGION || cls == DXT_TYPED_COUNTRY;
    case DXT_FAMILY_ORGANIZATIONS: return cls == DXT_TYPED_ORGANIZATION;
    case DXT_FAMILY_HEALTH: return cls == DXT_TYPED_CONDITION || cls == DXT_TYPED_DRUG;
    default: return false;  // numbers and addresses come from patterns, not lists
  }
}

const char* list_class_name(uint32_t cls) {
  switch (cls) {
    case DXT_TYPED_FIRST_NAME: return "first names";
    case DXT_TYPED_SURNAME: return "surnames";
    case DXT_TYPED_CITY: return "cities";
    case DXT_TYPED_REGION: return "regions";
    case DXT_TYPED_COUNTRY: return "countries";
    case DXT_TYPED_ORGANIZATION: return "organizations";
    case DXT_TYPED_CONDITION: return "conditions";
    case DXT_TYPED_DRUG: return "drugs";
    default: return "unknown";
  }
}

}  // namespace

void require_typed_lists(const dxt_privatize_options& o, const Model& model) {
  const TypedLists* lists = nullptr;
  bool read = false;
  for (int f = 0; f < DXT_TYPED_FAMILY_COUNT; ++f) {
    // (Unknown values are refused where the policies are resolved.)
    if (o.typed[f] == DXT_TYPED_DEFAULT || o.typed[f] == DXT_TYPED_PRIVATIZE || o.typed[f] > DXT_TYPED_DROP) continue;
    for (uint32_t c = DXT_TYPED_FIRST_NAME; c <= DXT_TYPED_DRUG; ++c) {
      if (!family_has_class(f, c)) continue;
      if (!read) {
        lists = model.typed_lists();  // checked on first use: DXT_E_CORRUPT_MODEL
        read = true;
      }
      if (lists != nullptr && !lists->members[c].empty()) continue;
      const Preset* p = find_preset(o.preset);
      const std::string set_by = p != nullptr ? std::string(" (the preset '") + p->name + "' sets it)" : "";
      fail(DXT_E_UNSUPPORTED,
           std::string("the option ") + kTypedFields[f] + " is " + typed_policy_name(o.typed[f]) + set_by +
               ", but this model " +
               (lists == nullptr ? "has no typed classes section" : "lists no " + std::string(list_class_name(c))) +
               ", so " + list_class_name(c) +
               " would pass as ordinary words: use a model whose typed classes section lists them (dxtext "
               "typed-classes; docs/guarantees.md, \"Typed replacement\"), or set " +
               kTypedFields[f] + " to privatize" + (p != nullptr ? " and use no preset" : ""));
    }
  }
}

const Preset* find_preset(uint32_t id) {
  for (const Preset& p : kPresets)
    if (static_cast<uint32_t>(p.id) == id) return &p;
  return nullptr;
}

const char* preset_name(uint32_t id) {
  if (id == DXT_PRESET_NONE) return "none";
  const Preset* p = find_preset(id);
  return p != nullptr ? p->name : "unknown";
}

dxt_privatize_options resolve_preset(const dxt_privatize_options& given, const Model& model) {
  if (given.preset == DXT_PRESET_NONE) {
    if (given.epsilon == 0)
      fail(DXT_E_INVALID_EPSILON, "epsilon is not set: give one from " + format_number(DXT_EPSILON_MIN) + " to " +
                                      format_number(DXT_EPSILON_MAX) +
                                      ", or choose a preset (readable, features or strongest), which sets one");
    require_typed_lists(given, model);
    return given;
  }
  const Preset* found = find_preset(given.preset);
  if (found == nullptr) {
    std::string names;
    for (const Preset& p : kPresets) names += std::string(names.empty() ? "" : ", ") + p.name;
    fail(DXT_E_INVALID_ARGUMENT, "unknown preset " + std::to_string(given.preset) + " (the presets are " + names + ")");
  }
  const dxt_privatize_options resolved = apply_preset(*found, given, model);
  require_typed_lists(resolved, model);
  return resolved;
}

dxt_privatize_options apply_preset(const Preset& p, const dxt_privatize_options& given, const Model& model) {
  dxt_privatize_options o = given;

  if (!unset(o.mechanism, DXT_MECHANISM_LAPLACE) && o.mechanism != static_cast<uint32_t>(p.mechanism))
    conflict(p, "mechanism",
             o.mechanism <= DXT_MECHANISM_LAST ? mechanism_name(static_cast<dxt_mechanism>(o.mechanism))
                                               : std::to_string(o.mechanism),
             mechanism_name(p.mechanism));
  o.mechanism = p.mechanism;

  if (!unset(o.release_shape, DXT_SHAPE_KEEP) && o.release_shape != static_cast<uint32_t>(p.release_shape))
    conflict(p, "release_shape", shape_word(o.release_shape), shape_word(p.release_shape));
  o.release_shape = p.release_shape;

  for (int c = 0; c < DXT_TOKEN_CLASS_COUNT; ++c) {
    if (!unset(o.policy[c], DXT_POLICY_PRIVATIZE) && o.policy[c] != static_cast<uint32_t>(p.policy[c]))
      conflict(p, kPolicyFields[c], policy_word(o.policy[c]), policy_word(p.policy[c]));
    o.policy[c] = p.policy[c];
  }
  for (int f = 0; f < DXT_TYPED_FAMILY_COUNT; ++f) {
    if (!unset(o.typed[f], DXT_TYPED_PRIVATIZE) && o.typed[f] != static_cast<uint32_t>(p.typed[f]))
      conflict(p, kTypedFields[f], typed_policy_name(o.typed[f]), typed_policy_name(p.typed[f]));
    o.typed[f] = p.typed[f];
  }

  // The output vocabulary: the preset's top N, cut to the vocabulary (a
  // smaller model is taken whole), or the whole vocabulary.
  if (o.output_set != nullptr)
    fail(DXT_E_INVALID_ARGUMENT, std::string("an output word list (output_words) is set, but the preset '") + p.name +
                                     "' fixes the output vocabulary: use no preset to release from a word list");
  const uint32_t vocabulary = model.vocabulary_size();
  const uint32_t top = p.output_top < vocabulary ? p.output_top : vocabulary;
  if (o.output_top != 0 && o.output_top != p.output_top && o.output_top != top)
    conflict(p, "output_top", std::to_string(o.output_top),
             p.output_top == 0 ? std::string("0 (the whole vocabulary)") : std::to_string(p.output_top));
  if (p.output_top != 0 && !model.has_frequencies())
    fail(DXT_E_UNSUPPORTED, std::string("the preset '") + p.name + "' releases only the model's " +
                                std::to_string(p.output_top) +
                                " most frequent words, and this model has no frequencies section: use a model with "
                                "one (dxtext convert --frequencies) or choose the options without a preset");
  o.output_top = top;

  for (size_t i = 0; i < p.parameter_count; ++i) {
    const PresetParameter& q = p.parameters[i];
    if (q.real != nullptr) {
      double& field = o.*q.real;
      if (field != q.default_value && field != q.value) conflict(p, q.name, format_number(field), q.shown);
      field = q.value;
    } else {
      uint32_t& field = o.*q.whole;
      const auto fixed = static_cast<uint32_t>(q.value);
      if (!unset(field, static_cast<uint32_t>(q.default_value)) && field != fixed)
        conflict(p, q.name, std::to_string(field), q.shown);
      field = fixed;
    }
  }

  // Epsilon: unset takes the preset's; a caller's value overrides it and is
  // checked where every epsilon is (check_epsilon).
  if (o.epsilon == 0) o.epsilon = p.epsilon;
  return o;
}

}  // namespace dxt
