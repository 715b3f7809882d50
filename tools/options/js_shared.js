// SPDX-License-Identifier: Apache-2.0
// The JavaScript that the Node.js package (lib/shared.js) and the
// WebAssembly package (js/shared.js) share: one API, so one copy of what is
// not specific to either platform. tools/options/generate.py copies it into
// both, as a CommonJS and an ES module (every top-level function and const
// is exported), with OPTIONS of options_table.js in scope.
//
// - The shapes of release records and local diagnostics built from their
//   values (recordOf, diagnosticsOf); the names of the C enums' values and
//   the record's fields are generate.py's, from include/dxtext/dxtext.h.
// - Status (the dxt_status codes, which generate.py reads from
//   include/dxtext/dxtext.h and writes above this file's code), the error
//   classes, and errorFor: the error of a status.
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
  throw errorFor(Status.INVALID_ARGUMENT, `${what} must be a Uint8Array, an ArrayBuffer or null`);
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
      throw errorFor(Status.INVALID_ARGUMENT, `a ledger anchor is ${ANCHOR_BYTES} bytes`);
    }
    this._bytes = Uint8Array.from(bytes); // a copy
    Object.freeze(this);
  }

  // The anchor from the 32 bytes toBytes() gave (a Uint8Array or Buffer,
  // another view or an ArrayBuffer).
  static fromBytes(bytes) {
    if (!(bytes instanceof ArrayBuffer || ArrayBuffer.isView(bytes))) {
      throw errorFor(Status.INVALID_ARGUMENT, 'LedgerAnchor.fromBytes takes a Uint8Array, another view or an ArrayBuffer');
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
