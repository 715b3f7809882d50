'use strict';
/**
 * dxtext for Node.js: sanitise text under metric differential privacy.
 *
 *   const dxtext = require('dxtext');
 *   const model = dxtext.Model.openDefault();          // share it
 *   const privatizer = new dxtext.Privatizer(model);   // random state
 *   const { text, report } = await privatizer.privatizeText('The quick brown fox', { epsilon: 20 });
 *
 * Long calls (texts, bags, SynTF, calibration) return promises and run on
 * the libuv thread pool; privatizeWord is synchronous. Errors are instances
 * of DxtextError subclasses with .status (the C status number) and .code
 * ('DXT_E_INVALID_EPSILON', ...).
 */
const path = require('node:path');

// --------------------------------------------------------------------------
// Errors

class DxtextError extends Error {
  constructor(message, status, code) {
    super(message);
    this.name = new.target.name;
    this.status = status;
    this.code = code;
  }
}
class InvalidArgumentError extends DxtextError {}
class InvalidEpsilonError extends DxtextError {}
class FileError extends DxtextError {}
/** The model file or buffer is unusable (the five statuses below). */
class ModelError extends DxtextError {}
class NotAModelError extends ModelError {}
class UnsupportedVersionError extends ModelError {}
class CorruptModelError extends ModelError {}
class TruncatedModelError extends ModelError {}
class DigestMismatchError extends ModelError {}
class OutOfMemoryError extends DxtextError {}
class RandomGeneratorError extends DxtextError {}
class InvalidUtf8Error extends DxtextError {}
class NotFoundError extends DxtextError {}
class UnsupportedError extends DxtextError {}
class InputTooLargeError extends DxtextError {}
class ParseError extends DxtextError {}
class InternalError extends DxtextError {}

const ERROR_CLASSES = [
  null, InvalidArgumentError, InvalidEpsilonError, FileError, NotAModelError, UnsupportedVersionError,
  CorruptModelError, TruncatedModelError, DigestMismatchError, OutOfMemoryError, RandomGeneratorError,
  InvalidUtf8Error, NotFoundError, UnsupportedError, InputTooLargeError, ParseError, InternalError,
];

/** The typed error for an error thrown by the addon (others pass through). */
function typed(error) {
  if (error instanceof DxtextError || typeof error?.status !== 'number') return error;
  const Class = ERROR_CLASSES[error.status] || DxtextError;
  return new Class(error.message, error.status, error.code);
}

function call(fn) {
  try {
    return fn();
  } catch (error) {
    throw typed(error);
  }
}

function invalid(message) {
  return new InvalidArgumentError(`invalid argument: ${message}`, 1, 'DXT_E_INVALID_ARGUMENT');
}

// --------------------------------------------------------------------------
// The addon

function loadAddon() {
  const file = process.env.DXTEXT_NODE_ADDON || path.join(__dirname, '..', 'build', 'dxtext.node');
  try {
    return require(file);
  } catch (error) {
    throw new Error(
      `cannot load the dxtext addon ${file}: ${error.message}\n` +
        'Build it with `node scripts/build.js` in bindings/node (or `npm install`), or set DXTEXT_NODE_ADDON.',
    );
  }
}
const native = loadAddon();

// --------------------------------------------------------------------------
// Names <-> numbers of the C header

const MECHANISMS = ['unknown', 'laplace', 'hyperbolic', 'exponential', 'syntf', 'mahalanobis', 'vickrey', 'tem'];
const METRICS = ['unknown', 'euclidean', 'hyperbolic', 'mahalanobis', 'discrete'];
const GEOMETRIES = ['unknown', 'euclidean', 'poincare'];
const QUANTIZATIONS = ['unknown', 'f32', 'f16', 'int8'];
const RNG_MODES = ['unknown', 'system', 'deterministic'];
const POLICIES = ['default', 'privatize', 'placeholder', 'drop', 'keep'];
const TOKEN_CLASSES = ['inVocabulary', 'outOfVocabulary', 'number', 'stopword'];
const ACTIONS = ['privatized', 'placeholder', 'dropped', 'kept'];
const SAMPLERS = { gumbel: 1, 'permute-and-flip': 2 };
const SEARCHES = { exact: 0, ivf: 1 };

