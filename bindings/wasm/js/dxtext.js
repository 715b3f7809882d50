// SPDX-License-Identifier: Apache-2.0
/**
 * dxtext for JavaScript: the dxtext core compiled to WebAssembly, so a web
 * page, a Web Worker or a Node program can privatise text before it is sent
 * anywhere. An ES module; every call that privatises returns a promise.
 *
 *   import { loadDefaultModel } from 'dxtext-wasm';
 *   const model = await loadDefaultModel();                  // the model in the package
 *   const text = await model.privatize('The quick brown fox', { epsilon: 20 });
 *   model.close();
 *
 * The same API runs in a Web Worker, off the page's thread:
 *
 *   import { createWorker } from 'dxtext-wasm';
 *   const dx = createWorker();                               // a module worker running dxtext-wasm/worker
 *   const model = await dx.loadDefaultModel();
 *   const text = await model.privatize('The quick brown fox', { epsilon: 20 });
 *
 * Noise comes from the platform's cryptographic generator (Web Crypto's
 * crypto.getRandomValues, in Node 18 node:crypto's webcrypto) through
 * getentropy() (src/getentropy.js); without one, privatisation fails with
 * RNG_FAILURE and never falls back to a weaker generator.
 * Everything goes through the C ABI of include/dxtext/dxtext.h; see
 * docs/bindings/wasm.md.
 */

import createDxtextCore from './dxtext_core.js';
import { DEFAULT_MODEL } from './default_model.js';
import { OPTIONS } from './options_table.js';

/** dxt_status codes (include/dxtext/dxtext.h). New codes may be added. */
export const Status = Object.freeze({
  OK: 0,
  INVALID_ARGUMENT: 1,
  INVALID_EPSILON: 2,
  IO: 3,
  NOT_A_MODEL: 4,
  UNSUPPORTED_VERSION: 5,
  CORRUPT_MODEL: 6,
  TRUNCATED_MODEL: 7,
  DIGEST_MISMATCH: 8,
  OUT_OF_MEMORY: 9,
  RNG_FAILURE: 10,
  INVALID_UTF8: 11,
  NOT_FOUND: 12,
  UNSUPPORTED: 13,
  INPUT_TOO_LARGE: 14,
  PARSE: 15,
  INTERNAL: 16,
  CONTEXT_BUSY: 17,
  BUDGET_EXCEEDED: 18,
  LEDGER_CORRUPT: 19,
});
const STATUS_CODES = Object.fromEntries(Object.entries(Status).map(([name, value]) => [value, name]));

/**
 * A dxtext call failed. `status` is the dxt_status number, `code` its name in
 * Status (e.g. 'INVALID_EPSILON'), `message` the library's detailed message.
 */
export class DxtextError extends Error {
  constructor(status, message, options) {
    super(message, options);
    this.name = 'DxtextError';
    this.status = status;
    this.code = STATUS_CODES[status] || 'UNKNOWN';
  }
}

// Names used in options and release records, as the C enums number them.
const MECHANISMS = ['unknown', 'laplace', 'hyperbolic', 'exponential', 'syntf', 'mahalanobis', 'vickrey', 'tem'];
const GEOMETRIES = ['unknown', 'euclidean', 'poincare'];
const QUANTIZATIONS = ['unknown', 'f32', 'f16', 'int8'];
const METRICS = ['unknown', 'euclidean', 'hyperbolic', 'mahalanobis', 'discrete'];
const RNG_MODES = ['unknown', 'system', 'deterministic'];
const RELEASES = ['unknown', 'word', 'text', 'bag', 'syntheticBag'];
const BOUNDS = ['unknown', 'word', 'positionwise', 'bagEmd', 'anyInputs'];
// DXT_REVEALS_* bits, in bit order.
const REVEALS = ['wordCount', 'layout', 'caseShape', 'tokenClasses', 'keptWords', 'sentenceBoundaries',
  'clauseBoundaries'];
// dxt_release_shape, by number.
const SHAPES = ['keep', 'keep', 'normalize', 'strict'];
// Token classes in dxt_token_class order: the local diagnostics' keys.
const TOKEN_CLASSES = ['inVocabulary', 'outOfVocabulary', 'number', 'stopword'];
const ACTIONS = ['privatized', 'placeholder', 'dropped', 'kept'];
// The options of tools/options/privatize_options.table (options_table.js is
// generated from it), and the three of a call: seed, withRecord and
// withLocalDiagnostics.
const OPTION_BY_NAME = new Map(OPTIONS.map((option) => [option.name, option]));
const CALL_KEYS = new Set(['seed', 'withRecord', 'withLocalDiagnostics']);
// The struct members the options set ("policy[1]" is an element of policy).
const OPTION_FIELDS = [...new Set(OPTIONS.map((option) => option.field.replace(/\[\d+\]$/, '')))];
const MAX_BAG_WORDS = 2 ** 24; // DXT_MAX_BAG_WORDS
/** DXT_EPSILON_MIN and DXT_EPSILON_MAX: the range of epsilon every call accepts. */
export const EPSILON_MIN = 1e-6;
export const EPSILON_MAX = 1e6;
const DXT_OPEN_VERIFY_DIGESTS = 1;
const DXT_RNG_DETERMINISTIC = 2;
const DXT_E_INPUT_TOO_LARGE = Status.INPUT_TOO_LARGE;

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8');

