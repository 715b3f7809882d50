// SPDX-License-Identifier: Apache-2.0
// Types of dxtext.js, the JavaScript wrapper of the dxtext WebAssembly module.

export type Mechanism = 'laplace' | 'hyperbolic' | 'exponential' | 'syntf' | 'mahalanobis' | 'vickrey' | 'tem';
export type Policy = 'privatize' | 'placeholder' | 'drop' | 'keep';

export interface PrivatizeOptions {
  /** Required: in [EPSILON_MIN, EPSILON_MAX]. Per word the guarantee is epsilon * d(w, w'). */
  epsilon: number;
  mechanism?: Mechanism;
  inVocabulary?: Policy;
  oov?: Policy;
  numbers?: Policy;
  stopwords?: Policy;
  /** Replacement for the 'placeholder' policy (default "[redacted]"). */
  placeholder?: string;
  temGamma?: number;
  temBeta?: number;
  vickreyT?: number;
  mahalanobisLambda?: number;
  syntfS?: number;
  sampler?: 'gumbel' | 'permute-and-flip';
  /** Decoding: 'exact' (the default) or through the model's search index. */
  search?: 'exact' | 'ivf';
  /** What of the input's form a text shows: 'keep' (default), 'normalize' or 'strict' (docs/guarantees.md). */
  releaseShape?: 'keep' | 'normalize' | 'strict';
  /** Index cells scanned with search 'ivf' (0 or absent: the library's default). */
  ivfNprobe?: number;
  /** 64 hex digits or 32 bytes: reproducible noise, NOT private. */
  seed?: string | Uint8Array;
  /** Return { text | bag, record } instead of the bare result: the release
      record (the guarantee and what the output reveals), safe to send. */
  withRecord?: boolean;
  /** Add localDiagnostics (token counts of the input) to the returned object.
      They describe the input: keep them on the device. */
  withLocalDiagnostics?: boolean;
}

export interface ActionCounts {
  privatized: number;
  placeholder: number;
  dropped: number;
  kept: number;
}

/** What a call released and the guarantee it carries: safe to send with the output. */
export interface ReleaseRecord {
  release: 'word' | 'text' | 'bag' | 'syntheticBag' | 'unknown';
  mechanism: Mechanism | 'unknown';
  /** Per word, per unit of the metric. */
  epsilon: number;
  metric: 'euclidean' | 'hyperbolic' | 'mahalanobis' | 'discrete' | 'unknown';
  rngMode: 'system' | 'deterministic' | 'unknown';
  isPrivate: boolean;
  /** SHA-256 of the model file, 64 hex digits. */
  modelFingerprint: string | null;
  /** word: eps*d(w,w'); positionwise (ordered text): eps*sum_i d(x_i,x'_i);
      bagEmd: eps*N*EMD(b,b'); anyInputs: epsilonTotal-DP between any two inputs. */
  bound: 'word' | 'positionwise' | 'bagEmd' | 'anyInputs' | 'unknown';
  /** Features of the input the output shows as they are. */
  reveals: Array<
    'wordCount' | 'layout' | 'caseShape' | 'tokenClasses' | 'keptWords' | 'sentenceBoundaries' | 'clauseBoundaries'
  >;
  /** anyInputs: the number of draws; 0 otherwise. */
  draws: number;
  /** anyInputs: epsilon * draws; 0 otherwise. */
  epsilonTotal: number;
  /** syntf only (0 otherwise): eps + ln eta(eps, V) <= eps, usable in place of epsilon. */
  epsilonVocabulary: number;
  /** What of the input's form the text release copied. */
  releaseShape: 'keep' | 'normalize' | 'strict' | 'unknown';
  /** The record as one line of JSON, as the C library writes it. */
  json: string;
}

/** Token counts of the input. They describe the input: keep them on the device. */
export interface LocalDiagnostics {
  counts: { inVocabulary: ActionCounts; outOfVocabulary: ActionCounts; number: ActionCounts; stopword: ActionCounts };
  wordsPrivatized: number;
  wordsLeaked: number;
  json: string;
}

type WithOutputs = { withRecord: true } | { withLocalDiagnostics: true };
type Outputs = { record?: ReleaseRecord; localDiagnostics?: LocalDiagnostics };

export interface ModelInfo {
  formatVersion: string;
  dimension: number;
  vocabularySize: number;
  geometry: 'euclidean' | 'poincare' | 'unknown';
  quantization: 'f32' | 'f16' | 'int8' | 'unknown';
  lowercase: boolean;
  hasFrequencies: boolean;
}

export type BagInput = Map<string, number> | Record<string, number> | Iterable<[string, number]>;

/** The promise methods a model has, in this thread or in a worker. */
export interface ModelCalls {
  readonly info: ModelInfo;
  fingerprint(): Promise<string>;
  has(word: string): Promise<boolean>;
  privatize(text: string, options: PrivatizeOptions & WithOutputs): Promise<{ text: string } & Outputs>;
  privatize(text: string, options: PrivatizeOptions): Promise<string>;
  privatizeWord(word: string, options: PrivatizeOptions & WithOutputs): Promise<{ text: string } & Outputs>;
  privatizeWord(word: string, options: PrivatizeOptions): Promise<string>;
  privatizeBag(bag: BagInput, options: PrivatizeOptions & WithOutputs): Promise<{ bag: Map<string, number> } & Outputs>;
  privatizeBag(bag: BagInput, options: PrivatizeOptions): Promise<Map<string, number>>;
  syntf(bag: BagInput, nOut: number, options: PrivatizeOptions & WithOutputs): Promise<{ bag: Map<string, number> } & Outputs>;
  syntf(bag: BagInput, nOut: number, options: PrivatizeOptions): Promise<Map<string, number>>;
  calibrate(words: number, trials: number, options: PrivatizeOptions): Promise<Calibration>;
}