// table[name] for the table's own names only ('constructor' is not a search).
function lookup(table, name) {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(table, name) ? table[name] : undefined;
}

function indexOfName(table, name, what) {
  const i = table.indexOf(name);
  if (i <= 0) throw invalid(`unknown ${what} ${JSON.stringify(name)} (one of ${table.slice(1).join(', ')})`);
  return i;
}

/**
 * Options: a number (epsilon) or
 * { epsilon, mechanism: 'laplace' | 'hyperbolic' | ..., policies: {
 *   inVocabulary, outOfVocabulary, number, stopword: 'privatize' |
 *   'placeholder' | 'drop' | 'keep' }, placeholder, temGamma, temBeta,
 *   vickreyT, mahalanobisLambda, syntfS, sampler: 'gumbel' | 'permute-and-flip',
 *   search: 'exact' | 'ivf', ivfNprobe }
 */
function nativeOptions(options) {
  if (typeof options === 'number') return { epsilon: options };
  if (options === null || typeof options !== 'object') throw invalid('options must be a number (epsilon) or an object');
  const out = { ...options };
  delete out.policies;
  if (options.mechanism !== undefined) out.mechanism = indexOfName(MECHANISMS, options.mechanism, 'mechanism');
  if (options.sampler !== undefined) {
    out.sampler = lookup(SAMPLERS, options.sampler);
    if (out.sampler === undefined) throw invalid(`unknown sampler ${JSON.stringify(options.sampler)}`);
  }
  if (options.search !== undefined) {
    out.search = lookup(SEARCHES, options.search);
    if (out.search === undefined) throw invalid(`unknown search ${JSON.stringify(options.search)} (exact or ivf)`);
  }
  if (options.policies !== undefined) {
    out.policy = [0, 0, 0, 0];
    for (const [tokenClass, policy] of Object.entries(options.policies)) {
      const row = TOKEN_CLASSES.indexOf(tokenClass);
      if (row < 0) throw invalid(`unknown token class ${JSON.stringify(tokenClass)}`);
      out.policy[row] = indexOfName(POLICIES, policy, 'policy');
    }
  }
  return out;
}

