// SPDX-License-Identifier: Apache-2.0
// Types of dxtext.js, the JavaScript wrapper of the dxtext WebAssembly module: the same API as
// the Node.js binding's (bindings/node/lib/index.d.ts), apart from file access.

// shared: types (from tools/options/js_shared.d.ts by tools/options/generate.py; do not edit)
export type Mechanism = 'laplace' | 'hyperbolic' | 'exponential' | 'syntf' | 'mahalanobis' | 'vickrey' | 'tem';
export type Policy = 'privatize' | 'placeholder' | 'drop' | 'keep';
export type Geometry = 'euclidean' | 'poincare';
/** The presets of tools/options/presets.table (docs/options.md, "Presets"). */
export type Preset = 'readable' | 'features' | 'strongest';

/** The options of docs/options.md (tools/options/privatize_options.table); camelCase, or the
    table's snake_case. The library checks every name and value (an unknown name is refused). */
export interface OptionsObject {
  /** the privacy parameter: outputs for w and w' differ by at most epsilon * d(w, w') (default required). */
  epsilon?: number;
  /** the mechanism (docs/guarantees.md) (default laplace). */
  mechanism?: 'laplace' | 'hyperbolic' | 'exponential' | 'syntf' | 'mahalanobis' | 'vickrey' | 'tem' | 'ordering';
  /** words of the vocabulary (default privatize). */
  inVocabulary?: 'privatize' | 'placeholder' | 'drop' | 'keep';
  /** out-of-vocabulary words (privatised from one fixed point shared by all of them) (default privatize). */
  oov?: 'privatize' | 'placeholder' | 'drop' | 'keep';
  /** numbers (default privatize). */
  numbers?: 'privatize' | 'placeholder' | 'drop' | 'keep';
  /** stopwords (default privatize). */
  stopwords?: 'privatize' | 'placeholder' | 'drop' | 'keep';
  /** what the placeholder policy writes (default [redacted]). */
  placeholder?: string;
  /** tem: the truncation radius gamma (default 0). */
  temGamma?: number;
  /** tem: beta of Carvalho et al. 2023 (default 0.001). */
  temBeta?: number;
  /** vickrey: the weight t of the first neighbour (default 0.75). */
  vickreyT?: number;
  /** mahalanobis: lambda of Sigma_lambda = lambda Sigma + (1 - lambda) I (default 0.75). */
  mahalanobisLambda?: number;
  /** syntf: the weight s of the letter-bigram term (default 0.3). */
  syntfS?: number;
  /** exponential: the sampler (default gumbel). */
  sampler?: 'gumbel' | 'permute-and-flip';
  /** decoding of laplace, vickrey, mahalanobis: exact, or the model's search index (default exact). */
  search?: 'exact' | 'ivf';
  /** ivf: the index cells scanned (default 0). */
  ivfNprobe?: number;
  /** what of the input's form a text shows: keep (spans and case shape verbatim), normalize (one canonical separator per gap, sentence capitals), strict (words only, one space apart); docs/guarantees.md (default keep). */
  releaseShape?: 'keep' | 'normalize' | 'strict';
  /** the output vocabulary: release only the N most frequent words of the model (its frequencies section); docs/guarantees.md, "Output vocabularies" (default 0). */
  outputTop?: number;
  /** the output vocabulary: release only words of a public list the application ships (never one made from the text being privatised); docs/guarantees.md, "Output vocabularies" (default none). */
  outputWords?: OutputSet | string[];
  /** a named bundle of mechanism, epsilon, release shape, output vocabulary and token policies (Presets, below): the options it fixes may only be left at their defaults or set to its values; epsilon, when given, overrides its epsilon (default none). */
  preset?: 'none' | 'readable' | 'features' | 'strongest';
  /** person names (first names, surnames; the model's typed classes section): replace = a name drawn uniformly from the same list, placeholder = [name], drop = nothing (only the word count shows it), privatize = an ordinary word, keep = a named leak; docs/guarantees.md, "Typed replacement" (default privatize). */
  names?: 'privatize' | 'placeholder' | 'replace' | 'keep' | 'drop';
  /** cities, regions, countries: replace = one of the same class drawn uniformly, placeholder = [city] [region] [country] (default privatize). */
  places?: 'privatize' | 'placeholder' | 'replace' | 'keep' | 'drop';
  /** organisations the model lists: replace = one drawn uniformly, placeholder = [organization] (default privatize). */
  organizations?: 'privatize' | 'placeholder' | 'replace' | 'keep' | 'drop';
  /** numbers of every shape (digits, amounts, dates, versions, ordinals, number words), phone numbers, month names and clock times: replace = a uniform number (number_shape), month or time of day (in the time's 12- or 24-hour shape), placeholder = [number] [phone] [month] [time]; privatize leaves them to the numbers policy (default privatize). */
  typedNumbers?: 'privatize' | 'placeholder' | 'replace' | 'keep' | 'drop';
  /** e-mail addresses, URLs, user handles, street addresses (each one token): replace = one drawn uniformly from a public pattern (name00@example.com, https://example.com/xxxxxx, @name00, 123 Oak Street), placeholder = [email] [url] [handle] [street] (default privatize). */
  addresses?: 'privatize' | 'placeholder' | 'replace' | 'keep' | 'drop';
  /** health terms (conditions, drugs; WordNet): replace = one of the same class drawn uniformly, placeholder = [condition] [drug] (default privatize). */
  health?: 'privatize' | 'placeholder' | 'replace' | 'keep' | 'drop';
  /** on: within one call, equal typed tokens get the same replacement (the release then shows which typed tokens were the same entity) (default off). */
  typedConsistent?: 'off' | 'on';
  /** what a replaced number keeps: hide (a uniform 0..99; a phone a uniform NNN-NNN-NNNN) or keep (separators and digit count kept, every digit drawn: reveals the shape); a clock time keeps its 12- or 24-hour shape either way, except under the strict shape with hide (a uniform HH:MM) (default hide). */
  numberShape?: 'hide' | 'keep';
  /** the uniform floor p: each privatised word is released, with probability p, as a word drawn uniformly from the output vocabulary (n words), which caps the loss per word at ln(1 + (1 - p) m n / p) nats, m the largest probability of one output (the record's worst_case_per_word); docs/guarantees.md, "The uniform floor" (default 0). */
  floor?: number;
  /** negators (not, never, no, nothing, nobody, none, neither, nor, nowhere, without, cannot, nope, nah, words ending in n't): keep = released as written, and no other word is released as one (the output vocabulary leaves them out), so a release keeps exactly its input's negations; reveals which words are negators; not with the strict shape nor syntf; docs/guarantees.md, "Negations" (default privatize). */
  negations?: 'privatize' | 'keep';
  /** the context prior's strength B: after the release of a word c, each candidate y is weighted by min(1 + B, lift(c, y)), how much more often y follows c in the model's public text, and the law renormalised, so that replacements fit the word before them; c is the word released just before, when only spaces separate them; the loss per word becomes eps * d + min(eps * d, ln(1 + B)); docs/guarantees.md, "The context prior" (default 0). */
  contextPrior?: number;
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
  readonly mechanism: 'unknown' | 'laplace' | 'hyperbolic' | 'exponential' | 'syntf' | 'mahalanobis' | 'vickrey' | 'tem' | 'ordering';
  /** per word, per unit of the metric */
  readonly epsilon: number;
  /** dxt_metric: the distance d of the bound */
  readonly metric: 'unknown' | 'euclidean' | 'hyperbolic' | 'mahalanobis' | 'discrete' | 'ordering';
  readonly rngMode: 'unknown' | 'system' | 'deterministic';
  /** false when rng_mode is deterministic or DXT_REVEALS_INPUT_WORDS is set */
  readonly isPrivate: boolean;
  /** SHA-256 of the model file */
  readonly modelFingerprint: string | null;
  readonly release: 'unknown' | 'word' | 'text' | 'bag' | 'syntheticBag';
  readonly bound: 'unknown' | 'word' | 'positionwise' | 'bagEmd' | 'anyInputs';
  readonly reveals: Array<'wordCount' | 'layout' | 'caseShape' | 'tokenClasses' | 'keptWords' | 'sentenceBoundaries' | 'clauseBoundaries' | 'typedClasses' | 'inputWords' | 'negations'>;
  /** DXT_BOUND_ANY_INPUTS: the number of draws n_out; 0 otherwise. */
  readonly draws: number;
  /** DXT_BOUND_ANY_INPUTS: epsilon * draws; 0 otherwise. */
  readonly epsilonTotal: number;
  readonly epsilonVocabulary: number;
  /** dxt_release_shape of the call (DXT_SHAPE_KEEP by default) */
  readonly releaseShape: 'keep' | 'normalize' | 'strict' | 'unknown';
  /** dxt_output_kind: the words the mechanism could release */
  readonly outputKind: 'vocabulary' | 'top' | 'list' | 'unknown';
  /** how many words those are */
  readonly outputSize: number;
  /** SHA-256 of those words (all zero for the whole vocabulary) */
  readonly outputDigest: string | null;
  /** the dxt_preset the options named (DXT_PRESET_NONE when none) */
  readonly preset: 'none' | 'readable' | 'features' | 'strongest' | 'unknown';
  /** bit (1u << dxt_typed_class) of each class whose tokens become a member or its placeholder */
  readonly typedClasses: number;
  readonly typedFlags: number;
  /** the floor p of the options (0: none) */
  readonly uniformFloor: number;
  /** the largest loss in nats of one privatised word (infinity: none known) */
  readonly worstCasePerWord: number;
  /** bit (1u << dxt_typed_class) of each class whose tokens are dropped */
  readonly typedDropped: number;
  /** the strength B of the context prior (0: none) */
  readonly contextPrior: number;
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
// shared: end types

export class Model {
  private constructor();
  /** The .dxe file at `path`. Node only: a browser fetches the bytes for fromBuffer (UnsupportedError). */
  static open(path: string, options?: { verifyDigests?: boolean }): Promise<Model>;
  /** A model from its bytes (copied). */
  static fromBuffer(data: ArrayBuffer | ArrayBufferView, options?: { verifyDigests?: boolean }): Promise<Model>;
  /** The default model. The Euclidean model the package carries (fetched in a browser); 'poincare': NotFoundError. */
  static openDefault(geometry?: Geometry, options?: { verifyDigests?: boolean }): Promise<Model>;
  // shared: model (from tools/options/js_shared.d.ts by tools/options/generate.py; do not edit)
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
  // shared: end model
}

// shared: module (from tools/options/js_shared.d.ts by tools/options/generate.py; do not edit)
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
// shared: end module

/**
 * Where a Ledger keeps its bytes. load() gives null when there is no ledger
 * yet; save() must replace the bytes in one atomic write. `name` names the
 * Web Lock shared by the tabs and workers of an origin (without it, calls
 * are serialised in this realm only).
 */
export interface LedgerStore {
  load(): Uint8Array | ArrayBuffer | null | Promise<Uint8Array | ArrayBuffer | null>;
  save(bytes: Uint8Array): void | Promise<void>;
  readonly name?: string;
}

/**
 * A privacy budget per scope in the app's own storage (docs/budgets.md, "A
 * ledger in the caller's storage"): every call loads the bytes, runs, and
 * stores the new bytes before it resolves. A string is a file path under
 * Node (fileStore), a localStorage key in a browser (localStorageStore).
 * Store ledger.anchor().toBytes() outside the ledger's store after every
 * call and pass LedgerAnchor.fromBytes(stored) as options.anchor to open():
 * without it older bytes put back in the store are not detected.
 */
export class Ledger {
  private constructor();
  /** Rejects with LedgerRollbackError when the stored bytes are older than `anchor`. */
  static open(
    store: string | LedgerStore,
    options?: { scope?: string; cap?: number; memoCapacity?: number; key?: Uint8Array; anchor?: LedgerAnchor },
  ): Promise<Ledger>;
  static memoryStore(bytes?: Uint8Array | null): LedgerStore & { readonly bytes: Uint8Array | null };
  static localStorageStore(key: string, storage?: { getItem(key: string): string | null; setItem(key: string, value: string): void }): LedgerStore;
  static fileStore(filePath: string): LedgerStore;
  privatizeText(
    privatizer: Privatizer,
    text: string,
    options: Options,
    flags?: { fresh?: boolean },
  ): Promise<TextResult & { memoised: boolean }>;
  /** As of this object's last call; refresh() reads the store again. */
  totals(): LedgerTotals;
  /** As of this object's last call: store its toBytes() outside the store after every call. */
  anchor(): LedgerAnchor;
  toJSON(): Record<string, unknown>;
  refresh(): Promise<void>;
  setCap(cap: number): Promise<void>;
  close(): Promise<void>;
}

/** Options of emscripten's module factory, e.g. locateFile or wasmBinary. */
export interface ModuleOptions {
  locateFile?: (name: string, prefix: string) => string;
  wasmBinary?: ArrayBuffer | Uint8Array;
  [key: string]: unknown;
}
/** Instantiate the WebAssembly module now (otherwise the first call does); the options apply to the first instantiation. */
export function load(moduleOptions?: ModuleOptions): Promise<void>;

/** A model living in a worker: Model's API, every method a promise (close() too). */
export interface WorkerModel extends Omit<Model, 'outputSet' | 'close'> {
  outputSet(words: string[]): Promise<WorkerOutputSet>;
  close(): Promise<void>;
}
export interface WorkerOutputSet extends Omit<OutputSet, 'close'> {
  close(): Promise<void>;
}
export type WorkerOptions = number | (Omit<OptionsObject, 'outputWords'> & { outputWords?: WorkerOutputSet | string[] });
export interface WorkerPrivatizer {
  readonly model: WorkerModel;
  privatizeWord(word: string, options?: WorkerOptions): Promise<TextResult>;
  privatizeText(text: string, options?: WorkerOptions): Promise<TextResult>;
  privatizeBag(bag: Bag, options?: WorkerOptions): Promise<BagResult>;
  syntf(bag: Bag, nOut: number, options?: WorkerOptions): Promise<BagResult>;
  calibrate(options?: WorkerOptions, sample?: { words?: number; trials?: number }): Promise<Calibration>;
  close(): Promise<void>;
}
/** dxtext in a worker: the same Model and Privatizer API, run off the calling thread. */
export interface WorkerDxtext {
  Model: {
    open(path: string, options?: { verifyDigests?: boolean }): Promise<WorkerModel>;
    fromBuffer(data: ArrayBuffer | ArrayBufferView, options?: { verifyDigests?: boolean }): Promise<WorkerModel>;
    openDefault(geometry?: Geometry, options?: { verifyDigests?: boolean }): Promise<WorkerModel>;
  };
  Privatizer: new (model: WorkerModel, options?: { seed?: Uint8Array | string }) => WorkerPrivatizer;
  libraryVersion(): Promise<string>;
  terminate(): void;
}
/** The methods of a worker's Model and Privatizer whose work runs in the worker. */
export const WORKER_METHODS: Readonly<{ model: readonly string[]; privatizer: readonly string[] }>;
/** dxtext in `worker` (a Worker running dxtext-wasm/worker.js). */
export function connectWorker(worker: Worker): WorkerDxtext;
/** A module worker running dxtext-wasm/worker.js, connected (browsers). */
export function createWorker(): WorkerDxtext;
/** Answers connectWorker's calls in a worker: what dxtext-wasm/worker.js runs, given the worker's global scope. */
export function serveWorker(scope: {
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  postMessage(message: unknown): void;
}): void;
