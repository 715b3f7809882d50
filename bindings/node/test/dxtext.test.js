'use strict';
// Run with `node --test test/` (DXTEXT_NODE_ADDON may name the addon).
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const dxtext = require('..');

const GOLDEN = path.join(__dirname, '..', '..', '..', 'tests', 'data', 'golden_v1.dxe');
const SENTENCE = 'The president spoke to the nation about the war.';

const model = dxtext.Model.openDefault();

test('opens the default model', () => {
  assert.ok(fs.existsSync(dxtext.Model.defaultPath('euclidean')));
  const info = model.info;
  assert.equal(info.geometry, 'euclidean');
  assert.ok(info.vocabularySize > 1000);
  assert.equal(model.size, info.vocabularySize);
  assert.equal(model.word(model.lookup('house')), 'house');
  assert.match(model.fingerprint(), /^[0-9a-f]{64}$/);
  assert.match(dxtext.version, /^\d+\.\d+\.\d+$/);
});

test('privatizes a text and reads the report', async () => {
  const privatizer = new dxtext.Privatizer(model);
  const { text, report } = await privatizer.privatizeText(SENTENCE, { epsilon: 20 });
  assert.ok(text.endsWith('.'), text);
  assert.equal(report.mechanism, 'laplace');
  assert.equal(report.metric, 'euclidean');
  assert.equal(report.rng, 'system');
  assert.equal(report.isPrivate, true);
  assert.equal(report.epsilon, 20);
  assert.equal(report.wordsPrivatized, 9);
  assert.equal(report.counts.inVocabulary.privatized + report.counts.stopword.privatized, 9);
  assert.equal(report.epsilonDocument, 180);
  assert.equal(report.modelFingerprint, model.fingerprint());
  assert.equal(JSON.parse(report.json).words_privatized, 9);
  await privatizer.close();
});

test('privatizes a bag', async () => {
  const privatizer = new dxtext.Privatizer(model);
  const { bag, report } = await privatizer.privatizeBag(new Map([['war', 3], ['peace', 2], ['zzqxv', 1]]), 10);
  assert.ok(bag instanceof Map);
  assert.equal([...bag.values()].reduce((a, b) => a + b, 0), 6);
  assert.equal(report.wordsPrivatized, 6);
  assert.equal(report.counts.outOfVocabulary.privatized, 1);
  assert.equal(report.epsilonDocument, 60);
  const dropped = await privatizer.privatizeBag(
    { war: 3, peace: 2, zzqxv: 1 },
    { epsilon: 10, policies: { outOfVocabulary: 'drop' } },
  );
  assert.equal(dropped.report.counts.outOfVocabulary.dropped, 1);
  assert.equal([...dropped.bag.values()].reduce((a, b) => a + b, 0), 5);
});

test('single words are synchronous; syntf and calibration are promises', async () => {
  const privatizer = new dxtext.Privatizer(model);
  assert.equal(privatizer.privatizeWord('house', 1000), 'house');
  const placeholder = { epsilon: 5, policies: { outOfVocabulary: 'placeholder' }, placeholder: '[x]' };
  const { text, report } = privatizer.privatizeWordWithReport('zzqxv', placeholder);
  assert.equal(text, '[x]');
  assert.equal(report.counts.outOfVocabulary.placeholder, 1);
  const synthetic = await privatizer.syntf([['war', 2], ['peace', 1]], 5, 2);
  assert.equal([...synthetic.bag.values()].reduce((a, b) => a + b, 0), 5);
  assert.equal(synthetic.report.epsilonDocument, 10);
  assert.ok(synthetic.report.epsilonDocumentVocabulary > 0 && synthetic.report.epsilonDocumentVocabulary < 10);
  const c = await privatizer.calibrate(20, { words: 20, trials: 10 });
  assert.equal(c.words, 20);
  assert.equal(c.trials, 10);
  assert.ok(c.keepMean >= 0 && c.keepMean <= 1);
});

test('seeded privatizers repeat and are not private', async () => {
  const seed = Buffer.alloc(32, 7);
  const a = new dxtext.Privatizer(model, { seed });
  const b = new dxtext.Privatizer(model, { seed });
  const [ra, rb] = await Promise.all([a.privatizeText(SENTENCE, 5), b.privatizeText(SENTENCE, 5)]);
  assert.equal(ra.text, rb.text);
  assert.equal(ra.report.isPrivate, false);
  const c = new dxtext.Privatizer(model, { seed: new Uint8Array(32).fill(7) });
  assert.equal((await c.privatizeText(SENTENCE, 5)).text, ra.text);
  assert.throws(() => new dxtext.Privatizer(model, { seed: Buffer.alloc(5) }), dxtext.InvalidArgumentError);
});

