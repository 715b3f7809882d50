// Type declarations of lib/index.js.

export type Mechanism = 'laplace' | 'hyperbolic' | 'exponential' | 'syntf' | 'mahalanobis' | 'vickrey' | 'tem';
export type Policy = 'privatize' | 'placeholder' | 'drop' | 'keep';
export type Geometry = 'euclidean' | 'poincare';

export interface OptionsObject {
  epsilon: number;
  mechanism?: Mechanism;
  policies?: Partial<Record<'inVocabulary' | 'outOfVocabulary' | 'number' | 'stopword', Policy>>;
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
}
/** A number is the epsilon with every other option at its default. */
export type Options = number | OptionsObject;

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
  rng: 'system' | 'deterministic' | 'unknown';
  isPrivate: boolean;
  modelFingerprint: string | null;
  counts: { inVocabulary: ActionCounts; outOfVocabulary: ActionCounts; number: ActionCounts; stopword: ActionCounts };
  wordsPrivatized: number;
  wordsLeaked: number;
  epsilonPerUnitDistance: number;
  epsilonDocument: number;
  /** syntf only (0 otherwise): (eps + ln eta(eps, V)) * N, from the vocabulary size V. */
  epsilonDocumentVocabulary: number;
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
  privatizeWordWithReport(word: string, options: Options): { text: string; report: Report };
  privatizeText(text: string, options: Options): Promise<{ text: string; report: Report }>;
  privatizeBag(bag: Bag, options: Options): Promise<{ bag: Map<string, number>; report: Report }>;
  syntf(bag: Bag, nOut: number, options: Options): Promise<{ bag: Map<string, number>; report: Report }>;
  calibrate(options: Options, sample?: { words?: number; trials?: number }): Promise<Calibration>;
  close(): Promise<void>;
}

export const version: string;

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