function invalidArgument(message) {
  return new DxtextError(Status.INVALID_ARGUMENT, message);
}

// The C number of an enum option's value: one of its names, or a number among theirs.
function enumValue(option, value) {
  const values = option.values;
  if (typeof value === 'string' && Object.prototype.hasOwnProperty.call(values, value.toLowerCase())) {
    return values[value.toLowerCase()];
  }
  if (Number.isInteger(value) && Object.values(values).includes(value)) return value;
  throw invalidArgument(`unknown ${option.name} ${JSON.stringify(value)} (expected one of ${Object.keys(values).join(', ')})`);
}

function isNode() {
  return typeof process === 'object' && !!process.versions && typeof process.versions.node === 'string';
}

// Every struct field the wrapper touches. Their offsets are all asked for
// once, when the module is loaded, so that no later lookup allocates (an
// allocation may grow the memory and invalidate views held by the caller).
const LAYOUT_FIELDS = {
  dxt_model_open_options: ['flags'],
  dxt_model_info: ['format_major', 'format_minor', 'dimension', 'vocabulary_size', 'geometry', 'quantization',
    'lowercase', 'has_frequencies'],
  dxt_context_options: ['rng_mode', 'seed'],
  dxt_privatize_options: OPTION_FIELDS,
  dxt_release_record: ['release', 'mechanism', 'epsilon', 'metric', 'rng_mode', 'is_private', 'fingerprint_valid',
    'model_fingerprint', 'bound', 'reveals', 'draws', 'epsilon_total', 'epsilon_vocabulary', 'release_shape'],
  dxt_local_diagnostics: ['counts', 'words_privatized', 'words_leaked'],
  dxt_bag_entry: ['word', 'length', 'count'],
  dxt_bag: ['entries', 'size'],
  dxt_calibration: ['words', 'trials', 'keep_mean', 'keep_median', 'keep_max', 'distinct_mean', 'distinct_median',
    'distinct_max'],
};

/** One instantiated WebAssembly module: its memory and calls into it. */
class Core {
  constructor(module) {
    this.m = module;
    this.layouts = new Map();
    this.failed = null;
  }

  view() {
    return new DataView(this.m.HEAPU8.buffer); // anew: memory growth replaces the buffer
  }

  // Calls an export; a trap or abort inside the module (not a dxtext status)
  // leaves it unusable, so later calls fail at once with INTERNAL.
  call(name, ...args) {
    if (this.failed) throw new DxtextError(Status.INTERNAL, `the WebAssembly module stopped earlier: ${this.failed}`);
    try {
      return this.m[`_${name}`](...args);
    } catch (e) {
      this.failed = String((e && e.message) || e);
      throw new DxtextError(Status.INTERNAL, `the WebAssembly module stopped in ${name}: ${this.failed}`, { cause: e });
    }
  }

  cString(ptr) {
    if (!ptr) return '';
    const heap = this.m.HEAPU8;
    let end = ptr;
    while (heap[end] !== 0) ++end;
    return decoder.decode(heap.subarray(ptr, end));
  }

  check(status) {
    if (status === Status.OK) return;
    const detail = this.cString(this.call('dxt_last_error_message'));
    throw new DxtextError(status, detail || this.cString(this.call('dxt_status_string', status)));
  }

  // Asks the compiled code (src/dxtext_wasm_layout.c) for the size and the
  // field offsets of every struct in LAYOUT_FIELDS.
  loadLayouts() {
    withFrame(this, (frame) => {
      for (const [type, fields] of Object.entries(LAYOUT_FIELDS)) {
        const [typeName] = frame.string(type);
        for (const field of ['sizeof', ...fields]) {
          const value = this.call('dxtwasm_layout', typeName, frame.string(field)[0]);
          if (value < 0) throw new DxtextError(Status.INTERNAL, `no layout for ${type}.${field}`);
          this.layouts.set(`${type}.${field}`, value);
        }
      }
    });
  }

