// SPDX-License-Identifier: Apache-2.0
'use strict';
/**
 * dxtext for Node.js: sanitise text under metric differential privacy.
 *
 *   const dxtext = require('dxtext');
 *   const model = await dxtext.Model.openDefault();    // share it
 *   const privatizer = new dxtext.Privatizer(model);   // random state
 *   const { text, record } = await privatizer.privatizeText('The quick brown fox', { epsilon: 20 });
 *
 * The same API as the WebAssembly package (dxtext-wasm; docs/bindings/
 * wasm.md): the same classes, methods, option names and result shapes, and
 * every call that opens, looks up or privatises returns a promise. Here the
 * work runs on the libuv thread pool. Errors are instances of DxtextError
 * subclasses with .status (the C status number) and .code
 * ('DXT_E_INVALID_EPSILON', ...).
 */
const fs = require('node:fs');
const path = require('node:path');
const shared = require('./shared.js');

const {
  GEOMETRIES, MECHANISMS, PRESETS, QUANTIZATIONS, Status, DxtextError, LedgerAnchor, diagnosticsOf, errorFor, optionPairs,
  recordOf,
} = shared;
// The error classes (tools/options/js_shared.js): one copy for both packages.
const ERRORS = Object.fromEntries(Object.entries(shared).filter(([name]) => name.endsWith('Error')));

/** The typed error for an error thrown by the addon (others pass through). */
function typed(error) {
  if (error instanceof DxtextError || typeof error?.status !== 'number') return error;
  return errorFor(error.status, error.message);
}

function call(fn) {
  try {
    return fn();
  } catch (error) {
    throw typed(error);
  }
}

function invalid(message) {
  return errorFor(Status.INVALID_ARGUMENT, `invalid argument: ${message}`);
}

// Runs start() once the calls queued on `owner` (a Privatizer or a Ledger)
// before it have settled: calls on one owner run one after another.
function enqueue(owner, start) {
  const run = owner._tail.then(start);
  owner._tail = run.then(
    () => undefined,
    () => undefined,
  );
  return run.catch((error) => {
    throw typed(error);
  });
}

// --------------------------------------------------------------------------
// The addon

// DXTEXT_NODE_ADDON, else the addon built by `npm install` from source
// (build/), else the prebuilt one of this platform (prebuilds/).
function loadAddon() {
  const root = path.join(__dirname, '..');
  const candidates = process.env.DXTEXT_NODE_ADDON
    ? [process.env.DXTEXT_NODE_ADDON]
    : [path.join(root, 'build', 'dxtext.node'), path.join(root, 'prebuilds', `${process.platform}-${process.arch}`, 'dxtext.node')];
  const file = candidates.find((candidate) => fs.existsSync(candidate)) || candidates[0];
  try {
    return require(file);
  } catch (error) {
    throw new Error(
      `cannot load the dxtext addon ${file}: ${error.message}\n` +
        'Build it with `node scripts/install.js` in the package (`npm install` does), or set DXTEXT_NODE_ADDON.',
    );
  }
}
const native = loadAddon();

// --------------------------------------------------------------------------
// Limits of the C header (names of its enums: shared.js)

const MAX_BAG_WORDS = 2 ** 24; // DXT_MAX_BAG_WORDS
/** DXT_EPSILON_MIN and DXT_EPSILON_MAX: the range of epsilon every call accepts. */
const EPSILON_MIN = 1e-6;
const EPSILON_MAX = 1e6;

function indexOfName(table, name, what) {
  const i = table.indexOf(name);
  if (i <= 0) throw invalid(`unknown ${what} ${JSON.stringify(name)} (one of ${table.slice(1).join(', ')})`);
  return i;
}

/**
 * Options: a number (epsilon) or an object with the options of
 * docs/options.md (generated from tools/options/privatize_options.table),
 * in camelCase or snake_case: { epsilon, preset, mechanism, inVocabulary,
 * ..., outputWords: an OutputSet or an array of words }, and one option of
 * the call, localDiagnostics: boolean (true adds the token counts of the
 * input to the result; they describe the input: keep them on the device).
 * The addon passes them to the library by name (optionPairs of shared.js, shared
 * with dxtext-wasm), which refuses an unknown name or a bad value.
 */
function nativeOptions(options, model) {
  // The words of an OutputSet of this model, still open.
  const wordsOf = (value, name) => {
    if (!(value instanceof OutputSet)) return undefined;
    value._live();
    if (value._model !== model) throw invalid(`${name}: the OutputSet was built for another model than the call's`);
    return value.words;
  };
  return optionPairs(options, wordsOf, invalid);
}

