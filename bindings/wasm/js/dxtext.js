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
  ACTIONS, TOKEN_CLASSES, Status, DxtextError, ANCHOR_BYTES, LedgerAnchor, RECORD_FIELDS, bytesOf, createApi, enqueue,
  errorFor, invalid, ledgerSettings, sameBytes,
} from './shared.js';

// Status, the error classes, errorFor and the constants are tools/options/js_shared.js's, the same as the Node.js
// binding's.
export {
  Status, DxtextError, InvalidArgumentError, InvalidEpsilonError, FileError, ModelError, NotAModelError,
  UnsupportedVersionError, CorruptModelError, TruncatedModelError, DigestMismatchError, OutOfMemoryError,
  RandomGeneratorError, InvalidUtf8Error, NotFoundError, UnsupportedError, InputTooLargeError, ParseError,
  InternalError, ContextBusyError, BudgetExceededError, LedgerCorruptError, LedgerRollbackError, LedgerAnchor,
  EPSILON_MIN, EPSILON_MAX, MAX_BAG_WORDS, MECHANISM_NAMES, PRESET_NAMES,
} from './shared.js';

const DXT_OPEN_VERIFY_DIGESTS = 1;
const DXT_RNG_DETERMINISTIC = 2;
const DXT_LEDGER_FRESH = 1;

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8');

function isNode() {
  return typeof process === 'object' && !!process.versions && typeof process.versions.node === 'string';
}

// The fields of a struct read whole by readFields, in the form of
// RECORD_FIELDS (generated for the release record), from 'c_name:kind ...'
// (no kind: a uint32_t, or a pointer or size_t of wasm32).
function structFields(spec) {
  return spec.split(' ').map((field) => {
    const [c, kind = 'u32'] = field.split(':');
    return { name: c.replace(/_([a-z])/g, (_, letter) => letter.toUpperCase()), c, kind };
  });
}
const STRUCT_FIELDS = {
  dxt_model_info: structFields(
    'format_major format_minor dimension vocabulary_size geometry quantization lowercase:bool has_frequencies:bool'),
  dxt_calibration: structFields(
    'words trials keep_mean:f64 keep_median:f64 keep_max:f64 distinct_mean:f64 distinct_median:f64 distinct_max:f64'),
  dxt_ledger_totals: structFields(
    'cap:f64 spent:f64 spent_any_inputs:f64 releases:u64 memoised:u64 memo_capacity words:u64'),
  dxt_bag: structFields('entries size'),
  dxt_bag_entry: structFields('word length count:u64'),
};

