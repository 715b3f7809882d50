// SPDX-License-Identifier: Apache-2.0
/**
 * dxtext for JavaScript: the dxtext core compiled to WebAssembly, so a web
 * page, a Web Worker or a Node program can privatise text before it is sent
 * anywhere. An ES module; every call that privatises returns a promise.
 *
 *   import { Model, Privatizer } from 'dxtext-wasm';
 *   const model = await Model.openDefault();                 // the model in the package
 *   const privatizer = new Privatizer(model);                // random state
 *   const { text, record } = await privatizer.privatizeText('The quick brown fox', { epsilon: 20 });
 *
 * The same classes, methods, option names and result shapes as the Node.js
 * binding (docs/bindings/node.md), apart from file access (Model.open reads
 * a file with Node only; a browser fetches the bytes for Model.fromBuffer).
 * The same API runs in a Web Worker, off the page's thread:
 *
 *   import { createWorker } from 'dxtext-wasm';
 *   const dx = createWorker();                               // a module worker running dxtext-wasm/worker
 *   const model = await dx.Model.openDefault();
 *   const { text } = await new dx.Privatizer(model).privatizeText('The quick brown fox', { epsilon: 20 });
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
import {
  ACTIONS, GEOMETRIES, MECHANISMS, PRESETS, QUANTIZATIONS, TOKEN_CLASSES, Status, DxtextError, NotFoundError,
  ANCHOR_BYTES, LedgerAnchor, RECORD_FIELDS, bytesOf, diagnosticsOf, errorFor, optionPairs, recordOf, sameBytes,
} from './shared.js';

// Status, the error classes and errorFor are tools/options/js_shared.js's,
// the same as the Node.js binding's.
export {
  Status, DxtextError, InvalidArgumentError, InvalidEpsilonError, FileError, ModelError, NotAModelError,
  UnsupportedVersionError, CorruptModelError, TruncatedModelError, DigestMismatchError, OutOfMemoryError,
  RandomGeneratorError, InvalidUtf8Error, NotFoundError, UnsupportedError, InputTooLargeError, ParseError,
  InternalError, ContextBusyError, BudgetExceededError, LedgerCorruptError, LedgerRollbackError, LedgerAnchor,
} from './shared.js';

const MAX_BAG_WORDS = 2 ** 24; // DXT_MAX_BAG_WORDS
/** DXT_EPSILON_MIN and DXT_EPSILON_MAX: the range of epsilon every call accepts. */
export const EPSILON_MIN = 1e-6;
export const EPSILON_MAX = 1e6;
const DXT_OPEN_VERIFY_DIGESTS = 1;
const DXT_RNG_DETERMINISTIC = 2;

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8');

