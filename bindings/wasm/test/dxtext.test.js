'use strict';
// Tests of the WebAssembly build under Node's test runner:
//   DXTEXT_WASM_PACKAGE=<build>/package node --test bindings/wasm/test/
// With DXTEXT_CLI=<native build>/bin/dxtext, seeded output is also compared
// with the native (OpenSSL) library: the same seed must give the same text.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const packageDir = process.env.DXTEXT_WASM_PACKAGE;
if (!packageDir) throw new Error('set DXTEXT_WASM_PACKAGE to the built package directory (<build>/package)');
const dxtext = require(path.resolve(packageDir));
const { DxtextError, Status } = dxtext;

const modelsDir = path.resolve(__dirname, '..', '..', '..', 'models');
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

function rejectsWith(fn, status, pattern) {
  assert.throws(fn, (e) => {
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
  model = dx.loadModel(readArrayBuffer(euclidPath));
})();

test('opens the default model from an ArrayBuffer; portable SHA-256 gives its published fingerprint', async () => {
  await ready;
  assert.match(dx.version, /^\d+\.\d+\.\d+$/);
  const info = model.info;
  assert.equal(info.geometry, 'euclidean');
  assert.equal(info.dimension, 100);
  assert.equal(info.vocabularySize, 50000);
  assert.ok(model.has('president'));
  assert.ok(!model.has('qzxqzxqzx'));
  assert.equal(model.fingerprint(), expectedSha256[path.basename(euclidPath)]);
});

test('privatises a text with the system generator and reports the guarantee', async () => {
  await ready;
  const { text, report } = model.privatize(SENTENCE, { epsilon: 20, withReport: true });
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
  assert.equal(report.wordsPrivatized, 12);
  assert.equal(report.counts.inVocabulary.privatized + report.counts.stopword.privatized, 12);
  assert.equal(report.wordsLeaked, 0);
  assert.equal(report.epsilonPerUnitDistance, 20);
  assert.equal(report.epsilonDocument, 240);
  const json = JSON.parse(report.json);
  assert.equal(json.model_sha256, report.modelFingerprint);
  assert.equal(json.private, true);
});

test('fresh noise on every call', async () => {
  await ready;
  // At epsilon 1 in 100 dimensions the outputs are close to uniform over
  // 50000 words: two equal 12-word texts would be a broken generator.
  const a = model.privatize(SENTENCE, { epsilon: 1 });
  const b = model.privatize(SENTENCE, { epsilon: 1 });
  assert.notEqual(a, b);
});

test('the other mechanisms and options pass through', async () => {
  await ready;
  for (const mechanism of ['exponential', 'vickrey', 'tem', 'syntf']) {
    const { report } = model.privatize('the economy', { epsilon: 10, mechanism, withReport: true });
    assert.equal(report.mechanism, mechanism);
  }
  const out = model.privatize('Call qzxqzxqzx at 5', { epsilon: 20, oov: 'placeholder', numbers: 'keep', placeholder: '[x]', withReport: true });
  assert.match(out.text, /^\S+ \[x\] \S+ 5$/);
  assert.equal(out.report.counts.outOfVocabulary.placeholder, 1);
  assert.equal(out.report.counts.number.kept, 1);
  assert.equal(out.report.wordsLeaked, 1);
  assert.equal(model.privatizeWord('President', { epsilon: 1000 }), 'President');
});

test('the search option reaches the library', async () => {
  await ready;
  assert.notEqual(model.privatize(SENTENCE, { epsilon: 4, search: 'exact' }), '');
  // The default model has no search index: the library itself refuses IVF.
  rejectsWith(() => model.privatize(SENTENCE, { epsilon: 4, search: 'ivf', ivfNprobe: 4 }), Status.UNSUPPORTED);
  rejectsWith(() => model.privatize(SENTENCE, { epsilon: 4, ivfNprobe: 4 }), Status.INVALID_ARGUMENT); // nprobe without IVF
  rejectsWith(() => model.privatize(SENTENCE, { epsilon: 4, search: 'nearest' }), Status.INVALID_ARGUMENT, /search/);
  assert.throws(() => model.privatize(SENTENCE, { epsilon: 4, search: 'ivf', ivfNprobe: 2.5 }), TypeError);
});

test('a seed makes the output reproducible, and the report says it is not private', async () => {
  await ready;
  const a = model.privatize(SENTENCE, { epsilon: 20, seed: SEED, withReport: true });
  const b = model.privatize(SENTENCE, { epsilon: 20, seed: Uint8Array.from(Buffer.from(SEED, 'hex')) });
  assert.equal(a.text, b);
  assert.equal(a.report.rngMode, 'deterministic');
  assert.equal(a.report.isPrivate, false);
  assert.notEqual(model.privatize(SENTENCE, { epsilon: 20, seed: '11'.repeat(32) }), a.text);
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
    assert.equal(model.privatize(SENTENCE, { epsilon, mechanism, seed: SEED }), native.trimEnd(), mechanism);
  }
});

