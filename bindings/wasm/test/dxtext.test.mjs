// SPDX-License-Identifier: Apache-2.0
// Tests of the WebAssembly build under Node's test runner:
//   DXTEXT_WASM_PACKAGE=<build>/package node --test bindings/wasm/test/
// Seeded output is compared with the native (OpenSSL) library's by the
// conformance suite (tests/conformance/), registered below.

import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import conformanceModule from '../../../tests/js/conformance_tests.cjs';

const packageDir = process.env.DXTEXT_WASM_PACKAGE;
if (!packageDir) throw new Error('set DXTEXT_WASM_PACKAGE to the built package directory (<build>/package)');
const dxtext = await import(pathToFileURL(path.join(path.resolve(packageDir), 'dxtext.js')).href);
const { DxtextError, Model, Privatizer, Status } = dxtext;

const here = path.dirname(fileURLToPath(import.meta.url));
const modelsDir = path.resolve(here, '..', '..', '..', 'models');
const modelFile = (prefix) => {
  const names = fs.readdirSync(modelsDir).filter((n) => n.startsWith(prefix) && n.endsWith('.dxe')).sort();
  assert.ok(names.length > 0, `no ${prefix}*.dxe in ${modelsDir}`);
  return path.join(modelsDir, names[names.length - 1]);
};
const euclidPath = modelFile('dxtext-en-euclid-');
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
    assert.equal(e.code, `DXT_E_${Object.keys(Status).find((k) => Status[k] === status)}`);
    if (pattern) assert.match(e.message, pattern);
    return true;
  });
}

const SENTENCE = 'The president spoke to the nation about the war and the economy.';
const SEED = '00'.repeat(31) + '07';

// One open model and one privatizer for the tests that only read from them.
let model;
let privatizer;
const ready = (async () => {
  await dxtext.load();
  model = await Model.fromBuffer(readArrayBuffer(euclidPath));
  privatizer = new Privatizer(model);
})();
// The module's memory (for the tests of memory growth and of the generator).
const heapOf = (m) => m._box().core.m;
// A seeded privatizer: reproducible, NOT private.
const seeded = (seed = SEED, m = model) => new Privatizer(m, { seed });

test('opens the default model from an ArrayBuffer; portable SHA-256 gives its published fingerprint', async () => {
  await ready;
  assert.match(await dxtext.libraryVersion(), /^\d+\.\d+\.\d+$/);
  assert.equal(await model.word(await model.lookup('president')), 'president');
  await rejectsWith(() => model.lookup('qzxqzxqzx'), Status.NOT_FOUND);
  const info = model.info;
  assert.equal(info.geometry, 'euclidean');
  assert.ok(info.dimension > 0);
  assert.ok(info.vocabularySize > 1000);
  assert.ok(await model.has('president'));
  assert.ok(!await model.has('qzxqzxqzx'));
  assert.equal(await model.fingerprint(), expectedSha256[path.basename(euclidPath)]);
});

test('privatises a text with the system generator; the local diagnostics when asked', async () => {
  // Seeded texts and their records are the conformance suite's
  // (tests/js/conformance_tests.cjs); here the system generator, the
  // record's output fields and the diagnostics.
  await ready;
  const { text, record: report, localDiagnostics } = await privatizer.privatizeText(SENTENCE, {
    epsilon: 20,
    localDiagnostics: true,
  });
  assert.equal(typeof text, 'string');
  assert.equal(report.rngMode, 'system');
  assert.equal(report.isPrivate, true);
  assert.equal(report.modelFingerprint, expectedSha256[path.basename(euclidPath)]);
  assert.equal(report.outputKind, 'vocabulary');
  assert.equal(report.outputSize, model.size);
  assert.equal(localDiagnostics.wordsPrivatized, 12);
  assert.equal(localDiagnostics.counts.inVocabulary.privatized + localDiagnostics.counts.stopword.privatized, 12);
  assert.equal(localDiagnostics.wordsLeaked, 0);
  assert.equal(JSON.parse(report.json).words_privatized, undefined); // the record says nothing about the input
  assert.equal(JSON.parse(localDiagnostics.json).words_privatized, 12);
  // Without the option, no diagnostics travel in the result.
  assert.deepEqual(Object.keys(await privatizer.privatizeText(SENTENCE, 20)).sort(), ['record', 'text']);
});

