// SPDX-License-Identifier: Apache-2.0
// The JavaScript that the Node.js package (lib/shared.js) and the
// WebAssembly package (js/shared.js) share: one API, so one copy of what is
// not specific to either platform. tools/options/generate.py copies it into
// both, as a CommonJS and an ES module (every top-level function and const
// is exported), with OPTIONS of options_table.js in scope.
//
// - Names of the C enums by number, and the shapes of release records and
//   local diagnostics built from their numbers (recordOf, diagnosticsOf).
// - optionPairs: the options object of a privatisation call, turned into
//   [name, value] pairs for the library's by-name path (dxt_options_set,
//   dxt_options_set_words).
//
// Every key is passed through as the caller wrote it (camelCase, as in
// docs/options.md, or snake_case: the library reads both) except
// localDiagnostics, an option of the call itself; the library knows the
// options, refuses an unknown one ("unknown option 'epsilom' (did you mean
// 'epsilon'?)") and names the key as written in every error. A number or a
// string goes as text (String(0.1) reads back exactly), an array of words
// or an OutputSet (its words) as a word list; undefined is left out.
//
//   optionPairs(options, wordsOf, invalid)
//     options  a number (epsilon), an object of options, or undefined
//     wordsOf  (value, name) => the words of an OutputSet (after checking
//              it may be used), or undefined for any other value
//     invalid  (message) => the binding's InvalidArgumentError
function optionPairs(options, wordsOf, invalid) {
  if (options === undefined) return [];
  if (typeof options === 'number') options = { epsilon: options };
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw invalid('options must be a number (epsilon) or an object');
  }
  if (options.localDiagnostics !== undefined && typeof options.localDiagnostics !== 'boolean') {
    throw invalid('localDiagnostics must be true or false');
  }
  const pairs = [];
  for (const [name, value] of Object.entries(options)) {
    if (name === 'localDiagnostics' || value === undefined) continue;
    const words = wordsOf(value, name) || value;
    if (Array.isArray(words)) {
      if (words.some((w) => typeof w !== 'string')) throw invalid(`${name} must be an array of strings or an OutputSet`);
      if (words.some((w) => w.includes('\0'))) throw invalid(`${name}: a word contains a NUL character`);
      pairs.push([name, words]);
    } else if (typeof value === 'number' || typeof value === 'string') {
      if (String(value).includes('\0')) throw invalid(`${name} contains a NUL character`);
      pairs.push([name, String(value)]);
    } else {
      throw invalid(`${name} must be a number, a string or an array of words, not ${value === null ? 'null' : typeof value}`);
    }
  }
  return pairs;
}

// Names of the C enums, indexed by their numbers (include/dxtext/dxtext.h).
const MECHANISMS = ['unknown', 'laplace', 'hyperbolic', 'exponential', 'syntf', 'mahalanobis', 'vickrey', 'tem', 'ordering'];
const GEOMETRIES = ['unknown', 'euclidean', 'poincare'];
const QUANTIZATIONS = ['unknown', 'f32', 'f16', 'int8'];
const METRICS = ['unknown', 'euclidean', 'hyperbolic', 'mahalanobis', 'discrete', 'ordering'];
const RNG_MODES = ['unknown', 'system', 'deterministic'];
const RELEASES = ['unknown', 'word', 'text', 'bag', 'syntheticBag'];
const BOUNDS = ['unknown', 'word', 'positionwise', 'bagEmd', 'anyInputs'];
// DXT_REVEALS_* bits, in bit order.
const REVEALS = ['wordCount', 'layout', 'caseShape', 'tokenClasses', 'keptWords', 'sentenceBoundaries',
  'clauseBoundaries', 'typedClasses', 'inputWords', 'negations'];
// dxt_release_shape and dxt_output_kind, by number.
const SHAPES = ['keep', 'keep', 'normalize', 'strict'];
const OUTPUT_KINDS = ['vocabulary', 'top', 'list'];
// dxt_preset, by number: the presets of tools/options/presets.table.
const PRESETS = Object.entries(OPTIONS.find((option) => option.name === 'preset').values)
  .reduce((names, [name, number]) => { names[number] = name; return names; }, []);
// Token classes in dxt_token_class order, and what a policy did: the local
// diagnostics' keys.
const TOKEN_CLASSES = ['inVocabulary', 'outOfVocabulary', 'number', 'stopword'];
const ACTIONS = ['privatized', 'placeholder', 'dropped', 'kept'];

// The release record (safe to send) from the numbers of a dxt_release_record:
// { release, mechanism, epsilon, metric, rngMode, isPrivate,
// modelFingerprint, bound, reveals, draws, epsilonTotal, epsilonVocabulary,
// releaseShape, outputKind, outputSize, outputDigest, preset, json }.
function recordOf(raw) {
  return Object.freeze({
    release: RELEASES[raw.release] || 'unknown',
    mechanism: MECHANISMS[raw.mechanism] || 'unknown',
    epsilon: raw.epsilon,
    metric: METRICS[raw.metric] || 'unknown',
    rngMode: RNG_MODES[raw.rngMode] || 'unknown',
    isPrivate: raw.isPrivate,
    modelFingerprint: raw.modelFingerprint,
    bound: BOUNDS[raw.bound] || 'unknown',
    reveals: REVEALS.filter((_, bit) => (raw.reveals & (1 << bit)) !== 0),
    draws: raw.draws,
    epsilonTotal: raw.epsilonTotal,
    epsilonVocabulary: raw.epsilonVocabulary,
    releaseShape: SHAPES[raw.releaseShape] || 'unknown',
    outputKind: OUTPUT_KINDS[raw.outputKind] || 'unknown',
    outputSize: raw.outputSize,
    outputDigest: raw.outputKind === 0 ? null : raw.outputDigest,
    preset: PRESETS[raw.preset] || 'unknown',
    json: raw.json,
  });
}

// The token counts of the input (they describe it: they stay local) from
// { counts: [class][action], wordsPrivatized, wordsLeaked, json }.
function diagnosticsOf(raw) {
  const counts = {};
  TOKEN_CLASSES.forEach((name, row) => {
    counts[name] = {};
    ACTIONS.forEach((action, column) => {
      counts[name][action] = raw.counts[row][column];
    });
  });
  return Object.freeze({ counts, wordsPrivatized: raw.wordsPrivatized, wordsLeaked: raw.wordsLeaked, json: raw.json });
}