function report(raw) {
  const counts = {};
  TOKEN_CLASSES.forEach((name, row) => {
    counts[name] = {};
    ACTIONS.forEach((action, column) => {
      counts[name][action] = raw.counts[row][column];
    });
  });
  return {
    mechanism: MECHANISMS[raw.mechanism] || 'unknown',
    epsilon: raw.epsilon,
    metric: METRICS[raw.metric] || 'unknown',
    rng: RNG_MODES[raw.rngMode] || 'unknown',
    isPrivate: raw.isPrivate,
    modelFingerprint: raw.modelFingerprint,
    counts,
    wordsPrivatized: raw.wordsPrivatized,
    wordsLeaked: raw.wordsLeaked,
    epsilonPerUnitDistance: raw.epsilonPerUnitDistance,
    epsilonDocument: raw.epsilonDocument,
    epsilonDocumentVocabulary: raw.epsilonDocumentVocabulary,
    json: raw.json,
  };
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

  /** Memory-map and validate a .dxe file. */
  static open(filePath, { verifyDigests = false } = {}) {
    return new Model(call(() => native.modelOpen(String(filePath), Boolean(verifyDigests))), String(filePath));
  }

  /** Open a model held in memory (Buffer, Uint8Array or ArrayBuffer; copied). */
  static fromBuffer(buffer, { verifyDigests = false } = {}) {
    return new Model(call(() => native.modelFromBuffer(buffer, Boolean(verifyDigests))), null);
  }

  /** The path of the default model for 'euclidean' or 'poincare'. */
  static defaultPath(geometry = 'euclidean') {
    return call(() => native.defaultModelPath(indexOfName(GEOMETRIES, geometry, 'geometry')));
  }

  /** Open the default model ($DXTEXT_MODEL, installed, or the source tree's). */
  static openDefault(geometry = 'euclidean', options = {}) {
    return Model.open(Model.defaultPath(geometry), options);
  }

  _handle() {
    const handle = this[MODEL_HANDLE];
    if (handle === null) throw invalid('the model is closed');
    return handle;
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

  /** SHA-256 of the model file, as hex: its fingerprint in reports. */
  fingerprint() {
    return call(() => native.modelFingerprint(this._handle()));
  }

  /** The vocabulary index of a word; NotFoundError when absent. */
  lookup(word) {
    return call(() => native.modelLookup(this._handle(), word));
  }

  /** The word at an index. */
  word(index) {
    return call(() => native.modelWord(this._handle(), index));
  }

  /** Release the model now (privatizers made from it keep working). */
  close() {
    const handle = this[MODEL_HANDLE];
    this[MODEL_HANDLE] = null;
    if (handle !== null) native.modelClose(handle);
  }
}

// --------------------------------------------------------------------------
// Privatizer

class Privatizer {
  /**
   * Random state for privatisation calls on `model`. By default the noise
   * comes from the operating system's CSPRNG (the private mode); `seed` (a
   * Buffer or Uint8Array of 32 bytes) makes it reproducible and NOT private.
   */
  constructor(model, { seed } = {}) {
    if (!(model instanceof Model)) throw invalid('a Privatizer needs a Model');
    const seedBuffer =
      seed instanceof Uint8Array && !Buffer.isBuffer(seed) ? Buffer.from(seed.buffer, seed.byteOffset, seed.byteLength) : seed;
    this._handle = call(() => native.contextCreate(model._handle(), seedBuffer));
    this.model = model;
    this._tail = Promise.resolve();
  }

  _context() {
    if (this._handle === null) throw invalid('the privatizer is closed');
    return this._handle;
  }

  // Asynchronous calls on one privatizer run one after another.
  _enqueue(start) {
    const run = this._tail.then(() => start(this._context()));
    this._tail = run.then(
      () => undefined,
      () => undefined,
    );
    return run.catch((error) => {
      throw typed(error);
    });
  }

  /** Privatise one word, synchronously; the replacement word. */
  privatizeWord(word, options) {
    return this.privatizeWordWithReport(word, options).text;
  }

  /** { text, report } for one word, synchronously. */
  privatizeWordWithReport(word, options) {
    const raw = call(() => native.privatizeWord(this._context(), word, nativeOptions(options)));
    return { text: raw.text, report: report(raw.report) };
  }

  /** Promise of { text, report }: words replaced, spacing and punctuation kept. */
  privatizeText(text, options) {
    return this._enqueue(async (context) => {
      const raw = await native.privatizeText(context, text, nativeOptions(options));
      return { text: raw.text, report: report(raw.report) };
    });
  }

  /** Promise of { bag: Map(word -> count), report }: every occurrence privatised. */
  privatizeBag(bag, options) {
    return this._enqueue(async (context) => {
      const raw = await native.privatizeBag(context, bagPairs(bag), nativeOptions(options));
      return { bag: new Map(raw.bag), report: report(raw.report) };
    });
  }

  /** Promise of { bag, report }: a SynTF synthetic bag of exactly nOut words. */
  syntf(bag, nOut, options) {
    return this._enqueue(async (context) => {
      const raw = await native.syntf(context, bagPairs(bag), nOut, nativeOptions(options));
      return { bag: new Map(raw.bag), report: report(raw.report) };
    });
  }

  /** Promise of { words, trials, keepMean, keepMedian, keepMax, distinctMean, distinctMedian, distinctMax }. */
  calibrate(options, { words = 100, trials = 100 } = {}) {
    return this._enqueue((context) => native.calibrate(context, nativeOptions(options), words, trials));
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

module.exports = {
  Model,
  Privatizer,
  version: native.versionString(),
  DxtextError,
  InvalidArgumentError,
  InvalidEpsilonError,
  FileError,
  ModelError,
  NotAModelError,
  UnsupportedVersionError,
  CorruptModelError,
  TruncatedModelError,
  DigestMismatchError,
  OutOfMemoryError,
  RandomGeneratorError,
  InvalidUtf8Error,
  NotFoundError,
  UnsupportedError,
  InputTooLargeError,
  ParseError,
  InternalError,
};