test('privatises a bag (Map, object or pairs) with epsilon * N * EMD', async () => {
  await ready;
  const input = new Map([['president', 2], ['nation', 1], ['war', 3]]);
  const { bag, report } = model.privatizeBag(input, { epsilon: 15, withReport: true });
  assert.ok(bag instanceof Map);
  assert.equal([...bag.values()].reduce((x, y) => x + y, 0), 6);
  for (const word of bag.keys()) assert.ok(model.has(word), word);
  assert.equal(report.wordsPrivatized, 6);
  assert.equal(report.epsilonDocument, 90);
  const fromObject = model.privatizeBag({ president: 2, nation: 1 }, { epsilon: 15, seed: SEED });
  const fromPairs = model.privatizeBag([['president', 2], ['nation', 1]], { epsilon: 15, seed: SEED });
  assert.deepEqual(fromObject, fromPairs);
  assert.equal(model.privatizeBag({}, { epsilon: 15 }).size, 0);
});

test('SynTF draws a synthetic bag of nOut words', async () => {
  await ready;
  const { bag, report } = model.syntf({ president: 3, war: 1 }, 5, { epsilon: 2, withReport: true });
  assert.equal([...bag.values()].reduce((x, y) => x + y, 0), 5);
  assert.equal(report.mechanism, 'syntf');
  assert.equal(report.epsilonDocument, 10);
  assert.ok(report.epsilonDocumentVocabulary > 0 && report.epsilonDocumentVocabulary < 10);
});

test('calibrate: N_w near 1 at a huge epsilon, below 1 at a small one', async () => {
  await ready;
  const high = model.calibrate(5, 4, { epsilon: 1e6, seed: SEED });
  assert.equal(high.words, 5);
  assert.equal(high.trials, 4);
  assert.equal(high.keepMedian, 1);
  assert.equal(high.distinctMax, 1);
  const low = model.calibrate(5, 4, { epsilon: 1, seed: SEED });
  assert.ok(low.keepMean < 1);
  assert.ok(low.distinctMean > 1);
  rejectsWith(() => model.calibrate(0, 4, { epsilon: 1 }), Status.INVALID_ARGUMENT, /words/);
});

test('a bad epsilon is a DxtextError INVALID_EPSILON with the library message', async () => {
  await ready;
  for (const epsilon of [0, -1, NaN, Infinity]) {
    rejectsWith(() => model.privatize(SENTENCE, { epsilon }), Status.INVALID_EPSILON, /epsilon/);
  }
  rejectsWith(() => model.privatize(SENTENCE, {}), Status.INVALID_EPSILON, /epsilon is required/);
  rejectsWith(() => model.privatizeBag({ war: 1 }, { epsilon: -3 }), Status.INVALID_EPSILON);
  const poincare = dx.loadModel(fs.readFileSync(poincarePath));
  try {
    rejectsWith(() => poincare.privatize('entity', { epsilon: 5, mechanism: 'hyperbolic' }), Status.INVALID_EPSILON, /> n - 1 = 9/);
    assert.equal(typeof poincare.privatize('entity', { epsilon: 12, mechanism: 'hyperbolic' }), 'string');
  } finally {
    poincare.close();
  }
});