// { [key]: value, record } plus localDiagnostics when the options ask for them.
function result(key, value, raw, options) {
  const out = { [key]: value, record: recordOf(raw.record) };
  if (options !== null && typeof options === 'object' && options.localDiagnostics === true) {
    out.localDiagnostics = diagnosticsOf(raw.diagnostics);
  }
  return out;
}

function bagPairs(bag) {
  if (bag instanceof Map) return [...bag.entries()];
  if (Array.isArray(bag)) return bag;
  if (bag !== null && typeof bag === 'object') return Object.entries(bag);
  throw invalid('a bag is a Map, an object of word -> count, or an array of [word, count] pairs');
}

// --------------------------------------------------------------------------
// Model

const MODEL_HANDLE = Symbol('dxtext.model');

class Model {
  /** Use Model.open, Model.fromBuffer or Model.openDefault. */
  constructor(handle, filePath) {
    if (handle === undefined || handle === null) throw invalid('use Model.open(), Model.fromBuffer() or Model.openDefault()');
    this[MODEL_HANDLE] = handle;
    this.path = filePath;
    this._info = null;
  }

  /** Promise of the model: the .dxe file memory-mapped and validated. */
  static async open(filePath, { verifyDigests = false } = {}) {
    return new Model(call(() => native.modelOpen(String(filePath), Boolean(verifyDigests))), String(filePath));
  }

  /** Promise of a model held in memory (Buffer, Uint8Array, ArrayBuffer or another view; copied). */
  static async fromBuffer(buffer, { verifyDigests = false } = {}) {
    let bytes = buffer;
    if (buffer instanceof ArrayBuffer) bytes = Buffer.from(buffer);
    else if (ArrayBuffer.isView(buffer) && !(buffer instanceof Uint8Array)) {
      bytes = Buffer.from(buffer.buffer, buffer.byteOffset, buffer.byteLength);
    }
    return new Model(call(() => native.modelFromBuffer(bytes, Boolean(verifyDigests))), null);
  }

  /**
   * The path of the default model for 'euclidean' or 'poincare': the file
   * named by DXTEXT_MODEL, else the newest model of that geometry in the
   * package's models/ directory, else the library's default (beside the
   * library, the installed models directory, the source tree's models/).
   */
  static defaultPath(geometry = 'euclidean') {
    const code = indexOfName(GEOMETRIES, geometry, 'geometry');
    if (!process.env.DXTEXT_MODEL) {
      const prefix = code === 2 ? 'dxtext-wordnet-poincare-' : 'dxtext-en-euclid-';
      const dir = path.join(__dirname, '..', 'models');
      const names = fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => n.startsWith(prefix) && n.endsWith('.dxe')) : [];
      if (names.length > 0) return path.join(dir, names.sort().pop());
    }
    return call(() => native.defaultModelPath(code));
  }

  /** Promise of the default model (see defaultPath). */
  static async openDefault(geometry = 'euclidean', options = {}) {
    return Model.open(Model.defaultPath(geometry), options);
  }

  _handle() {
    const handle = this[MODEL_HANDLE];
    if (handle === null) throw invalid('the model is closed');
    return handle;
  }

  get closed() {
    return this[MODEL_HANDLE] === null;
  }

  /** { formatMajor, formatMinor, dimension, vocabularySize, geometry, quantization, lowercase, hasFrequencies } */
  get info() {
    if (this._info === null) {
      const raw = call(() => native.modelInfo(this._handle()));
      raw.geometry = GEOMETRIES[raw.geometry] || 'unknown';
      raw.quantization = QUANTIZATIONS[raw.quantization] || 'unknown';
      this._info = Object.freeze(raw);
    }
    return this._info;
  }

  get size() {
    return this.info.vocabularySize;
  }

  /** Promise of the SHA-256 of the model file, as hex: its fingerprint in release records. */
  async fingerprint() {
    return call(() => native.modelFingerprint(this._handle()));
  }

  /** Promise of the vocabulary index of a word; rejects with NotFoundError when absent. */
  async lookup(word) {
    return call(() => native.modelLookup(this._handle(), word));
  }

  /** Promise of whether a word is in the vocabulary (looked up as the privatise calls do). */
  async has(word) {
    try {
      await this.lookup(String(word));
      return true;
    } catch (error) {
      if (error instanceof ERRORS.NotFoundError) return false;
      throw error;
    }
  }

  /** Promise of the word at an index. */
  async word(index) {
    return call(() => native.modelWord(this._handle(), index));
  }

  /**
   * Promise of an output vocabulary of this model (options.outputWords): a
   * public list of its words, fixed in advance and never made from the text
   * being privatised (docs/guarantees.md, "Output vocabularies"). An empty
   * list, a word not in the model and a word given twice are refused
   * (InvalidArgumentError).
   */
  async outputSet(words) {
    return outputSetOf(this, words);
  }

  /** Release the model now (privatizers and output sets made from it keep working). */
  close() {
    const handle = this[MODEL_HANDLE];
    this[MODEL_HANDLE] = null;
    if (handle !== null) native.modelClose(handle);
  }
}

