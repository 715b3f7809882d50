// SPDX-License-Identifier: Apache-2.0
'use strict';
// Run with `node --test test/` (DXTEXT_NODE_ADDON may name the addon;
// DXTEXT_NODE_PACKAGE an installed package to test instead of this one).
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const dxtext = require(process.env.DXTEXT_NODE_PACKAGE || '..');
// The presets, as generated from tools/options/presets.table into the package tested.
const { PRESETS } = require(path.join(process.env.DXTEXT_NODE_PACKAGE || path.join(__dirname, '..'), 'lib',
  'options_table.js'));

const { conformanceTests } = require('../../../tests/js/conformance_tests.cjs');

const GOLDEN = path.join(__dirname, '..', '..', '..', 'tests', 'data', 'golden_v1.dxe');
const SENTENCE = 'The president spoke to the nation about the war.';

let model;
test.before(async () => {
  model = await dxtext.Model.openDefault();
});

test('opens the default model', async () => {
  assert.ok(fs.existsSync(dxtext.Model.defaultPath('euclidean')));
  const info = model.info;
  assert.equal(info.geometry, 'euclidean');
  assert.ok(info.vocabularySize > 1000);
  assert.equal(model.size, info.vocabularySize);
  assert.equal(await model.word(await model.lookup('house')), 'house');
  assert.equal(await model.has('house'), true);
  assert.equal(await model.has('zzqxv'), false);
  assert.match(await model.fingerprint(), /^[0-9a-f]{64}$/);
  assert.match(await dxtext.libraryVersion(), /^\d+\.\d+\.\d+$/);
  assert.equal(model.closed, false);
});

test('privatizes a text and reads the local diagnostics, when asked', async () => {
  // The text and its record are the conformance suite's (tests/js/conformance_tests.cjs);
  // here what is the binding's own: the record's output fields and the diagnostics.
  const privatizer = new dxtext.Privatizer(model);
  const { record, localDiagnostics } = await privatizer.privatizeText(SENTENCE, {
    epsilon: 20,
    localDiagnostics: true,
  });
  assert.equal(record.rngMode, 'system');
  assert.equal(record.outputKind, 'vocabulary');
  assert.equal(record.outputSize, model.size);
  assert.equal(record.outputDigest, null);
  assert.equal(record.modelFingerprint, await model.fingerprint());
  assert.equal(JSON.parse(record.json).words_privatized, undefined); // nothing about the input
  assert.equal(localDiagnostics.wordsPrivatized, 9);
  assert.equal(localDiagnostics.counts.inVocabulary.privatized + localDiagnostics.counts.stopword.privatized, 9);
  assert.equal(JSON.parse(localDiagnostics.json).words_privatized, 9);
  // Without the option, no diagnostics travel in the result.
  const plain = await privatizer.privatizeText(SENTENCE, 20);
  assert.deepEqual(Object.keys(plain).sort(), ['record', 'text']);
  await assert.rejects(privatizer.privatizeText(SENTENCE, { epsilon: 20, localDiagnostics: 'yes' }), dxtext.InvalidArgumentError);
  await privatizer.close();
});

test('privatizes a bag', async () => {
  const privatizer = new dxtext.Privatizer(model);
  const { bag, record, localDiagnostics } = await privatizer.privatizeBag(
    new Map([['war', 3], ['peace', 2], ['zzqxv', 1]]),
    { epsilon: 10, localDiagnostics: true },
  );
  // The bag and its record are the conformance suite's; here the types and the diagnostics.
  assert.ok(bag instanceof Map);
  assert.equal(localDiagnostics.wordsPrivatized, 6);
  assert.equal(localDiagnostics.counts.outOfVocabulary.privatized, 1);
  assert.equal(record.bound, 'bagEmd');
  const dropped = await privatizer.privatizeBag(
    { war: 3, peace: 2, zzqxv: 1 },
    { epsilon: 10, oov: 'drop', localDiagnostics: true },
  );
  assert.equal(dropped.localDiagnostics.counts.outOfVocabulary.dropped, 1);
});

