// SPDX-License-Identifier: Apache-2.0
// Tests of the WebAssembly build under Node's test runner:
//   DXTEXT_WASM_PACKAGE=<build>/package node --test bindings/wasm/test/
// With DXTEXT_CLI=<native build>/bin/dxtext, seeded output is also compared
// with the native (OpenSSL) library: the same seed must give the same text.

import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const packageDir = process.env.DXTEXT_WASM_PACKAGE;
if (!packageDir) throw new Error('set DXTEXT_WASM_PACKAGE to the built package directory (<build>/package)');
const dxtext = await import(pathToFileURL(path.join(path.resolve(packageDir), 'dxtext.js')).href);
const { DxtextError, Status } = dxtext;

const here = path.dirname(fileURLToPath(import.meta.url));
const modelsDir = path.resolve(here, '..', '..', '..', 'models');
const modelFile = (prefix) => {
  const names = fs.readdirSync(modelsDir).filter((n) => n.startsWith(prefix) && n.endsWith('.dxe')).sort();
  assert.ok(names.length > 0, `no ${prefix}*.dxe in ${modelsDir}`);
  return path.join(modelsDir, names[names.length - 1]);
};
const euclidPath = modelFile('dxtext-en-euclid-');
const poincarePath = modelFile('dxtext-wordnet-poincare-');
const expectedSha256 = Object.fromEntries(
  fs.readFileSync(path.join(modelsDir, 'SHA256SUMS'), 'utf8').trim().split('\n').map((line) => line.split(/\s+/).reverse()),
);

// The default Euclidean model as a browser would get it: an ArrayBuffer.
function readArrayBuffer(file) {
  const b = fs.readFileSync(file);
  return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
}

async function rejectsWith(fn, status, pattern) {
  await assert.rejects(async () => fn(), (e) => {
    assert.ok(e instanceof DxtextError, `expected a DxtextError, got ${e}`);
    assert.ok(e instanceof Error);
    assert.equal(e.status, status, `status ${e.code} (${e.message})`);
    assert.equal(e.code, Object.keys(Status).find((k) => Status[k] === status));
    if (pattern) assert.match(e.message, pattern);
    return true;
  });
}

const SENTENCE = 'The president spoke to the nation about the war and the economy.';
const SEED = '00'.repeat(31) + '07';

// One module and one open model for the tests that only read from it.
let dx;
let model;
const ready = (async () => {
  dx = await dxtext.load();
  model = await dx.loadModel(readArrayBuffer(euclidPath));
})();

test('opens the default model from an ArrayBuffer; portable SHA-256 gives its published fingerprint', async () => {
  await ready;
  assert.match(dx.version, /^\d+\.\d+\.\d+$/);
  const info = model.info;
  assert.equal(info.geometry, 'euclidean');
  assert.ok(info.dimension > 0);
  assert.ok(info.vocabularySize > 1000);
  assert.ok(await model.has('president'));
  assert.ok(!await model.has('qzxqzxqzx'));
  assert.equal(await model.fingerprint(), expectedSha256[path.basename(euclidPath)]);
});

test('privatises a text with the system generator; the record states the guarantee', async () => {
  await ready;
  const { text, record: report, localDiagnostics } = await model.privatize(SENTENCE, {
    epsilon: 20,
    withRecord: true,
    withLocalDiagnostics: true,
  });
  assert.equal(typeof text, 'string');
  // Words are replaced one for one; spaces and the final full stop stay.
  assert.equal(text.split(' ').length, SENTENCE.split(' ').length);
  assert.ok(text.endsWith('.'));
  assert.equal(report.mechanism, 'laplace');
  assert.equal(report.epsilon, 20);
  assert.equal(report.metric, 'euclidean');
  assert.equal(report.rngMode, 'system');
  assert.equal(report.isPrivate, true);
  assert.equal(report.modelFingerprint, expectedSha256[path.basename(euclidPath)]);
  assert.equal(report.release, 'text');
  assert.equal(report.bound, 'positionwise');
  assert.deepEqual(report.reveals, ['wordCount', 'layout', 'caseShape']);
  assert.equal(report.releaseShape, 'keep');
  const strict = await model.privatize('cat; dog!', { epsilon: 5, releaseShape: 'strict', withRecord: true });
  assert.equal(strict.record.releaseShape, 'strict');
  assert.deepEqual(strict.record.reveals, ['wordCount']);
  assert.ok(!/[;!]/.test(strict.text), strict.text);
  assert.equal(localDiagnostics.wordsPrivatized, 12);
  assert.equal(localDiagnostics.counts.inVocabulary.privatized + localDiagnostics.counts.stopword.privatized, 12);
  assert.equal(localDiagnostics.wordsLeaked, 0);
  const json = JSON.parse(report.json);
  assert.equal(json.model_sha256, report.modelFingerprint);
  assert.equal(json.private, true);
  assert.equal(json.words_privatized, undefined); // the record says nothing about the input
  assert.equal(JSON.parse(localDiagnostics.json).words_privatized, 12);
  // The record alone: no diagnostics in the result.
  assert.deepEqual(Object.keys(await model.privatize(SENTENCE, { epsilon: 20, withRecord: true })).sort(), ['record', 'text']);
});