// --------------------------------------------------------------------------
// Output sets

const OUTPUT_HANDLE = Symbol('dxtext.outputSet');

function outputSetOf(model, words) {
  if (!(model instanceof Model)) throw invalid('an output set needs a Model');
  if (!Array.isArray(words) || words.some((w) => typeof w !== 'string')) {
    throw invalid('outputWords must be an OutputSet or an array of strings');
  }
  const set = new OutputSet(call(() => native.outputSetCreate(model._handle(), words)), words);
  set._model = model;
  return set;
}

/**
 * An output vocabulary (Model.outputSet): a public list of a model's words
 * that the mechanisms may release, passed as options.outputWords to any
 * number of calls. Immutable; it keeps its model's memory alive.
 */
class OutputSet {
  /** Use Model.outputSet. */
  constructor(handle, words) {
    if (handle === undefined || handle === null) throw invalid('use Model.outputSet()');
    this[OUTPUT_HANDLE] = handle;
    this.words = Object.freeze([...words]);
  }

  get size() {
    return this.words.length;
  }

  get closed() {
    return this[OUTPUT_HANDLE] === null;
  }

  _live() {
    if (this[OUTPUT_HANDLE] === null) throw invalid('the output set is closed');
    return this[OUTPUT_HANDLE];
  }

  /** Release the set (calls already running finish with it). */
  close() {
    this[OUTPUT_HANDLE] = null; // the addon frees it once no call holds it
  }
}

// --------------------------------------------------------------------------
// Privatizer

// A seed: 32 bytes (Buffer, Uint8Array) or 64 hexadecimal digits.
function seedBuffer(seed) {
  if (seed === undefined || seed === null) return undefined;
  if (typeof seed === 'string') {
    if (!/^[0-9a-fA-F]{64}$/.test(seed)) throw invalid('seed must be 64 hexadecimal digits or 32 bytes');
    return Buffer.from(seed, 'hex');
  }
  if (seed instanceof Uint8Array) return Buffer.from(seed.buffer, seed.byteOffset, seed.byteLength);
  throw invalid('seed must be 64 hexadecimal digits or 32 bytes');
}

class Privatizer {
  /**
   * Random state for privatisation calls on `model`. By default the noise
   * comes from the operating system's CSPRNG (the private mode); `seed` (32
   * bytes, or 64 hexadecimal digits) makes it reproducible and NOT private.
   */
  constructor(model, { seed } = {}) {
    if (!(model instanceof Model)) throw invalid('a Privatizer needs a Model');
    const bytes = seedBuffer(seed);
    this._handle = call(() => native.contextCreate(model._handle(), bytes));
    this.model = model;
    this._tail = Promise.resolve();
  }

  _context() {
    if (this._handle === null) throw invalid('the privatizer is closed');
    return this._handle;
  }

  _enqueue(start) {
    return enqueue(this, () => start(this._context()));
  }

  /** Promise of { text, record } (and localDiagnostics when options.localDiagnostics is true) for one word. */
  privatizeWord(word, options) {
    return this._enqueue(async (context) => {
      const raw = native.privatizeWord(context, word, nativeOptions(options, this.model));
      return result('text', raw.text, raw, options);
    });
  }

  /** Promise of { text, record }: words replaced, spacing and punctuation
      kept; the record's bound is positionwise (epsilon * sum_i d(x_i, x'_i)). */
  privatizeText(text, options) {
    return this._enqueue(async (context) => {
      const raw = await native.privatizeText(context, text, nativeOptions(options, this.model));
      return result('text', raw.text, raw, options);
    });
  }

  /** Promise of { bag: Map(word -> count), record }: every occurrence
      privatised; the record's bound is epsilon * N * EMD for bags of size N. */
  privatizeBag(bag, options) {
    return this._enqueue(async (context) => {
      const raw = await native.privatizeBag(context, bagPairs(bag), nativeOptions(options, this.model));
      return result('bag', new Map(raw.bag), raw, options);
    });
  }

  /** Promise of { bag, record }: a SynTF synthetic bag of exactly nOut words (options.mechanism is ignored). */
  syntf(bag, nOut, options) {
    return this._enqueue(async (context) => {
      const raw = await native.syntf(context, bagPairs(bag), nOut, nativeOptions(options, this.model));
      return result('bag', new Map(raw.bag), raw, options);
    });
  }