test('single words, syntf and calibration', async () => {
  // Their outputs and records are the conformance suite's; here the result shapes.
  const privatizer = new dxtext.Privatizer(model);
  const placeholder = { epsilon: 5, oov: 'placeholder', placeholder: '[x]' };
  const { text, record, localDiagnostics } = await privatizer.privatizeWord('zzqxv', {
    ...placeholder,
    localDiagnostics: true,
  });
  assert.equal(text, '[x]');
  assert.equal(record.bound, 'word');
  assert.equal(localDiagnostics.counts.outOfVocabulary.placeholder, 1);
  const synthetic = await privatizer.syntf([['war', 2], ['peace', 1]], 5, 2);
  assert.ok(synthetic.bag instanceof Map);
  assert.equal(synthetic.record.draws, 5);
  assert.equal(synthetic.record.epsilonTotal, 10);
  assert.ok(synthetic.record.epsilonVocabulary > 0 && synthetic.record.epsilonVocabulary < 2);
  assert.equal((await privatizer.calibrate(20, { words: 20, trials: 10 })).words, 20);
});

test('seeded privatizers repeat and are not private', async () => {
  const seed = Buffer.alloc(32, 7);
  const a = new dxtext.Privatizer(model, { seed });
  const b = new dxtext.Privatizer(model, { seed });
  const [ra, rb] = await Promise.all([a.privatizeText(SENTENCE, 5), b.privatizeText(SENTENCE, 5)]);
  assert.equal(ra.text, rb.text);
  assert.equal(ra.record.isPrivate, false);
  const c = new dxtext.Privatizer(model, { seed: new Uint8Array(32).fill(7) });
  assert.equal((await c.privatizeText(SENTENCE, 5)).text, ra.text);
  const d = new dxtext.Privatizer(model, { seed: '07'.repeat(32) });
  assert.equal((await d.privatizeText(SENTENCE, 5)).text, ra.text);
  assert.throws(() => new dxtext.Privatizer(model, { seed: Buffer.alloc(5) }), dxtext.InvalidArgumentError);
});

test('a bad epsilon is an InvalidEpsilonError, also for numbers JSON cannot write', async () => {
  // The library's refusals are the conformance suite's; here the error class
  // and the JavaScript numbers that only this binding can pass.
  const privatizer = new dxtext.Privatizer(model);
  for (const epsilon of [NaN, Infinity, -Infinity]) {
    await assert.rejects(privatizer.privatizeText(SENTENCE, { epsilon }), (error) => {
      assert.ok(error instanceof dxtext.InvalidEpsilonError, String(error));
      assert.ok(error instanceof dxtext.DxtextError);
      assert.equal(error.status, 2);
      assert.equal(error.code, 'DXT_E_INVALID_EPSILON');
      return true;
    });
  }
  await assert.rejects(privatizer.privatizeWord('war', -3), dxtext.InvalidEpsilonError);
  await assert.rejects(privatizer.privatizeWord('house', { epsilon: 5, vickreyt: 0.5 }), dxtext.InvalidArgumentError);
});

test('integers out of range are refused, not wrapped', async () => {
  const privatizer = new dxtext.Privatizer(model);
  // N-API's uint32 conversion would make 2**32 + 3 trials 3 and -1 words 2**32 - 1.
  for (const [words, trials] of [[1, 2 ** 32 + 3], [-1, 1], [1.5, 1], [1, NaN]]) {
    await assert.rejects(privatizer.calibrate({ epsilon: 1 }, { words, trials }), (error) => {
      assert.ok(error instanceof dxtext.InvalidArgumentError, String(error));
      assert.match(error.message, /(words|trials) must be an integer in \[0, 2\^32\)/);
      return true;
    });
  }
  for (const nOut of [-1, 2 ** 32, 0.5]) {
    await assert.rejects(privatizer.syntf({ war: 1 }, nOut, { epsilon: 1 }), /nOut must be an integer/);
  }
  await assert.rejects(privatizer.privatizeText(SENTENCE, { epsilon: 5, ivfNprobe: 2 ** 32 + 1 }), /ivfNprobe/);
  for (const index of [-1, 2 ** 32, 1.5]) await assert.rejects(model.word(index), dxtext.InvalidArgumentError);
  await assert.rejects(model.word(2 ** 32 - 2), dxtext.NotFoundError);
  await privatizer.close();
});

