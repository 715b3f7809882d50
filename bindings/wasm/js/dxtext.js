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
  errorFor, invalid, sameBytes,
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

// The fields of a struct, in the form of RECORD_FIELDS (generated for the
// release record), from 'c_name:kind ...': kind u32 (when none is given: a
// uint32_t, or a pointer or size_t of wasm32), u64, f64, bool, bytes (read
// as hex), or counts (the local diagnostics' uint64_t [class][action]).
function structFields(spec) {
  return spec.split(' ').map((field) => {
    const [c, kind = 'u32'] = field.split(':');
    return { name: c.replace(/_([a-z])/g, (_, letter) => letter.toUpperCase()), c, kind };
  });
}

// Every struct the wrapper makes, reads or writes, with the fields it
// touches. Their sizes and offsets are all asked for once, when the module
// is loaded, so that no later lookup allocates (an allocation may grow the
// memory and invalidate views held by the caller).
const STRUCT_FIELDS = {
  dxt_model_open_options: structFields('flags'),
  dxt_model_info: structFields(
    'format_major format_minor dimension vocabulary_size geometry quantization lowercase:bool has_frequencies:bool'),
  dxt_context_options: structFields('rng_mode seed:bytes'),
  dxt_release_record: RECORD_FIELDS,
  dxt_local_diagnostics: structFields('counts:counts words_privatized:u64 words_leaked:u64'),
  dxt_calibration: structFields(
    'words trials keep_mean:f64 keep_median:f64 keep_max:f64 distinct_mean:f64 distinct_median:f64 distinct_max:f64'),
  dxt_ledger_options: structFields('cap:f64 memo_capacity key key_length anchor'),
  dxt_ledger_anchor: [],
  dxt_ledger_totals: structFields(
    'cap:f64 spent:f64 spent_any_inputs:f64 releases:u64 memoised:u64 memo_capacity words:u64'),
  dxt_bag: structFields('entries size'),
  dxt_bag_entry: structFields('word length count:u64'),
};

