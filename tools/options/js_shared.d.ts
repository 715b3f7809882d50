// SPDX-License-Identifier: Apache-2.0
// The TypeScript declarations that the Node.js binding (bindings/node/lib/index.d.ts)
// and the WebAssembly package (bindings/wasm/js/dxtext.d.ts) share: their one API.
// tools/options/generate.py copies each section into both files, between the
// "shared:" marker lines there; edit them here, then run it.

//# section types
export type Mechanism = 'laplace' | 'hyperbolic' | 'exponential' | 'syntf' | 'mahalanobis' | 'vickrey' | 'tem';
export type Policy = 'privatize' | 'placeholder' | 'drop' | 'keep';
export type Geometry = 'euclidean' | 'poincare';
/** The presets of tools/options/presets.table (docs/options.md, "Presets"). */
export type Preset = 'readable' | 'features' | 'strongest';

/** The options of docs/options.md (tools/options/privatize_options.table); camelCase, or the
    table's snake_case. The library checks every name and value (an unknown name is refused). */
export interface OptionsObject {
  //# options: generate.py writes one member per row of tools/options/privatize_options.table here
  /** true adds localDiagnostics (token counts of the input) to the result. */
  localDiagnostics?: boolean;
}
/** A number is the epsilon with every other option at its default. */
export type Options = number | OptionsObject;

export interface ActionCounts {
  privatized: number;
  placeholder: number;
  dropped: number;
  kept: number;
}

/**
 * What a call released and the guarantee it carries: safe to send with the output. Its fields
 * are those of dxt_release_record (include/dxtext/dxtext.h documents each), in camelCase.
 */
export interface ReleaseRecord {
  //# record: the fields of dxt_release_record (include/dxtext/dxtext.h documents each), camelCase
  json: string;
}

/** Token counts of the input. They describe the input: keep them on the device. */
export interface LocalDiagnostics {
  counts: { inVocabulary: ActionCounts; outOfVocabulary: ActionCounts; number: ActionCounts; stopword: ActionCounts };
  wordsPrivatized: number;
  wordsLeaked: number;
  json: string;
}

export interface ModelInfo {
  formatMajor: number;
  formatMinor: number;
  dimension: number;
  vocabularySize: number;
  geometry: Geometry | 'unknown';
  quantization: 'f32' | 'f16' | 'int8' | 'unknown';
  lowercase: boolean;
  hasFrequencies: boolean;
}

export interface Calibration {
  words: number;
  trials: number;
  keepMean: number;
  keepMedian: number;
  keepMax: number;
  distinctMean: number;
  distinctMedian: number;
  distinctMax: number;
}

export type Bag = Map<string, number> | Record<string, number> | Array<[string, number]>;
export interface TextResult {
  text: string;
  record: ReleaseRecord;
  localDiagnostics?: LocalDiagnostics;
}
export interface BagResult {
  bag: Map<string, number>;
  record: ReleaseRecord;
  localDiagnostics?: LocalDiagnostics;
}

//# section model
  readonly path: string | null;
  readonly info: Readonly<ModelInfo>;
  readonly size: number;
  readonly closed: boolean;
  fingerprint(): Promise<string>;
  /** The vocabulary index of a word; rejects with NotFoundError when absent. */
  lookup(word: string): Promise<number>;
  has(word: string): Promise<boolean>;
  word(index: number): Promise<string>;
  /** An output vocabulary of this model, for options.outputWords. */
  outputSet(words: string[]): Promise<OutputSet>;
  close(): void;

//# section module
/** A public list of a model's words that the mechanisms may release (Model.outputSet). */
export class OutputSet {
  private constructor();
  readonly words: readonly string[];
  readonly size: number;
  readonly closed: boolean;
  close(): void;
}

export class Privatizer {
  /** `seed` (32 bytes or 64 hex digits) makes the noise reproducible and NOT private. */
  constructor(model: Model, options?: { seed?: Uint8Array | string });
  readonly model: Model;
  privatizeWord(word: string, options?: Options): Promise<TextResult>;
  privatizeText(text: string, options?: Options): Promise<TextResult>;
  privatizeBag(bag: Bag, options?: Options): Promise<BagResult>;
  /** options.mechanism is ignored: SynTF runs its own mechanism. */
  syntf(bag: Bag, nOut: number, options?: Options): Promise<BagResult>;
  calibrate(options?: Options, sample?: { words?: number; trials?: number }): Promise<Calibration>;
  close(): Promise<void>;
}