export declare class Model implements ModelCalls {
  readonly closed: boolean;
  readonly info: ModelInfo;
  close(): void;
  fingerprint(): Promise<string>;
  has(word: string): Promise<boolean>;
  privatize(text: string, options: PrivatizeOptions & WithOutputs): Promise<{ text: string } & Outputs>;
  privatize(text: string, options: PrivatizeOptions): Promise<string>;
  privatizeWord(word: string, options: PrivatizeOptions & WithOutputs): Promise<{ text: string } & Outputs>;
  privatizeWord(word: string, options: PrivatizeOptions): Promise<string>;
  privatizeBag(bag: BagInput, options: PrivatizeOptions & WithOutputs): Promise<{ bag: Map<string, number> } & Outputs>;
  privatizeBag(bag: BagInput, options: PrivatizeOptions): Promise<Map<string, number>>;
  syntf(bag: BagInput, nOut: number, options: PrivatizeOptions & WithOutputs): Promise<{ bag: Map<string, number> } & Outputs>;
  syntf(bag: BagInput, nOut: number, options: PrivatizeOptions): Promise<Map<string, number>>;
  calibrate(words: number, trials: number, options: PrivatizeOptions): Promise<Calibration>;
}

/** A model living in a worker (connectWorker). */
export interface WorkerModel extends ModelCalls {
  readonly closed: boolean;
  close(): Promise<void>;
}

/** dxtext running in a worker that runs dxtext-wasm/worker.js. */
export interface WorkerDxtext {
  version(): Promise<string>;
  loadModel(data: ArrayBuffer | ArrayBufferView, options?: LoadModelOptions): Promise<WorkerModel>;
  loadDefaultModel(options?: LoadModelOptions): Promise<WorkerModel>;
  terminate(): void;
}

/** N_w (keep*) and S_w (distinct*) over `words` sampled words, `trials` each. */
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

export interface LoadModelOptions {
  /** Also check every section's SHA-256 (reads the whole model). */
  verifyDigests?: boolean;
}

export declare class Dxtext {
  readonly version: string;
  loadModel(data: ArrayBuffer | ArrayBufferView, options?: LoadModelOptions): Promise<Model>;
  loadModelFile(path: string, options?: LoadModelOptions): Promise<Model>;
  loadDefaultModel(options?: LoadModelOptions): Promise<Model>;
  /** Always rejects with Status.UNSUPPORTED: WebAssembly has no ledger (docs/budgets.md). */
  openLedger(path: string, scope?: string): Promise<never>;
}

export declare const Status: {
  readonly OK: 0;
  readonly INVALID_ARGUMENT: 1;
  readonly INVALID_EPSILON: 2;
  readonly IO: 3;
  readonly NOT_A_MODEL: 4;
  readonly UNSUPPORTED_VERSION: 5;
  readonly CORRUPT_MODEL: 6;
  readonly TRUNCATED_MODEL: 7;
  readonly DIGEST_MISMATCH: 8;
  readonly OUT_OF_MEMORY: 9;
  readonly RNG_FAILURE: 10;
  readonly INVALID_UTF8: 11;
  readonly NOT_FOUND: 12;
  readonly UNSUPPORTED: 13;
  readonly INPUT_TOO_LARGE: 14;
  readonly PARSE: 15;
  readonly INTERNAL: 16;
  readonly CONTEXT_BUSY: 17;
  readonly BUDGET_EXCEEDED: 18;
  readonly LEDGER_CORRUPT: 19;
};

export declare class DxtextError extends Error {
  /** The dxt_status number. */
  readonly status: number;
  /** Its name in Status, e.g. 'INVALID_EPSILON'. */
  readonly code: keyof typeof Status | 'UNKNOWN';
}

/** Options passed to emscripten's module factory, e.g. locateFile or wasmBinary. */
export interface ModuleOptions {
  locateFile?: (name: string, prefix: string) => string;
  wasmBinary?: ArrayBuffer | Uint8Array;
  [key: string]: unknown;
}

export declare function load(moduleOptions?: ModuleOptions): Promise<Dxtext>;
export declare function loadModel(data: ArrayBuffer | ArrayBufferView, options?: LoadModelOptions): Promise<Model>;
export declare function loadModelFile(path: string, options?: LoadModelOptions): Promise<Model>;
/** The default Euclidean model the package carries (models/ beside dxtext.js). */
export declare function loadDefaultModel(options?: LoadModelOptions): Promise<Model>;
export declare const MECHANISM_NAMES: readonly Mechanism[];
/** DXT_EPSILON_MIN and DXT_EPSILON_MAX: the range of epsilon every call accepts. */
export declare const EPSILON_MIN: number;
export declare const EPSILON_MAX: number;
export declare const WORKER_METHODS: readonly string[];
/** dxtext in `worker` (a Worker running dxtext-wasm/worker.js). */
export declare function connectWorker(worker: Worker): WorkerDxtext;
/** Starts dxtext-wasm/worker.js as a module worker and connects to it (browsers). */
export declare function createWorker(): WorkerDxtext;
