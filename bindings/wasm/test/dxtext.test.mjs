// SPDX-License-Identifier: Apache-2.0
// Tests of the WebAssembly build under Node's test runner:
//   DXTEXT_WASM_PACKAGE=<build>/package node --test bindings/wasm/test/
// The API's tests are shared with the Node.js binding
// (tests/js/api_tests.cjs), as is the conformance suite
// (tests/js/conformance_tests.cjs: seeded output equal to the native
// OpenSSL library's); here what is this package's own: its memory, its
// generator, the default model it carries, the worker protocol.

import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import apiModule from '../../../tests/js/api_tests.cjs';
import conformanceModule from '../../../tests/js/conformance_tests.cjs';

const packageDir = process.env.DXTEXT_WASM_PACKAGE;
if (!packageDir) throw new Error('set DXTEXT_WASM_PACKAGE to the built package directory (<build>/package)');
const dxtext = await import(pathToFileURL(path.join(path.resolve(packageDir), 'dxtext.js')).href);
const { Model, Privatizer, Status } = dxtext;
const { EUCLID: euclidPath, EUCLID_SHA256, SEED, SENTENCE } = apiModule;
const rejectsWith = apiModule.rejecter(dxtext);

// The default Euclidean model as a browser would get it: an ArrayBuffer.
function readArrayBuffer(file) {
  const b = fs.readFileSync(file);
  return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
}
const openModel = async () => {
  await dxtext.load();
  return Model.fromBuffer(readArrayBuffer(euclidPath));
};

// One open model and one privatizer for the tests that only read from them.
let model;
let privatizer;
const ready = (async () => {
  model = await openModel();
  privatizer = new Privatizer(model);
})();
// The module's memory (for the tests of memory growth and of the generator).
const heapOf = (m) => m._handle().core.m;

// The API's tests and the conformance suite (tests/conformance/cases.json) of both JavaScript packages, on this one.
apiModule.apiTests({ dxtext, openModel });
conformanceModule.conformanceTests({ dxtext, opensFromMemory: true });

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
  assert.equal(record.modelFingerprint, EUCLID_SHA256);
});

test('closed models and privatizers return their memory', async () => {
  // Closing and its refusals are the API's tests; here the memory: a model's
  // is freed with the last object made from it, so opening, using and
  // closing again reuses it instead of growing the memory.
  await ready;
  const cycle = async () => {
    const m = await Model.fromBuffer(readArrayBuffer(euclidPath));
    const p = new Privatizer(m);
    await p.privatizeText('war', { epsilon: 10 });
    m.close();
    await p.close();
  };
  await cycle();
  const before = heapOf(model).HEAPU8.length;
  for (let i = 0; i < 5; ++i) await cycle();
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

test('the package carries no default Poincare model', async () => {
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
  // Each call crosses as a message; the classes, the checks and the result
  // shapes are this module's (the API's tests).
  const remote = dxtext.connectWorker(worker);
  assert.match(await remote.libraryVersion(), /^\d+\.\d+\.\d+$/);
  const m = await remote.Model.fromBuffer(readArrayBuffer(euclidPath));
  assert.deepEqual(m.info, model.info);
  assert.equal(await m.fingerprint(), await model.fingerprint());
  assert.equal(await m.has('president'), true);
  assert.equal(await m.word(await m.lookup('war')), 'war');
  const p = new remote.Privatizer(m);
  const { text, record } = await p.privatizeText(SENTENCE, { epsilon: 20 });
  assert.equal(text.split(' ').length, SENTENCE.split(' ').length);
  assert.equal(record.bound, 'positionwise');
  assert.equal((await p.privatizeWord('war', 20)).record.release, 'word');
  assert.ok((await p.privatizeBag({ war: 2 }, { epsilon: 20 })).bag instanceof Map);
  assert.equal((await p.syntf({ war: 2 }, 3, 20)).record.draws, 3);
  assert.equal((await p.calibrate(20, { words: 5, trials: 5 })).words, 5);
  // An output set is the worker's: its handle crosses.
  const set = await m.outputSet(['war', 'peace']);
  const listed = await p.privatizeText('the economy', { epsilon: 2, outputWords: set, releaseShape: 'strict' });
  assert.ok(listed.text.split(' ').every((w) => ['war', 'peace'].includes(w)), listed.text);
  await set.close();
  const seeded = await new remote.Privatizer(m, { seed: SEED }).privatizeText(SENTENCE, 20);
  assert.equal(seeded.text, (await new Privatizer(model, { seed: SEED }).privatizeText(SENTENCE, 20)).text);
  // The library's errors cross as the same classes (their messages: the conformance suite).
  await rejectsWith(() => p.privatizeText(SENTENCE, { epsilon: -1 }), Status.INVALID_EPSILON, /epsilon/);
  await p.close();
  await rejectsWith(() => p.privatizeText(SENTENCE, { epsilon: 5 }), Status.INVALID_ARGUMENT, /closed/);
  await m.close();
  worker.terminate();
});