test('fresh noise on every call', async () => {
  await ready;
  // At epsilon 1 in 100 dimensions the outputs are close to uniform over
  // 50000 words: two equal 12-word texts would be a broken generator.
  const a = await privatizer.privatizeText(SENTENCE, { epsilon: 1 });
  const b = await privatizer.privatizeText(SENTENCE, { epsilon: 1 });
  assert.notEqual(a.text, b.text);
});

test('local diagnostics count each policy (the text is the conformance suite\'s)', async () => {
  await ready;
  const out = await privatizer.privatizeText('Call qzxqzxqzx at 5', {
    epsilon: 20,
    oov: 'placeholder',
    numbers: 'keep',
    localDiagnostics: true,
  });
  assert.equal(out.localDiagnostics.counts.outOfVocabulary.placeholder, 1);
  assert.equal(out.localDiagnostics.counts.number.kept, 1);
  assert.equal(out.localDiagnostics.wordsLeaked, 1);
});

test('an option value JSON cannot write is refused, named as written', async () => {
  await ready;
  await rejectsWith(() => privatizer.privatizeText(SENTENCE, { epsilon: 4, search: 'ivf', ivfNprobe: 2.5 }), Status.INVALID_ARGUMENT, /ivfNprobe/);
});

test('a seed makes the output reproducible, and the record says it is not private', async () => {
  await ready;
  // At epsilon 8 most words move (docs/calibration.md), so another seed
  // gives another text; at 20 most stay and two seeds can agree.
  const a = await seeded().privatizeText(SENTENCE, { epsilon: 8 });
  const b = await seeded(Uint8Array.from(Buffer.from(SEED, 'hex'))).privatizeText(SENTENCE, { epsilon: 8 });
  assert.equal(a.text, b.text);
  assert.equal(a.record.rngMode, 'deterministic');
  assert.equal(a.record.isPrivate, false);
  assert.notEqual((await seeded('11'.repeat(32)).privatizeText(SENTENCE, { epsilon: 8 })).text, a.text);
});

test('privatises a bag (Map, object or pairs) with epsilon * N * EMD', async () => {
  await ready;
  const input = new Map([['president', 2], ['nation', 1], ['war', 3]]);
  const { bag, record, localDiagnostics } = await privatizer.privatizeBag(input, {
    epsilon: 15,
    localDiagnostics: true,
  });
  // Seeded bags and their records are the conformance suite's; here the types and the inputs' forms.
  assert.ok(bag instanceof Map);
  assert.equal(localDiagnostics.wordsPrivatized, 6);
  assert.equal(record.bound, 'bagEmd');
  const fromObject = await seeded().privatizeBag({ president: 2, nation: 1 }, { epsilon: 15 });
  const fromPairs = await seeded().privatizeBag([['president', 2], ['nation', 1]], { epsilon: 15 });
  assert.deepEqual(fromObject.bag, fromPairs.bag);
  assert.equal((await privatizer.privatizeBag({}, { epsilon: 15 })).bag.size, 0);
});

test('SynTF draws a synthetic bag of nOut words', async () => {
  await ready;
  // The bag and its record are the conformance suite's; here the typed record's SynTF fields.
  const { bag, record } = await privatizer.syntf({ president: 3, war: 1 }, 5, { epsilon: 2 });
  assert.ok(bag instanceof Map);
  assert.equal(record.draws, 5);
  assert.equal(record.epsilonTotal, 10);
  assert.ok(record.epsilonVocabulary > 0 && record.epsilonVocabulary < 2);
});

test('a bad epsilon is a DxtextError INVALID_EPSILON with the library message', async () => {
  await ready;
  // 0, -1, out of range, unset, a bag's and hyperbolic's bounds: the
  // conformance suite; here the numbers JSON cannot write.
  for (const epsilon of [NaN, Infinity]) {
    await rejectsWith(() => privatizer.privatizeText(SENTENCE, { epsilon }), Status.INVALID_EPSILON, /epsilon/);
  }
});

