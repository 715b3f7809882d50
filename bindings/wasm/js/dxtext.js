'use strict';
/**
 * dxtext for JavaScript: the dxtext core compiled to WebAssembly, so a web
 * page (or a Node program) can privatise text before it is sent anywhere.
 *
 *   const dxtext = require('dxtext-wasm');
 *   const model = await dxtext.loadModel(arrayBuffer);      // a .dxe file
 *   model.privatize('The quick brown fox', { epsilon: 20 });
 *   model.close();
 *
 * Noise comes from the platform's cryptographic generator (Web Crypto's
 * crypto.getRandomValues, or Node's crypto) through getentropy()
 * (src/getentropy.js); without one, privatisation fails with RNG_FAILURE and
 * never falls back to a weaker generator.
 * Everything goes through the C ABI of include/dxtext/dxtext.h; see
 * docs/bindings/wasm.md.
 */

const createDxtextCore = require('./dxtext_core.js');

/** dxt_status codes (include/dxtext/dxtext.h). New codes may be added. */
const Status = Object.freeze({
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
});
const STATUS_CODES = Object.fromEntries(Object.entries(Status).map(([name, value]) => [value, name]));

/**
 * A dxtext call failed. `status` is the dxt_status number, `code` its name in
 * Status (e.g. 'INVALID_EPSILON'), `message` the library's detailed message.
 */
class DxtextError extends Error {
  constructor(status, message, options) {
    super(message, options);
    this.name = 'DxtextError';
    this.status = status;
    this.code = STATUS_CODES[status] || 'UNKNOWN';
  }
}

// Names used in options and reports, as the C enums number them.
const MECHANISMS = ['unknown', 'laplace', 'hyperbolic', 'exponential', 'syntf', 'mahalanobis', 'vickrey', 'tem'];
const GEOMETRIES = ['unknown', 'euclidean', 'poincare'];
const QUANTIZATIONS = ['unknown', 'f32', 'f16', 'int8'];
const METRICS = ['unknown', 'euclidean', 'hyperbolic', 'mahalanobis', 'discrete'];
const RNG_MODES = ['unknown', 'system', 'deterministic'];
const POLICIES = ['default', 'privatize', 'placeholder', 'drop', 'keep'];
const SAMPLERS = ['default', 'gumbel', 'permute-and-flip'];
const SEARCHES = ['exact', 'ivf'];
// Token classes in dxt_token_class order: the option name and the report key.
const TOKEN_CLASSES = [
  ['inVocabulary', 'inVocabulary'],
  ['oov', 'outOfVocabulary'],
  ['numbers', 'number'],
  ['stopwords', 'stopword'],
];
const ACTIONS = ['privatized', 'placeholder', 'dropped', 'kept'];
const NUMERIC_PARAMETERS = {
  temGamma: 'tem_gamma',
  temBeta: 'tem_beta',
  vickreyT: 'vickrey_t',
  mahalanobisLambda: 'mahalanobis_lambda',
  syntfS: 'syntf_s',
};
const PRIVATIZE_KEYS = new Set([
  'epsilon', 'mechanism', 'placeholder', 'sampler', 'search', 'ivfNprobe', 'seed', 'withReport',
  ...TOKEN_CLASSES.map(([option]) => option), ...Object.keys(NUMERIC_PARAMETERS),
]);
const MAX_BAG_WORDS = 2 ** 24; // DXT_MAX_BAG_WORDS
const DXT_OPEN_VERIFY_DIGESTS = 1;
const DXT_RNG_DETERMINISTIC = 2;
const DXT_E_INPUT_TOO_LARGE = Status.INPUT_TOO_LARGE;

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8');

function invalidArgument(message) {
  return new DxtextError(Status.INVALID_ARGUMENT, message);
}