  // Offset of a field, or with field 'sizeof' the size, of a public struct
  // in this build.
  layout(type, field) {
    const value = this.layouts.get(`${type}.${field}`);
    if (value === undefined) throw new DxtextError(Status.INTERNAL, `no layout for ${type}.${field}`);
    return value;
  }
}

/**
 * Memory allocated for one call and freed together at its end. Every struct
 * passed to the library is made by struct(), which sizes it from the
 * compiled layout and fills it with the struct's _init function.
 */
class Frame {
  constructor(core) {
    this.core = core;
    this.pointers = [];
  }

  alloc(size) {
    const ptr = this.core.call('malloc', Math.max(size, 1));
    if (!ptr) throw new DxtextError(Status.OUT_OF_MEMORY, `cannot allocate ${size} bytes in the WebAssembly memory`);
    this.pointers.push(ptr);
    this.core.m.HEAPU8.fill(0, ptr, ptr + Math.max(size, 1));
    return ptr;
  }

  /** UTF-8 bytes of `text`, NUL-terminated: [pointer, length without NUL]. */
  string(text) {
    const bytes = encoder.encode(text);
    const ptr = this.alloc(bytes.length + 1);
    this.core.m.HEAPU8.set(bytes, ptr);
    return [ptr, bytes.length];
  }

  struct(type) {
    const ptr = this.alloc(this.core.layout(type, 'sizeof'));
    const [name] = this.string(type);
    if (this.core.call('dxtwasm_init', name, ptr) !== 0) throw new DxtextError(Status.INTERNAL, `no _init for ${type}`);
    return ptr;
  }

  free() {
    for (const ptr of this.pointers) this.core.call('free', ptr);
    this.pointers = [];
  }
}

function withFrame(core, body) {
  const frame = new Frame(core);
  try {
    return body(frame);
  } finally {
    frame.free();
  }
}

function readU64(view, ptr) {
  return view.getUint32(ptr, true) + view.getUint32(ptr + 4, true) * 2 ** 32;
}

function hex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

function seedBytes(seed) {
  if (typeof seed === 'string' && /^[0-9a-fA-F]{64}$/.test(seed)) {
    return Uint8Array.from(seed.match(/../g), (pair) => parseInt(pair, 16));
  }
  if (seed instanceof Uint8Array && seed.length === 32) return seed;
  throw invalidArgument('seed must be 64 hexadecimal digits or a Uint8Array of 32 bytes');
}

// The JSON of a record or diagnostics struct at ptr (to_json: the C function).
function readJson(core, toJson, ptr) {
  return withFrame(core, (frame) => {
    const required = frame.alloc(4);
    const status = core.call(toJson, ptr, 0, 0, required);
    if (status !== DXT_E_INPUT_TOO_LARGE) core.check(status);
    const size = core.view().getUint32(required, true);
    const buffer = frame.alloc(size);
    core.check(core.call(toJson, ptr, buffer, size, 0));
    return core.cString(buffer);
  });
}

/** The release record of a call (fields of dxt_release_record): safe to send. */
function readRecord(core, ptr) {
  const L = (field) => ptr + core.layout('dxt_release_record', field);
  // The JSON first: its allocations may grow the memory, which replaces the
  // buffer under any view taken before.
  const json = readJson(core, 'dxt_release_record_to_json', ptr);
  const view = core.view();
  const heap = core.m.HEAPU8;
  const fingerprintAt = L('model_fingerprint');
  const fingerprint = heap[L('fingerprint_valid')] !== 0 ? hex(heap.subarray(fingerprintAt, fingerprintAt + 32)) : null;
  const reveals = view.getUint32(L('reveals'), true);
  return Object.freeze({
    release: RELEASES[view.getUint32(L('release'), true)] || 'unknown',
    mechanism: MECHANISMS[view.getUint32(L('mechanism'), true)] || 'unknown',
    epsilon: view.getFloat64(L('epsilon'), true),
    metric: METRICS[view.getUint32(L('metric'), true)] || 'unknown',
    rngMode: RNG_MODES[view.getUint32(L('rng_mode'), true)] || 'unknown',
    isPrivate: heap[L('is_private')] !== 0,
    modelFingerprint: fingerprint,
    bound: BOUNDS[view.getUint32(L('bound'), true)] || 'unknown',
    reveals: REVEALS.filter((_, bit) => (reveals & (1 << bit)) !== 0),
    draws: readU64(view, L('draws')),
    epsilonTotal: view.getFloat64(L('epsilon_total'), true),
    epsilonVocabulary: view.getFloat64(L('epsilon_vocabulary'), true),
    releaseShape: SHAPES[view.getUint32(L('release_shape'), true)] || 'unknown',
    json,
  });
}