test('bad arguments are typed errors', async () => {
  await ready;
  await rejectsWith(() => privatizer.privatizeText(SENTENCE, { epsilon: 5, seed: SEED }), Status.INVALID_ARGUMENT, /unknown option 'seed'/);
  await rejectsWith(async () => new Privatizer(model, { seed: 'abc' }), Status.INVALID_ARGUMENT, /seed/);
  await rejectsWith(() => privatizer.privatizeBag({ war: -1 }, { epsilon: 5 }), Status.INVALID_ARGUMENT, /non-negative/);
  await rejectsWith(() => privatizer.syntf({ war: 1 }, 0, { epsilon: 5 }), Status.INVALID_ARGUMENT, /nOut/);
  await rejectsWith(() => privatizer.privatizeText(42, { epsilon: 5 }), Status.INVALID_ARGUMENT, /text/);
  await rejectsWith(() => privatizer.privatizeText(SENTENCE, 'five'), Status.INVALID_ARGUMENT, /options/);
  // Integers beyond uint32_t are refused, not wrapped into another value
  // (2 ** 32 + 3 would be mechanism 3, 2 ** 32 + 4 the keep policy).
  await rejectsWith(() => privatizer.privatizeText(SENTENCE, { epsilon: 5, mechanism: 2 ** 32 + 3 }), Status.INVALID_ARGUMENT, /mechanism/);
  await rejectsWith(() => privatizer.privatizeText(SENTENCE, { epsilon: 5, oov: 2 ** 32 + 4 }), Status.INVALID_ARGUMENT, /oov/);
  await rejectsWith(() => privatizer.privatizeText(SENTENCE, { epsilon: 5, mechanism: -1 }), Status.INVALID_ARGUMENT, /mechanism/);
  await rejectsWith(() => privatizer.calibrate({ epsilon: 5 }, { words: 1, trials: 2 ** 32 + 3 }), Status.INVALID_ARGUMENT, /trials/);
  await rejectsWith(() => privatizer.syntf({ war: 1 }, 2 ** 32 + 1, { epsilon: 5 }), Status.INVALID_ARGUMENT, /nOut/);
  assert.equal(Status.CONTEXT_BUSY, 17);
  assert.equal(Status.BUDGET_EXCEEDED, 18);
  assert.equal(Status.LEDGER_CORRUPT, 19); // the ledger's own tests: ledger.test.mjs
});

test('a missing file is a DxtextError IO from the Node file helper', async () => {
  await ready;
  await assert.rejects(Model.open(path.join(modelsDir, 'no-such-model.dxe')), (e) => {
    assert.ok(e instanceof dxtext.FileError);
    assert.equal(e.status, Status.IO);
    assert.equal(e.code, 'DXT_E_IO');
    assert.match(e.message, /no-such-model\.dxe/);
    return true;
  });
  const opened = await Model.open(euclidPath);
  assert.equal(opened.info.vocabularySize, model.info.vocabularySize);
  assert.equal(opened.path, euclidPath);
  opened.close();
});

test('corrupt models are refused with the status of what is wrong', async () => {
  // A damaged header, a truncated file, not a model: the conformance suite
  // (which opens them from their bytes here); here a section's digest, checked only when asked.
  await ready;
  const good = new Uint8Array(readArrayBuffer(euclidPath));
  const flipped = good.slice();
  flipped[good.length - 1000] ^= 0x40; // inside the last section
  await rejectsWith(() => Model.fromBuffer(flipped, { verifyDigests: true }), Status.DIGEST_MISMATCH, /digest/);
  await rejectsWith(() => Model.fromBuffer(new Uint8Array(0)), Status.NOT_A_MODEL);
  await rejectsWith(() => Model.fromBuffer('model.dxe'), Status.INVALID_ARGUMENT, /ArrayBuffer/);
  assert.ok(new dxtext.NotAModelError(Status.NOT_A_MODEL, 'x') instanceof dxtext.ModelError);
});

test('memory growth in the middle of a call (a 32 MB placeholder) leaves results intact', async () => {
  await ready;
  const before = heapOf(model).HEAPU8.length;
  const placeholder = 'x'.repeat(32 << 20);
  const { text, record, localDiagnostics } = await privatizer.privatizeWord('qzxqzxqzx', {
    epsilon: 5,
    oov: 'placeholder',
    placeholder,
    localDiagnostics: true,
  });
  assert.ok(heapOf(model).HEAPU8.length > before, 'the memory grew');
  assert.equal(text.length, placeholder.length);
  assert.equal(localDiagnostics.counts.outOfVocabulary.placeholder, 1);
  assert.equal(record.modelFingerprint, expectedSha256[path.basename(euclidPath)]);
});

