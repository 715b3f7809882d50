// SPDX-License-Identifier: Apache-2.0
// The JavaScript that the Node.js package (lib/shared.js) and the
// WebAssembly package (js/shared.js) share: one API, so one copy of what is
// not specific to either platform. tools/options/generate.py copies it into
// both, as a CommonJS and an ES module (every top-level function and const
// is exported), with OPTIONS of options_table.js in scope.
//
// - createApi(backend): the classes Model, OutputSet, Privatizer and Ledger
//   and libraryVersion, written once over a package's backend (the Node.js
//   addon; the WebAssembly package's calls into its memory): the argument
//   checks, the result shapes, closing, the call queues.
// - The shapes of release records and local diagnostics built from their
//   values (recordOf, diagnosticsOf); the names of the C enums' values and
//   the record's fields are generate.py's, from include/dxtext/dxtext.h.
// - Status (the dxt_status codes, which generate.py reads from
//   include/dxtext/dxtext.h and writes above this file's code), the error
//   classes, and errorFor: the error of a status.
// - optionPairs: the options object of a privatisation call, turned into
//   [name, value] pairs for the library's by-name path (dxt_options_set,
//   dxt_options_set_words).
// - LedgerAnchor, and ledgerSettings: Ledger.open's options, checked.

const MAX_BAG_WORDS = 2 ** 24; // DXT_MAX_BAG_WORDS
/** DXT_EPSILON_MIN and DXT_EPSILON_MAX: the range of epsilon every call accepts. */
const EPSILON_MIN = 1e-6;
const EPSILON_MAX = 1e6;
/** The mechanisms' and the presets' names, as the options take them. */
const MECHANISM_NAMES = Object.freeze(MECHANISMS.slice(1));
const PRESET_NAMES = Object.freeze(PRESETS.slice(1));

// The InvalidArgumentError of `message`.
function invalid(message) {
  return errorFor(Status.INVALID_ARGUMENT, message);
}

// `value`, an integer in [0, 2^32) (a uint32_t of the C ABI): a larger one
// is refused, not wrapped into another value.
function checkU32(value, name) {
  if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) {
    throw invalid(`${name} must be an integer in [0, 2^32)`);
  }
  return value;
}

// The index of `name` in a table of enum names (0, 'unknown' or 'none', is
// not one to give).
function indexOfName(table, name, what) {
  const i = table.indexOf(name);
  if (i <= 0) throw invalid(`unknown ${what} ${JSON.stringify(name)} (one of ${table.slice(1).join(', ')})`);
  return i;
}