/** The token counts of a call's input: they describe it, so keep them local. */
function readDiagnostics(core, ptr) {
  const L = (field) => ptr + core.layout('dxt_local_diagnostics', field);
  const json = readJson(core, 'dxt_local_diagnostics_to_json', ptr);
  const view = core.view();
  const counts = {};
  TOKEN_CLASSES.forEach((key, c) => {
    counts[key] = {};
    ACTIONS.forEach((action, a) => {
      counts[key][action] = readU64(view, L('counts') + 8 * (4 * c + a));
    });
  });
  return Object.freeze({
    counts,
    wordsPrivatized: readU64(view, L('words_privatized')),
    wordsLeaked: readU64(view, L('words_leaked')),
    json,
  });
}

// What a call returns: the result alone, or { [key]: result, record?,
// localDiagnostics? } with what options.withRecord / withLocalDiagnostics ask.
function shaped(key, run, options) {
  if (!options.withRecord && !options.withLocalDiagnostics) return run.result;
  const out = { [key]: run.result };
  if (options.withRecord) out.record = run.record;
  if (options.withLocalDiagnostics) out.localDiagnostics = run.localDiagnostics;
  return out;
}

/**
 * An opened .dxe model held in WebAssembly memory, and the privatisation
 * calls on it. Call close() when done: the memory is not garbage-collected.
 */
export class Model {
  constructor(core, handle, buffer) {
    this._core = core;
    this._handle = handle;
    this._buffer = buffer;
    this._context = 0; // the system-RNG context, made on first use
    this._info = null;
    this._info = this.info; // read now, so it stays readable after close()
  }

  _require() {
    if (!this._handle) throw invalidArgument('the model is closed');
    return this._handle;
  }

  get closed() {
    return !this._handle;
  }

  /** Release the model, its context and its memory. Closing twice is fine. */
  close() {
    if (!this._handle) return;
    this._core.call('dxt_context_destroy', this._context);
    this._core.call('dxt_model_close', this._handle);
    this._core.call('free', this._buffer);
    this._handle = this._context = this._buffer = 0;
  }

  /** { formatVersion, dimension, vocabularySize, geometry, quantization, lowercase, hasFrequencies } */
  get info() {
    if (!this._info) {
      const handle = this._require();
      const core = this._core;
      this._info = withFrame(core, (frame) => {
        const ptr = frame.struct('dxt_model_info');
        core.check(core.call('dxt_model_get_info', handle, ptr));
        const view = core.view();
        const u32 = (field) => view.getUint32(ptr + core.layout('dxt_model_info', field), true);
        const flag = (field) => core.m.HEAPU8[ptr + core.layout('dxt_model_info', field)] !== 0;
        return Object.freeze({
          formatVersion: `${u32('format_major')}.${u32('format_minor')}`,
          dimension: u32('dimension'),
          vocabularySize: u32('vocabulary_size'),
          geometry: GEOMETRIES[u32('geometry')] || 'unknown',
          quantization: QUANTIZATIONS[u32('quantization')] || 'unknown',
          lowercase: flag('lowercase'),
          hasFrequencies: flag('has_frequencies'),
        });
      });
    }
    return this._info;
  }

  /** Promise of the SHA-256 of the whole model file, as 64 hex digits (the fingerprint in release records). */
  async fingerprint() {
    const handle = this._require();
    const core = this._core;
    return withFrame(core, (frame) => {
      const out = frame.alloc(32);
      core.check(core.call('dxt_model_fingerprint', handle, out));
      return hex(core.m.HEAPU8.subarray(out, out + 32));
    });
  }

  /** Promise of whether `word` is in the vocabulary (looked up as the privatise calls do). */
  async has(word) {
    const handle = this._require();
    const core = this._core;
    return withFrame(core, (frame) => {
      const [ptr, length] = frame.string(String(word));
      const status = core.call('dxt_model_lookup', handle, ptr, length, frame.alloc(4));
      if (status === Status.NOT_FOUND) return false;
      core.check(status);
      return true;
    });
  }

  // A context for one call: the model's system-RNG context, or a fresh
  // seeded one (deterministic, NOT private), destroyed after the call.
  _withContext(seed, body) {
    const handle = this._require();
    const core = this._core;
    if (seed === undefined || seed === null) {
      if (!this._context) {
        this._context = withFrame(core, (frame) => {
          const out = frame.alloc(4);
          core.check(core.call('dxt_context_create', handle, 0, out));
          return core.view().getUint32(out, true);
        });
      }
      return body(this._context);
    }
    const bytes = seedBytes(seed);
    const context = withFrame(core, (frame) => {
      const options = frame.struct('dxt_context_options');
      const seedAt = options + core.layout('dxt_context_options', 'seed');
      core.view().setUint32(options + core.layout('dxt_context_options', 'rng_mode'), DXT_RNG_DETERMINISTIC, true);
      core.m.HEAPU8.set(bytes, seedAt);
      const out = frame.alloc(4);
      const status = core.call('dxt_context_create', handle, options, out);
      core.m.HEAPU8.fill(0, seedAt, seedAt + 32);
      core.check(status);
      return core.view().getUint32(out, true);
    });
    try {
      return body(context);
    } finally {
      core.call('dxt_context_destroy', context);
    }
  }