function enumValue(names, value, what) {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string') {
    const index = names.indexOf(value.toLowerCase());
    if (index > 0) return index;
  }
  throw invalidArgument(`unknown ${what} ${JSON.stringify(value)} (expected one of ${names.slice(1).join(', ')})`);
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
  dxt_privatize_options: ['mechanism', 'epsilon', 'policy', 'placeholder', 'exponential_sampler', 'search', 'ivf_nprobe',
    ...Object.values(NUMERIC_PARAMETERS)],
  dxt_report: ['mechanism', 'epsilon', 'metric', 'rng_mode', 'is_private', 'fingerprint_valid', 'model_fingerprint',
    'counts', 'words_privatized', 'words_leaked', 'epsilon_per_unit_distance', 'epsilon_document',
    'epsilon_document_vocabulary'],
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

/** The report of a call as a plain object (fields of dxt_report). */
function readReport(core, ptr) {
  const L = (field) => ptr + core.layout('dxt_report', field);
  // The JSON first: its allocations may grow the memory, which replaces the
  // buffer under any view taken before.
  const json = withFrame(core, (frame) => {
    const required = frame.alloc(4);
    const status = core.call('dxt_report_to_json', ptr, 0, 0, required);
    if (status !== DXT_E_INPUT_TOO_LARGE) core.check(status);
    const size = core.view().getUint32(required, true);
    const buffer = frame.alloc(size);
    core.check(core.call('dxt_report_to_json', ptr, buffer, size, 0));
    return core.cString(buffer);
  });
  const view = core.view();
  const heap = core.m.HEAPU8;
  const counts = {};
  TOKEN_CLASSES.forEach(([, key], c) => {
    counts[key] = {};
    ACTIONS.forEach((action, a) => {
      counts[key][action] = readU64(view, L('counts') + 8 * (4 * c + a));
    });
  });
  const fingerprintAt = L('model_fingerprint');
  const fingerprint = heap[L('fingerprint_valid')] !== 0 ? hex(heap.subarray(fingerprintAt, fingerprintAt + 32)) : null;
  return {
    mechanism: MECHANISMS[view.getUint32(L('mechanism'), true)] || 'unknown',
    epsilon: view.getFloat64(L('epsilon'), true),
    metric: METRICS[view.getUint32(L('metric'), true)] || 'unknown',
    rngMode: RNG_MODES[view.getUint32(L('rng_mode'), true)] || 'unknown',
    isPrivate: heap[L('is_private')] !== 0,
    modelFingerprint: fingerprint,
    counts,
    wordsPrivatized: readU64(view, L('words_privatized')),
    wordsLeaked: readU64(view, L('words_leaked')),
    epsilonPerUnitDistance: view.getFloat64(L('epsilon_per_unit_distance'), true),
    epsilonDocument: view.getFloat64(L('epsilon_document'), true),
    epsilonDocumentVocabulary: view.getFloat64(L('epsilon_document_vocabulary'), true),
    json,
  };
}

/**
 * An opened .dxe model held in WebAssembly memory, and the privatisation
 * calls on it. Call close() when done: the memory is not garbage-collected.
 */
