// SPDX-License-Identifier: Apache-2.0
// Type declarations of lib/index.js.

export type Mechanism = 'laplace' | 'hyperbolic' | 'exponential' | 'syntf' | 'mahalanobis' | 'vickrey' | 'tem';
export type Policy = 'privatize' | 'placeholder' | 'drop' | 'keep';
export type Geometry = 'euclidean' | 'poincare';

/** The options of docs/options.md (tools/options/privatize_options.table). */
export interface OptionsObject {
  epsilon: number;
  mechanism?: Mechanism;
  inVocabulary?: Policy;
  oov?: Policy;
  numbers?: Policy;
  stopwords?: Policy;
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
  /** release only the model's N most frequent words (0 = all) */
  outputTop?: number;
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

/** What a call released and the guarantee it carries: safe to send with the output. */
export interface ReleaseRecord {
  release: 'word' | 'text' | 'bag' | 'syntheticBag' | 'unknown';
  mechanism: Mechanism | 'unknown';
  /** Per word, per unit of the metric. */
  epsilon: number;
  metric: 'euclidean' | 'hyperbolic' | 'mahalanobis' | 'discrete' | 'unknown';
  rng: 'system' | 'deterministic' | 'unknown';
  isPrivate: boolean;
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

export class Model {
  private constructor();
  static open(path: string, options?: { verifyDigests?: boolean }): Model;
  static fromBuffer(buffer: Uint8Array | ArrayBuffer, options?: { verifyDigests?: boolean }): Model;
  static defaultPath(geometry?: Geometry): string;
  static openDefault(geometry?: Geometry, options?: { verifyDigests?: boolean }): Model;
  readonly path: string | null;
  readonly info: Readonly<ModelInfo>;
  readonly size: number;
  fingerprint(): string;
  lookup(word: string): number;
  word(index: number): string;
  close(): void;
}

export class Privatizer {
  constructor(model: Model, options?: { seed?: Uint8Array });
  readonly model: Model;
  privatizeWord(word: string, options: Options): string;
  privatizeWordWithRecord(
    word: string,
    options: Options,
  ): { text: string; record: ReleaseRecord; localDiagnostics?: LocalDiagnostics };
  privatizeText(
    text: string,
    options: Options,
  ): Promise<{ text: string; record: ReleaseRecord; localDiagnostics?: LocalDiagnostics }>;
  privatizeBag(
    bag: Bag,
    options: Options,
  ): Promise<{ bag: Map<string, number>; record: ReleaseRecord; localDiagnostics?: LocalDiagnostics }>;
  syntf(
    bag: Bag,
    nOut: number,
    options: Options,
  ): Promise<{ bag: Map<string, number>; record: ReleaseRecord; localDiagnostics?: LocalDiagnostics }>;
  calibrate(options: Options, sample?: { words?: number; trials?: number }): Promise<Calibration>;
  close(): Promise<void>;
}

export const version: string;
/** DXT_EPSILON_MIN and DXT_EPSILON_MAX: the range of epsilon every call accepts. */
export const EPSILON_MIN: number;
export const EPSILON_MAX: number;

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

export interface LedgerTotals {
  readonly cap: number;
  readonly spent: number;
  readonly spentAnyInputs: number;
  readonly releases: number;
  readonly memoised: number;
  readonly memoCapacity: number;
  readonly words: number;
}

/** A privacy budget per scope in a file the app owns (docs/budgets.md). */
export class Ledger {
  static open(
    filePath: string,
    options?: { scope?: string; cap?: number; memoCapacity?: number; key?: Uint8Array },
  ): Ledger;
  privatizeText(
    privatizer: Privatizer,
    text: string,
    options: Options,
    flags?: { fresh?: boolean },
  ): Promise<{ text: string; memoised: boolean; record: ReleaseRecord; localDiagnostics?: LocalDiagnostics }>;
  totals(): LedgerTotals;
  toJSON(): Record<string, unknown>;
  setCap(cap: number): void;
  close(): Promise<void>;
}