  // A dxt_privatize_options in `frame` from the JavaScript options object.
  _options(frame, options) {
    if (options === null || typeof options !== 'object') {
      throw new TypeError('options must be an object with at least { epsilon }');
    }
    for (const key of Object.keys(options)) {
      if (!OPTION_BY_NAME.has(key) && !CALL_KEYS.has(key)) throw invalidArgument(`unknown option '${key}'`);
    }
    const core = this._core;
    const ptr = frame.struct('dxt_privatize_options');
    if (typeof options.epsilon !== 'number') {
      throw new DxtextError(Status.INVALID_EPSILON, 'epsilon is required and must be a number');
    }
    for (const option of OPTIONS) {
      const value = options[option.name];
      if (value === undefined) continue;
      const [, field, element] = /^(\w+)(?:\[(\d+)\])?$/.exec(option.field);
      const at = ptr + core.layout('dxt_privatize_options', field) + 4 * Number(element || 0);
      if (option.type === 'enum') {
        core.view().setUint32(at, enumValue(option, value), true);
      } else if (option.type === 'double') {
        if (typeof value !== 'number') throw new TypeError(`${option.name} must be a number`);
        core.view().setFloat64(at, value, true); // the library checks its value
      } else if (option.type === 'uint32') {
        if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) {
          throw new TypeError(`${option.name} must be an integer in [0, 2^32)`);
        }
        core.view().setUint32(at, value, true);
      } else {
        if (typeof value !== 'string') throw new TypeError(`${option.name} must be a string`);
        const [text] = frame.string(value); // may grow the memory: the view is taken anew above
        core.view().setUint32(at, text, true);
      }
    }
    return ptr;
  }

  // Runs one privatise call: fn(frame, context, optionsPtr, recordPtr,
  // diagnosticsPtr) returns the result; the record and the diagnostics are
  // read when options.withRecord / withLocalDiagnostics ask for them.
  _run(options, fn) {
    const core = this._core;
    return withFrame(core, (frame) => {
      const optionsPtr = this._options(frame, options);
      const recordPtr = options.withRecord ? frame.struct('dxt_release_record') : 0;
      const diagnosticsPtr = options.withLocalDiagnostics ? frame.struct('dxt_local_diagnostics') : 0;
      const result = this._withContext(options.seed, (context) =>
        fn(frame, context, optionsPtr, recordPtr, diagnosticsPtr),
      );
      return {
        result,
        record: recordPtr ? readRecord(core, recordPtr) : undefined,
        localDiagnostics: diagnosticsPtr ? readDiagnostics(core, diagnosticsPtr) : undefined,
      };
    });
  }

  _text(name, text, options) {
    if (typeof text !== 'string') throw new TypeError(`text must be a string, not ${typeof text}`);
    const core = this._core;
    const run = this._run(options, (frame, context, optionsPtr, recordPtr, diagnosticsPtr) => {
      const [input, length] = frame.string(text);
      const out = frame.alloc(8); // char* then size_t (wasm32)
      core.check(core.call(name, context, optionsPtr, input, length, out, out + 4, recordPtr, diagnosticsPtr));
      const view = core.view();
      const ptr = view.getUint32(out, true);
      try {
        return decoder.decode(core.m.HEAPU8.subarray(ptr, ptr + view.getUint32(out + 4, true)));
      } finally {
        core.call('dxt_text_free', ptr);
      }
    });
    return shaped('text', run, options);
  }

  /**
   * Privatise text: each word is replaced by the mechanism's output; spacing
   * and punctuation are kept; each word's case shape is restored.
   * options: { epsilon (required), mechanism, inVocabulary, oov, numbers,
   * stopwords, placeholder, temGamma, temBeta, vickreyT, mahalanobisLambda,
   * syntfS, sampler, search, ivfNprobe, seed, withRecord, withLocalDiagnostics }.
   * Returns the text, or { text, record, localDiagnostics } with what
   * withRecord (the guarantee, positionwise for text: safe to send) and
   * withLocalDiagnostics (token counts of the input: keep them local) ask for.
   */
  async privatize(text, options) {
    return this._text('dxt_privatize_text', text, options);
  }

  /** Privatise one word (no tokenisation); options as privatize(). */
  async privatizeWord(word, options) {
    return this._text('dxt_privatize_word', word, options);
  }

  /**
   * Privatise a bag of words, given as a Map, a plain object {word: count}
   * or an iterable of [word, count]. Every occurrence is privatised
   * independently; the record's bound is epsilon * N * EMD for bags of equal
   * size N. Returns a Map ordered by vocabulary index, or { bag, record,
   * localDiagnostics } as privatize() does.
   */
  async privatizeBag(bag, options) {
    return this._bag('bag', bag, 0, options);
  }

  /**
   * SynTF (Weggenmann & Kerschbaum 2018): a synthetic bag of exactly
   * `nOut` words drawn from `bag`; options as privatize() (mechanism is
   * ignored). Returns a Map, or { bag, record, localDiagnostics } as
   * privatize() does.
   */
  async syntf(bag, nOut, options) {
    if (!Number.isInteger(nOut) || nOut < 1 || nOut > MAX_BAG_WORDS) {
      throw invalidArgument(`nOut must be an integer from 1 to ${MAX_BAG_WORDS}`);
    }
    return this._bag('syntf', bag, nOut, options);
  }

  /**
   * Plausible-deniability statistics at options.epsilon (Feyisetan et al.
   * 2020): `words` vocabulary words drawn at random, each privatised `trials`
   * times. Returns { words, trials, keepMean, keepMedian, keepMax,
   * distinctMean, distinctMedian, distinctMax }: N_w, the share of trials
   * that returned the word itself, and S_w, the number of distinct outputs.
   */
  async calibrate(words, trials, options) {
    for (const [name, value] of [['words', words], ['trials', trials]]) {
      if (!Number.isInteger(value) || value < 1 || value > 2 ** 32 - 1) {
        throw invalidArgument(`${name} must be a positive integer`);
      }
    }
    const core = this._core;
    const { result } = this._run({ ...options, withRecord: false, withLocalDiagnostics: false }, (frame, context, optionsPtr) => {
      const out = frame.struct('dxt_calibration');
      core.check(core.call('dxt_calibrate', context, optionsPtr, words, trials, out));
      const view = core.view();
      const f64 = (field) => view.getFloat64(out + core.layout('dxt_calibration', field), true);
      return {
        words: view.getUint32(out + core.layout('dxt_calibration', 'words'), true),
        trials: view.getUint32(out + core.layout('dxt_calibration', 'trials'), true),
        keepMean: f64('keep_mean'),
        keepMedian: f64('keep_median'),
        keepMax: f64('keep_max'),
        distinctMean: f64('distinct_mean'),
        distinctMedian: f64('distinct_median'),
        distinctMax: f64('distinct_max'),
      };
    });
    return result;
  }

  _bag(kind, bag, nOut, options) {
    const entries = bagEntries(bag);
    const core = this._core;
    const run = this._run(options, (frame, context, optionsPtr, recordPtr, diagnosticsPtr) => {
      const size = core.layout('dxt_bag_entry', 'sizeof');
      const array = frame.alloc(size * entries.length);
      entries.forEach(([word, count], i) => {
        const [text, length] = frame.string(word);
        const view = core.view();
        const entry = array + i * size;
        view.setUint32(entry + core.layout('dxt_bag_entry', 'word'), text, true);
        view.setUint32(entry + core.layout('dxt_bag_entry', 'length'), length, true);
        const countAt = entry + core.layout('dxt_bag_entry', 'count');
        view.setUint32(countAt, count % 2 ** 32, true);
        view.setUint32(countAt + 4, Math.floor(count / 2 ** 32), true);
      });
      const out = frame.alloc(4);
      if (kind === 'bag') {
        core.check(
          core.call('dxt_privatize_bag', context, optionsPtr, array, entries.length, out, recordPtr, diagnosticsPtr),
        );
      } else {
        core.check(
          core.call('dxt_syntf', context, optionsPtr, array, entries.length, nOut, out, recordPtr, diagnosticsPtr),
        );
      }
      const bagPtr = core.view().getUint32(out, true);
      try {
        return readBag(core, bagPtr);
      } finally {
        core.call('dxt_bag_free', bagPtr);
      }
    });
    return shaped('bag', run, options);
  }
}