function hex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

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

  // Calls a function that returns a dxt_status, and throws the error of a failure.
  run(name, ...args) {
    this.check(this.call(name, ...args));
  }

  check(status) {
    if (status === Status.OK) return;
    const detail = this.cString(this.call('dxt_last_error_message'));
    throw errorFor(status, detail || this.cString(this.call('dxt_status_string', status)));
  }

  malloc(size) {
    const ptr = this.call('malloc', Math.max(size, 1));
    if (!ptr) throw errorFor(Status.OUT_OF_MEMORY, `cannot allocate ${size} bytes in the WebAssembly memory`);
    return ptr;
  }

  // The `length` bytes at ptr (a view of the memory, valid until it grows).
  bytes(ptr, length) {
    return this.m.HEAPU8.subarray(ptr, ptr + length);
  }

  // The UTF-8 text of `length` bytes at ptr.
  text(ptr, length) {
    return decoder.decode(this.bytes(ptr, length));
  }

  cString(ptr) {
    if (!ptr) return '';
    const heap = this.m.HEAPU8;
    let end = ptr;
    while (heap[end] !== 0) ++end;
    return this.text(ptr, end - ptr);
  }

  // The uint32_t at ptr (a handle, an index, a pointer or a size_t of wasm32).
  u32(ptr) {
    return this.view().getUint32(ptr, true);
  }

  // Asks the compiled code (src/dxtext_wasm_layout.c) for the size and the
  // field offsets of every struct in STRUCT_FIELDS.
  loadLayouts() {
    withFrame(this, (frame) => {
      for (const [type, fields] of Object.entries(STRUCT_FIELDS)) {
        const [typeName] = frame.string(type);
        for (const field of ['sizeof', ...fields.flatMap(({ c, present }) => (present ? [c, present] : [c]))]) {
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

  // The values of the struct `type` at ptr by the camelCase names of its
  // STRUCT_FIELDS; a field whose `present` flag is 0 is null.
  read(type, ptr) {
    const view = this.view();
    const heap = this.m.HEAPU8;
    const u64 = (at) => Number(view.getBigUint64(at, true));
    const values = {};
    for (const { name, c, kind, size, present } of STRUCT_FIELDS[type]) {
      const at = ptr + this.layout(type, c);
      if (present && heap[ptr + this.layout(type, present)] === 0) values[name] = null;
      else if (kind === 'bytes') values[name] = hex(heap.subarray(at, at + size));
      else if (kind === 'bool') values[name] = heap[at] !== 0;
      else if (kind === 'u64') values[name] = u64(at);
      else if (kind === 'f64') values[name] = view.getFloat64(at, true);
      else if (kind === 'counts') {
        values[name] = TOKEN_CLASSES.map((_, row) => ACTIONS.map((_, column) => u64(at + 8 * (ACTIONS.length * row + column))));
      } else values[name] = view.getUint32(at, true);
    }
    return values;
  }

  // Writes `values` (by camelCase name; undefined and null are left as they
  // are) into the struct `type` at ptr; bytes are copied in.
  write(type, ptr, values) {
    const view = this.view();
    for (const { name, c, kind } of STRUCT_FIELDS[type]) {
      const value = values[name];
      if (value === undefined || value === null) continue;
      const at = ptr + this.layout(type, c);
      if (kind === 'bytes') this.m.HEAPU8.set(value, at);
      else if (kind === 'u64') view.setBigUint64(at, BigInt(value), true);
      else if (kind === 'f64') view.setFloat64(at, value, true);
      else view.setUint32(at, value, true);
    }
  }
}

/**
 * Memory allocated for one call, zeroed and freed together at its end (a
 * seed or an app key passed in does not stay in the module's memory), and
 * the calls that use it. Every struct passed to the library is made by
 * struct(), which sizes it from the compiled layout and fills it with the
 * struct's _init function.
 */
class Frame {
  constructor(core) {
    this.core = core;
    this.blocks = [];
    this.finalizers = [];
  }

  /** Runs `f` when the frame is freed, before its memory is. */
  onFree(f) {
    this.finalizers.push(f);
  }

  alloc(size) {
    const ptr = this.core.malloc(size);
    this.blocks.push([ptr, size]);
    this.core.m.HEAPU8.fill(0, ptr, ptr + size);
    return ptr;
  }

  /** A copy of `data` (bytes): its pointer. */
  copy(data) {
    const ptr = this.alloc(data.length);
    this.core.m.HEAPU8.set(data, ptr);
    return ptr;
  }

  /** UTF-8 bytes of `text`, NUL-terminated: [pointer, length without NUL]. */
  string(text) {
    const bytes = encoder.encode(text);
    const ptr = this.alloc(bytes.length + 1);
    this.core.m.HEAPU8.set(bytes, ptr);
    return [ptr, bytes.length];
  }

  /** A char*[] of `strings`, each NUL-terminated UTF-8. */
  strings(strings) {
    const array = this.alloc(4 * strings.length);
    strings.forEach((text, i) => {
      const [ptr] = this.string(text); // may grow the memory: the view is taken anew
      this.core.view().setUint32(array + 4 * i, ptr, true);
    });
    return array;
  }

  /** A struct `type` filled by its _init function, then with `values` (Core.write). */
  struct(type, values = {}) {
    const ptr = this.alloc(this.core.layout(type, 'sizeof'));
    const [name] = this.string(type);
    if (this.core.call('dxtwasm_init', name, ptr) !== 0) throw errorFor(Status.INTERNAL, `no _init for ${type}`);
    this.core.write(type, ptr, values);
    return ptr;
  }

  /** Runs the C function `name` on `args` and a uint32_t it writes (a handle, an index): that value. */
  out(name, ...args) {
    const out = this.alloc(4);
    this.core.run(name, ...args, out);
    return this.core.u32(out);
  }

  /** Runs the C function `name` on `args` and a struct `type` it fills: the struct's values. */
  filled(type, name, ...args) {
    const ptr = this.struct(type);
    this.core.run(name, ...args, ptr);
    return this.core.read(type, ptr);
  }

  /**
   * What the C function `name` writes into a buffer of the caller's (its
   * last arguments after `args`: buffer, capacity, required size), asked
   * first without one for the size it needs: [the buffer, its size].
   */
  written(name, ...args) {
    const required = this.alloc(4);
    const status = this.core.call(name, ...args, 0, 0, required);
    if (status !== Status.INPUT_TOO_LARGE) this.core.check(status);
    const size = this.core.u32(required);
    const buffer = this.alloc(size);
    this.core.run(name, ...args, buffer, size, required);
    return [buffer, size];
  }

  /** The JSON that the C function `name` writes of the object at ptr. */
  json(name, ptr) {
    return this.core.cString(this.written(name, ptr)[0]);
  }

  free() {
    for (const f of this.finalizers.splice(0)) f();
    for (const [ptr, size] of this.blocks.splice(0)) {
      this.core.m.HEAPU8.fill(0, ptr, ptr + size);
      this.core.call('free', ptr);
    }
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

// The values of the release record or the local diagnostics (the struct
// `type`) at ptr, and their JSON: what recordOf and diagnosticsOf take.
function readWithJson(frame, type, ptr) {
  return { ...frame.core.read(type, ptr), json: frame.json(`${type}_to_json`, ptr) };
}

// The string of the char* and size_t the library wrote at `out` (wasm32),
// freed with dxt_text_free when it is the caller's.
function stringAt(core, out, owned) {
  const ptr = core.u32(out);
  try {
    return core.text(ptr, core.u32(out + 4));
  } finally {
    if (owned) core.call('dxt_text_free', ptr);
  }
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

// The C model and the copy of its bytes it reads from, both
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

  // A C object made from the model, freed by the C function `destroy`:
  // { box, ptr, close() }, which keeps the model until it is closed.
  own(ptr, destroy) {
    this.refs += 1;
    const close = () => {
      this.core.call(destroy, ptr);
      this.release();
    };
    return { box: this, ptr, close };
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
  const { entries, size } = core.read('dxt_bag', bagPtr);
  const stride = core.layout('dxt_bag_entry', 'sizeof');
  return Array.from({ length: size }, (_, i) => {
    const { word, length, count } = core.read('dxt_bag_entry', entries + i * stride);
    return [core.text(word, length), count];
  });
}

// --------------------------------------------------------------------------
// The backend of the classes (createApi of shared.js, the same as the
// Node.js binding's): the C calls over the WebAssembly memory. A model's
// handle is its ModelBox; a privatizer's dxt_context and an output set are
// ModelBox.own's { box, ptr, close }.

// The dxt_model opened from `bytes`, copied into WebAssembly memory (malloc
// aligns to 8 bytes, as dxt_model_open_memory requires).
async function openBytes(bytes, verify) {
  const core = await sharedCore();
  const buffer = core.malloc(bytes.length);
  try {
    core.m.HEAPU8.set(bytes, buffer);
    const handle = withFrame(core, (frame) => {
      const open = frame.struct('dxt_model_open_options', { flags: verify ? DXT_OPEN_VERIFY_DIGESTS : 0 });
      return frame.out('dxt_model_open_memory', buffer, bytes.length, open);
    });
    return new ModelBox(core, handle, buffer);
  } catch (e) {
    core.call('free', buffer);
    throw e;
  }
}

// The options of a call (optionPairs' pairs), passed to the library by name
// (dxt_options_set, dxt_options_set_words): a dxt_options handle of the
// model freed with the frame; returns the dxt_privatize_options it holds.
function optionsOf(frame, box, pairs) {
  const { core } = frame;
  const handle = frame.out('dxt_options_create', box.handle);
  frame.onFree(() => core.call('dxt_options_destroy', handle));
  for (const [name, value] of pairs) {
    const [namePtr] = frame.string(name);
    if (Array.isArray(value)) core.run('dxt_options_set_words', handle, namePtr, frame.strings(value), value.length);
    else core.run('dxt_options_set', handle, namePtr, frame.string(value)[0]);
  }
  return core.call('dxt_options_get', handle);
}

// One privatise call on `context`: call(frame, optionsPtr, recordPtr,
// diagnosticsPtr) gives the result's values, to which the record's are
// added, and the diagnostics' when they are asked for.
function privatizeCall(context, pairs, diagnostics, call) {
  return withFrame(context.box.core, (frame) => {
    const options = optionsOf(frame, context.box, pairs);
    const record = frame.struct('dxt_release_record');
    const counts = diagnostics ? frame.struct('dxt_local_diagnostics') : 0;
    const out = call(frame, options, record, counts);
    out.record = readWithJson(frame, 'dxt_release_record', record);
    if (counts) out.diagnostics = readWithJson(frame, 'dxt_local_diagnostics', counts);
    return out;
  });
}

// dxt_privatize_text or dxt_privatize_word.
function textCall(name) {
  return (context, text, pairs, diagnostics) =>
    privatizeCall(context, pairs, diagnostics, (frame, options, record, counts) => {
      const out = frame.alloc(8); // char* then size_t (wasm32)
      frame.core.run(name, context.ptr, options, ...frame.string(text), out, out + 4, record, counts);
      return { text: stringAt(frame.core, out, true) };
    });
}

// dxt_privatize_bag, or dxt_syntf when nOut is not null.
function bagCall(context, entries, nOut, pairs, diagnostics) {
  return privatizeCall(context, pairs, diagnostics, (frame, options, record, counts) => {
    const { core } = frame;
    const size = core.layout('dxt_bag_entry', 'sizeof');
    const array = frame.alloc(size * entries.length);
    entries.forEach(([word, count], i) => {
      const [text, length] = frame.string(word);
      core.write('dxt_bag_entry', array + i * size, { word: text, length, count });
    });
    const input = [context.ptr, options, array, entries.length];
    const out = frame.alloc(4);
    if (nOut === null) core.run('dxt_privatize_bag', ...input, out, record, counts);
    else core.run('dxt_syntf', ...input, nOut, out, record, counts);
    const bag = core.u32(out);
    try {
      return { bag: readBag(core, bag) };
    } finally {
      core.call('dxt_bag_free', bag);
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
  modelInfo: ({ core, handle }) => withFrame(core, (frame) => frame.filled('dxt_model_info', 'dxt_model_get_info', handle)),
  modelFingerprint: ({ core, handle }) =>
    withFrame(core, (frame) => {
      const out = frame.alloc(32);
      core.run('dxt_model_fingerprint', handle, out);
      return hex(core.bytes(out, 32));
    }),
  modelLookup: ({ core, handle }, word) => withFrame(core, (frame) => frame.out('dxt_model_lookup', handle, ...frame.string(word))),
  modelWord: ({ core, handle }, index) =>
    withFrame(core, (frame) => {
      const out = frame.alloc(8); // const char* then size_t (wasm32)
      core.run('dxt_model_word', handle, index, out, out + 4);
      return stringAt(core, out, false);
    }),
  modelClose: (box) => box.release(),
  outputSetCreate: (box, words) =>
    withFrame(box.core, (frame) => {
      const set = frame.out('dxt_output_set_create', box.handle, frame.strings(words), words.length);
      return box.own(set, 'dxt_output_set_free');
    }),
  outputSetClose: (set) => set.close(),
  // Without a seed no options: the system generator.
  contextCreate: (box, seed) =>
    withFrame(box.core, (frame) => {
      const options = seed ? frame.struct('dxt_context_options', { rngMode: DXT_RNG_DETERMINISTIC, seed }) : 0;
      return box.own(frame.out('dxt_context_create', box.handle, options), 'dxt_context_destroy');
    }),
  contextClose: (context) => context.close(),
  privatizeWord: textCall('dxt_privatize_word'),
  privatizeText: textCall('dxt_privatize_text'),
  privatizeBag: (context, entries, pairs, diagnostics) => bagCall(context, entries, null, pairs, diagnostics),
  syntf: bagCall,
  calibrate: ({ box, ptr }, pairs, words, trials) =>
    withFrame(box.core, (frame) =>
      frame.filled('dxt_calibration', 'dxt_calibrate', ptr, optionsOf(frame, box, pairs), words, trials)),
  // A ledger is a StoredLedger (below): each call a transaction on its store.
  async ledgerOpen(store, settings) {
    const ledger = new StoredLedger(await sharedCore(), ledgerStoreOf(store), settings);
    await ledger.transact(() => undefined);
    return ledger;
  },
  ledgerPrivatizeText: (ledger, context, text, pairs, fresh, diagnostics) =>
    ledger.transact((handle) =>
      privatizeCall(context, pairs, diagnostics, (frame, options, record, counts) => {
        const out = frame.alloc(12); // char*, size_t, bool (wasm32)
        frame.core.run('dxt_ledger_privatize_text', handle, context.ptr, options, ...frame.string(text),
          fresh ? DXT_LEDGER_FRESH : 0, out, out + 4, out + 8, record, counts);
        return { memoised: frame.core.m.HEAPU8[out + 8] !== 0, text: stringAt(frame.core, out, true) };
      }),
    ),
  // The totals, anchor and JSON as of the ledger's last call.
  ledgerTotals: (ledger) =>
    ledger.withLedger((frame, handle) => frame.filled('dxt_ledger_totals', 'dxt_ledger_get_totals', handle)),
  ledgerAnchor: (ledger) => ledger.anchor.toBytes(),
  ledgerJson: (ledger) => ledger.withLedger((frame, handle) => frame.json('dxt_ledger_to_json', handle)),
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

// Each ledger store's transactions run one at a time: a store with a name
// under the Web Lock of that name where the platform has them
// (navigator.locks: every tab and worker of an origin), else in a queue of
// this realm, by its name or, without one, of the store object itself.
const ledgerQueues = new Map();

function underLedgerLock(store, body) {
  const named = typeof store.name === 'string' && store.name !== '';
  const locks = globalThis.navigator?.locks;
  if (named && typeof locks?.request === 'function') return locks.request(`dxtext-ledger:${store.name}`, body);
  const key = named ? store.name : store;
  const next = (ledgerQueues.get(key) || Promise.resolve()).then(body);
  const settled = next.then(
    () => undefined,
    () => undefined,
  );
  ledgerQueues.set(key, settled);
  settled.then(() => {
    if (ledgerQueues.get(key) === settled) ledgerQueues.delete(key);
  });
  return next;
}

// use(the FileHandle of `path` opened with `flags`, a new file only for its
// owner), closed after (Node).
async function withFile(fs, path, flags, use) {
  const handle = await fs.open(path, flags, 0o600);
  try {
    await use(handle);
  } finally {
    await handle.close();
  }
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
    this.settings = settings;
    this.bytes = null;
    this.anchor = settings.anchor;
  }

  // body(frame, handle) on a dxt_ledger opened in a frame from `bytes` (by
  // default those of the last transaction); with `anchor` (a LedgerAnchor),
  // bytes older than it are refused.
  withLedger(body, bytes = this.bytes, anchor = null) {
    const { core } = this;
    const { scope, cap, memoCapacity, key } = this.settings;
    return withFrame(core, (frame) => {
      const anchorAt = anchor ? frame.struct('dxt_ledger_anchor') : 0;
      if (anchor) core.run('dxt_ledger_anchor_decode', frame.copy(anchor._bytes), ANCHOR_BYTES, anchorAt);
      const options = frame.struct('dxt_ledger_options', {
        cap, memoCapacity, anchor: anchorAt, ...(key && { key: frame.copy(key), keyLength: key.length }),
      });
      const data = bytes.length ? frame.copy(bytes) : 0; // none: a new ledger
      const handle = frame.out('dxt_ledger_open_memory', data, bytes.length, frame.string(scope)[0], options);
      frame.onFree(() => core.call('dxt_ledger_close', handle));
      return body(frame, handle);
    });
  }

  // One transaction under the store's lock: load, body(handle), and store
  // the new bytes if they changed, before resolving with body's result.
  transact(body) {
    const { core } = this;
    return underLedgerLock(this.store, async () => {
      const loaded = bytesOf(await this.store.load(), "the store's load()");
      const { result, bytes, anchor } = this.withLedger((frame, handle) => {
        const value = body(handle);
        const [saved, size] = frame.written('dxt_ledger_save', handle);
        const anchor = frame.struct('dxt_ledger_anchor');
        const encoded = frame.alloc(ANCHOR_BYTES);
        core.run('dxt_ledger_get_anchor', handle, anchor);
        core.run('dxt_ledger_anchor_encode', anchor, encoded, ANCHOR_BYTES);
        return { result: value, bytes: core.bytes(saved, size).slice(), anchor: new LedgerAnchor(core.bytes(encoded, ANCHOR_BYTES)) };
      }, loaded, this.anchor);
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
          await withFile(fs, temp, 'w', (out) => out.writeFile(data).then(() => out.sync()));
          await fs.rename(temp, file);
          // The directory synced too, else the rename itself may not survive a power loss.
          if (process.platform !== 'win32') await withFile(fs, dirname(file), 'r', (dir) => dir.sync());
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
      return ledger.transact((handle) => ledger.core.run('dxt_ledger_set_cap', handle, cap));
    });
  }
}

// --------------------------------------------------------------------------
// Web Workers: the same API, with the backend's calls made in a worker.

// The calls of the backend that a worker answers (serveWorker): all but the
// ledger's (a worker carries no ledgers) and modelInfo (a model's info comes
// with the model). The OPENERS take no handle.
const OPENERS = ['versionString', 'modelOpen', 'modelFromBuffer', 'modelOpenDefault'];
const WORKER_CALLS = new Set(Object.keys(backend).filter((call) => !call.startsWith('ledger') && call !== 'modelInfo'));

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
    const { error } = data;
    if (!error) waiting.resolve(data.result);
    else if (typeof error.status === 'number') waiting.reject(errorFor(error.status, error.message));
    else waiting.reject(new (error.name === 'TypeError' ? TypeError : Error)(error.message));
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
        const opener = OPENERS.includes(method);
        if (!WORKER_CALLS.has(method)) throw invalid(`unknown request '${method}'`);
        if (!opener && !objects.has(handle)) throw invalid('the object is closed');
        const result = await backend[method](...(opener ? [] : [objects.get(handle)]), ...args);
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