test('fresh noise on every call', async () => {
  await ready;
  // At epsilon 1 in 100 dimensions the outputs are close to uniform over
  // 50000 words: two equal 12-word texts would be a broken generator.
  const a = await model.privatize(SENTENCE, { epsilon: 1 });
  const b = await model.privatize(SENTENCE, { epsilon: 1 });
  assert.notEqual(a, b);
});

test('the other mechanisms and options pass through', async () => {
  await ready;
  for (const mechanism of ['exponential', 'vickrey', 'tem', 'syntf']) {
    const { record } = await model.privatize('the economy', { epsilon: 10, mechanism, withRecord: true });
    assert.equal(record.mechanism, mechanism);
  }
  const out = await model.privatize('Call qzxqzxqzx at 5', {
    epsilon: 20,
    oov: 'placeholder',
    numbers: 'keep',
    placeholder: '[x]',
    withRecord: true,
    withLocalDiagnostics: true,
  });
  assert.match(out.text, /^\S+ \[x\] \S+ 5$/);
  assert.equal(out.localDiagnostics.counts.outOfVocabulary.placeholder, 1);
  assert.equal(out.localDiagnostics.counts.number.kept, 1);
  assert.equal(out.localDiagnostics.wordsLeaked, 1);
  assert.deepEqual(out.record.reveals, ['wordCount', 'layout', 'caseShape', 'tokenClasses', 'keptWords']);
  assert.equal(await model.privatizeWord('President', { epsilon: 1000 }), 'President');
});

test('the search option reaches the library', async () => {
  await ready;
  assert.notEqual(await model.privatize(SENTENCE, { epsilon: 4, search: 'exact' }), '');
  // The default model has no search index: the library itself refuses IVF.
  await rejectsWith(() => model.privatize(SENTENCE, { epsilon: 4, search: 'ivf', ivfNprobe: 4 }), Status.UNSUPPORTED);
  await rejectsWith(() => model.privatize(SENTENCE, { epsilon: 4, ivfNprobe: 4 }), Status.INVALID_ARGUMENT); // nprobe without IVF
  await rejectsWith(() => model.privatize(SENTENCE, { epsilon: 4, search: 'nearest' }), Status.INVALID_ARGUMENT, /search/);
  await assert.rejects(async () => await model.privatize(SENTENCE, { epsilon: 4, search: 'ivf', ivfNprobe: 2.5 }), TypeError);
});

test('a seed makes the output reproducible, and the record says it is not private', async () => {
  await ready;
  const a = await model.privatize(SENTENCE, { epsilon: 20, seed: SEED, withRecord: true });
  const b = await model.privatize(SENTENCE, { epsilon: 20, seed: Uint8Array.from(Buffer.from(SEED, 'hex')) });
  assert.equal(a.text, b);
  assert.equal(a.record.rngMode, 'deterministic');
  assert.equal(a.record.isPrivate, false);
  assert.notEqual(await model.privatize(SENTENCE, { epsilon: 20, seed: '11'.repeat(32) }), a.text);
});

test('seeded output equals the native OpenSSL build (same AES-256-CTR keystream)', async (t) => {
  await ready;
  const cli = process.env.DXTEXT_CLI;
  if (!cli) {
    t.skip('DXTEXT_CLI is not set');
    return;
  }
  // The native library's scalar decoding kernel sums in the same order as the
  // WebAssembly build; SIMD kernels may round differently and so break
  // near-ties another way.
  const env = { ...process.env, DXTEXT_KERNEL: 'scalar' };
  for (const [mechanism, epsilon] of [['laplace', 20], ['exponential', 10], ['vickrey', 15]]) {
    const native = execFileSync(cli, ['privatize', '--model', euclidPath, '--mechanism', mechanism,
      '--epsilon', String(epsilon), '--seed', SEED, SENTENCE], { encoding: 'utf8', env, stdio: ['ignore', 'pipe', 'ignore'] });
    assert.equal(await model.privatize(SENTENCE, { epsilon, mechanism, seed: SEED }), native.trimEnd(), mechanism);
  }
});