function bagEntries(bag) {
  let pairs;
  if (bag instanceof Map) pairs = Array.from(bag.entries());
  else if (bag !== null && typeof bag === 'object' && typeof bag[Symbol.iterator] === 'function') pairs = Array.from(bag);
  else if (bag !== null && typeof bag === 'object') pairs = Object.entries(bag);
  else throw new TypeError('bag must be a Map, an object {word: count} or an iterable of [word, count]');
  return pairs.map((pair) => {
    if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'string') {
      throw new TypeError('each bag entry must be [word, count] with a string word');
    }
    const [word, count] = pair;
    if (!Number.isSafeInteger(count) || count < 0) {
      throw invalidArgument(`the count of '${word}' must be a non-negative integer, not ${count}`);
    }
    return [word, count];
  });
}

function readBag(core, bagPtr) {
  const view = core.view();
  const entries = view.getUint32(bagPtr + core.layout('dxt_bag', 'entries'), true);
  const size = view.getUint32(bagPtr + core.layout('dxt_bag', 'size'), true);
  const stride = core.layout('dxt_bag_entry', 'sizeof');
  const result = new Map();
  for (let i = 0; i < size; ++i) {
    const entry = entries + i * stride;
    const word = view.getUint32(entry + core.layout('dxt_bag_entry', 'word'), true);
    const length = view.getUint32(entry + core.layout('dxt_bag_entry', 'length'), true);
    const count = readU64(view, entry + core.layout('dxt_bag_entry', 'count'));
    result.set(decoder.decode(core.m.HEAPU8.subarray(word, word + length)), count);
  }
  return result;
}