test('bad arguments are typed errors', async () => {
  await ready;
  rejectsWith(() => model.privatize(SENTENCE, { epsilon: 5, mechanism: 'gaussian' }), Status.INVALID_ARGUMENT, /unknown mechanism/);
  rejectsWith(() => model.privatize(SENTENCE, { epsilon: 5, epsilom: 3 }), Status.INVALID_ARGUMENT, /unknown option 'epsilom'/);
  rejectsWith(() => model.privatize(SENTENCE, { epsilon: 5, seed: 'abc' }), Status.INVALID_ARGUMENT, /seed/);
  rejectsWith(() => model.privatizeBag({ war: -1 }, { epsilon: 5 }), Status.INVALID_ARGUMENT, /non-negative/);
  rejectsWith(() => model.syntf({ war: 1 }, 0, { epsilon: 5 }), Status.INVALID_ARGUMENT, /nOut/);
  assert.throws(() => model.privatize(42, { epsilon: 5 }), TypeError);
  assert.throws(() => model.privatize(SENTENCE), TypeError);
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
  assert.equal(opened.info.vocabularySize, 50000);
  opened.close();
});

test('corrupt models are refused with the status of what is wrong', async () => {
  await ready;
  const good = new Uint8Array(readArrayBuffer(euclidPath));
  rejectsWith(() => dx.loadModel(new TextEncoder().encode('this is not a model at all, just text')), Status.NOT_A_MODEL, /magic/);
  rejectsWith(() => dx.loadModel(good.slice(0, 1000)), Status.TRUNCATED_MODEL, /truncated/);
  const header = good.slice();
  header[60] = 1; // a reserved header byte (docs/format.md §3), under the header digest
  rejectsWith(() => dx.loadModel(header), Status.DIGEST_MISMATCH, /header/);
  const flipped = good.slice();
  flipped[good.length - 1000] ^= 0x40; // inside the last section
  rejectsWith(() => dx.loadModel(flipped, { verifyDigests: true }), Status.DIGEST_MISMATCH, /digest/);
  rejectsWith(() => dx.loadModel(new Uint8Array(0)), Status.NOT_A_MODEL);
  assert.throws(() => dx.loadModel('model.dxe'), TypeError);
});

test('memory growth in the middle of a call (a 32 MB placeholder) leaves results intact', async () => {
  await ready;
  const before = dx._core.m.HEAPU8.length;
  const placeholder = 'x'.repeat(32 << 20);
  const { text, report } = model.privatizeWord('qzxqzxqzx', { epsilon: 5, oov: 'placeholder', placeholder, withReport: true });
  assert.ok(dx._core.m.HEAPU8.length > before, 'the memory grew');
  assert.equal(text.length, placeholder.length);
  assert.equal(report.counts.outOfVocabulary.placeholder, 1);
  assert.equal(report.modelFingerprint, expectedSha256[path.basename(euclidPath)]);
});

test('a closed model refuses calls; memory is returned', async () => {
  await ready;
  const m = dx.loadModel(readArrayBuffer(euclidPath));
  m.privatize('war', { epsilon: 10 });
  m.close();
  m.close();
  assert.equal(m.closed, true);
  rejectsWith(() => m.privatize('war', { epsilon: 10 }), Status.INVALID_ARGUMENT, /closed/);
  // Opening and closing again reuses the freed memory instead of growing it.
  const before = dx._core.m.HEAPU8.length;
  for (let i = 0; i < 5; ++i) dx.loadModel(readArrayBuffer(euclidPath)).close();
  assert.equal(dx._core.m.HEAPU8.length, before);
});

test('no cryptographic generator: RNG_FAILURE, never a weaker fallback', async () => {
  await ready;
  const saved = Object.getOwnPropertyDescriptor(globalThis, 'crypto');
  const Module = require('node:module');
  const savedRequire = Module.prototype.require;
  const m = dx.loadModel(readArrayBuffer(euclidPath));
  try {
    Object.defineProperty(globalThis, 'crypto', { value: undefined, configurable: true });
    Module.prototype.require = function (id) {
      if (id === 'crypto' || id === 'node:crypto') throw new Error('no crypto here');
      return savedRequire.apply(this, arguments);
    };
    rejectsWith(() => m.privatize('war', { epsilon: 10 }), Status.RNG_FAILURE, /getentropy/);
    rejectsWith(() => m.privatize('war', { epsilon: 10 }), Status.RNG_FAILURE, /getentropy/);
  } finally {
    Module.prototype.require = savedRequire;
    if (saved) Object.defineProperty(globalThis, 'crypto', saved);
    else delete globalThis.crypto;
  }
  // With the generator back, the same model works again.
  assert.equal(typeof m.privatize('war', { epsilon: 10 }), 'string');
  m.close();
});