test('a closed model refuses calls; memory is returned', async () => {
  await ready;
  const m = await Model.fromBuffer(readArrayBuffer(euclidPath));
  const p = new Privatizer(m);
  await p.privatizeText('war', { epsilon: 10 });
  m.close();
  m.close();
  assert.equal(m.closed, true);
  await rejectsWith(() => m.fingerprint(), Status.INVALID_ARGUMENT, /closed/);
  await rejectsWith(async () => new Privatizer(m), Status.INVALID_ARGUMENT, /closed/);
  // A privatizer outlives its closed model (the bytes stay until it closes).
  assert.equal(typeof (await p.privatizeText('war', { epsilon: 10 })).text, 'string');
  await p.close();
  await p.close();
  await rejectsWith(() => p.privatizeText('war', { epsilon: 10 }), Status.INVALID_ARGUMENT, /closed/);
  // Opening and closing again reuses the freed memory instead of growing it.
  const before = heapOf(model).HEAPU8.length;
  for (let i = 0; i < 5; ++i) (await Model.fromBuffer(readArrayBuffer(euclidPath))).close();
  assert.equal(heapOf(model).HEAPU8.length, before);
});

test('no cryptographic generator: RNG_FAILURE, never a weaker fallback', async () => {
  await ready;
  const saved = Object.getOwnPropertyDescriptor(globalThis, 'crypto');
  const savedModule = heapOf(model).dxtextCrypto;
  const m = new Privatizer(model);
  try {
    Object.defineProperty(globalThis, 'crypto', { value: undefined, configurable: true });
    heapOf(model).dxtextCrypto = undefined;
    await rejectsWith(() => m.privatizeText('war', { epsilon: 10 }), Status.RNG_FAILURE, /getentropy/);
    await rejectsWith(() => m.privatizeText('war', { epsilon: 10 }), Status.RNG_FAILURE, /getentropy/);
  } finally {
    heapOf(model).dxtextCrypto = savedModule;
    if (saved) Object.defineProperty(globalThis, 'crypto', saved);
    else delete globalThis.crypto;
  }
  // With the generator back, the same model works again.
  assert.equal(typeof (await m.privatizeText('war', { epsilon: 10 })).text, 'string');
  await m.close();
});

test('the package opens the default model it carries', async () => {
  const m = await Model.openDefault();
  assert.equal(m.info.geometry, 'euclidean');
  assert.equal(await m.fingerprint(), expectedSha256[path.basename(euclidPath)]);
  const p = new Privatizer(m);
  assert.equal((await p.privatizeText(SENTENCE, { epsilon: 20, localDiagnostics: true })).localDiagnostics.wordsPrivatized, 12);
  await p.close();
  m.close();
  await rejectsWith(() => Model.openDefault('poincare'), Status.NOT_FOUND, /Poincare/);
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
  assert.match(await remote.libraryVersion(), /^\d+\.\d+\.\d+$/);
  const m = await remote.Model.fromBuffer(readArrayBuffer(euclidPath));
  assert.ok(m.info.vocabularySize > 1000);
  assert.equal(m.size, m.info.vocabularySize);
  assert.equal(await m.has('president'), true);
  assert.equal(await m.word(await m.lookup('war')), 'war');
  const p = new remote.Privatizer(m);
  const { text, record } = await p.privatizeText(SENTENCE, { epsilon: 20 });
  assert.equal(text.split(' ').length, SENTENCE.split(' ').length);
  assert.equal(record.isPrivate, true);
  assert.equal(record.bound, 'positionwise');
  assert.ok((await p.privatizeBag({ war: 2 }, { epsilon: 20 })).bag instanceof Map);
  // Presets and output sets cross the worker too.
  assert.equal((await p.privatizeText(SENTENCE, { preset: 'readable' })).record.preset, 'readable');
  const set = await m.outputSet(['war', 'peace']);
  assert.equal(set.size, 2);
  const listed = await p.privatizeText('the economy', { epsilon: 2, outputWords: set, releaseShape: 'strict' });
  assert.ok(listed.text.split(' ').every((w) => ['war', 'peace'].includes(w)), listed.text);
  assert.equal(listed.record.outputKind, 'list');
  await set.close();
  const seededRemote = new remote.Privatizer(m, { seed: SEED });
  assert.equal((await seededRemote.privatizeText(SENTENCE, 20)).text, (await seeded().privatizeText(SENTENCE, 20)).text);
  await rejectsWith(() => p.privatizeText(SENTENCE, { epsilon: -1 }), Status.INVALID_EPSILON, /epsilon/);
  await rejectsWith(() => p.privatizeText(SENTENCE, { epsilon: 5, epsilom: 3 }), Status.INVALID_ARGUMENT, /unknown option/);
  await p.close();
  await rejectsWith(() => p.privatizeText(SENTENCE, { epsilon: 5 }), Status.INVALID_ARGUMENT, /closed/);
  await m.close();
  worker.terminate();
});