/**
 * An instantiated dxtext WebAssembly module. Most programs need only one,
 * which the module-level loadModel() makes on first use.
 */
export class Dxtext {
  constructor(core) {
    this._core = core;
  }

  /** The dxtext library version, "major.minor.patch". */
  get version() {
    return this._core.cString(this._core.call('dxt_version_string'));
  }

  /**
   * The privacy ledger (docs/budgets.md) needs a file with locks and atomic
   * renames, which WebAssembly does not have: this always rejects with
   * DxtextError UNSUPPORTED, from the library's own dxt_ledger_open. Keep
   * the budget on the server side of the app, or in the native bindings.
   */
  async openLedger(path, scope = 'default') {
    const core = this._core;
    withFrame(core, (frame) => {
      const out = frame.alloc(4);
      core.check(core.call('dxt_ledger_open', frame.string(String(path))[0], frame.string(String(scope))[0], 0, out));
    });
    throw new DxtextError(Status.INTERNAL, 'dxt_ledger_open succeeded in a WebAssembly build');
  }

  /**
   * Open a .dxe model from its bytes (an ArrayBuffer or a typed array). The
   * bytes are copied into WebAssembly memory, 8-byte aligned as
   * dxt_model_open_memory requires. options: { verifyDigests } also checks
   * every section's SHA-256.
   */
  async loadModel(data, options = {}) {
    let bytes;
    if (data instanceof ArrayBuffer) bytes = new Uint8Array(data);
    else if (ArrayBuffer.isView(data)) bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    else throw new TypeError('model data must be an ArrayBuffer or a typed array');
    const core = this._core;
    const raw = core.call('malloc', bytes.length + 8);
    if (!raw) throw new DxtextError(Status.OUT_OF_MEMORY, `cannot allocate ${bytes.length} bytes for the model`);
    const aligned = Math.ceil(raw / 8) * 8;
    try {
      core.m.HEAPU8.set(bytes, aligned);
      const handle = withFrame(core, (frame) => {
        const open = frame.struct('dxt_model_open_options');
        if (options.verifyDigests) {
          core.view().setUint32(open + core.layout('dxt_model_open_options', 'flags'), DXT_OPEN_VERIFY_DIGESTS, true);
        }
        const out = frame.alloc(4);
        core.check(core.call('dxt_model_open_memory', aligned, bytes.length, open, out));
        return core.view().getUint32(out, true);
      });
      return new Model(core, handle, raw);
    } catch (e) {
      core.call('free', raw);
      throw e;
    }
  }

  /** Node only: read the .dxe file at `path` and open it as loadModel() does. */
  async loadModelFile(path, options = {}) {
    if (!isNode()) {
      throw new DxtextError(Status.UNSUPPORTED, 'loadModelFile reads files with Node; in a browser, fetch the model and call loadModel');
    }
    let data;
    try {
      const fs = await import('node:fs/promises');
      data = await fs.readFile(path);
    } catch (e) {
      throw new DxtextError(Status.IO, `cannot read model file '${path}': ${e.message}`, { cause: e });
    }
    return this.loadModel(data, options);
  }

  /**
   * Open the default Euclidean model that the package carries (models/
   * beside this file): fetched in a browser or worker, read from disk in
   * Node.
   */
  async loadDefaultModel(options = {}) {
    if (!DEFAULT_MODEL) throw new DxtextError(Status.NOT_FOUND, 'this dxtext-wasm package carries no default model');
    const url = new URL(DEFAULT_MODEL, import.meta.url);
    if (isNode()) {
      const { fileURLToPath } = await import('node:url');
      return this.loadModelFile(fileURLToPath(url), options);
    }
    let response;
    try {
      response = await fetch(url);
    } catch (e) {
      throw new DxtextError(Status.IO, `cannot fetch the default model ${url}: ${e.message}`, { cause: e });
    }
    if (!response.ok) throw new DxtextError(Status.IO, `cannot fetch the default model ${url}: HTTP ${response.status}`);
    return this.loadModel(await response.arrayBuffer(), options);
  }
}