function invalidArgument(message) {
  return errorFor(Status.INVALID_ARGUMENT, message);
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
  dxt_release_record: RECORD_FIELDS.flatMap(({ c, present }) => (present ? [c, present] : [c])),
  dxt_local_diagnostics: ['counts', 'words_privatized', 'words_leaked'],
  dxt_bag_entry: ['word', 'length', 'count'],
  dxt_bag: ['entries', 'size'],
  dxt_calibration: ['words', 'trials', 'keep_mean', 'keep_median', 'keep_max', 'distinct_mean', 'distinct_median',
    'distinct_max'],
  dxt_ledger_options: ['cap', 'memo_capacity', 'key', 'key_length', 'anchor'],
  dxt_ledger_anchor: [],
  dxt_ledger_totals: ['cap', 'spent', 'spent_any_inputs', 'releases', 'memoised', 'memo_capacity', 'words'],
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
    if (this.failed) throw errorFor(Status.INTERNAL, `the WebAssembly module stopped earlier: ${this.failed}`);
    try {
      return this.m[`_${name}`](...args);
    } catch (e) {
      this.failed = String((e && e.message) || e);
      throw errorFor(Status.INTERNAL, `the WebAssembly module stopped in ${name}: ${this.failed}`, { cause: e });
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
    throw errorFor(status, detail || this.cString(this.call('dxt_status_string', status)));
  }

  // Asks the compiled code (src/dxtext_wasm_layout.c) for the size and the
  // field offsets of every struct in LAYOUT_FIELDS.
  loadLayouts() {
    withFrame(this, (frame) => {
      for (const [type, fields] of Object.entries(LAYOUT_FIELDS)) {
        const [typeName] = frame.string(type);
        for (const field of ['sizeof', ...fields]) {
          const value = this.call('dxtwasm_layout', typeName, frame.string(field)[0]);
          if (value < 0) throw errorFor(Status.INTERNAL, `no layout for ${type}.${field}`);
          this.layouts.set(`${type}.${field}`, value);
        }
      }
    });
  }

  // Offset of a field, or with field 'sizeof' the size, of a public struct
  // in this build.
  layout(type, field) {
    const value = this.layouts.get(`${type}.${field}`);
    if (value === undefined) throw errorFor(Status.INTERNAL, `no layout for ${type}.${field}`);
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
    this.finalizers = [];
  }

  /** Runs `f` when the frame is freed, before its memory is. */
  onFree(f) {
    this.finalizers.push(f);
  }

  alloc(size) {
    const ptr = this.core.call('malloc', Math.max(size, 1));
    if (!ptr) throw errorFor(Status.OUT_OF_MEMORY, `cannot allocate ${size} bytes in the WebAssembly memory`);
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
    if (this.core.call('dxtwasm_init', name, ptr) !== 0) throw errorFor(Status.INTERNAL, `no _init for ${type}`);
    return ptr;
  }

  free() {
    for (const f of this.finalizers.splice(0)) f();
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

// What a C call writes into a buffer of the caller's (write(buffer,
// capacity, required)), called first without one for the size it needs:
// [the buffer, in `frame`, and its size].
function writtenBytes(core, frame, write) {
  const required = frame.alloc(4);
  const status = write(0, 0, required);
  if (status !== Status.INPUT_TOO_LARGE) core.check(status);
  const size = core.view().getUint32(required, true);
  const buffer = frame.alloc(size);
  core.check(write(buffer, size, required));
  return [buffer, size];
}

// The JSON of a record, diagnostics or ledger at ptr (toJson: the C function).
function readJson(core, toJson, ptr) {
  return withFrame(core, (frame) => {
    const [buffer] = writtenBytes(core, frame, (...args) => core.call(toJson, ptr, ...args));
    return core.cString(buffer);
  });
}

/** The release record of a call (fields of dxt_release_record): safe to send. */
function readRecord(core, ptr) {
  const L = (field) => ptr + core.layout('dxt_release_record', field);
  // The JSON first: its allocations may grow the memory, which replaces the
  // buffer under any view taken before.
  const raw = { json: readJson(core, 'dxt_release_record_to_json', ptr) };
  const view = core.view();
  const heap = core.m.HEAPU8;
  for (const { name, c, kind, size, present } of RECORD_FIELDS) {
    const at = L(c);
    if (present && heap[L(present)] === 0) raw[name] = null;
    else if (kind === 'bytes') raw[name] = hex(heap.subarray(at, at + size));
    else if (kind === 'bool') raw[name] = heap[at] !== 0;
    else if (kind === 'u64') raw[name] = readU64(view, at);
    else if (kind === 'f64') raw[name] = view.getFloat64(at, true);
    else raw[name] = view.getUint32(at, true);
  }
  return recordOf(raw);
}

function readDiagnostics(core, ptr) {
  const L = (field) => ptr + core.layout('dxt_local_diagnostics', field);
  const json = readJson(core, 'dxt_local_diagnostics_to_json', ptr);
  const view = core.view();
  const counts = TOKEN_CLASSES.map((_, c) => ACTIONS.map((_, a) => readU64(view, L('counts') + 8 * (4 * c + a))));
  return diagnosticsOf({
    counts,
    wordsPrivatized: readU64(view, L('words_privatized')),
    wordsLeaked: readU64(view, L('words_leaked')),
    json,
  });
}

// What a privatise call returns: { [key]: result, record }, and
// localDiagnostics when options.localDiagnostics is true (the shape of the
// Node.js binding's results).
function shaped(key, run) {
  const out = { [key]: run.result, record: run.record };
  if (run.localDiagnostics) out.localDiagnostics = run.localDiagnostics;
  return out;
}

// --------------------------------------------------------------------------
// The module

async function instantiate(moduleOptions) {
  const options = { ...moduleOptions };
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
  return core;
}

let shared = null;
function sharedCore(moduleOptions = {}) {
  if (!shared) {
    shared = instantiate(moduleOptions);
    shared.catch(() => {
      shared = null;
    });
  }
  return shared;
}

/**
 * Instantiate the WebAssembly module now (otherwise the first call does).
 * `moduleOptions` go to emscripten's factory, e.g. { locateFile: (name) =>
 * '/static/' + name } when dxtext_core.wasm is not served beside
 * dxtext_core.js, or { wasmBinary }; they apply to the first instantiation.
 */
export async function load(moduleOptions = {}) {
  await sharedCore(moduleOptions);
}

/** Promise of the dxtext library version, "major.minor.patch". */
export async function libraryVersion() {
  const core = await sharedCore();
  return core.cString(core.call('dxt_version_string'));
}

async function readFile(path) {
  if (!isNode()) {
    throw errorFor(Status.UNSUPPORTED, 'Model.open reads files with Node; in a browser, fetch the model and call Model.fromBuffer');
  }
  try {
    const fs = await import('node:fs/promises');
    return await fs.readFile(path);
  } catch (e) {
    throw errorFor(Status.IO, `cannot read model file '${path}': ${e.message}`, { cause: e });
  }
}

// --------------------------------------------------------------------------
// Model

// The C model and the 8-byte aligned copy of its bytes it reads from, both
// released when the Model and every privatizer and output set made from it
// are closed: until then their calls may pass the model's handle (the C
// model behind it is reference-counted by the library, the handle is not).
class ModelBox {
  constructor(core, handle, buffer) {
    this.core = core;
    this.handle = handle;
    this.buffer = buffer;
    this.refs = 1;
  }

  retain() {
    this.refs += 1;
    return this;
  }

  release() {
    this.refs -= 1;
    if (this.refs === 0) {
      this.core.call('dxt_model_close', this.handle);
      this.core.call('free', this.buffer);
    }
  }
}

const MODEL_BOX = Symbol('dxtext.model');

/**
 * An opened .dxe model held in WebAssembly memory: immutable, shared by any
 * number of privatizers. Call close() when done: the memory is not
 * garbage-collected.
 */
export class Model {
  /** Use Model.fromBuffer, Model.open or Model.openDefault. */
  constructor(box, path) {
    if (!(box instanceof ModelBox)) throw invalidArgument('use Model.fromBuffer(), Model.open() or Model.openDefault()');
    this[MODEL_BOX] = box;
    this.path = path;
    this._info = null;
    this._info = this.info; // read now, so it stays readable after close()
  }

  /**
   * Promise of the model whose .dxe bytes are `data` (an ArrayBuffer or a
   * typed array), copied into WebAssembly memory, 8-byte aligned as
   * dxt_model_open_memory requires. { verifyDigests } also checks every
   * section's SHA-256.
   */
  static async fromBuffer(data, { verifyDigests = false } = {}) {
    let bytes;
    if (data instanceof ArrayBuffer) bytes = new Uint8Array(data);
    else if (ArrayBuffer.isView(data)) bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    else throw invalidArgument('model data must be an ArrayBuffer or a typed array');
    const core = await sharedCore();
    const raw = core.call('malloc', bytes.length + 8);
    if (!raw) throw errorFor(Status.OUT_OF_MEMORY, `cannot allocate ${bytes.length} bytes for the model`);
    const aligned = Math.ceil(raw / 8) * 8;
    try {
      core.m.HEAPU8.set(bytes, aligned);
      const handle = withFrame(core, (frame) => {
        const open = frame.struct('dxt_model_open_options');
        if (verifyDigests) {
          core.view().setUint32(open + core.layout('dxt_model_open_options', 'flags'), DXT_OPEN_VERIFY_DIGESTS, true);
        }
        const out = frame.alloc(4);
        core.check(core.call('dxt_model_open_memory', aligned, bytes.length, open, out));
        return core.view().getUint32(out, true);
      });
      return new Model(new ModelBox(core, handle, raw), null);
    } catch (e) {
      core.call('free', raw);
      throw e;
    }
  }

  /** Node only: promise of the model in the .dxe file at `path` (read, then opened as fromBuffer does). */
  static async open(path, options = {}) {
    const model = await Model.fromBuffer(await readFile(path), options);
    model.path = String(path);
    return model;
  }

  /**
   * Promise of the default Euclidean model that the package carries (models/
   * beside this file): fetched in a browser or worker, read from disk in
   * Node. This package carries no Poincare model: 'poincare' gives
   * NotFoundError.
   */
  static async openDefault(geometry = 'euclidean', options = {}) {
    if (geometry !== 'euclidean') {
      if (geometry === 'poincare') throw errorFor(Status.NOT_FOUND, 'dxtext-wasm carries no Poincare model: use Model.fromBuffer');
      throw invalidArgument(`unknown geometry ${JSON.stringify(geometry)} (one of euclidean, poincare)`);
    }
    if (!DEFAULT_MODEL) throw errorFor(Status.NOT_FOUND, 'this dxtext-wasm package carries no default model');
    const url = new URL(DEFAULT_MODEL, import.meta.url);
    if (isNode()) {
      const { fileURLToPath } = await import('node:url');
      return Model.open(fileURLToPath(url), options);
    }
    let response;
    try {
      response = await fetch(url);
    } catch (e) {
      throw errorFor(Status.IO, `cannot fetch the default model ${url}: ${e.message}`, { cause: e });
    }
    if (!response.ok) throw errorFor(Status.IO, `cannot fetch the default model ${url}: HTTP ${response.status}`);
    const model = await Model.fromBuffer(await response.arrayBuffer(), options);
    model.path = String(url);
    return model;
  }

  _box() {
    const box = this[MODEL_BOX];
    if (!box) throw invalidArgument('the model is closed');
    return box;
  }

  get closed() {
    return !this[MODEL_BOX];
  }

  /** Release the model (privatizers and output sets made from it keep working). Closing twice is fine. */
  close() {
    const box = this[MODEL_BOX];
    if (!box) return;
    this[MODEL_BOX] = null;
    box.release();
  }

  /** { formatMajor, formatMinor, dimension, vocabularySize, geometry, quantization, lowercase, hasFrequencies } */
  get info() {
    if (!this._info) {
      const { core, handle } = this._box();
      this._info = withFrame(core, (frame) => {
        const ptr = frame.struct('dxt_model_info');
        core.check(core.call('dxt_model_get_info', handle, ptr));
        const view = core.view();
        const u32 = (field) => view.getUint32(ptr + core.layout('dxt_model_info', field), true);
        const flag = (field) => core.m.HEAPU8[ptr + core.layout('dxt_model_info', field)] !== 0;
        return Object.freeze({
          formatMajor: u32('format_major'),
          formatMinor: u32('format_minor'),
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

  get size() {
    return this.info.vocabularySize;
  }

  /** Promise of the SHA-256 of the whole model file, as 64 hex digits (the fingerprint in release records). */
  async fingerprint() {
    const { core, handle } = this._box();
    return withFrame(core, (frame) => {
      const out = frame.alloc(32);
      core.check(core.call('dxt_model_fingerprint', handle, out));
      return hex(core.m.HEAPU8.subarray(out, out + 32));
    });
  }

  /** Promise of the vocabulary index of a word; rejects with NotFoundError when absent. */
  async lookup(word) {
    if (typeof word !== 'string') throw invalidArgument('word must be a string');
    const { core, handle } = this._box();
    return withFrame(core, (frame) => {
      const [ptr, length] = frame.string(word);
      const out = frame.alloc(4);
      core.check(core.call('dxt_model_lookup', handle, ptr, length, out));
      return core.view().getUint32(out, true);
    });
  }

  /** Promise of whether `word` is in the vocabulary (looked up as the privatise calls do). */
  async has(word) {
    try {
      await this.lookup(String(word));
      return true;
    } catch (e) {
      if (e instanceof NotFoundError) return false;
      throw e;
    }
  }

  /** Promise of the word at `index`. */
  async word(index) {
    if (!Number.isInteger(index) || index < 0 || index > 0xffffffff) {
      throw invalidArgument('index must be an integer in [0, 2^32)');
    }
    const { core, handle } = this._box();
    return withFrame(core, (frame) => {
      const out = frame.alloc(8); // const char* then size_t (wasm32)
      core.check(core.call('dxt_model_word', handle, index, out, out + 4));
      const view = core.view();
      const ptr = view.getUint32(out, true);
      return decoder.decode(core.m.HEAPU8.subarray(ptr, ptr + view.getUint32(out + 4, true)));
    });
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
}

// --------------------------------------------------------------------------
// Output sets

const SET_HANDLE = Symbol('dxtext.outputSet');

function outputSetOf(model, words) {
  if (!(model instanceof Model)) throw invalidArgument('an output set needs a Model');
  if (!Array.isArray(words) || words.some((w) => typeof w !== 'string')) {
    throw invalidArgument('outputWords must be an OutputSet or an array of strings');
  }
  const box = model._box();
  const { core } = box;
  const handle = withFrame(core, (frame) => {
    const array = frame.alloc(4 * Math.max(words.length, 1));
    words.forEach((word, i) => {
      if (word.includes('\0')) throw invalidArgument('an output word contains a NUL character');
      const [ptr] = frame.string(word);
      core.view().setUint32(array + 4 * i, ptr, true);
    });
    const out = frame.alloc(4);
    core.check(core.call('dxt_output_set_create', box.handle, array, words.length, out));
    return core.view().getUint32(out, true);
  });
  return new OutputSet(box.retain(), handle, words);
}

/**
 * An output vocabulary (Model.outputSet): a public list of a model's words
 * that the mechanisms may release, passed as options.outputWords to any
 * number of calls. Call close() when done.
 */
export class OutputSet {
  /** Use Model.outputSet. */
  constructor(box, handle, words) {
    if (!(box instanceof ModelBox)) throw invalidArgument('use Model.outputSet()');
    this._box = box;
    this[SET_HANDLE] = handle;
    this.words = Object.freeze([...words]);
  }

  get size() {
    return this.words.length;
  }

  get closed() {
    return !this[SET_HANDLE];
  }

  _live(core) {
    if (!this[SET_HANDLE]) throw invalidArgument('the output set is closed');
    if (core !== this._box.core) throw invalidArgument('the output set belongs to another WebAssembly module');
    return this[SET_HANDLE];
  }

  /** Free the set. Closing twice is fine. */
  close() {
    if (!this[SET_HANDLE]) return;
    this._box.core.call('dxt_output_set_free', this[SET_HANDLE]);
    this[SET_HANDLE] = 0;
    this._box.release();
  }
}

// --------------------------------------------------------------------------
// Privatizer

/**
 * Random state for privatisation calls on a model (a dxt_context). By
 * default the noise comes from the platform's cryptographic generator (the
 * private mode); `seed` (64 hexadecimal digits or 32 bytes) makes it
 * reproducible and NOT private.
 */
export class Privatizer {
  constructor(model, { seed } = {}) {
    if (!(model instanceof Model)) throw invalidArgument('a Privatizer needs a Model');
    const box = model._box();
    const { core } = box;
    this.model = model;
    this._core = core;
    const bytes = seed === undefined || seed === null ? null : seedBytes(seed);
    this._context = withFrame(core, (frame) => {
      const out = frame.alloc(4);
      let options = 0; // the system generator
      let seedAt = 0;
      if (bytes) {
        options = frame.struct('dxt_context_options');
        seedAt = options + core.layout('dxt_context_options', 'seed');
        core.view().setUint32(options + core.layout('dxt_context_options', 'rng_mode'), DXT_RNG_DETERMINISTIC, true);
        core.m.HEAPU8.set(bytes, seedAt);
      }
      const status = core.call('dxt_context_create', box.handle, options, out);
      if (bytes) core.m.HEAPU8.fill(0, seedAt, seedAt + 32);
      core.check(status);
      return core.view().getUint32(out, true);
    });
    this._box = box.retain();
  }

  _live() {
    if (!this._context) throw invalidArgument('the privatizer is closed');
    return this._context;
  }

  /** Destroy the random state. Closing twice is fine. */
  async close() {
    if (!this._context) return;
    this._core.call('dxt_context_destroy', this._context);
    this._context = 0;
    this._box.release();
  }

  // The options of a call, passed to the library by name (optionPairs of shared.js,
  // shared with the Node.js binding): a dxt_options handle freed with the
  // frame; returns the dxt_privatize_options it holds.
  _options(frame, options) {
    const core = this._core;
    const wordsOf = (value, name) => {
      if (!(value instanceof OutputSet)) return undefined;
      value._live(core);
      if (value._box !== this._box) throw invalidArgument(`${name}: the OutputSet was built for another model than the call's`);
      return value.words;
    };
    const pairs = optionPairs(options, wordsOf, invalidArgument);
    const out = frame.alloc(4);
    core.check(core.call('dxt_options_create', this._box.handle, out));
    const handle = core.view().getUint32(out, true);
    frame.onFree(() => core.call('dxt_options_destroy', handle));
    for (const [name, value] of pairs) {
      const [namePtr] = frame.string(name);
      if (Array.isArray(value)) {
        const array = frame.alloc(4 * Math.max(value.length, 1));
        for (let i = 0; i < value.length; i += 1) {
          const [word] = frame.string(value[i]); // may grow the memory: the view is taken anew
          core.view().setUint32(array + 4 * i, word, true);
        }
        core.check(core.call('dxt_options_set_words', handle, namePtr, array, value.length));
      } else {
        const [text] = frame.string(value);
        core.check(core.call('dxt_options_set', handle, namePtr, text));
      }
    }
    return core.call('dxt_options_get', handle);
  }

  // Runs one privatise call: fn(frame, context, optionsPtr, recordPtr,
  // diagnosticsPtr) returns the result; the record is always read, the
  // diagnostics when options.localDiagnostics asks for them.
  _run(options, fn) {
    const core = this._core;
    const context = this._live();
    return withFrame(core, (frame) => {
      // _options refuses options that are not undefined, a number or an object.
      const optionsPtr = this._options(frame, options);
      const recordPtr = frame.struct('dxt_release_record');
      const diagnosticsPtr = typeof options === 'object' && options.localDiagnostics ? frame.struct('dxt_local_diagnostics') : 0;
      const result = fn(frame, context, optionsPtr, recordPtr, diagnosticsPtr);
      return {
        result,
        record: readRecord(core, recordPtr),
        localDiagnostics: diagnosticsPtr ? readDiagnostics(core, diagnosticsPtr) : undefined,
      };
    });
  }

  _text(name, text, options) {
    if (typeof text !== 'string') throw invalidArgument(`text must be a string, not ${typeof text}`);
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
    return shaped('text', run);
  }

  /**
   * Promise of { text, record } (and localDiagnostics with options
   * .localDiagnostics): each word replaced by the mechanism's output; what
   * else of the input shows depends on releaseShape. The record's bound is
   * positionwise: epsilon * sum_i d(x_i, x'_i).
   */
  async privatizeText(text, options) {
    return this._text('dxt_privatize_text', text, options);
  }

  /** Promise of { text, record } for one word (no tokenisation). */
  async privatizeWord(word, options) {
    return this._text('dxt_privatize_word', word, options);
  }

  /**
   * Promise of { bag: Map(word -> count), record } for a bag given as a Map,
   * a plain object {word: count} or an iterable of [word, count]: every
   * occurrence privatised; the record's bound is epsilon * N * EMD for bags
   * of equal size N.
   */
  async privatizeBag(bag, options) {
    return this._bag('bag', bag, 0, options);
  }

  /** Promise of { bag, record }: a SynTF synthetic bag of exactly nOut words (options.mechanism is ignored). */
  async syntf(bag, nOut, options) {
    // The type here; the value (at least 1, at most MAX_BAG_WORDS) the library checks.
    if (!Number.isInteger(nOut) || nOut < 0 || nOut > 0xffffffff) {
      throw invalidArgument('nOut must be an integer in [0, 2^32)');
    }
    return this._bag('syntf', bag, nOut, options);
  }

  /**
   * Promise of { words, trials, keepMean, keepMedian, keepMax, distinctMean,
   * distinctMedian, distinctMax }: plausible-deniability statistics (N_w,
   * S_w; Feyisetan et al. 2020) over `words` vocabulary words drawn at
   * random, each privatised `trials` times.
   */
  async calibrate(options, { words = 100, trials = 100 } = {}) {
    for (const [name, value] of [['words', words], ['trials', trials]]) {
      if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) {
        throw invalidArgument(`${name} must be an integer in [0, 2^32)`);
      }
    }
    const core = this._core;
    const { result } = this._run(options, (frame, context, optionsPtr) => {
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
      core.check(kind === 'bag'
        ? core.call('dxt_privatize_bag', context, optionsPtr, array, entries.length, out, recordPtr, diagnosticsPtr)
        : core.call('dxt_syntf', context, optionsPtr, array, entries.length, nOut, out, recordPtr, diagnosticsPtr));
      const bagPtr = core.view().getUint32(out, true);
      try {
        return readBag(core, bagPtr);
      } finally {
        core.call('dxt_bag_free', bagPtr);
      }
    });
    return shaped('bag', run);
  }
}

function bagEntries(bag) {
  let pairs;
  if (bag instanceof Map) pairs = Array.from(bag.entries());
  else if (bag !== null && typeof bag === 'object' && typeof bag[Symbol.iterator] === 'function') pairs = Array.from(bag);
  else if (bag !== null && typeof bag === 'object') pairs = Object.entries(bag);
  else throw invalidArgument('a bag is a Map, an object of word -> count, or an array of [word, count] pairs');
  return pairs.map((pair) => {
    if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'string') {
      throw invalidArgument('each bag entry must be a [word, count] pair');
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

// --------------------------------------------------------------------------
// Ledger

const LEDGER_FRESH = 1; // DXT_LEDGER_FRESH
const LEDGER_TOKEN = Symbol('dxtext.ledger');

function toBase64(bytes) {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

function fromBase64(text) {
  const binary = atob(text);
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

// Each ledger store's transactions run one at a time: under a Web Lock named
// after the store where the platform has them (navigator.locks: every tab
// and worker of an origin), and in a queue of this realm in any case.
const ledgerQueues = new Map();
let anonymousStores = 0;
const storeNames = new WeakMap();

function storeName(store) {
  if (typeof store.name === 'string' && store.name !== '') return store.name;
  if (!storeNames.has(store)) storeNames.set(store, `anonymous:${++anonymousStores}`);
  return storeNames.get(store);
}

function underLedgerLock(name, body) {
  const locks = typeof navigator === 'object' && navigator !== null ? navigator.locks : undefined;
  const run = () => (locks && typeof locks.request === 'function' ? locks.request(`dxtext-ledger:${name}`, body) : body());
  const next = (ledgerQueues.get(name) || Promise.resolve()).then(run);
  const settled = next.then(
    () => undefined,
    () => undefined,
  );
  ledgerQueues.set(name, settled);
  settled.then(() => {
    if (ledgerQueues.get(name) === settled) ledgerQueues.delete(name);
  });
  return next;
}

function ledgerStoreOf(store) {
  if (typeof store === 'string') return isNode() ? Ledger.fileStore(store) : Ledger.localStorageStore(store);
  if (store !== null && typeof store === 'object' && typeof store.load === 'function' && typeof store.save === 'function') {
    return store;
  }
  throw invalidArgument('a ledger store is a name (a file path under Node, a localStorage key in a browser) or an ' +
    'object with load() and save(bytes)');
}

/**
 * The privacy ledger (docs/budgets.md) kept in the app's own storage
 * (dxt_ledger_open_memory): a budget per scope, releases past the cap
 * refused before any noise is drawn, repeats given the memoised output at no
 * cost, the bytes under a MAC. `store` says where the bytes live: an object
 * { load(), save(bytes), name } (each may return a promise; load gives null
 * when there is no ledger yet; name, when given, names the Web Lock shared by
 * every tab and worker of the origin), or a string: a file path under Node
 * (Ledger.fileStore), a localStorage key in a browser
 * (Ledger.localStorageStore). Every call loads the bytes, runs in the
 * library, and stores the new bytes before it resolves: an output is
 * returned only once its release is stored (docs/budgets.md, "A ledger in
 * the caller's storage").
 */
export class Ledger {
  /**
   * Promise of the ledger in `store`, made if there is none, with `scope`
   * selected. `cap` (epsilon summed over releases) and `memoCapacity` apply
   * to a new scope; `key` (16 to 64 bytes) makes the MAC unforgeable without it.
   * `anchor`, the LedgerAnchor stored after the last call, makes older bytes
   * put back in the store (or none at all) reject with LedgerRollbackError;
   * every later call checks the bytes it loads against the anchor of the
   * call before. Without it a rollback is not detected.
   */
  static async open(store, { scope = 'default', cap = 0, memoCapacity, key, anchor } = {}) {
    const core = await sharedCore();
    if (anchor !== undefined && anchor !== null && !(anchor instanceof LedgerAnchor)) {
      throw invalidArgument('options.anchor must be a LedgerAnchor (LedgerAnchor.fromBytes(stored bytes))');
    }
    if (typeof cap !== 'number') throw invalidArgument('cap must be a number');
    // The C call reads the scope up to its first NUL: "user\0day1" would open "user".
    if (String(scope).includes('\0')) throw invalidArgument('the scope contains a NUL character');
    if (memoCapacity !== undefined && (!Number.isInteger(memoCapacity) || memoCapacity < 0 || memoCapacity > 0xffffffff)) {
      throw invalidArgument('memoCapacity must be an integer in [0, 2^32)');
    }
    const settings = {
      scope: String(scope),
      cap,
      memoCapacity,
      key: key === undefined || key === null ? null : Uint8Array.from(bytesOf(key, 'key')),
    };
    const ledger = new Ledger(LEDGER_TOKEN, core, ledgerStoreOf(store), settings);
    ledger._anchor = anchor instanceof LedgerAnchor ? anchor : null;
    await ledger._transact(() => undefined);
    return ledger;
  }

  /** Bytes in this object only: a ledger that lives as long as the page (and tests). */
  static memoryStore(bytes = null) {
    let kept = bytes === null ? null : Uint8Array.from(bytesOf(bytes, 'bytes'));
    return {
      name: `memory:${++anonymousStores}`,
      load: () => kept,
      save: (data) => {
        kept = Uint8Array.from(data);
      },
      get bytes() {
        return kept;
      },
    };
  }

  /** The bytes, base64, under `key` of `storage` (localStorage by default): one setItem per change. */
  static localStorageStore(key, storage = globalThis.localStorage) {
    if (typeof key !== 'string' || key === '') throw invalidArgument('a localStorage key is a non-empty string');
    if (!storage || typeof storage.getItem !== 'function' || typeof storage.setItem !== 'function') {
      throw errorFor(Status.UNSUPPORTED, 'no localStorage here: give Ledger.open a store of your own');
    }
    return {
      name: `localStorage:${key}`,
      load: () => {
        const value = storage.getItem(key);
        return value === null ? null : fromBase64(value);
      },
      save: (data) => storage.setItem(key, toBase64(data)),
    };
  }

  /**
   * Node: the bytes in the file `filePath`, replaced by a temporary file
   * written, synced and renamed over it. Not locked against other processes:
   * one process per file (the native binding's Ledger locks its files).
   */
  static fileStore(filePath) {
    if (!isNode()) throw errorFor(Status.UNSUPPORTED, 'Ledger.fileStore needs Node; in a browser use localStorageStore or a store of your own');
    const file = String(filePath);
    return {
      name: `file:${file}`,
      async load() {
        const fs = await import('node:fs/promises');
        try {
          return await fs.readFile(file);
        } catch (e) {
          if (e.code === 'ENOENT') return null;
          throw errorFor(Status.IO, `cannot read the ledger ${file}: ${e.message}`, { cause: e });
        }
      },
      async save(data) {
        const fs = await import('node:fs/promises');
        const { dirname } = await import('node:path');
        const temp = `${file}.${process.pid}.tmp`;
        try {
          const out = await fs.open(temp, 'w', 0o600);
          try {
            await out.writeFile(data);
            await out.sync();
          } finally {
            await out.close();
          }
          await fs.rename(temp, file);
          if (process.platform !== 'win32') {
            const dir = await fs.open(dirname(file), 'r');
            try {
              await dir.sync(); // else the rename itself may not survive a power loss
            } finally {
              await dir.close();
            }
          }
        } catch (e) {
          throw errorFor(Status.IO, `cannot write the ledger ${file}: ${e.message}`, { cause: e });
        }
      },
    };
  }

  /** Use Ledger.open. */
  constructor(token, core, store, settings) {
    if (token !== LEDGER_TOKEN) throw invalidArgument('use Ledger.open()');
    this._core = core;
    this._store = store;
    this._name = storeName(store);
    this._settings = settings;
    this._bytes = null; // the state as of this object's last call
    this._anchor = null; // its LedgerAnchor (or the one given to open, before the first call)
    this._pending = Promise.resolve();
    this._closed = false;
  }

  // A dxt_ledger in `frame` opened from `bytes`, closed with the frame; with
  // `anchor` (a LedgerAnchor), bytes older than it are refused.
  _handle(frame, bytes, anchor = null) {
    const core = this._core;
    const { scope, cap, memoCapacity, key } = this._settings;
    const options = frame.struct('dxt_ledger_options');
    const anchorAt = anchor ? frame.struct('dxt_ledger_anchor') : 0;
    const anchorBytes = anchor ? frame.alloc(ANCHOR_BYTES) : 0;
    const keyAt = key ? frame.alloc(key.length) : 0;
    const data = bytes.length ? frame.alloc(bytes.length) : 0;
    const [scopeAt] = frame.string(scope);
    const out = frame.alloc(4);
    // Every allocation first: one may grow the memory and replace its buffer.
    const view = core.view();
    const L = (field) => options + core.layout('dxt_ledger_options', field);
    view.setFloat64(L('cap'), cap, true);
    if (memoCapacity !== undefined) view.setUint32(L('memo_capacity'), memoCapacity, true);
    if (key) {
      core.m.HEAPU8.set(key, keyAt);
      view.setUint32(L('key'), keyAt, true);
      view.setUint32(L('key_length'), key.length, true);
      frame.onFree(() => core.m.HEAPU8.fill(0, keyAt, keyAt + key.length));
    }
    if (anchor) {
      core.m.HEAPU8.set(anchor._bytes, anchorBytes);
      core.check(core.call('dxt_ledger_anchor_decode', anchorBytes, ANCHOR_BYTES, anchorAt));
      view.setUint32(L('anchor'), anchorAt, true);
    }
    if (data) core.m.HEAPU8.set(bytes, data);
    core.check(core.call('dxt_ledger_open_memory', data, bytes.length, scopeAt, options, out));
    const handle = core.view().getUint32(out, true);
    frame.onFree(() => core.call('dxt_ledger_close', handle));
    return handle;
  }

  // The anchor of the ledger `handle` now.
  _readAnchor(frame, handle) {
    const core = this._core;
    const anchor = frame.struct('dxt_ledger_anchor');
    const bytes = frame.alloc(ANCHOR_BYTES);
    core.check(core.call('dxt_ledger_get_anchor', handle, anchor));
    core.check(core.call('dxt_ledger_anchor_encode', anchor, bytes, ANCHOR_BYTES));
    return new LedgerAnchor(core.m.HEAPU8.slice(bytes, bytes + ANCHOR_BYTES));
  }

  // The bytes of the ledger `handle`, copied out of WebAssembly memory.
  _save(frame, handle) {
    const core = this._core;
    const [buffer, size] = writtenBytes(core, frame, (...args) => core.call('dxt_ledger_save', handle, ...args));
    return core.m.HEAPU8.slice(buffer, buffer + size);
  }

  // One transaction under the store's lock: load, body(frame, handle), and
  // store the new bytes if they changed, before resolving with body's result.
  _transact(body) {
    if (this._closed) return Promise.reject(invalidArgument('the ledger is closed'));
    const run = underLedgerLock(this._name, async () => {
      const loaded = bytesOf(await this._store.load(), "the store's load()");
      const { result, bytes, anchor } = withFrame(this._core, (frame) => {
        const handle = this._handle(frame, loaded, this._anchor);
        const value = body(frame, handle);
        return { result: value, bytes: this._save(frame, handle), anchor: this._readAnchor(frame, handle) };
      });
      if (!sameBytes(loaded, bytes)) {
        try {
          await this._store.save(bytes);
        } catch (e) {
          if (e instanceof DxtextError) throw e;
          throw errorFor(Status.IO, `the ledger could not be stored, so the release is discarded: ${e && e.message}`, { cause: e });
        }
      }
      this._bytes = bytes;
      this._anchor = anchor;
      return result;
    });
    this._pending = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /**
   * Promise of { text, memoised, record } (and localDiagnostics with
   * options.localDiagnostics): privatizer.privatizeText through the ledger,
   * resolved once the release is stored. The same text with the same
   * options returns the memoised output and spends nothing, unless `fresh`;
   * a release past the cap rejects with BudgetExceededError before any
   * noise is drawn.
   */
  async privatizeText(privatizer, text, options, { fresh = false } = {}) {
    if (!(privatizer instanceof Privatizer)) throw invalidArgument('privatizeText needs a Privatizer');
    if (typeof text !== 'string') throw invalidArgument(`text must be a string, not ${typeof text}`);
    const core = this._core;
    return this._transact((_, handle) => {
      const run = privatizer._run(options, (frame, context, optionsPtr, recordPtr, diagnosticsPtr) => {
        const [input, length] = frame.string(text);
        const out = frame.alloc(12); // char*, size_t, bool (wasm32)
        core.check(core.call('dxt_ledger_privatize_text', handle, context, optionsPtr, input, length,
          fresh ? LEDGER_FRESH : 0, out, out + 4, out + 8, recordPtr, diagnosticsPtr));
        const view = core.view();
        const ptr = view.getUint32(out, true);
        try {
          return {
            text: decoder.decode(core.m.HEAPU8.subarray(ptr, ptr + view.getUint32(out + 4, true))),
            memoised: core.m.HEAPU8[out + 8] !== 0,
          };
        } finally {
          core.call('dxt_text_free', ptr);
        }
      });
      const out = shaped('text', { ...run, result: run.result.text });
      out.memoised = run.result.memoised;
      return out;
    });
  }

  _live() {
    if (this._closed) throw invalidArgument('the ledger is closed');
    return this._bytes;
  }

  /**
   * { cap, spent, spentAnyInputs, releases, memoised, memoCapacity, words }
   * as of this object's last call (await refresh() first to see what other
   * tabs or workers stored since).
   */
  totals() {
    const bytes = this._live();
    const core = this._core;
    return withFrame(core, (frame) => {
      const handle = this._handle(frame, bytes);
      const totals = frame.struct('dxt_ledger_totals');
      core.check(core.call('dxt_ledger_get_totals', handle, totals));
      const view = core.view();
      const L = (field) => totals + core.layout('dxt_ledger_totals', field);
      return Object.freeze({
        cap: view.getFloat64(L('cap'), true),
        spent: view.getFloat64(L('spent'), true),
        spentAnyInputs: view.getFloat64(L('spent_any_inputs'), true),
        releases: readU64(view, L('releases')),
        memoised: readU64(view, L('memoised')),
        memoCapacity: view.getUint32(L('memo_capacity'), true),
        words: readU64(view, L('words')),
      });
    });
  }

  /**
   * The ledger's LedgerAnchor as of this object's last call (each call
   * resolves only once its bytes are stored): store its toBytes() outside
   * the ledger's store after every call, replacing the one before, and give
   * it to Ledger.open({ anchor }) next time.
   */
  anchor() {
    this._live();
    return this._anchor;
  }

  /** The scope as `dxtext ledger` prints it (an object), as of this object's last call. */
  toJSON() {
    const bytes = this._live();
    return JSON.parse(withFrame(this._core, (frame) => readJson(this._core, 'dxt_ledger_to_json', this._handle(frame, bytes))));
  }

  /** Promise: the state read again from the store. */
  async refresh() {
    await this._transact(() => undefined);
  }

  /** Promise: set the scope's cap (finite, >= 0), stored before it resolves. */
  async setCap(cap) {
    if (typeof cap !== 'number') throw invalidArgument('cap must be a number');
    const core = this._core;
    await this._transact((_, handle) => core.check(core.call('dxt_ledger_set_cap', handle, cap)));
  }

  /** Wait for pending calls; the bytes stay in the store. Closing twice is fine. */
  async close() {
    await this._pending;
    this._closed = true;
  }
}

/** The mechanisms' and the presets' names, as the options take them. */
export const MECHANISM_NAMES = Object.freeze(MECHANISMS.slice(1));
export const PRESET_NAMES = Object.freeze(PRESETS.slice(1));
export { MAX_BAG_WORDS };

// --------------------------------------------------------------------------
// Web Workers: the same API, with the work done in a worker.

/** What a worker runs, by kind of object (each returns a promise there too). */
export const WORKER_METHODS = Object.freeze({
  model: Object.freeze(['fingerprint', 'lookup', 'has', 'word']),
  privatizer: Object.freeze(['privatizeText', 'privatizeWord', 'privatizeBag', 'syntf', 'calibrate']),
});

// An options object for postMessage: OutputSet proxies become their handles.
function remoteOptions(options) {
  if (options === null || typeof options !== 'object' || !(options.outputWords instanceof RemoteOutputSet)) return options;
  return { ...options, outputWords: { outputSetHandle: options.outputWords._handle } };
}

class RemoteOutputSet {
  constructor(send, { handle, words }) {
    this._send = send;
    this._handle = handle;
    this.words = Object.freeze([...words]);
    this.closed = false;
  }

  get size() {
    return this.words.length;
  }

  close() {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    return this._send('close', [this._handle]);
  }
}

/**
 * The dxtext API of a worker (a Worker running dxtext-wasm/worker.js, e.g.
 * `new Worker(new URL('dxtext-wasm/worker.js', import.meta.url), { type: 'module' })`):
 * { Model, Privatizer, libraryVersion, terminate }, with the same methods,
 * options and results as this module's; calls run one after another in the
 * worker, off the calling thread, and close() returns a promise.
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
    const error = errorFor(Status.INTERNAL, `the dxtext worker failed: ${event.message || event}`);
    for (const waiting of pending.values()) waiting.reject(error);
    pending.clear();
  });
  const send = (method, args, transfer = []) =>
    new Promise((resolve, reject) => {
      const id = next++;
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, method, args }, transfer);
    });

  class RemoteModel {
    constructor({ handle, info, path }) {
      this._handle = handle;
      this.info = info;
      this.path = path;
      this.closed = false;
      for (const method of WORKER_METHODS.model) this[method] = (...args) => send('call', [handle, method, args]);
    }

    get size() {
      return this.info.vocabularySize;
    }

    async outputSet(words) {
      return new RemoteOutputSet(send, await send('outputSet', [this._handle, words]));
    }

    close() {
      if (this.closed) return Promise.resolve();
      this.closed = true;
      return send('close', [this._handle]);
    }
  }

  class RemotePrivatizer {
    constructor(model, { seed } = {}) {
      if (!(model instanceof RemoteModel)) throw invalidArgument('a Privatizer needs a Model');
      this.model = model;
      this._handle = send('privatizer', [model._handle, seed === undefined ? null : seed]);
      this._handle.catch(() => {});
      for (const method of WORKER_METHODS.privatizer) {
        this[method] = async (...args) => {
          const handle = await this._handle;
          return send('call', [handle, method, args.map(remoteOptions)]);
        };
      }
    }

    async close() {
      return send('close', [await this._handle]);
    }
  }

  const opened = async (kind, args) => new RemoteModel(await send('model', [kind, args]));
  return {
    Model: {
      open: (path, options) => opened('open', [path, options]),
      fromBuffer: (data, options) => opened('fromBuffer', [data, options]),
      openDefault: (geometry, options) => opened('openDefault', [geometry, options]),
    },
    Privatizer: RemotePrivatizer,
    libraryVersion: () => send('version', []),
    terminate: () => worker.terminate(),
  };
}

/** A module worker running dxtext-wasm/worker.js, connected (browsers). */
export function createWorker() {
  return connectWorker(new Worker(new URL('./worker.js', import.meta.url), { type: 'module' }));
}

function remoteError({ status, message, name }) {
  if (typeof status === 'number') return errorFor(status, message);
  const Kind = name === 'TypeError' ? TypeError : Error;
  return new Kind(message);
}