// The conformance suite of every binding (tests/conformance/cases.json), on this package.
conformanceModule.conformanceTests({ dxtext, opensFromMemory: true });

test('output words: an OutputSet or an array; refusals come from the library', async () => {
  await ready;
  const allowed = ['house', 'river', 'music'];
  const set = await model.outputSet(allowed);
  assert.ok(set instanceof dxtext.OutputSet);
  assert.equal(set.size, 3);
  for (const outputWords of [set, allowed]) {
    const { text, record } = await privatizer.privatizeText('the cat sat on the mat tonight', {
      epsilon: 2, mechanism: 'exponential', releaseShape: 'strict', outputWords,
    });
    assert.ok(text.split(' ').every((w) => allowed.includes(w)), text);
    assert.equal(record.outputKind, 'list');
    assert.equal(record.outputSize, 3);
  }
  await rejectsWith(() => model.outputSet([]), Status.INVALID_ARGUMENT, /at least one word/);
  await rejectsWith(() => model.outputSet(['house', 'house']), Status.INVALID_ARGUMENT);
  await rejectsWith(() => model.outputSet(['house', 'zzqxv']), Status.INVALID_ARGUMENT, /zzqxv/);
  await rejectsWith(() => privatizer.privatizeText('cat', { epsilon: 2, outputWords: set, outputTop: 10 }), Status.INVALID_ARGUMENT, /choose one/);
  await rejectsWith(() => privatizer.privatizeText('cat', { preset: 'features', outputWords: set }), Status.INVALID_ARGUMENT, /outputWords: the preset 'features' fixes the output vocabulary/);
  set.close();
  await rejectsWith(() => privatizer.privatizeText('cat', { epsilon: 2, outputWords: set }), Status.INVALID_ARGUMENT, /closed/);
});

// The members a .d.ts declares in `export class NAME { ... }`: [name, static?].
function declaredMembers(types, name) {
  const body = types.match(new RegExp(`^export class ${name} [^{]*\\{\\n([\\s\\S]*?)^\\}`, 'm'));
  assert.ok(body, `no class ${name}`);
  return [...body[1].matchAll(/^ {2}(static )?(?:readonly )?(\w+)[(:?]/gm)]
    .filter((m) => m[2] !== 'constructor')
    .map((m) => [m[2], Boolean(m[1])]);
}

test('one API: the Node.js binding\'s exports, classes and members', async () => {
  await ready;
  const nodeTypes = fs.readFileSync(path.join(here, '..', '..', 'node', 'lib', 'index.d.ts'), 'utf8');
  const wasmTypes = fs.readFileSync(path.join(here, '..', 'js', 'dxtext.d.ts'), 'utf8');
  const exported = (types) => new Set([...types.matchAll(/^export (?:class|function|const) (\w+)/gm)].map((m) => m[1]));
  const nodeNames = exported(nodeTypes);
  for (const name of nodeNames) assert.ok(name in dxtext, `dxtext-wasm does not export ${name}`);
  for (const name of nodeNames) assert.ok(exported(wasmTypes).has(name), `dxtext.d.ts does not declare ${name}`);
  const set = await model.outputSet(['war']);
  const instances = { Model: model, Privatizer: privatizer, OutputSet: set };
  for (const cls of ['Model', 'Privatizer', 'OutputSet']) {
    const node = declaredMembers(nodeTypes, cls).filter(([name]) => !(cls === 'Model' && name === 'defaultPath'));
    // Model.defaultPath is a file path: Node.js only.
    assert.deepEqual(declaredMembers(wasmTypes, cls), node, `${cls} is declared alike`);
    for (const [name, isStatic] of node) {
      const target = isStatic ? dxtext[cls] : instances[cls];
      assert.ok(name in target, `${cls}${isStatic ? '.' : '#'}${name}`);
    }
  }
  set.close();
});