/**
 * Instantiate the WebAssembly module. `moduleOptions` go to emscripten's
 * factory, e.g. { locateFile: (name) => '/static/' + name } when
 * dxtext_core.wasm is not served beside dxtext_core.js, or { wasmBinary }.
 */
export async function load(moduleOptions = {}) {
  let options = { ...moduleOptions };
  if (isNode()) {
    // The core is built for web and worker only (emscripten 3.1's ES module
    // output cannot run its Node loader): Node reads the file itself.
    if (!options.wasmBinary && !options.instantiateWasm) {
      const fs = await import('node:fs/promises');
      options.wasmBinary = await fs.readFile(new URL('./dxtext_core.wasm', import.meta.url));
    }
    // Node 18 has no global Web Crypto; getentropy() then uses node:crypto's.
    if (!(typeof crypto === 'object' && crypto && typeof crypto.getRandomValues === 'function')) {
      options.dxtextCrypto = (await import('node:crypto')).webcrypto;
    }
  }
  const core = new Core(await createDxtextCore(options));
  core.loadLayouts();
  return new Dxtext(core);
}

let shared = null;
function sharedInstance() {
  if (!shared) {
    shared = load();
    shared.catch(() => {
      shared = null;
    });
  }
  return shared;
}

/** loadModel(data, options) on a module instantiated on first use. */
export async function loadModel(data, options) {
  return (await sharedInstance()).loadModel(data, options);
}

/** loadModelFile(path, options) (Node) on a module instantiated on first use. */
export async function loadModelFile(path, options) {
  return (await sharedInstance()).loadModelFile(path, options);
}

/** loadDefaultModel(options) on a module instantiated on first use. */
export async function loadDefaultModel(options) {
  return (await sharedInstance()).loadDefaultModel(options);
}

/** The mechanisms' names, as options.mechanism takes them. */
export const MECHANISM_NAMES = Object.freeze(MECHANISMS.slice(1));

// --------------------------------------------------------------------------
// Web Workers: the same API, with the work done in a worker.

/** Model methods a worker runs (each returns a promise there too). */
export const WORKER_METHODS = Object.freeze(['privatize', 'privatizeWord', 'privatizeBag', 'syntf', 'calibrate', 'fingerprint', 'has']);

/**
 * A dxtext that runs in `worker` (a Worker running dxtext-wasm/worker.js,
 * e.g. `new Worker(new URL('dxtext-wasm/worker.js', import.meta.url), { type: 'module' })`).
 * Its loadModel / loadDefaultModel give models with the same promise API as
 * Model; calls run one after another in the worker, off the calling thread.
 */
export function connectWorker(worker) {
  let next = 1;
  const pending = new Map();
  worker.addEventListener('message', ({ data }) => {
    const waiting = pending.get(data.id);
    if (!waiting) return;
    pending.delete(data.id);
    if (data.error) waiting.reject(remoteError(data.error));
    else waiting.resolve(data.result);
  });
  worker.addEventListener('error', (event) => {
    const error = new DxtextError(Status.INTERNAL, `the dxtext worker failed: ${event.message || event}`);
    for (const waiting of pending.values()) waiting.reject(error);
    pending.clear();
  });
  const send = (method, args, transfer = []) =>
    new Promise((resolve, reject) => {
      const id = next++;
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, method, args }, transfer);
    });
  const wrap = ({ handle, info }) => {
    const model = { info, closed: false };
    for (const method of WORKER_METHODS) model[method] = (...args) => send('call', [handle, method, ...args]);
    model.close = () => {
      if (model.closed) return Promise.resolve();
      model.closed = true;
      return send('close', [handle]);
    };
    return model;
  };
  return {
    version: () => send('version', []),
    loadModel: async (data, options) => wrap(await send('loadModel', [data, options])),
    loadDefaultModel: async (options) => wrap(await send('loadDefaultModel', [options])),
    terminate: () => worker.terminate(),
  };
}

/** A module worker running dxtext-wasm/worker.js, connected (browsers). */
export function createWorker() {
  return connectWorker(new Worker(new URL('./worker.js', import.meta.url), { type: 'module' }));
}

function remoteError({ status, message, name }) {
  if (typeof status === 'number') return new DxtextError(status, message);
  const Kind = name === 'TypeError' ? TypeError : Error;
  return new Kind(message);
}