class Model {
  constructor(core, handle, buffer) {
    this._core = core;
    this._handle = handle;
    this._buffer = buffer;
    this._context = 0; // the system-RNG context, made on first use
    this._info = null;
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
    const handle = this._require();
    if (!this._info) {
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

  /** SHA-256 of the whole model file, as 64 hex digits (the fingerprint in reports). */
  fingerprint() {
    const handle = this._require();
    const core = this._core;
    return withFrame(core, (frame) => {
      const out = frame.alloc(32);
      core.check(core.call('dxt_model_fingerprint', handle, out));
      return hex(core.m.HEAPU8.subarray(out, out + 32));
    });
  }

  /** Whether `word` is in the vocabulary (looked up as the privatise calls do). */
  has(word) {
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
      if (!PRIVATIZE_KEYS.has(key)) throw invalidArgument(`unknown option '${key}'`);
    }
    const core = this._core;
    const ptr = frame.struct('dxt_privatize_options');
    const at = (field) => ptr + core.layout('dxt_privatize_options', field);
    const view = core.view();
    if (typeof options.epsilon !== 'number') {
      throw new DxtextError(Status.INVALID_EPSILON, 'epsilon is required and must be a number');
    }
    view.setFloat64(at('epsilon'), options.epsilon, true); // the library checks its value
    if (options.mechanism !== undefined) {
      view.setUint32(at('mechanism'), enumValue(MECHANISMS, options.mechanism, 'mechanism'), true);
    }
    TOKEN_CLASSES.forEach(([option], c) => {
      if (options[option] !== undefined) {
        view.setUint32(at('policy') + 4 * c, enumValue(POLICIES, options[option], `${option} policy`), true);
      }
    });
    if (options.placeholder !== undefined) {
      if (typeof options.placeholder !== 'string') throw new TypeError('placeholder must be a string');
      const [text] = frame.string(options.placeholder);
      core.view().setUint32(at('placeholder'), text, true);
    }
    for (const [option, field] of Object.entries(NUMERIC_PARAMETERS)) {
      if (options[option] === undefined) continue;
      if (typeof options[option] !== 'number') throw new TypeError(`${option} must be a number`);
      core.view().setFloat64(at(field), options[option], true);
    }
    if (options.sampler !== undefined) {
      core.view().setUint32(at('exponential_sampler'), enumValue(SAMPLERS, options.sampler, 'sampler'), true);
    }
    if (options.search !== undefined) {
      // 'exact' is value 0, so it is looked up here rather than by enumValue.
      const search = typeof options.search === 'string' ? SEARCHES.indexOf(options.search.toLowerCase()) : -1;
      if (search < 0) throw invalidArgument(`unknown search ${JSON.stringify(options.search)} (exact or ivf)`);
      core.view().setUint32(at('search'), search, true);
    }
    if (options.ivfNprobe !== undefined) {
      if (!Number.isInteger(options.ivfNprobe) || options.ivfNprobe < 0 || options.ivfNprobe > 0xffffffff) {
        throw new TypeError('ivfNprobe must be an integer in [0, 2^32)');
      }
      core.view().setUint32(at('ivf_nprobe'), options.ivfNprobe, true);
    }
    return ptr;
  }

  // Runs one privatise call: fn(frame, context, optionsPtr, reportPtr)
  // returns the result; the report is added when options.withReport.
  _run(options, fn) {
    const core = this._core;
    return withFrame(core, (frame) => {
      const optionsPtr = this._options(frame, options);
      const reportPtr = options.withReport ? frame.struct('dxt_report') : 0;
      const result = this._withContext(options.seed, (context) => fn(frame, context, optionsPtr, reportPtr));
      return options.withReport ? { result, report: readReport(core, reportPtr) } : { result };
    });
  }

  _text(name, text, options) {
    if (typeof text !== 'string') throw new TypeError(`text must be a string, not ${typeof text}`);
    const core = this._core;
    const { result, report } = this._run(options, (frame, context, optionsPtr, reportPtr) => {
      const [input, length] = frame.string(text);
      const out = frame.alloc(8); // char* then size_t (wasm32)
      core.check(core.call(name, context, optionsPtr, input, length, out, out + 4, reportPtr));
      const view = core.view();
      const ptr = view.getUint32(out, true);
      try {
        return decoder.decode(core.m.HEAPU8.subarray(ptr, ptr + view.getUint32(out + 4, true)));
      } finally {
        core.call('dxt_text_free', ptr);
      }
    });
    return options.withReport ? { text: result, report } : result;
  }

  /**
   * Privatise text: each word is replaced by the mechanism's output; spacing
   * and punctuation are kept; each word's case shape is restored.
   * options: { epsilon (required), mechanism, inVocabulary, oov, numbers,
   * stopwords, placeholder, temGamma, temBeta, vickreyT, mahalanobisLambda,
   * syntfS, sampler, search, ivfNprobe, seed, withReport }. Returns the text, or
   * { text, report } with withReport: true.
   */
  privatize(text, options) {
    return this._text('dxt_privatize_text', text, options);
  }

  /** Privatise one word (no tokenisation); options as privatize(). */
  privatizeWord(word, options) {
    return this._text('dxt_privatize_word', word, options);
  }

  /**
   * Privatise a bag of words, given as a Map, a plain object {word: count}
   * or an iterable of [word, count]. Every occurrence is privatised
   * independently; the report's epsilonDocument is epsilon * N for the earth
   * mover's distance between bags of N words. Returns a Map ordered by
   * vocabulary index, or { bag, report } with withReport: true.
   */
  privatizeBag(bag, options) {
    return this._bag('bag', bag, 0, options);
  }

  /**
   * SynTF (Weggenmann & Kerschbaum 2018): a synthetic bag of exactly
   * `nOut` words drawn from `bag`; options as privatize() (mechanism is
   * ignored). Returns a Map, or { bag, report } with withReport: true.
   */
  syntf(bag, nOut, options) {
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
  calibrate(words, trials, options) {
    for (const [name, value] of [['words', words], ['trials', trials]]) {
      if (!Number.isInteger(value) || value < 1 || value > 2 ** 32 - 1) {
        throw invalidArgument(`${name} must be a positive integer`);
      }
    }
    const core = this._core;
    const { result } = this._run({ ...options, withReport: false }, (frame, context, optionsPtr) => {
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
    const { result, report } = this._run(options, (frame, context, optionsPtr, reportPtr) => {
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
        core.check(core.call('dxt_privatize_bag', context, optionsPtr, array, entries.length, out, reportPtr));
      } else {
        core.check(core.call('dxt_syntf', context, optionsPtr, array, entries.length, nOut, out, reportPtr));
      }
      const bagPtr = core.view().getUint32(out, true);
      try {
        return readBag(core, bagPtr);
      } finally {
        core.call('dxt_bag_free', bagPtr);
      }
    });
    return options.withReport ? { bag: result, report } : result;
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
class Dxtext {
  constructor(core) {
    this._core = core;
  }

  /** The dxtext library version, "major.minor.patch". */
  get version() {
    return this._core.cString(this._core.call('dxt_version_string'));
  }

  /**
   * Open a .dxe model from its bytes (an ArrayBuffer or a typed array). The
   * bytes are copied into WebAssembly memory, 8-byte aligned as
   * dxt_model_open_memory requires. options: { verifyDigests } also checks
   * every section's SHA-256.
   */
  loadModel(data, options = {}) {
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
      data = await require('fs').promises.readFile(path);
    } catch (e) {
      throw new DxtextError(Status.IO, `cannot read model file '${path}': ${e.message}`, { cause: e });
    }
    return this.loadModel(data, options);
  }
}

/**
 * Instantiate the WebAssembly module. `moduleOptions` go to emscripten's
 * factory, e.g. { locateFile: (name) => '/static/' + name } when
 * dxtext_core.wasm is not served beside dxtext_core.js, or { wasmBinary }.
 */
async function load(moduleOptions = {}) {
  let options = moduleOptions;
  if (isNode() && !options.wasmBinary && !options.locateFile && !options.instantiateWasm) {
    // emscripten 3.1's loader would fetch() a file path under Node 18+,
    // which has a global fetch; read the file instead.
    const wasmPath = require('path').join(__dirname, 'dxtext_core.wasm');
    options = { ...options, wasmBinary: await require('fs').promises.readFile(wasmPath) };
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

module.exports = {
  load,
  /** loadModel(data, options) on a module instantiated on first use. */
  loadModel: async (data, options) => (await sharedInstance()).loadModel(data, options),
  /** loadModelFile(path, options) (Node) on a module instantiated on first use. */
  loadModelFile: async (path, options) => (await sharedInstance()).loadModelFile(path, options),
  Dxtext,
  Model,
  DxtextError,
  Status,
  MECHANISMS: MECHANISMS.slice(1),
};