test('privatises a bag (Map, object or pairs) with epsilon * N * EMD', async () => {
  await ready;
  const input = new Map([['president', 2], ['nation', 1], ['war', 3]]);
  const { bag, record, localDiagnostics } = await model.privatizeBag(input, {
    epsilon: 15,
    withRecord: true,
    withLocalDiagnostics: true,
  });
  assert.ok(bag instanceof Map);
  assert.equal([...bag.values()].reduce((x, y) => x + y, 0), 6);
  for (const word of bag.keys()) assert.ok(await model.has(word), word);
  assert.equal(localDiagnostics.wordsPrivatized, 6);
  assert.equal(record.bound, 'bagEmd');
  assert.match(JSON.parse(record.json).guarantee.release, /^15 \* N \* EMD/);
  const fromObject = await model.privatizeBag({ president: 2, nation: 1 }, { epsilon: 15, seed: SEED });
  const fromPairs = await model.privatizeBag([['president', 2], ['nation', 1]], { epsilon: 15, seed: SEED });
  assert.deepEqual(fromObject, fromPairs);
  assert.equal((await model.privatizeBag({}, { epsilon: 15 })).size, 0);
});

test('SynTF draws a synthetic bag of nOut words', async () => {
  await ready;
  const { bag, record } = await model.syntf({ president: 3, war: 1 }, 5, { epsilon: 2, withRecord: true });
  assert.equal([...bag.values()].reduce((x, y) => x + y, 0), 5);
  assert.equal(record.mechanism, 'syntf');
  assert.equal(record.bound, 'anyInputs');
  assert.equal(record.draws, 5);
  assert.equal(record.epsilonTotal, 10);
  assert.ok(record.epsilonVocabulary > 0 && record.epsilonVocabulary < 2);
});

test('calibrate: N_w near 1 at a huge epsilon, below 1 at a small one', async () => {
  await ready;
  const high = await model.calibrate(5, 4, { epsilon: 1e6, seed: SEED });
  assert.equal(high.words, 5);
  assert.equal(high.trials, 4);
  assert.equal(high.keepMedian, 1);
  assert.equal(high.distinctMax, 1);
  const low = await model.calibrate(5, 4, { epsilon: 1, seed: SEED });
  assert.ok(low.keepMean < 1);
  assert.ok(low.distinctMean > 1);
  await rejectsWith(() => model.calibrate(0, 4, { epsilon: 1 }), Status.INVALID_ARGUMENT, /words/);
});

test('a bad epsilon is a DxtextError INVALID_EPSILON with the library message', async () => {
  await ready;
  for (const epsilon of [0, -1, NaN, Infinity, dxtext.EPSILON_MIN / 2, dxtext.EPSILON_MAX * 2]) {
    await rejectsWith(() => model.privatize(SENTENCE, { epsilon }), Status.INVALID_EPSILON, /epsilon/);
  }
  assert.equal(typeof (await model.privatize(SENTENCE, { epsilon: dxtext.EPSILON_MIN })), 'string');
  assert.equal(typeof (await model.privatize(SENTENCE, { epsilon: dxtext.EPSILON_MAX })), 'string');
  await rejectsWith(() => model.privatize(SENTENCE, {}), Status.INVALID_EPSILON, /epsilon is required/);
  await rejectsWith(() => model.privatizeBag({ war: 1 }, { epsilon: -3 }), Status.INVALID_EPSILON);
  const poincare = await dx.loadModel(fs.readFileSync(poincarePath));
  try {
    await rejectsWith(() => poincare.privatize('entity', { epsilon: 5, mechanism: 'hyperbolic' }), Status.INVALID_EPSILON, /> n - 1 = 9/);
    assert.equal(typeof await poincare.privatize('entity', { epsilon: 12, mechanism: 'hyperbolic' }), 'string');
  } finally {
    poincare.close();
  }
});