// Every struct field the wrapper touches. Their offsets are all asked for
// once, when the module is loaded, so that no later lookup allocates (an
// allocation may grow the memory and invalidate views held by the caller).
const LAYOUT_FIELDS = {
  dxt_model_open_options: ['flags'],
  dxt_context_options: ['rng_mode', 'seed'],
  dxt_release_record: RECORD_FIELDS.flatMap(({ c, present }) => (present ? [c, present] : [c])),
  dxt_local_diagnostics: ['counts', 'words_privatized', 'words_leaked'],
  dxt_ledger_options: ['cap', 'memo_capacity', 'key', 'key_length', 'anchor'],
  dxt_ledger_anchor: [],
  ...Object.fromEntries(Object.entries(STRUCT_FIELDS).map(([type, fields]) => [type, fields.map(({ c }) => c)])),
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

// The values of the struct `type` at ptr by their camelCase names: each
// { name, c, kind, size, present } of `fields` (RECORD_FIELDS' form), kind
// u32, u64, f64, bool or bytes (as hex); null when its `present` flag is 0.
function readFields(core, type, ptr, fields) {
  const view = core.view();
  const heap = core.m.HEAPU8;
  const raw = {};
  for (const { name, c, kind, size, present } of fields) {
    const at = ptr + core.layout(type, c);
    if (present && heap[ptr + core.layout(type, present)] === 0) raw[name] = null;
    else if (kind === 'bytes') raw[name] = hex(heap.subarray(at, at + size));
    else if (kind === 'bool') raw[name] = heap[at] !== 0;
    else if (kind === 'u64') raw[name] = readU64(view, at);
    else if (kind === 'f64') raw[name] = view.getFloat64(at, true);
    else raw[name] = view.getUint32(at, true);
  }
  return raw;
}

/** The values of the release record of a call (dxt_release_record) and its JSON, for recordOf. */
function readRecord(core, ptr) {
  // The JSON first: its allocations may grow the memory, which replaces the
  // buffer under any view taken before.
  const json = readJson(core, 'dxt_release_record_to_json', ptr);
  return { ...readFields(core, 'dxt_release_record', ptr, RECORD_FIELDS), json };
}

function readDiagnostics(core, ptr) {
  const L = (field) => ptr + core.layout('dxt_local_diagnostics', field);
  const json = readJson(core, 'dxt_local_diagnostics_to_json', ptr);
  const view = core.view();
  const counts = TOKEN_CLASSES.map((_, c) => ACTIONS.map((_, a) => readU64(view, L('counts') + 8 * (4 * c + a))));
  return {
    counts,
    wordsPrivatized: readU64(view, L('words_privatized')),
    wordsLeaked: readU64(view, L('words_leaked')),
    json,
  };
}

// The string of the char* and size_t the library wrote at `out` (wasm32),
// freed with dxt_text_free when it is the caller's.
function stringAt(core, out, owned) {
  const view = core.view();
  const ptr = view.getUint32(out, true);
  try {
    return decoder.decode(core.m.HEAPU8.subarray(ptr, ptr + view.getUint32(out + 4, true)));
  } finally {
    if (owned) core.call('dxt_text_free', ptr);
  }
}

// A char*[] of `strings` in `frame`, each NUL-terminated UTF-8.
function stringArray(frame, strings) {
  const array = frame.alloc(4 * Math.max(strings.length, 1));
  strings.forEach((text, i) => {
    const [ptr] = frame.string(text); // may grow the memory: the view is taken anew
    frame.core.view().setUint32(array + 4 * i, ptr, true);
  });
  return array;
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

// The [word, count] pairs of a dxt_bag.
function readBag(core, bagPtr) {
  const { entries, size } = readFields(core, 'dxt_bag', bagPtr, STRUCT_FIELDS.dxt_bag);
  const stride = core.layout('dxt_bag_entry', 'sizeof');
  return Array.from({ length: size }, (_, i) => {
    const { word, length, count } = readFields(core, 'dxt_bag_entry', entries + i * stride, STRUCT_FIELDS.dxt_bag_entry);
    return [decoder.decode(core.m.HEAPU8.subarray(word, word + length)), count];
  });
}

// --------------------------------------------------------------------------
// The backend of the classes (createApi of shared.js, the same as the
// Node.js binding's): the C calls over the WebAssembly memory. A model's
// handle is its ModelBox; a privatizer's dxt_context and an output set are
// { box, ptr }, each keeping its model's box until it is closed.

// The dxt_model opened from `bytes`, copied into WebAssembly memory, 8-byte
// aligned as dxt_model_open_memory requires.
async function openBytes(bytes, verify) {
  const core = await sharedCore();
  const raw = core.call('malloc', bytes.length + 8);
  if (!raw) throw errorFor(Status.OUT_OF_MEMORY, `cannot allocate ${bytes.length} bytes for the model`);
  const aligned = Math.ceil(raw / 8) * 8;
  try {
    core.m.HEAPU8.set(bytes, aligned);
    const handle = withFrame(core, (frame) => {
      const open = frame.struct('dxt_model_open_options');
      if (verify) {
        core.view().setUint32(open + core.layout('dxt_model_open_options', 'flags'), DXT_OPEN_VERIFY_DIGESTS, true);
      }
      const out = frame.alloc(4);
      core.check(core.call('dxt_model_open_memory', aligned, bytes.length, open, out));
      return core.view().getUint32(out, true);
    });
    return new ModelBox(core, handle, raw);
  } catch (e) {
    core.call('free', raw);
    throw e;
  }
}

// The options of a call (optionPairs' pairs), passed to the library by name
// (dxt_options_set, dxt_options_set_words): a dxt_options handle of the
// model freed with the frame; returns the dxt_privatize_options it holds.
function optionsOf(frame, box, pairs) {
  const { core } = box;
  const out = frame.alloc(4);
  core.check(core.call('dxt_options_create', box.handle, out));
  const handle = core.view().getUint32(out, true);
  frame.onFree(() => core.call('dxt_options_destroy', handle));
  for (const [name, value] of pairs) {
    const [namePtr] = frame.string(name);
    if (Array.isArray(value)) {
      core.check(core.call('dxt_options_set_words', handle, namePtr, stringArray(frame, value), value.length));
    } else {
      core.check(core.call('dxt_options_set', handle, namePtr, frame.string(value)[0]));
    }
  }
  return core.call('dxt_options_get', handle);
}

// One privatise call on `context`: call(frame, optionsPtr, recordPtr,
// diagnosticsPtr) gives the result's values, to which the record's are
// added, and the diagnostics' when they are asked for.
function privatizeCall(context, pairs, diagnostics, call) {
  const { core } = context.box;
  return withFrame(core, (frame) => {
    const options = optionsOf(frame, context.box, pairs);
    const record = frame.struct('dxt_release_record');
    const counts = diagnostics ? frame.struct('dxt_local_diagnostics') : 0;
    const out = call(frame, options, record, counts);
    out.record = readRecord(core, record);
    if (counts) out.diagnostics = readDiagnostics(core, counts);
    return out;
  });
}

// dxt_privatize_text or dxt_privatize_word.
function textCall(name) {
  return (context, text, pairs, diagnostics) =>
    privatizeCall(context, pairs, diagnostics, (frame, options, record, counts) => {
      const { core } = context.box;
      const [input, length] = frame.string(text);
      const out = frame.alloc(8); // char* then size_t (wasm32)
      core.check(core.call(name, context.ptr, options, input, length, out, out + 4, record, counts));
      return { text: stringAt(core, out, true) };
    });
}

// dxt_privatize_bag, or dxt_syntf when nOut is not null.
function bagCall(context, entries, nOut, pairs, diagnostics) {
  return privatizeCall(context, pairs, diagnostics, (frame, options, record, counts) => {
    const { core } = context.box;
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
    core.check(nOut === null
      ? core.call('dxt_privatize_bag', context.ptr, options, array, entries.length, out, record, counts)
      : core.call('dxt_syntf', context.ptr, options, array, entries.length, nOut, out, record, counts));
    const bagPtr = core.view().getUint32(out, true);
    try {
      return { bag: readBag(core, bagPtr) };
    } finally {
      core.call('dxt_bag_free', bagPtr);
    }
  });
}

const backend = {
  versionString: async () => {
    const core = await sharedCore();
    return core.cString(core.call('dxt_version_string'));
  },
  // Node only: the file read, then opened as modelFromBuffer does.
  modelOpen: async (path, verify) => openBytes(await readFile(path), verify),
  modelFromBuffer: openBytes,
  // The default Euclidean model that the package carries (models/ beside
  // this file): fetched in a browser or worker, read from disk in Node. This
  // package carries no Poincare model: NotFoundError.
  async modelOpenDefault(geometry, verify) {
    if (geometry === 'poincare') throw errorFor(Status.NOT_FOUND, 'dxtext-wasm carries no Poincare model: use Model.fromBuffer');
    if (!DEFAULT_MODEL) throw errorFor(Status.NOT_FOUND, 'this dxtext-wasm package carries no default model');
    const url = new URL(DEFAULT_MODEL, import.meta.url);
    if (isNode()) {
      const path = (await import('node:url')).fileURLToPath(url);
      return { handle: await backend.modelOpen(path, verify), path };
    }
    let response;
    try {
      response = await fetch(url);
    } catch (e) {
      throw errorFor(Status.IO, `cannot fetch the default model ${url}: ${e.message}`, { cause: e });
    }
    if (!response.ok) throw errorFor(Status.IO, `cannot fetch the default model ${url}: HTTP ${response.status}`);
    return { handle: await openBytes(new Uint8Array(await response.arrayBuffer()), verify), path: String(url) };
  },
  modelInfo: ({ core, handle }) =>
    withFrame(core, (frame) => {
      const ptr = frame.struct('dxt_model_info');
      core.check(core.call('dxt_model_get_info', handle, ptr));
      return readFields(core, 'dxt_model_info', ptr, STRUCT_FIELDS.dxt_model_info);
    }),
  modelFingerprint: ({ core, handle }) =>
    withFrame(core, (frame) => {
      const out = frame.alloc(32);
      core.check(core.call('dxt_model_fingerprint', handle, out));
      return hex(core.m.HEAPU8.subarray(out, out + 32));
    }),
  modelLookup: ({ core, handle }, word) =>
    withFrame(core, (frame) => {
      const [ptr, length] = frame.string(word);
      const out = frame.alloc(4);
      core.check(core.call('dxt_model_lookup', handle, ptr, length, out));
      return core.view().getUint32(out, true);
    }),
  modelWord: ({ core, handle }, index) =>
    withFrame(core, (frame) => {
      const out = frame.alloc(8); // const char* then size_t (wasm32)
      core.check(core.call('dxt_model_word', handle, index, out, out + 4));
      return stringAt(core, out, false);
    }),
  modelClose: (box) => box.release(),
  outputSetCreate: (box, words) =>
    withFrame(box.core, (frame) => {
      const array = stringArray(frame, words);
      const out = frame.alloc(4);
      box.core.check(box.core.call('dxt_output_set_create', box.handle, array, words.length, out));
      return { box: box.retain(), ptr: box.core.view().getUint32(out, true) };
    }),
  outputSetClose({ box, ptr }) {
    box.core.call('dxt_output_set_free', ptr);
    box.release();
  },
  contextCreate: (box, seed) =>
    withFrame(box.core, (frame) => {
      const { core } = box;
      const out = frame.alloc(4);
      let options = 0; // the system generator
      let seedAt = 0;
      if (seed) {
        options = frame.struct('dxt_context_options');
        seedAt = options + core.layout('dxt_context_options', 'seed');
        core.view().setUint32(options + core.layout('dxt_context_options', 'rng_mode'), DXT_RNG_DETERMINISTIC, true);
        core.m.HEAPU8.set(seed, seedAt);
      }
      const status = core.call('dxt_context_create', box.handle, options, out);
      if (seed) core.m.HEAPU8.fill(0, seedAt, seedAt + 32);
      core.check(status);
      return { box: box.retain(), ptr: core.view().getUint32(out, true) };
    }),
  contextClose({ box, ptr }) {
    box.core.call('dxt_context_destroy', ptr);
    box.release();
  },
  privatizeWord: textCall('dxt_privatize_word'),
  privatizeText: textCall('dxt_privatize_text'),
  privatizeBag: (context, entries, pairs, diagnostics) => bagCall(context, entries, null, pairs, diagnostics),
  syntf: bagCall,
  calibrate: ({ box, ptr }, pairs, words, trials) =>
    withFrame(box.core, (frame) => {
      const out = frame.struct('dxt_calibration');
      box.core.check(box.core.call('dxt_calibrate', ptr, optionsOf(frame, box, pairs), words, trials, out));
      return readFields(box.core, 'dxt_calibration', out, STRUCT_FIELDS.dxt_calibration);
    }),
  // A ledger is a StoredLedger (below): each call a transaction on its store.
  async ledgerOpen(store, settings) {
    const ledger = new StoredLedger(await sharedCore(), ledgerStoreOf(store), settings);
    await ledger.transact(() => undefined);
    return ledger;
  },
  ledgerPrivatizeText: (ledger, context, text, pairs, fresh, diagnostics) =>
    ledger.transact((_, handle) =>
      privatizeCall(context, pairs, diagnostics, (frame, options, record, counts) => {
        const { core } = ledger;
        const [input, length] = frame.string(text);
        const out = frame.alloc(12); // char*, size_t, bool (wasm32)
        core.check(core.call('dxt_ledger_privatize_text', handle, context.ptr, options, input, length,
          fresh ? DXT_LEDGER_FRESH : 0, out, out + 4, out + 8, record, counts));
        return { memoised: core.m.HEAPU8[out + 8] !== 0, text: stringAt(core, out, true) };
      }),
    ),
  // The totals, anchor and JSON as of the ledger's last call.
  ledgerTotals: (ledger) =>
    withFrame(ledger.core, (frame) => {
      const { core } = ledger;
      const handle = ledger.open(frame, ledger.bytes);
      const totals = frame.struct('dxt_ledger_totals');
      core.check(core.call('dxt_ledger_get_totals', handle, totals));
      return readFields(core, 'dxt_ledger_totals', totals, STRUCT_FIELDS.dxt_ledger_totals);
    }),
  ledgerAnchor: (ledger) => ledger.anchor.toBytes(),
  ledgerJson: (ledger) =>
    withFrame(ledger.core, (frame) => readJson(ledger.core, 'dxt_ledger_to_json', ledger.open(frame, ledger.bytes))),
  ledgerClose() {}, // the bytes stay in the store
};

const api = createApi(backend);
export const { Model, OutputSet, Privatizer, libraryVersion } = api;

// --------------------------------------------------------------------------
// Ledger

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
  throw invalid('a ledger store is a name (a file path under Node, a localStorage key in a browser) or an ' +
    'object with load() and save(bytes)');
}

// A ledger in a store: the bytes as of its last transaction, and their
// LedgerAnchor (the one given to open, before the first).
class StoredLedger {
  constructor(core, store, settings) {
    this.core = core;
    this.store = store;
    this.name = storeName(store);
    this.settings = settings;
    this.bytes = null;
    this.anchor = settings.anchor;
  }

  // A dxt_ledger in `frame` opened from `bytes`, closed with the frame; with
  // `anchor` (a LedgerAnchor), bytes older than it are refused.
  open(frame, bytes, anchor = null) {
    const { core } = this;
    const { scope, cap, memoCapacity, key } = this.settings;
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
  readAnchor(frame, handle) {
    const { core } = this;
    const anchor = frame.struct('dxt_ledger_anchor');
    const bytes = frame.alloc(ANCHOR_BYTES);
    core.check(core.call('dxt_ledger_get_anchor', handle, anchor));
    core.check(core.call('dxt_ledger_anchor_encode', anchor, bytes, ANCHOR_BYTES));
    return new LedgerAnchor(core.m.HEAPU8.slice(bytes, bytes + ANCHOR_BYTES));
  }

  // The bytes of the ledger `handle`, copied out of WebAssembly memory.
  save(frame, handle) {
    const { core } = this;
    const [buffer, size] = writtenBytes(core, frame, (...args) => core.call('dxt_ledger_save', handle, ...args));
    return core.m.HEAPU8.slice(buffer, buffer + size);
  }

  // One transaction under the store's lock: load, body(frame, handle), and
  // store the new bytes if they changed, before resolving with body's result.
  transact(body) {
    return underLedgerLock(this.name, async () => {
      const loaded = bytesOf(await this.store.load(), "the store's load()");
      const { result, bytes, anchor } = withFrame(this.core, (frame) => {
        const handle = this.open(frame, loaded, this.anchor);
        const value = body(frame, handle);
        return { result: value, bytes: this.save(frame, handle), anchor: this.readAnchor(frame, handle) };
      });
      if (!sameBytes(loaded, bytes)) {
        try {
          await this.store.save(bytes);
        } catch (e) {
          if (e instanceof DxtextError) throw e;
          throw errorFor(Status.IO, `the ledger could not be stored, so the release is discarded: ${e && e.message}`, { cause: e });
        }
      }
      this.bytes = bytes;
      this.anchor = anchor;
      return result;
    });
  }
}

/**
 * The privacy ledger (docs/budgets.md) kept in the app's own storage
 * (dxt_ledger_open_memory): a budget per scope, releases past the cap
 * refused before any noise is drawn, repeats given the memoised output at no
 * cost, the bytes under a MAC. Ledger.open(store, options): `store` says
 * where the bytes live: an object { load(), save(bytes), name } (each may
 * return a promise; load gives null when there is no ledger yet; name, when
 * given, names the Web Lock shared by every tab and worker of the origin),
 * or a string: a file path under Node (Ledger.fileStore), a localStorage key
 * in a browser (Ledger.localStorageStore). Every call loads the bytes, runs
 * in the library, and stores the new bytes before it resolves: an output is
 * returned only once its release is stored (docs/budgets.md, "A ledger in
 * the caller's storage"); each checks the bytes it loads against the anchor
 * of the call before (of open's anchor, first). totals(), anchor() and
 * toJSON() are as of this object's last call: await refresh() first to see
 * what other tabs or workers stored since.
 */
export class Ledger extends api.Ledger {
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
    if (typeof key !== 'string' || key === '') throw invalid('a localStorage key is a non-empty string');
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

  /** Promise: the state read again from the store. */
  async refresh() {
    await enqueue(this, () => this._ledger().transact(() => undefined));
  }

  /** Promise: set the scope's cap (finite, >= 0), stored before it resolves. */
  async setCap(cap) {
    if (typeof cap !== 'number') throw invalid('cap must be a number');
    await enqueue(this, () => {
      const ledger = this._ledger();
      return ledger.transact((_, handle) => ledger.core.check(ledger.core.call('dxt_ledger_set_cap', handle, cap)));
    });
  }
}

// --------------------------------------------------------------------------
// Web Workers: the same API, with the backend's calls made in a worker.

// The calls of the backend that a worker answers (serveWorker); the
// OPENERS take no handle.
const OPENERS = ['versionString', 'modelOpen', 'modelFromBuffer', 'modelOpenDefault'];
const WORKER_CALLS = new Set([...OPENERS, 'modelFingerprint', 'modelLookup', 'modelWord', 'modelClose',
  'outputSetCreate', 'outputSetClose', 'contextCreate', 'contextClose', 'privatizeWord', 'privatizeText',
  'privatizeBag', 'syntf', 'calibrate']);

/** The methods of a worker's Model and Privatizer whose work runs in the worker (each returns a promise). */
export const WORKER_METHODS = Object.freeze({
  model: Object.freeze(['fingerprint', 'lookup', 'has', 'word']),
  privatizer: Object.freeze(['privatizeText', 'privatizeWord', 'privatizeBag', 'syntf', 'calibrate']),
});

/**
 * The dxtext API of a worker (a Worker running dxtext-wasm/worker.js, e.g.
 * `new Worker(new URL('dxtext-wasm/worker.js', import.meta.url), { type: 'module' })`):
 * { Model, Privatizer, libraryVersion, terminate }, with the same methods,
 * options and results as this module's (the same classes, over a backend
 * whose calls are messages to the worker); calls run one after another in
 * the worker, off the calling thread, and close() returns a promise.
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
  // A handle is the worker's { id } of the object (a model's with its info),
  // or for a privatizer, whose constructor cannot wait, a promise of it.
  const call = (method) => async (...args) => {
    const handle = OPENERS.includes(method) ? undefined : (await args.shift()).id;
    return new Promise((resolve, reject) => {
      const id = next++;
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, method, handle, args });
    });
  };
  const remote = Object.fromEntries([...WORKER_CALLS].map((method) => [method, call(method)]));
  remote.modelInfo = (model) => model.info;
  remote.contextCreate = (...args) => {
    const context = call('contextCreate')(...args);
    context.catch(() => {}); // the privatizer's calls reject with its error
    return context;
  };
  const { Model, Privatizer, libraryVersion } = createApi(remote);
  return { Model, Privatizer, libraryVersion, terminate: () => worker.terminate() };
}

/**
 * Serves connectWorker in a worker (worker.js calls it with the worker's
 * global scope): a message { id, method, handle, args } is a call of this
 * module's backend on the object numbered `handle`, answered { id, result }
 * or { id, error: { status, message, name } }; calls run one after another,
 * in order. The objects a call opens are numbered: { id } ({ id, info } for
 * a model).
 */
export function serveWorker(scope) {
  const objects = new Map();
  let nextHandle = 1;
  const keep = (object) => {
    objects.set(nextHandle, object);
    return { id: nextHandle++ };
  };
  const keepModel = (box) => ({ ...keep(box), info: backend.modelInfo(box) });
  const opened = {
    modelOpen: keepModel,
    modelFromBuffer: keepModel,
    modelOpenDefault: ({ handle, path }) => ({ handle: keepModel(handle), path }),
    outputSetCreate: keep,
    contextCreate: keep,
  };
  let queue = Promise.resolve();
  scope.addEventListener('message', ({ data }) => {
    const { id, method, handle, args = [] } = data || {};
    queue = queue.then(async () => {
      try {
        if (!WORKER_CALLS.has(method)) throw invalid(`unknown request '${method}'`);
        if (!OPENERS.includes(method) && !objects.has(handle)) throw invalid('the object is closed');
        const target = OPENERS.includes(method) ? [] : [objects.get(handle)];
        const result = await backend[method](...target, ...args);
        if (method.endsWith('Close')) objects.delete(handle);
        scope.postMessage({ id, result: opened[method] ? opened[method](result) : result });
      } catch (e) {
        const status = typeof e?.status === 'number' ? e.status : undefined;
        scope.postMessage({ id, error: { status, message: String(e && e.message), name: e && e.name } });
      }
    });
  });
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