test('option values JSON cannot write are refused', async () => {
  const privatizer = new dxtext.Privatizer(model);
  for (const search of ['constructor', 7]) {
    await assert.rejects(privatizer.privatizeText(SENTENCE, { epsilon: 4, search }), dxtext.InvalidArgumentError);
  }
  await assert.rejects(privatizer.privatizeText(SENTENCE, { epsilon: 4, search: 'ivf', ivfNprobe: 2.5 }),
    dxtext.InvalidArgumentError);
});

test('a missing file is a FileError', async () => {
  await assert.rejects(dxtext.Model.open('/nonexistent/dxtext/model.dxe'), (error) => {
    assert.ok(error instanceof dxtext.FileError);
    assert.equal(error.code, 'DXT_E_IO');
    assert.match(error.message, /model\.dxe/);
    return true;
  });
});

test('models from buffers; corrupt models are ModelErrors', async () => {
  // The statuses and messages of corrupt files are the conformance suite's; here buffers and the classes.
  const bytes = fs.readFileSync(GOLDEN);
  (await dxtext.Model.fromBuffer(bytes)).close();
  (await dxtext.Model.fromBuffer(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length))).close();
  await assert.rejects(dxtext.Model.fromBuffer(bytes.subarray(0, bytes.length / 2)), (error) => {
    assert.ok(error instanceof dxtext.TruncatedModelError && error instanceof dxtext.ModelError, String(error));
    assert.equal(error.code, 'DXT_E_TRUNCATED_MODEL');
    return true;
  });
  await assert.rejects(dxtext.Model.fromBuffer('not bytes'), dxtext.InvalidArgumentError);
});

test('calls on one privatizer queue; privatizers run in parallel', async () => {
  const one = new dxtext.Privatizer(model);
  const queued = await Promise.all(Array.from({ length: 20 }, () => one.privatizeText(SENTENCE, 15)));
  assert.equal(queued.length, 20);
  // Calls of every kind queue behind each other on one privatizer.
  const pending = one.privatizeText(SENTENCE.repeat(20), 15);
  const word = one.privatizeWord('war', 15);
  await Promise.all([pending, word]);
  const many = Array.from({ length: 4 }, () => new dxtext.Privatizer(model));
  const results = await Promise.all(many.map((p) => p.privatizeText(SENTENCE, 15)));
  assert.equal(results.length, 4);
  await Promise.all(many.map((p) => p.close()));
});

test('asynchronous calls leave the event loop free', async () => {
  const privatizer = new dxtext.Privatizer(model);
  let ticks = 0;
  const timer = setInterval(() => {
    ticks += 1;
  }, 1);
  const { localDiagnostics } = await privatizer.privatizeText(SENTENCE.repeat(40), { epsilon: 15, localDiagnostics: true });
  clearInterval(timer);
  assert.equal(localDiagnostics.wordsPrivatized, 360);
  // The 360 nearest-word searches ran on the thread pool while timers fired.
  assert.ok(ticks > 0, `the event loop was blocked (ticks: ${ticks})`);
  await privatizer.close();
});

test('a privatizer outlives its closed model', async () => {
  const m = await dxtext.Model.fromBuffer(fs.readFileSync(GOLDEN));
  const word = await m.word(0);
  const privatizer = new dxtext.Privatizer(m);
  m.close();
  assert.equal(m.closed, true);
  await assert.rejects(m.word(0), dxtext.InvalidArgumentError);
  assert.equal(typeof (await privatizer.privatizeWord(word, 1)).text, 'string');
  const { text } = await privatizer.privatizeText(`${word} ${word}`, 1);
  assert.ok(text.length > 0);
  await privatizer.close();
  await assert.rejects(privatizer.privatizeText(word, 1), dxtext.InvalidArgumentError);
});