test('bad arguments are typed errors', async () => {
  await ready;
  await rejectsWith(() => model.privatize(SENTENCE, { epsilon: 5, mechanism: 'gaussian' }), Status.INVALID_ARGUMENT, /unknown mechanism/);
  await rejectsWith(() => model.privatize(SENTENCE, { epsilon: 5, epsilom: 3 }), Status.INVALID_ARGUMENT, /unknown option 'epsilom'/);
  await rejectsWith(() => model.privatize(SENTENCE, { epsilon: 5, seed: 'abc' }), Status.INVALID_ARGUMENT, /seed/);
  await rejectsWith(() => model.privatizeBag({ war: -1 }, { epsilon: 5 }), Status.INVALID_ARGUMENT, /non-negative/);
  await rejectsWith(() => model.syntf({ war: 1 }, 0, { epsilon: 5 }), Status.INVALID_ARGUMENT, /nOut/);
  await assert.rejects(async () => await model.privatize(42, { epsilon: 5 }), TypeError);
  await assert.rejects(async () => await model.privatize(SENTENCE), TypeError);
  // Integers beyond uint32_t are refused, not wrapped into another value
  // (2 ** 32 + 3 would be mechanism 3, 2 ** 32 + 4 the keep policy).
  await rejectsWith(() => model.privatize(SENTENCE, { epsilon: 5, mechanism: 2 ** 32 + 3 }), Status.INVALID_ARGUMENT, /mechanism/);
  await rejectsWith(() => model.privatize(SENTENCE, { epsilon: 5, oov: 2 ** 32 + 4 }), Status.INVALID_ARGUMENT, /oov/);
  await rejectsWith(() => model.privatize(SENTENCE, { epsilon: 5, mechanism: -1 }), Status.INVALID_ARGUMENT, /mechanism/);
  await rejectsWith(() => model.calibrate(1, 2 ** 32 + 3, { epsilon: 5 }), Status.INVALID_ARGUMENT, /trials/);
  await rejectsWith(() => model.syntf({ war: 1 }, 2 ** 32 + 1, { epsilon: 5 }), Status.INVALID_ARGUMENT, /nOut/);
  assert.equal(Status.CONTEXT_BUSY, 17);
  assert.equal(Status.BUDGET_EXCEEDED, 18);
  assert.equal(Status.LEDGER_CORRUPT, 19);
  // No ledger in WebAssembly: the library itself says so.
  await rejectsWith(() => dx.openLedger('privacy.dxl', 'alice'), Status.UNSUPPORTED, /WebAssembly/);
});

test('a missing file is a DxtextError IO from the Node file helper', async () => {
  await ready;
  await assert.rejects(dxtext.loadModelFile(path.join(modelsDir, 'no-such-model.dxe')), (e) => {
    assert.ok(e instanceof DxtextError);
    assert.equal(e.status, Status.IO);
    assert.equal(e.code, 'IO');
    assert.match(e.message, /no-such-model\.dxe/);
    return true;
  });
  const opened = await dxtext.loadModelFile(euclidPath);
  assert.equal(opened.info.vocabularySize, model.info.vocabularySize);
  opened.close();
});

test('corrupt models are refused with the status of what is wrong', async () => {
  await ready;
  const good = new Uint8Array(readArrayBuffer(euclidPath));
  await rejectsWith(() => dx.loadModel(new TextEncoder().encode('this is not a model at all, just text')), Status.NOT_A_MODEL, /magic/);
  await rejectsWith(() => dx.loadModel(good.slice(0, 1000)), Status.TRUNCATED_MODEL, /truncated/);
  const header = good.slice();
  header[60] = 1; // a reserved header byte (docs/format.md §3), under the header digest
  await rejectsWith(() => dx.loadModel(header), Status.DIGEST_MISMATCH, /header/);
  const flipped = good.slice();
  flipped[good.length - 1000] ^= 0x40; // inside the last section
  await rejectsWith(() => dx.loadModel(flipped, { verifyDigests: true }), Status.DIGEST_MISMATCH, /digest/);
  await rejectsWith(() => dx.loadModel(new Uint8Array(0)), Status.NOT_A_MODEL);
  await assert.rejects(dx.loadModel('model.dxe'), TypeError);
});

test('memory growth in the middle of a call (a 32 MB placeholder) leaves results intact', async () => {
  await ready;
  const before = dx._core.m.HEAPU8.length;
  const placeholder = 'x'.repeat(32 << 20);
  const { text, record, localDiagnostics } = await model.privatizeWord('qzxqzxqzx', {
    epsilon: 5,
    oov: 'placeholder',
    placeholder,
    withRecord: true,
    withLocalDiagnostics: true,
  });
  assert.ok(dx._core.m.HEAPU8.length > before, 'the memory grew');
  assert.equal(text.length, placeholder.length);
  assert.equal(localDiagnostics.counts.outOfVocabulary.placeholder, 1);
  assert.equal(record.modelFingerprint, expectedSha256[path.basename(euclidPath)]);
});