test('a bad epsilon is an InvalidEpsilonError', async () => {
  const privatizer = new dxtext.Privatizer(model);
  for (const epsilon of [0, -1, NaN, Infinity]) {
    await assert.rejects(privatizer.privatizeText(SENTENCE, { epsilon }), (error) => {
      assert.ok(error instanceof dxtext.InvalidEpsilonError, String(error));
      assert.ok(error instanceof dxtext.DxtextError);
      assert.equal(error.status, 2);
      assert.equal(error.code, 'DXT_E_INVALID_EPSILON');
      assert.match(error.message, /epsilon/);
      return true;
    });
  }
  assert.throws(() => privatizer.privatizeWord('war', -3), dxtext.InvalidEpsilonError);
  assert.throws(() => privatizer.privatizeWord('war', {}), dxtext.InvalidEpsilonError);
  await assert.rejects(privatizer.privatizeText(SENTENCE, { epsilon: 5, mechanism: 'nope' }), dxtext.InvalidArgumentError);
  await assert.rejects(privatizer.privatizeText(SENTENCE, { epsilon: 3, mechanism: 'hyperbolic' }), dxtext.UnsupportedError);
});

test('the search option reaches the library', async () => {
  const privatizer = new dxtext.Privatizer(model);
  assert.notEqual(await privatizer.privatizeText(SENTENCE, { epsilon: 4, search: 'exact' }), '');
  // The default model has no search index: the library itself refuses IVF.
  await assert.rejects(privatizer.privatizeText(SENTENCE, { epsilon: 4, search: 'ivf', ivfNprobe: 4 }),
    dxtext.UnsupportedError);
  await assert.rejects(privatizer.privatizeText(SENTENCE, { epsilon: 4, ivfNprobe: 4 }), (error) => {
    assert.ok(error instanceof dxtext.InvalidArgumentError, String(error)); // nprobe without IVF
    return true;
  });
  for (const search of ['nearest', 'constructor', 1]) {
    await assert.rejects(privatizer.privatizeText(SENTENCE, { epsilon: 4, search }), dxtext.InvalidArgumentError);
  }
  await assert.rejects(privatizer.privatizeText(SENTENCE, { epsilon: 4, search: 'ivf', ivfNprobe: 2.5 }),
    dxtext.InvalidArgumentError);
});

test('a missing file is a FileError', () => {
  assert.throws(() => dxtext.Model.open('/nonexistent/dxtext/model.dxe'), (error) => {
    assert.ok(error instanceof dxtext.FileError);
    assert.equal(error.code, 'DXT_E_IO');
    assert.match(error.message, /model\.dxe/);
    return true;
  });
});

test('corrupt models are ModelErrors', () => {
  const bytes = fs.readFileSync(GOLDEN);
  dxtext.Model.fromBuffer(bytes).close();
  assert.throws(() => dxtext.Model.fromBuffer(bytes.subarray(0, bytes.length / 2)), dxtext.TruncatedModelError);
  assert.throws(() => dxtext.Model.fromBuffer(new Uint8Array(256).fill(0x42)), dxtext.NotAModelError);
  const damaged = Buffer.from(bytes);
  damaged[60] = 1;
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'dxtext-node-')), 'damaged.dxe');
  fs.writeFileSync(file, damaged);
  assert.throws(() => dxtext.Model.open(file), (error) => {
    assert.ok(error instanceof dxtext.DigestMismatchError, String(error));
    assert.ok(error instanceof dxtext.ModelError);
    return true;
  });
  fs.rmSync(path.dirname(file), { recursive: true });
  assert.throws(() => dxtext.Model.fromBuffer('not bytes'), dxtext.InvalidArgumentError);
});

test('calls on one privatizer queue; privatizers run in parallel', async () => {
  const one = new dxtext.Privatizer(model);
  const queued = await Promise.all(Array.from({ length: 20 }, () => one.privatizeText(SENTENCE, 15)));
  assert.equal(queued.length, 20);
  // A synchronous call while an asynchronous one runs is refused, not raced.
  const pending = one.privatizeText(SENTENCE.repeat(20), 15);
  await new Promise((resolve) => setImmediate(resolve));
  assert.throws(() => one.privatizeWord('war', 15), /asynchronous call/);
  await pending;
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
  const { report } = await privatizer.privatizeText(SENTENCE.repeat(40), 15);
  clearInterval(timer);
  assert.equal(report.wordsPrivatized, 360);
  // The 360 nearest-word searches ran on the thread pool while timers fired.
  assert.ok(ticks > 0, `the event loop was blocked (ticks: ${ticks})`);
  await privatizer.close();
});

test('a privatizer outlives its closed model', async () => {
  const m = dxtext.Model.fromBuffer(fs.readFileSync(GOLDEN));
  const word = m.word(0);
  const privatizer = new dxtext.Privatizer(m);
  m.close();
  assert.throws(() => m.word(0), dxtext.InvalidArgumentError);
  assert.equal(typeof privatizer.privatizeWord(word, 1), 'string');
  const { text } = await privatizer.privatizeText(`${word} ${word}`, 1);
  assert.ok(text.length > 0);
  await privatizer.close();
  await assert.rejects(privatizer.privatizeText(word, 1), dxtext.InvalidArgumentError);
});