test('a ledger\'s totals, fresh releases, setCap and a corrupted file', async () => {
  // Spending, refusal and the memo are the conformance suite's; here the
  // binding's totals, fresh, setCap, its error class and the file.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dxtext-node-ledger-'));
  const file = path.join(dir, 'privacy.dxl');
  const privatizer = new dxtext.Privatizer(model);
  const ledger = await dxtext.Ledger.open(file, { scope: 'alice', cap: 10, key: Buffer.alloc(32, 7) });
  assert.equal((await ledger.privatizeText(privatizer, SENTENCE, { epsilon: 4 })).record.epsilon, 4);
  assert.equal((await ledger.privatizeText(privatizer, SENTENCE, { epsilon: 4 })).memoised, true);
  await ledger.privatizeText(privatizer, 'hello world', { epsilon: 4 });
  const totals = ledger.totals();
  assert.deepEqual([totals.spent, totals.releases, totals.memoised, totals.cap], [8, 2, 2, 10]);
  await assert.rejects(ledger.privatizeText(privatizer, SENTENCE, { epsilon: 4 }, { fresh: true }), (error) => {
    assert.ok(error instanceof dxtext.BudgetExceededError);
    assert.equal(error.code, 'DXT_E_BUDGET_EXCEEDED');
    return true;
  });
  ledger.setCap(20);
  const fresh = await ledger.privatizeText(privatizer, SENTENCE, { epsilon: 4 }, { fresh: true });
  assert.equal(fresh.memoised, false);
  assert.equal(ledger.totals().spent, 12);
  assert.equal(ledger.toJSON().spent, 12);
  assert.throws(() => ledger.setCap(NaN), dxtext.InvalidArgumentError);
  await ledger.close();
  await privatizer.close();

  // A scope with a NUL would be cut at it by the C call: refused.
  await assert.rejects(dxtext.Ledger.open(file, { scope: 'alice\0day1', cap: 1 }), dxtext.InvalidArgumentError);
  const bytes = fs.readFileSync(file);
  bytes[bytes.length >> 1] ^= 1;
  fs.writeFileSync(file, bytes);
  await assert.rejects(dxtext.Ledger.open(file, { scope: 'alice' }), dxtext.LedgerCorruptError);
  assert.deepEqual(fs.readFileSync(file), bytes);
  fs.rmSync(dir, { recursive: true });
});

// Issue 27, case 1: the copy saved after the first release, put back after
// the second, is refused against the anchor stored after the last call.
test('a ledger rollback is refused against the stored anchor', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dxtext-node-anchor-'));
  const file = path.join(dir, 'privacy.dxl');
  const key = Buffer.alloc(32, 9);
  const privatizer = new dxtext.Privatizer(model);
  const ledger = await dxtext.Ledger.open(file, { cap: 8, key });
  await ledger.privatizeText(privatizer, 'hello', { epsilon: 4 });
  const saved = fs.readFileSync(file);
  await ledger.privatizeText(privatizer, 'world', { epsilon: 4 });
  await assert.rejects(ledger.privatizeText(privatizer, 'again', { epsilon: 4 }), dxtext.BudgetExceededError);
  const anchor = ledger.anchor();
  await ledger.close();
  assert.ok(anchor instanceof dxtext.LedgerAnchor);
  assert.equal(anchor.spent, 8);
  assert.equal(anchor.ledgerId.length, 16);
  assert.equal(typeof anchor.commits, 'bigint');
  // The stored form round-trips.
  const stored = anchor.toBytes();
  assert.equal(stored.length, 32);
  const restored = dxtext.LedgerAnchor.fromBytes(Uint8Array.from(stored));
  assert.ok(restored.equals(anchor));
  assert.deepEqual([restored.commits, restored.spent], [anchor.commits, anchor.spent]);
  assert.deepEqual(Buffer.from(restored.ledgerId), Buffer.from(anchor.ledgerId));

  fs.writeFileSync(file, saved);
  await assert.rejects(dxtext.Ledger.open(file, { key, anchor: restored }), (error) => {
    assert.ok(error instanceof dxtext.LedgerRollbackError);
    assert.equal(error.status, 20);
    assert.equal(error.status, dxtext.Status.LEDGER_ROLLBACK);
    assert.equal(error.code, 'DXT_E_LEDGER_ROLLBACK');
    assert.match(error.message, /rolled back/);
    return true;
  });
  // Without the anchor it is not detected (documented).
  const blind = await dxtext.Ledger.open(file, { key });
  assert.equal(blind.totals().spent, 4);
  await blind.close();
  // A deleted file is a rollback too, and is not made anew.
  fs.rmSync(file);
  await assert.rejects(dxtext.Ledger.open(file, { key, anchor }), dxtext.LedgerRollbackError);
  assert.equal(fs.existsSync(file), false);
  await privatizer.close();
  fs.rmSync(dir, { recursive: true });
});