test('a closed model refuses calls; memory is returned', async () => {
  await ready;
  const m = await dx.loadModel(readArrayBuffer(euclidPath));
  await m.privatize('war', { epsilon: 10 });
  m.close();
  m.close();
  assert.equal(m.closed, true);
  await rejectsWith(() => m.privatize('war', { epsilon: 10 }), Status.INVALID_ARGUMENT, /closed/);
  // Opening and closing again reuses the freed memory instead of growing it.
  const before = dx._core.m.HEAPU8.length;
  for (let i = 0; i < 5; ++i) (await dx.loadModel(readArrayBuffer(euclidPath))).close();
  assert.equal(dx._core.m.HEAPU8.length, before);
});

test('no cryptographic generator: RNG_FAILURE, never a weaker fallback', async () => {
  await ready;
  const saved = Object.getOwnPropertyDescriptor(globalThis, 'crypto');
  const savedModule = dx._core.m.dxtextCrypto;
  const m = await dx.loadModel(readArrayBuffer(euclidPath));
  try {
    Object.defineProperty(globalThis, 'crypto', { value: undefined, configurable: true });
    dx._core.m.dxtextCrypto = undefined;
    await rejectsWith(() => m.privatize('war', { epsilon: 10 }), Status.RNG_FAILURE, /getentropy/);
    await rejectsWith(() => m.privatize('war', { epsilon: 10 }), Status.RNG_FAILURE, /getentropy/);
  } finally {
    dx._core.m.dxtextCrypto = savedModule;
    if (saved) Object.defineProperty(globalThis, 'crypto', saved);
    else delete globalThis.crypto;
  }
  // With the generator back, the same model works again.
  assert.equal(typeof (await m.privatize('war', { epsilon: 10 })), 'string');
  m.close();
});

test('the package opens the default model it carries', async () => {
  const m = await dxtext.loadDefaultModel();
  assert.equal(m.info.geometry, 'euclidean');
  assert.equal(await m.fingerprint(), expectedSha256[path.basename(euclidPath)]);
  assert.equal((await m.privatize(SENTENCE, { epsilon: 20, withLocalDiagnostics: true })).localDiagnostics.wordsPrivatized, 12);
  m.close();
});

test('the worker protocol: the same API through connectWorker', async () => {
  // A stand-in for a Worker: worker.js's message handler run in this thread
  // on a MessageChannel pair (Node has no Web Worker; the browser job runs
  // the real one).
  const { port1, port2 } = new MessageChannel();
  const savedSelf = globalThis.self;
  globalThis.self = { addEventListener: (type, fn) => port2.addEventListener(type, fn), postMessage: (msg) => port2.postMessage(msg) };
  try {
    await import(pathToFileURL(path.join(path.resolve(packageDir), 'worker.js')).href);
  } finally {
    globalThis.self = savedSelf;
  }
  port2.start();
  const worker = { addEventListener: (type, fn) => port1.addEventListener(type, fn), postMessage: (msg, t) => port1.postMessage(msg, t), terminate: () => port1.close() };
  port1.start();
  const remote = dxtext.connectWorker(worker);
  assert.match(await remote.version(), /^\d+\.\d+\.\d+$/);
  const m = await remote.loadModel(readArrayBuffer(euclidPath));
  assert.ok(m.info.vocabularySize > 1000);
  const { text, record } = await m.privatize(SENTENCE, { epsilon: 20, withRecord: true });
  assert.equal(text.split(' ').length, SENTENCE.split(' ').length);
  assert.equal(record.isPrivate, true);
  assert.equal(record.bound, 'positionwise');
  assert.ok((await m.privatizeBag({ war: 2 }, { epsilon: 20 })) instanceof Map);
  await rejectsWith(() => m.privatize(SENTENCE, { epsilon: -1 }), Status.INVALID_EPSILON, /epsilon/);
  await rejectsWith(() => m.privatize(SENTENCE, { epsilon: 5, epsilom: 3 }), Status.INVALID_ARGUMENT, /unknown option/);
  await m.close();
  await rejectsWith(() => m.privatize(SENTENCE, { epsilon: 5 }), Status.INVALID_ARGUMENT, /closed/);
  worker.terminate();
});