/** The dxtext library version, "major.minor.patch". */
export function libraryVersion(): Promise<string>;
/** DXT_EPSILON_MIN and DXT_EPSILON_MAX: the range of epsilon every call accepts. */
export const EPSILON_MIN: number;
export const EPSILON_MAX: number;
/** DXT_MAX_BAG_WORDS: the largest total count of a bag, and the largest nOut. */
export const MAX_BAG_WORDS: number;
export const MECHANISM_NAMES: readonly Mechanism[];
export const PRESET_NAMES: readonly Preset[];
/** dxt_status codes (include/dxtext/dxtext.h). */
export const Status: Readonly<Record<
  | 'OK' | 'INVALID_ARGUMENT' | 'INVALID_EPSILON' | 'IO' | 'NOT_A_MODEL' | 'UNSUPPORTED_VERSION' | 'CORRUPT_MODEL'
  | 'TRUNCATED_MODEL' | 'DIGEST_MISMATCH' | 'OUT_OF_MEMORY' | 'RNG_FAILURE' | 'INVALID_UTF8' | 'NOT_FOUND'
  | 'UNSUPPORTED' | 'INPUT_TOO_LARGE' | 'PARSE' | 'INTERNAL' | 'CONTEXT_BUSY' | 'BUDGET_EXCEEDED' | 'LEDGER_CORRUPT'
  | 'LEDGER_ROLLBACK',
  number
>>;

/** A failed call: `status` is the dxt_status number, `code` its C name ('DXT_E_INVALID_EPSILON'). */
export class DxtextError extends Error {
  readonly status: number;
  readonly code: string;
}
export class InvalidArgumentError extends DxtextError {}
export class InvalidEpsilonError extends DxtextError {}
export class FileError extends DxtextError {}
export class ModelError extends DxtextError {}
export class NotAModelError extends ModelError {}
export class UnsupportedVersionError extends ModelError {}
export class CorruptModelError extends ModelError {}
export class TruncatedModelError extends ModelError {}
export class DigestMismatchError extends ModelError {}
export class OutOfMemoryError extends DxtextError {}
export class RandomGeneratorError extends DxtextError {}
export class InvalidUtf8Error extends DxtextError {}
export class NotFoundError extends DxtextError {}
export class UnsupportedError extends DxtextError {}
export class InputTooLargeError extends DxtextError {}
export class ParseError extends DxtextError {}
export class InternalError extends DxtextError {}
export class ContextBusyError extends DxtextError {}
export class BudgetExceededError extends DxtextError {}
export class LedgerCorruptError extends DxtextError {}
/** The ledger is older than the anchor the app kept for it (status 20): an
    earlier copy was put back, or it was deleted or replaced. Nothing was
    drawn or released. */
export class LedgerRollbackError extends DxtextError {}

/**
 * What the app keeps outside the ledger to detect a rollback (an older copy
 * put back, or the ledger deleted): take it with ledger.anchor() after every
 * call, store toBytes() where the ledger's writer cannot change it (a
 * keystore, a server), and give LedgerAnchor.fromBytes(stored) to
 * Ledger.open({ anchor }). Without it a rollback is not detected
 * (docs/budgets.md, "Rollback").
 */
export class LedgerAnchor {
  /** The anchor from the 32 bytes toBytes() gave; InvalidArgumentError for any other length. */
  static fromBytes(bytes: Uint8Array | ArrayBuffer | ArrayBufferView): LedgerAnchor;
  /** The 32 bytes to store: the ledger id, then the commits and the spent total (little-endian). */
  toBytes(): Uint8Array;
  /** 16 bytes naming the ledger: the same for every copy of it. */
  readonly ledgerId: Uint8Array;
  /** Commits made to the ledger; only grows. */
  readonly commits: bigint;
  /** Epsilon spent over all the ledger's scopes; only grows. */
  readonly spent: number;
  equals(other: unknown): boolean;
}

export interface LedgerTotals {
  readonly cap: number;
  readonly spent: number;
  readonly spentAnyInputs: number;
  readonly releases: number;
  readonly memoised: number;
  readonly memoCapacity: number;
  readonly words: number;
}
