// Types of dxtext.js, the JavaScript wrapper of the dxtext WebAssembly module.

export type Mechanism = 'laplace' | 'hyperbolic' | 'exponential' | 'syntf' | 'mahalanobis' | 'vickrey' | 'tem';
export type Policy = 'privatize' | 'placeholder' | 'drop' | 'keep';

export interface PrivatizeOptions {
  /** Required: finite and > 0. Per word the guarantee is epsilon * d(w, w'). */
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
  /** Index cells scanned with search 'ivf' (0 or absent: the library's default). */
  ivfNprobe?: number;
  /** 64 hex digits or 32 bytes: reproducible noise, NOT private. */
  seed?: string | Uint8Array;
  /** Return { text | bag, report } instead of the bare result. */
  withReport?: boolean;
}

export interface ActionCounts {
  privatized: number;
  placeholder: number;
  dropped: number;
  kept: number;
}

export interface Report {
  mechanism: Mechanism | 'unknown';
  epsilon: number;
  metric: 'euclidean' | 'hyperbolic' | 'mahalanobis' | 'discrete' | 'unknown';
  rngMode: 'system' | 'deterministic' | 'unknown';
  isPrivate: boolean;
  /** SHA-256 of the model file, 64 hex digits. */
  modelFingerprint: string | null;
  counts: { inVocabulary: ActionCounts; outOfVocabulary: ActionCounts; number: ActionCounts; stopword: ActionCounts };
  wordsPrivatized: number;
  wordsLeaked: number;
  epsilonPerUnitDistance: number;
  epsilonDocument: number;
  /** syntf only (0 otherwise): (eps + ln eta(eps, V)) * N, from the vocabulary size V. */
  epsilonDocumentVocabulary: number;
  /** The report as one line of JSON, as the C library writes it. */
  json: string;
}

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

export declare class Model {
  readonly closed: boolean;
  readonly info: ModelInfo;
  close(): void;
  fingerprint(): string;
  has(word: string): boolean;
  privatize(text: string, options: PrivatizeOptions & { withReport: true }): { text: string; report: Report };
  privatize(text: string, options: PrivatizeOptions): string;
  privatizeWord(word: string, options: PrivatizeOptions & { withReport: true }): { text: string; report: Report };
  privatizeWord(word: string, options: PrivatizeOptions): string;
  privatizeBag(bag: BagInput, options: PrivatizeOptions & { withReport: true }): { bag: Map<string, number>; report: Report };
  privatizeBag(bag: BagInput, options: PrivatizeOptions): Map<string, number>;
  syntf(bag: BagInput, nOut: number, options: PrivatizeOptions & { withReport: true }): { bag: Map<string, number>; report: Report };
  syntf(bag: BagInput, nOut: number, options: PrivatizeOptions): Map<string, number>;
  calibrate(words: number, trials: number, options: PrivatizeOptions): Calibration;
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
  loadModel(data: ArrayBuffer | ArrayBufferView, options?: LoadModelOptions): Model;
  loadModelFile(path: string, options?: LoadModelOptions): Promise<Model>;
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
export declare const MECHANISMS: Mechanism[];