// The options of a privatisation call as [name, value] pairs. Every key is
// passed through as the caller wrote it (camelCase, as in
// docs/options.md, or snake_case: the library reads both) except
// localDiagnostics, an option of the call itself; the library knows the
// options, refuses an unknown one ("unknown option 'epsilom' (did you mean
// 'epsilon'?)") and names the key as written in every error. A number or a
// string goes as text (String(0.1) reads back exactly), an array of words
// or an OutputSet (its words) as a word list; undefined is left out.
//
//   optionPairs(options, wordsOf)
//     options  a number (epsilon), an object of options, or undefined
//     wordsOf  (value, name) => the words of an OutputSet (after checking
//              it may be used), or undefined for any other value
function optionPairs(options, wordsOf) {
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

// What a local policy did with a token: the local diagnostics' keys, in
// the order of their counts (DXT_TOKEN_ACTION_COUNT of them).
const ACTIONS = ['privatized', 'placeholder', 'dropped', 'kept'];

// The release record (safe to send) from the values of a dxt_release_record
// by the camelCase names of RECORD_FIELDS (written above this code from
// include/dxtext/dxtext.h), and its JSON: each field as it is, an
// enumeration's value as its name ('unknown' for one this package does not
// know), the reveals bits as the list of their names, and outputDigest null
// for the whole vocabulary (whose digest is all zero).
function recordOf(raw) {
  const record = {};
  for (const { name, names } of RECORD_FIELDS) {
    const value = raw[name];
    if (names === REVEALS) {
      record[name] = REVEALS.filter((_, bit) => (value & (1 << bit)) !== 0);
    } else {
      record[name] = names ? names[value] || 'unknown' : value;
    }
  }
  if (record.outputKind === 'vocabulary') record.outputDigest = null;
  record.json = raw.json;
  return Object.freeze(record);
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

// A dxtext call failed: an instance of the subclass for its status.
// `status` is the dxt_status number, `code` its C name
// ('DXT_E_INVALID_EPSILON'), `message` the library's detailed message.
const STATUS_NAMES = Object.fromEntries(Object.entries(Status).map(([name, value]) => [value, name]));
const DxtextError = class DxtextError extends Error {
  constructor(status, message, options) {
    super(message, options);
    this.name = new.target.name;
    this.status = status;
    this.code = STATUS_NAMES[status] ? `DXT_E_${STATUS_NAMES[status]}` : 'DXT_E_UNKNOWN';
  }
};
const InvalidArgumentError = class InvalidArgumentError extends DxtextError {};
const InvalidEpsilonError = class InvalidEpsilonError extends DxtextError {};
const FileError = class FileError extends DxtextError {};
// The model file or buffer is unusable (the five statuses below).
const ModelError = class ModelError extends DxtextError {};
const NotAModelError = class NotAModelError extends ModelError {};
const UnsupportedVersionError = class UnsupportedVersionError extends ModelError {};
const CorruptModelError = class CorruptModelError extends ModelError {};
const TruncatedModelError = class TruncatedModelError extends ModelError {};
const DigestMismatchError = class DigestMismatchError extends ModelError {};
const OutOfMemoryError = class OutOfMemoryError extends DxtextError {};
const RandomGeneratorError = class RandomGeneratorError extends DxtextError {};
const InvalidUtf8Error = class InvalidUtf8Error extends DxtextError {};
const NotFoundError = class NotFoundError extends DxtextError {};
const UnsupportedError = class UnsupportedError extends DxtextError {};
const InputTooLargeError = class InputTooLargeError extends DxtextError {};
const ParseError = class ParseError extends DxtextError {};
const InternalError = class InternalError extends DxtextError {};
// Another thread was inside a call on the same context (status 17).
const ContextBusyError = class ContextBusyError extends DxtextError {};
// A Ledger refused the release: it would pass the scope's cap (status 18).
// Nothing was drawn, released or spent.
const BudgetExceededError = class BudgetExceededError extends DxtextError {};
// The ledger fails its MAC or format checks (status 19); it is left as it is.
const LedgerCorruptError = class LedgerCorruptError extends DxtextError {};
// The ledger is older than the anchor the app kept for it (status 20): an
// earlier copy was put back, or it was deleted or replaced. Nothing was
// drawn or released.
const LedgerRollbackError = class LedgerRollbackError extends DxtextError {};

// The subclass of each status by its name in Status; a status without one
// (a code added to the library since) is a plain DxtextError.
const ERROR_CLASSES = {
  INVALID_ARGUMENT: InvalidArgumentError, INVALID_EPSILON: InvalidEpsilonError, IO: FileError,
  NOT_A_MODEL: NotAModelError, UNSUPPORTED_VERSION: UnsupportedVersionError, CORRUPT_MODEL: CorruptModelError,
  TRUNCATED_MODEL: TruncatedModelError, DIGEST_MISMATCH: DigestMismatchError, OUT_OF_MEMORY: OutOfMemoryError,
  RNG_FAILURE: RandomGeneratorError, INVALID_UTF8: InvalidUtf8Error, NOT_FOUND: NotFoundError,
  UNSUPPORTED: UnsupportedError, INPUT_TOO_LARGE: InputTooLargeError, PARSE: ParseError, INTERNAL: InternalError,
  CONTEXT_BUSY: ContextBusyError, BUDGET_EXCEEDED: BudgetExceededError, LEDGER_CORRUPT: LedgerCorruptError,
  LEDGER_ROLLBACK: LedgerRollbackError,
};

// The error of a status: an instance of its subclass.
function errorFor(status, message, options) {
  const Class = ERROR_CLASSES[STATUS_NAMES[status]] || DxtextError;
  return new Class(status, message, options);
}

// Bytes of a Uint8Array (itself), another view or an ArrayBuffer; null and
// undefined give none. `what` names the argument in the error.
function bytesOf(value, what) {
  if (value === null || value === undefined) return new Uint8Array(0);
  if (value instanceof Uint8Array) return value;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  throw invalid(`${what} must be a Uint8Array, an ArrayBuffer or null`);
}

function sameBytes(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; ++i) if (a[i] !== b[i]) return false;
  return true;
}

// What the app keeps outside the ledger to detect a rollback (an older copy
// put back, or the ledger deleted): take it with ledger.anchor() after every
// call, store anchor.toBytes() where the ledger's writer cannot change it (a
// keystore, a server), and give LedgerAnchor.fromBytes(stored) back to
// Ledger.open({ anchor }). Without it a rollback is not detected
// (docs/budgets.md, "Rollback"). Its 32 bytes: the ledger id, then the
// commits and the spent total, little-endian.
const ANCHOR_BYTES = 32;
const LedgerAnchor = class LedgerAnchor {
  // Use ledger.anchor() or LedgerAnchor.fromBytes().
  constructor(bytes) {
    if (!(bytes instanceof Uint8Array) || bytes.length !== ANCHOR_BYTES) {
      throw invalid(`a ledger anchor is ${ANCHOR_BYTES} bytes`);
    }
    this._bytes = Uint8Array.from(bytes); // a copy
    Object.freeze(this);
  }

  // The anchor from the 32 bytes toBytes() gave (a Uint8Array or Buffer,
  // another view or an ArrayBuffer).
  static fromBytes(bytes) {
    if (!(bytes instanceof ArrayBuffer || ArrayBuffer.isView(bytes))) {
      throw invalid('LedgerAnchor.fromBytes takes a Uint8Array, another view or an ArrayBuffer');
    }
    return new LedgerAnchor(bytesOf(bytes, 'the anchor'));
  }

  toBytes() {
    return Uint8Array.from(this._bytes);
  }

  // 16 bytes naming the ledger: the same for every copy of it.
  get ledgerId() {
    return this._bytes.slice(0, 16);
  }

  // Commits made to the ledger (a bigint: it only grows).
  get commits() {
    return new DataView(this._bytes.buffer).getBigUint64(16, true);
  }

  // Epsilon spent over all the ledger's scopes (it only grows).
  get spent() {
    return new DataView(this._bytes.buffer).getFloat64(24, true);
  }

  equals(other) {
    return other instanceof LedgerAnchor && sameBytes(this._bytes, other._bytes);
  }
};

// The options of Ledger.open, checked: { scope, cap, memoCapacity, key (a
// copy, or null), anchor (a LedgerAnchor, or null) }. The library checks
// their values (a key is 16 to 64 bytes, the cap finite and >= 0).
function ledgerSettings({ scope = 'default', cap = 0, memoCapacity, key, anchor } = {}) {
  if (anchor !== undefined && anchor !== null && !(anchor instanceof LedgerAnchor)) {
    throw invalid('options.anchor must be a LedgerAnchor (LedgerAnchor.fromBytes(stored bytes))');
  }
  if (typeof cap !== 'number') throw invalid('cap must be a number');
  // The C call reads the scope up to its first NUL: "user\0day1" would open "user".
  if (String(scope).includes('\0')) throw invalid('the scope contains a NUL character');
  if (memoCapacity !== undefined) checkU32(memoCapacity, 'memoCapacity');
  const keyBytes = key === undefined || key === null ? null : Uint8Array.from(bytesOf(key, 'key'));
  return { scope: String(scope), cap, memoCapacity, key: keyBytes, anchor: anchor || null };
}

// A seed: 64 hexadecimal digits or 32 bytes (a Uint8Array or Buffer), as
// bytes; none gives null (the system generator).
function seedBytes(seed) {
  if (seed === undefined || seed === null) return null;
  if (typeof seed === 'string' && /^[0-9a-fA-F]{64}$/.test(seed)) {
    return Uint8Array.from(seed.match(/../g), (pair) => parseInt(pair, 16));
  }
  if (seed instanceof Uint8Array && seed.length === 32) return seed;
  throw invalid('seed must be 64 hexadecimal digits or 32 bytes');
}

// A bag (a Map, an object of word -> count, or an iterable of [word, count]
// pairs) as checked [word, count] pairs.
function bagEntries(bag) {
  if (bag === null || typeof bag !== 'object') {
    throw invalid('a bag is a Map, an object of word -> count, or an array of [word, count] pairs');
  }
  const pairs = typeof bag[Symbol.iterator] === 'function' ? Array.from(bag) : Object.entries(bag); // a Map gives its entries
  return pairs.map((pair) => {
    if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'string') {
      throw invalid('each bag entry must be a [word, count] pair');
    }
    const [word, count] = pair;
    if (!Number.isSafeInteger(count) || count < 0) {
      throw invalid(`the count of '${word}' must be a non-negative integer, not ${count}`);
    }
    return [word, count];
  });
}