test('a fresh ledger anchor round-trips; a bad one is an InvalidArgumentError', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dxtext-node-anchor-'));
  const file = path.join(dir, 'privacy.dxl');
  const ledger = await dxtext.Ledger.open(file, { cap: 1 });
  const anchor = ledger.anchor();
  assert.equal(anchor.spent, 0);
  assert.ok(dxtext.LedgerAnchor.fromBytes(anchor.toBytes()).equals(anchor));
  assert.ok(ledger.anchor().equals(anchor)); // nothing changed since
  await ledger.close();
  const reopened = await dxtext.Ledger.open(file, { anchor: dxtext.LedgerAnchor.fromBytes(anchor.toBytes()) });
  assert.ok(reopened.anchor().equals(anchor));
  await reopened.close();

  for (const bytes of [Buffer.alloc(31), Buffer.alloc(33), new Uint8Array(0)]) {
    assert.throws(() => dxtext.LedgerAnchor.fromBytes(bytes), (error) => {
      assert.ok(error instanceof dxtext.InvalidArgumentError);
      assert.match(error.message, /32 bytes/);
      return true;
    });
  }
  assert.throws(() => dxtext.LedgerAnchor.fromBytes('not bytes'), dxtext.InvalidArgumentError);
  await assert.rejects(dxtext.Ledger.open(file, { anchor: anchor.toBytes() }), dxtext.InvalidArgumentError);
  // An anchor of another ledger is a rollback: this file is not its ledger.
  const other = await dxtext.Ledger.open(path.join(dir, 'other.dxl'), { cap: 1 });
  const otherAnchor = other.anchor();
  await other.close();
  await assert.rejects(dxtext.Ledger.open(file, { anchor: otherAnchor }), dxtext.LedgerRollbackError);
  fs.rmSync(dir, { recursive: true });
});

test('the preset names are the table\'s', () => {
  assert.deepEqual(dxtext.PRESET_NAMES, PRESETS.map((p) => p.name));
});

// The conformance suite of every binding (tests/conformance/cases.json), on this package.
conformanceTests({ dxtext });

test('output words: an OutputSet or an array; refusals come from the library', async () => {
  const allowed = ['house', 'river', 'music'];
  const set = await model.outputSet(allowed);
  assert.ok(set instanceof dxtext.OutputSet);
  assert.equal(set.size, 3);
  assert.deepEqual(set.words, allowed);
  const privatizer = new dxtext.Privatizer(model);
  for (const outputWords of [set, allowed]) {
    const { text, record } = await privatizer.privatizeText('the cat sat on the mat tonight', {
      epsilon: 2, mechanism: 'exponential', releaseShape: 'strict', outputWords,
    });
    assert.ok(text.split(' ').every((w) => allowed.includes(w)), text);
    assert.equal(record.outputKind, 'list');
    assert.equal(record.outputSize, 3);
  }
  const { bag } = await privatizer.privatizeBag({ cat: 3, dog: 2 }, { epsilon: 2, outputWords: set });
  assert.ok([...bag.keys()].every((w) => allowed.includes(w)));
  await assert.rejects(model.outputSet([]), /at least one word/);
  await assert.rejects(model.outputSet(['house', 'house']), dxtext.InvalidArgumentError);
  await assert.rejects(model.outputSet(['house', 'zzqxv']), /zzqxv/);
  await assert.rejects(model.outputSet('house'), dxtext.InvalidArgumentError);
  await assert.rejects(privatizer.privatizeText('cat', { epsilon: 2, outputWords: set, outputTop: 10 }), /choose one/);
  await assert.rejects(privatizer.privatizeText('cat', { preset: 'features', outputWords: set }), /outputWords: the preset 'features' fixes the output vocabulary/);
  const golden = await dxtext.Model.fromBuffer(fs.readFileSync(GOLDEN));
  const foreign = await golden.outputSet([await golden.word(0)]);
  await assert.rejects(privatizer.privatizeText('cat', { epsilon: 2, outputWords: foreign }), /another model/);
  set.close();
  await assert.rejects(privatizer.privatizeText('cat', { epsilon: 2, outputWords: set }), /closed/);
  golden.close();
  await privatizer.close();
});