  /** Promise of { words, trials, keepMean, keepMedian, keepMax, distinctMean, distinctMedian, distinctMax }. */
  calibrate(options, { words = 100, trials = 100 } = {}) {
    return this._enqueue((context) => native.calibrate(context, nativeOptions(options, this.model), words, trials));
  }

  /** Destroy the random state now (after pending calls finish). */
  async close() {
    await this._tail;
    if (this._handle !== null) {
      const handle = this._handle;
      this._handle = null;
      native.contextClose(handle);
    }
  }
}

// --------------------------------------------------------------------------
// Ledger

function anchorBuffer(anchor) {
  if (anchor === undefined || anchor === null) return undefined;
  if (!(anchor instanceof LedgerAnchor)) {
    throw invalid('options.anchor must be a LedgerAnchor (LedgerAnchor.fromBytes(stored bytes))');
  }
  return Buffer.from(anchor.toBytes());
}

class Ledger {
  /**
   * Promise of the ledger file at `filePath`, opened (or created), with `scope` selected
   * (docs/budgets.md). `cap` (epsilon summed over releases) and
   * `memoCapacity` apply to a new scope; `key` (a Buffer of 16 to 64 bytes)
   * makes the file's MAC unforgeable without it. `anchor`, the LedgerAnchor
   * stored after the last call, makes an older copy of the file put back (or
   * the file deleted) reject with LedgerRollbackError; without it a rollback
   * is not detected.
   */
  static async open(filePath, { scope = 'default', cap = 0, memoCapacity, key, anchor } = {}) {
    const handle = call(() =>
      native.ledgerOpen(String(filePath), scope, { cap, memoCapacity, key, anchor: anchorBuffer(anchor) }));
    return new Ledger(handle);
  }

  /** Use Ledger.open. */
  constructor(handle) {
    if (handle === undefined || handle === null) throw invalid('use Ledger.open()');
    this._handle = handle;
    this._tail = Promise.resolve();
  }

  _ledger() {
    if (this._handle === null) throw invalid('the ledger is closed');
    return this._handle;
  }

  /**
   * Promise of { text, memoised, record }: privatizer.privatizeText through
   * the ledger. The same text with the same options returns the memoised
   * output and spends nothing, unless `fresh`; a release past the cap
   * rejects with BudgetExceededError before any noise is drawn.
   */
  privatizeText(privatizer, text, options, { fresh = false } = {}) {
    if (!(privatizer instanceof Privatizer)) return Promise.reject(invalid('privatizeText needs a Privatizer'));
    return enqueue(this, () =>
      privatizer._enqueue(async (context) => {
        const raw = await native.ledgerPrivatizeText(this._ledger(), context, text, nativeOptions(options, privatizer.model),
          Boolean(fresh));
        const out = result('text', raw.text, raw, options);
        out.memoised = raw.memoised;
        return out;
      }),
    );
  }

  /** { cap, spent, spentAnyInputs, releases, memoised, memoCapacity, words }, read from the file. */
  totals() {
    return call(() => native.ledgerTotals(this._ledger()));
  }

  /**
   * The ledger's LedgerAnchor now, read from the file: store its toBytes()
   * outside the file after every call (replacing the one before), and give
   * it to Ledger.open({ anchor }) next time. Throws LedgerRollbackError
   * when the file is older than what this handle last saw.
   */
  anchor() {
    return new LedgerAnchor(call(() => native.ledgerAnchor(this._ledger())));
  }

  /** The scope as `dxtext ledger` prints it (an object). */
  toJSON() {
    return JSON.parse(call(() => native.ledgerJson(this._ledger())));
  }

  /** Set the scope's cap (finite, >= 0). */
  setCap(cap) {
    call(() => native.ledgerSetCap(this._ledger(), cap));
  }

  /** Release the handle (after pending calls finish); the file stays. */
  async close() {
    await this._tail;
    if (this._handle !== null) {
      const handle = this._handle;
      this._handle = null;
      native.ledgerClose(handle);
    }
  }
}

/** Promise of the dxtext library version, "major.minor.patch". */
async function libraryVersion() {
  return native.versionString();
}

/** The mechanisms' and the presets' names, as the options take them. */
const MECHANISM_NAMES = Object.freeze(MECHANISMS.slice(1));
const PRESET_NAMES = Object.freeze(PRESETS.slice(1));

module.exports = {
  ...ERRORS,
  Model,
  Privatizer,
  OutputSet,
  Ledger,
  LedgerAnchor,
  libraryVersion,
  Status,
  MECHANISM_NAMES,
  PRESET_NAMES,
  MAX_BAG_WORDS,
  EPSILON_MIN,
  EPSILON_MAX,
};
