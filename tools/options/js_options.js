// The options object of a privatisation call, turned into [name, value]
// pairs for the library's by-name path (dxt_options_set,
// dxt_options_set_words). Written once here; tools/options/generate.py
// copies it into the Node.js package (lib/option_pairs.js) and the
// WebAssembly package (js/option_pairs.js), which share the JavaScript API.
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