// The backend's handle of an object of the API (null once it is closed).
const HANDLE = Symbol('dxtext.handle');

// The handle of `owner`, which must not be closed.
function live(owner, what) {
  if (owner[HANDLE] === null) throw invalid(`the ${what} is closed`);
  return owner[HANDLE];
}

// Closes `owner`: close(its handle) the first time, nothing after; returns
// what that close returned (undefined, or of a worker's backend a promise).
function closeHandle(owner, close) {
  const handle = owner[HANDLE];
  owner[HANDLE] = null;
  if (handle !== null) owner._closing = close(handle);
  return owner._closing;
}

// Runs start() once the calls queued on `owner` (a Privatizer or a Ledger)
// before it have settled: calls on one owner run one after another, in order.
function enqueue(owner, start) {
  const run = owner._tail.then(start);
  owner._tail = run.then(
    () => undefined,
    () => undefined,
  );
  return run;
}

// The classes of the one API, written once over a package's backend:
// createApi(backend) gives { Model, OutputSet, Privatizer, Ledger,
// libraryVersion } (a package's Ledger extends this one with setCap and what
// else is its own). The backend's functions take and give the package's own
// handles and raw values, and throw the errors of errorFor; those marked
// async may return a promise instead (rejected with them), and so may the
// close functions (close() then returns it: a worker's, connectWorker).
//
//   versionString()                                   async: "major.minor.patch"
//   modelOpen(path, verify)                           async: a model handle: the .dxe file at path (verify: check
//   modelFromBuffer(bytes, verify)                    async    every section's SHA-256 too), a Uint8Array's bytes
//   modelOpenDefault(geometry, verify)                async: { handle, path } of the package's default model
//   modelInfo(model)                                  the fields of dxt_model_info, camelCase (enums as numbers)
//   modelFingerprint(model)                           async: 64 hex digits
//   modelLookup(model, word), modelWord(model, index) async: an index, a word
//   modelClose(model)                                 (its privatizers and output sets keep the model)
//   outputSetCreate(model, words)                     async: an output set handle; outputSetClose(set)
//   contextCreate(model, seed), contextClose(context) a dxt_context: seed 32 bytes, or null (the system generator);
//                                                       a worker's: a promise of one, which its calls await
//   privatizeWord(context, word, pairs, diagnostics)  async: { text, record, diagnostics }: pairs as optionPairs
//   privatizeText(context, text, pairs, diagnostics)    gives them, record recordOf's values, diagnostics
//                                                       diagnosticsOf's (when `diagnostics` is true)
//   privatizeBag(context, entries, pairs, diagnostics) async: { bag: [[word, count], ...], record, diagnostics }
//   syntf(context, entries, nOut, pairs, diagnostics) async: the same
//   calibrate(context, pairs, words, trials)          async: the fields of dxt_calibration, camelCase
//   ledgerOpen(where, settings)                       async: a ledger handle (settings: what ledgerSettings gives)
//   ledgerPrivatizeText(ledger, context, text, pairs, fresh, diagnostics)   async: privatizeText's, and memoised
//   ledgerTotals(ledger), ledgerAnchor(ledger) (its 32 bytes), ledgerJson(ledger), ledgerClose(ledger)
function createApi(backend) {
  const CREATE = Symbol('dxtext.create'); // the token of the constructors that take a backend's handle

  /**
   * An opened .dxe model: immutable, shared by any number of privatizers.
   * Call close() when done (in WebAssembly its memory is not
   * garbage-collected).
   */
  class Model {
    /** Use Model.open, Model.fromBuffer or Model.openDefault. */
    constructor(token, handle, path) {
      if (token !== CREATE) throw invalid('use Model.open(), Model.fromBuffer() or Model.openDefault()');
      const raw = backend.modelInfo(handle); // read now: it stays readable after close()
      this[HANDLE] = handle;
      this.path = path;
      this._info = Object.freeze({
        ...raw,
        geometry: GEOMETRIES[raw.geometry] || 'unknown',
        quantization: QUANTIZATIONS[raw.quantization] || 'unknown',
      });
    }

    /**
     * Promise of the model in the .dxe file at `path`, validated.
     * { verifyDigests } also checks every section's SHA-256.
     */
    static async open(path, { verifyDigests = false } = {}) {
      return new Model(CREATE, await backend.modelOpen(String(path), Boolean(verifyDigests)), String(path));
    }

    /** Promise of the model whose .dxe bytes are `data` (a Buffer, Uint8Array, ArrayBuffer or another view; copied). */
    static async fromBuffer(data, { verifyDigests = false } = {}) {
      if (!(data instanceof ArrayBuffer || ArrayBuffer.isView(data))) {
        throw invalid('model data must be an ArrayBuffer or a typed array');
      }
      return new Model(CREATE, await backend.modelFromBuffer(bytesOf(data, 'model data'), Boolean(verifyDigests)), null);
    }

    /** Promise of the default model of 'euclidean' or 'poincare' (where it is: the package's documentation). */
    static async openDefault(geometry = 'euclidean', { verifyDigests = false } = {}) {
      indexOfName(GEOMETRIES, geometry, 'geometry');
      const { handle, path } = await backend.modelOpenDefault(geometry, Boolean(verifyDigests));
      return new Model(CREATE, handle, path);
    }

    _handle() {
      return live(this, 'model');
    }

    get closed() {
      return this[HANDLE] === null;
    }

    /** { formatMajor, formatMinor, dimension, vocabularySize, geometry, quantization, lowercase, hasFrequencies } */
    get info() {
      return this._info;
    }

    get size() {
      return this._info.vocabularySize;
    }

    /** Promise of the SHA-256 of the model file, as 64 hex digits: its fingerprint in release records. */
    async fingerprint() {
      return backend.modelFingerprint(this._handle());
    }

    /** Promise of the vocabulary index of a word; rejects with NotFoundError when absent. */
    async lookup(word) {
      if (typeof word !== 'string') throw invalid('word must be a string');
      return backend.modelLookup(this._handle(), word);
    }

    /** Promise of whether a word is in the vocabulary (looked up as the privatise calls do). */
    async has(word) {
      try {
        await this.lookup(String(word));
        return true;
      } catch (error) {
        if (error instanceof NotFoundError) return false;
        throw error;
      }
    }

    /** Promise of the word at an index. */
    async word(index) {
      return backend.modelWord(this._handle(), checkU32(index, 'index'));
    }

    /**
     * Promise of an output vocabulary of this model (options.outputWords): a
     * public list of its words, fixed in advance and never made from the text
     * being privatised (docs/guarantees.md, "Output vocabularies"). An empty
     * list, a word not in the model and a word given twice are refused
     * (InvalidArgumentError).
     */
    async outputSet(words) {
      if (!Array.isArray(words) || words.some((w) => typeof w !== 'string')) {
        throw invalid('outputWords must be an OutputSet or an array of strings');
      }
      if (words.some((w) => w.includes('\0'))) throw invalid('an output word contains a NUL character');
      return new OutputSet(CREATE, this, await backend.outputSetCreate(this._handle(), words), words);
    }

    /** Release the model now (privatizers and output sets made from it keep working). Closing twice is fine. */
    close() {
      return closeHandle(this, backend.modelClose);
    }
  }

  /**
   * An output vocabulary (Model.outputSet): a public list of a model's words
   * that the mechanisms may release, passed as options.outputWords to any
   * number of calls. Immutable; close() frees it.
   */
  class OutputSet {
    /** Use Model.outputSet. */
    constructor(token, model, handle, words) {
      if (token !== CREATE) throw invalid('use Model.outputSet()');
      this[HANDLE] = handle;
      this._model = model;
      this.words = Object.freeze([...words]);
    }

    get size() {
      return this.words.length;
    }

    get closed() {
      return this[HANDLE] === null;
    }

    /** Free the set (calls already running finish with it). Closing twice is fine. */
    close() {
      return closeHandle(this, backend.outputSetClose);
    }
  }

  /**
   * Random state for privatisation calls on a model (a dxt_context). By
   * default the noise comes from the platform's cryptographic generator (the
   * private mode); `seed` (64 hexadecimal digits or 32 bytes) makes it
   * reproducible and NOT private. Calls on one privatizer run one after
   * another, in order.
   */
  class Privatizer {
    constructor(model, { seed } = {}) {
      if (!(model instanceof Model)) throw invalid('a Privatizer needs a Model');
      this[HANDLE] = backend.contextCreate(model._handle(), seedBytes(seed));
      // A worker's context is a promise: if it rejects, the calls reject with its error.
      if (this[HANDLE] instanceof Promise) this[HANDLE].catch(() => {});
      this.model = model;
      this._tail = Promise.resolve();
    }

    // Runs call(context, pairs, diagnostics) once the calls queued before it
    // have settled, with the options as optionPairs gives them (an OutputSet
    // of this model, still open, as its words) and whether they ask for the
    // local diagnostics. The result of a release (a raw one with a record)
    // is { text or bag (a Map), record } with localDiagnostics when asked
    // for, and memoised when the call gives it.
    _call(options, call) {
      return enqueue(this, async () => {
        const context = live(this, 'privatizer');
        const pairs = optionPairs(options, (value, name) => {
          if (!(value instanceof OutputSet)) return undefined;
          live(value, 'output set');
          if (value._model !== this.model) {
            throw invalid(`${name}: the OutputSet was built for another model than the call's`);
          }
          return value.words;
        });
        const diagnostics = options?.localDiagnostics === true; // optionPairs checked it is a boolean
        const raw = await call(context, pairs, diagnostics);
        if (raw.record === undefined) return raw; // a calibration
        const out = raw.bag ? { bag: new Map(raw.bag) } : { text: raw.text };
        out.record = recordOf(raw.record);
        if (diagnostics) out.localDiagnostics = diagnosticsOf(raw.diagnostics);
        if (raw.memoised !== undefined) out.memoised = raw.memoised;
        return out;
      });
    }

    // A call on a text (call: backend.privatizeText's arguments; a Ledger's call too).
    _text(text, options, call) {
      return this._call(options, (context, pairs, diagnostics) => {
        if (typeof text !== 'string') throw invalid(`text must be a string, not ${typeof text}`);
        return call(context, text, pairs, diagnostics);
      });
    }

    /** Promise of { text, record } (and localDiagnostics when options.localDiagnostics is true) for one word. */
    privatizeWord(word, options) {
      return this._text(word, options, backend.privatizeWord);
    }

    /**
     * Promise of { text, record } (and localDiagnostics with options
     * .localDiagnostics): each word replaced by the mechanism's output; what
     * else of the input shows depends on releaseShape. The record's bound is
     * positionwise: epsilon * sum_i d(x_i, x'_i).
     */
    privatizeText(text, options) {
      return this._text(text, options, backend.privatizeText);
    }

    /**
     * Promise of { bag: Map(word -> count), record } for a bag given as a Map,
     * a plain object {word: count} or an iterable of [word, count]: every
     * occurrence privatised; the record's bound is epsilon * N * EMD for bags
     * of equal size N.
     */
    privatizeBag(bag, options) {
      return this._call(options, (context, pairs, diagnostics) =>
        backend.privatizeBag(context, bagEntries(bag), pairs, diagnostics));
    }

    /** Promise of { bag, record }: a SynTF synthetic bag of exactly nOut words (options.mechanism is ignored). */
    syntf(bag, nOut, options) {
      // The type here; the value (at least 1, at most MAX_BAG_WORDS) the library checks.
      return this._call(options, (context, pairs, diagnostics) =>
        backend.syntf(context, bagEntries(bag), checkU32(nOut, 'nOut'), pairs, diagnostics));
    }

    /**
     * Promise of { words, trials, keepMean, keepMedian, keepMax, distinctMean,
     * distinctMedian, distinctMax }: plausible-deniability statistics (N_w,
     * S_w; Feyisetan et al. 2020) over `words` vocabulary words drawn at
     * random, each privatised `trials` times.
     */
    async calibrate(options, { words = 100, trials = 100 } = {}) {
      return this._call(options, (context, pairs) =>
        backend.calibrate(context, pairs, checkU32(words, 'words'), checkU32(trials, 'trials')));
    }

    /** Destroy the random state (after the pending calls finish). Closing twice is fine. */
    async close() {
      await this._tail;
      return closeHandle(this, backend.contextClose);
    }
  }

  /**
   * The privacy ledger (docs/budgets.md): a budget per scope, releases past
   * the cap refused before any noise is drawn, repeats given the memoised
   * output at no cost, the bytes under a MAC. Each package's Ledger extends
   * this one (in a file the library locks; in the app's own storage).
   */
  class Ledger {
    /**
     * Promise of the ledger at `where`, opened (or created), with `scope`
     * selected (docs/budgets.md). `cap` (epsilon summed over releases) and
     * `memoCapacity` apply to a new scope; `key` (16 to 64 bytes) makes the
     * MAC unforgeable without it. `anchor`, the LedgerAnchor stored after
     * the last call, makes an older copy put back (or none at all) reject
     * with LedgerRollbackError; without it a rollback is not detected.
     */
    static async open(where, options) {
      return new this(CREATE, await backend.ledgerOpen(where, ledgerSettings(options)));
    }

    /** Use Ledger.open. */
    constructor(token, handle) {
      if (token !== CREATE) throw invalid('use Ledger.open()');
      this[HANDLE] = handle;
      this._tail = Promise.resolve();
    }

    _ledger() {
      return live(this, 'ledger');
    }

    /**
     * Promise of { text, memoised, record } (and localDiagnostics with
     * options.localDiagnostics): privatizer.privatizeText through the ledger.
     * The same text with the same options returns the memoised output and
     * spends nothing, unless `fresh`; a release past the cap rejects with
     * BudgetExceededError before any noise is drawn.
     */
    privatizeText(privatizer, text, options, { fresh = false } = {}) {
      if (!(privatizer instanceof Privatizer)) return Promise.reject(invalid('privatizeText needs a Privatizer'));
      return enqueue(this, () =>
        privatizer._text(text, options, (context, input, pairs, diagnostics) =>
          backend.ledgerPrivatizeText(this._ledger(), context, input, pairs, Boolean(fresh), diagnostics)),
      );
    }

    /** { cap, spent, spentAnyInputs, releases, memoised, memoCapacity, words } of the scope. */
    totals() {
      return Object.freeze(backend.ledgerTotals(this._ledger()));
    }

    /**
     * The ledger's LedgerAnchor: store its toBytes() outside the ledger after
     * every call (replacing the one before), and give it to
     * Ledger.open({ anchor }) next time.
     */
    anchor() {
      return new LedgerAnchor(backend.ledgerAnchor(this._ledger()));
    }

    /** The scope as `dxtext ledger` prints it (an object). */
    toJSON() {
      return JSON.parse(backend.ledgerJson(this._ledger()));
    }

    /** Release the ledger (after the pending calls finish); its bytes stay where they are. Closing twice is fine. */
    async close() {
      await this._tail;
      return closeHandle(this, backend.ledgerClose);
    }
  }

  /** Promise of the dxtext library version, "major.minor.patch". */
  const libraryVersion = async () => backend.versionString();

  return { Model, OutputSet, Privatizer, Ledger, libraryVersion };
}
