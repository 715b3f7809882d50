// SPDX-License-Identifier: Apache-2.0
// The tests of the one JavaScript API (Model, Privatizer, OutputSet, Ledger,
// LedgerAnchor, the error classes), registered once for both packages: the
// Node.js binding (bindings/node/test/dxtext.test.js) and the WebAssembly
// package (bindings/wasm/test/dxtext.test.mjs). Seeded texts, records and the
// library's refusals are the conformance suite's (conformance_tests.cjs);
// here what the API adds: result shapes, typed records, input forms, error
// classes, closing, the ledger's objects. What only one package has (Node's
// thread pool, the WebAssembly memory, workers, stores) stays in its tests.
'use strict';

const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { test } = require('node:test');

const REPO = path.resolve(__dirname, '..', '..');
const MODELS = path.join(REPO, 'models');
const GOLDEN = path.join(REPO, 'tests', 'data', 'golden_v1.dxe');
// The default Euclidean model: the newest models/dxtext-en-euclid-*.dxe, and its published SHA-256.
const EUCLID = path.join(MODELS, fs.readdirSync(MODELS)
  .filter((n) => n.startsWith('dxtext-en-euclid-') && n.endsWith('.dxe')).sort().pop());
const EUCLID_SHA256 = fs.readFileSync(path.join(MODELS, 'SHA256SUMS'), 'utf8').trim().split('\n')
  .map((line) => line.split(/\s+/)).find(([, name]) => name === path.basename(EUCLID))[0];

const SENTENCE = 'The president spoke to the nation about the war and the economy.'; // 12 words
const SEED = '00'.repeat(31) + '07';
const KEY = new Uint8Array(32).fill(9); // a ledger's app key: without one a ledger memoises nothing

// The members a .d.ts declares in `export class NAME { ... }`: [name, static?].
function declaredMembers(types, name) {
  const body = types.match(new RegExp(`^export class ${name} [^{]*\\{\\n([\\s\\S]*?)^\\}`, 'm'));
  assert.ok(body, `no class ${name}`);
  return [...body[1].matchAll(/^ {2}(static )?(?:readonly )?(\w+)[(:?]/gm)]
    .filter((m) => m[2] !== 'constructor')
    .map((m) => [m[2], Boolean(m[1])]);
}

// rejectsWith(fn, status, pattern) of the package `dxtext`: `fn` throws or
// rejects with a DxtextError of `status` (its code the status's), its
// message matching `pattern`; resolves with the error (to check its class).
function rejecter({ DxtextError, Status }) {
  return async (fn, status, pattern) => {
    let error;
    await assert.rejects(async () => fn(), (e) => {
      assert.ok(e instanceof DxtextError && e instanceof Error, `expected a DxtextError, got ${e}`);
      assert.equal(e.status, status, `status ${e.code} (${e.message})`);
      assert.equal(e.code, `DXT_E_${Object.keys(Status).find((k) => Status[k] === status)}`);
      if (pattern) assert.match(e.message, pattern);
      error = e;
      return true;
    });
    return error;
  };
}

// dxtext: the package under test; openModel(): a promise of the default
// Euclidean model, opened as the package's users would.
function apiTests({ dxtext, openModel }) {
  const { Ledger, LedgerAnchor, Model, Privatizer, Status } = dxtext;
  const rejectsWith = rejecter(dxtext);
  let model;
  let privatizer; // for the tests that only read from it
  const ready = (async () => {
    model = await openModel();
    privatizer = new Privatizer(model);
  })();
  const seeded = (seed = SEED) => new Privatizer(model, { seed });

  // A directory for ledger files, removed after `fn`.
  async function inTemporaryDirectory(fn) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dxtext-api-'));
    try {
      await fn(dir);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }

  test('api: a model\'s info and words; the default model the package carries, by its published fingerprint', async () => {
    await ready;
    assert.match(await dxtext.libraryVersion(), /^\d+\.\d+\.\d+$/);
    const info = model.info;
    assert.equal(info.geometry, 'euclidean');
    assert.ok(info.dimension > 0);
    assert.ok(info.vocabularySize > 1000);
    assert.equal(model.size, info.vocabularySize);
    assert.equal(await model.word(await model.lookup('president')), 'president');
    await rejectsWith(() => model.lookup('qzxqzxqzx'), Status.NOT_FOUND);
    assert.equal(await model.has('president'), true);
    assert.equal(await model.has('qzxqzxqzx'), false);
    assert.equal(model.closed, false);
    const carried = await Model.openDefault();
    assert.equal(await carried.fingerprint(), EUCLID_SHA256);
    carried.close();
    // The small-epsilon route of a Poincare model (docs/guarantees.md,
    // "Poincare models at small epsilon") is the conformance suite's; the
    // statistical checks of what the words do at 0.5 and at 1e6, and of its
    // calibration, are the library's (tests/stat/test_poincare_route.cpp).
    const ball = await Model.open(path.join(MODELS, 'dxtext-wordnet-poincare-10d.dxe'));
    assert.deepEqual([ball.info.geometry, ball.info.dimension], ['poincare', 10]);
    ball.close();
  });

  test('api: Model.open reads a file; a missing one is a FileError', async () => {
    // Opening a model, and files that are not one, are the conformance suite's; here the path and the class.
    const missing = await rejectsWith(() => Model.open(path.join(MODELS, 'no-such-model.dxe')), Status.IO, /no-such-model\.dxe/);
    assert.ok(missing instanceof dxtext.FileError);
    const opened = await Model.open(EUCLID);
    assert.equal(opened.path, EUCLID);
    opened.close();
  });

  test('api: models from buffers; corrupt models are ModelErrors', async () => {
    // A damaged header, a truncated file, not a model: the conformance suite;
    // here the buffers' forms, the classes and a section's digest, checked only when asked.
    await ready;
    const bytes = fs.readFileSync(GOLDEN);
    (await Model.fromBuffer(bytes)).close();
    (await Model.fromBuffer(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length))).close();
    const truncated = await rejectsWith(() => Model.fromBuffer(bytes.subarray(0, bytes.length / 2)), Status.TRUNCATED_MODEL);
    assert.ok(truncated instanceof dxtext.TruncatedModelError && truncated instanceof dxtext.ModelError, String(truncated));
    const flipped = Uint8Array.from(fs.readFileSync(EUCLID));
    flipped[flipped.length - 1000] ^= 0x40; // inside the last section
    await rejectsWith(() => Model.fromBuffer(flipped, { verifyDigests: true }), Status.DIGEST_MISMATCH, /digest/);
    assert.ok((await rejectsWith(() => Model.fromBuffer(new Uint8Array(0)), Status.NOT_A_MODEL)) instanceof dxtext.ModelError);
    await rejectsWith(() => Model.fromBuffer('not bytes'), Status.INVALID_ARGUMENT, /ArrayBuffer/);
  });

  test('api: privatises a text with the system generator, fresh noise each call; local diagnostics when asked', async () => {
    // Seeded texts and their records, typed and JSON, are the conformance
    // suite's; here the system generator and the diagnostics (each policy
    // counted: the texts are the conformance suite's).
    await ready;
    const { record, localDiagnostics } = await privatizer.privatizeText(SENTENCE, {
      epsilon: 20,
      localDiagnostics: true,
    });
    assert.equal(record.rngMode, 'system');
    assert.equal(record.isPrivate, true);
    assert.equal(localDiagnostics.wordsPrivatized, 12);
    assert.equal(localDiagnostics.counts.inVocabulary.privatized + localDiagnostics.counts.stopword.privatized, 12);
    assert.equal(localDiagnostics.wordsLeaked, 0);
    assert.equal(JSON.parse(localDiagnostics.json).words_privatized, 12);
    // Without the option, no diagnostics travel in the result.
    assert.deepEqual(Object.keys(await privatizer.privatizeText(SENTENCE, 20)).sort(), ['record', 'text']);
    await rejectsWith(() => privatizer.privatizeText(SENTENCE, { epsilon: 20, localDiagnostics: 'yes' }), Status.INVALID_ARGUMENT);
    // At epsilon 1 in 100 dimensions the outputs are close to uniform over
    // the vocabulary: two equal 12-word texts would be a broken generator.
    const a = await privatizer.privatizeText(SENTENCE, { epsilon: 1 });
    const b = await privatizer.privatizeText(SENTENCE, { epsilon: 1 });
    assert.notEqual(a.text, b.text);
    const out = await privatizer.privatizeText('Call qzxqzxqzx at 5', {
      epsilon: 20, oov: 'placeholder', numbers: 'keep', localDiagnostics: true,
    });
    assert.equal(out.localDiagnostics.counts.outOfVocabulary.placeholder, 1);
    assert.equal(out.localDiagnostics.counts.number.kept, 1);
    assert.equal(out.localDiagnostics.wordsLeaked, 1);
  });

  test('api: a seed is 64 hexadecimal digits or 32 bytes', async () => {
    // Seeded outputs (each seed's own) and their records (not private) are
    // the conformance suite's, with seeds in hex; here the bytes.
    await ready;
    const { text } = await seeded().privatizeText(SENTENCE, 8);
    for (const bytes of [Uint8Array.from(Buffer.from(SEED, 'hex')), Buffer.from(SEED, 'hex')]) {
      assert.equal((await seeded(bytes).privatizeText(SENTENCE, 8)).text, text);
    }
    assert.throws(() => seeded(Buffer.alloc(5)), dxtext.InvalidArgumentError);
    await rejectsWith(() => seeded('abc'), Status.INVALID_ARGUMENT, /seed/);
  });

  test('api: privatises a bag (Map, object or pairs) with epsilon * N * EMD', async () => {
    // Seeded bags and their records are the conformance suite's; here the types, the inputs' forms and the diagnostics.
    await ready;
    const { bag, localDiagnostics } = await privatizer.privatizeBag(
      new Map([['president', 2], ['nation', 1], ['war', 2], ['qzxqzxqzx', 1]]),
      { epsilon: 15, localDiagnostics: true },
    );
    assert.ok(bag instanceof Map);
    assert.equal(localDiagnostics.wordsPrivatized, 6);
    assert.equal(localDiagnostics.counts.outOfVocabulary.privatized, 1);
    const dropped = await privatizer.privatizeBag({ war: 3, qzxqzxqzx: 1 }, { epsilon: 10, oov: 'drop', localDiagnostics: true });
    assert.equal(dropped.localDiagnostics.counts.outOfVocabulary.dropped, 1);
    const fromObject = await seeded().privatizeBag({ president: 2, nation: 1 }, { epsilon: 15 });
    const fromPairs = await seeded().privatizeBag([['president', 2], ['nation', 1]], { epsilon: 15 });
    assert.deepEqual(fromObject.bag, fromPairs.bag);
    assert.equal((await privatizer.privatizeBag({}, { epsilon: 15 })).bag.size, 0);
  });

  test('api: single words, SynTF and calibration: the result shapes', async () => {
    // Their outputs and records are the conformance suite's.
    await ready;
    const { localDiagnostics } = await privatizer.privatizeWord('qzxqzxqzx', {
      epsilon: 5, oov: 'placeholder', localDiagnostics: true,
    });
    assert.equal(localDiagnostics.counts.outOfVocabulary.placeholder, 1);
    for (const [input, options] of [[{ president: 3, war: 1 }, { epsilon: 2 }], [[['president', 3], ['war', 1]], 2]]) {
      const synthetic = await privatizer.syntf(input, 5, options);
      assert.ok(synthetic.bag instanceof Map);
      assert.equal(synthetic.record.draws, 5);
      assert.equal(synthetic.record.epsilonTotal, 10);
    }
    assert.equal((await privatizer.calibrate(20, { words: 20, trials: 10 })).words, 20);
  });

  test('api: a bad epsilon is an InvalidEpsilonError, also for numbers JSON cannot write', async () => {
    // 0, -1, out of range, unset, a bag's and hyperbolic's bounds: the
    // conformance suite; here the error class and the numbers JSON cannot write.
    await ready;
    for (const epsilon of [NaN, Infinity, -Infinity]) {
      const e = await rejectsWith(() => privatizer.privatizeText(SENTENCE, { epsilon }), Status.INVALID_EPSILON, /epsilon/);
      assert.ok(e instanceof dxtext.InvalidEpsilonError);
    }
  });

  test('api: bad arguments are typed errors; integers out of range are refused, not wrapped', async () => {
    // An option's value goes to the library as text, which parses it (its
    // unit tests and the conformance suite); here what the API checks itself.
    await ready;
    await rejectsWith(() => privatizer.privatizeText(SENTENCE, { epsilon: 5, seed: SEED }), Status.INVALID_ARGUMENT, /unknown option 'seed'/);
    await rejectsWith(() => privatizer.privatizeBag({ war: -1 }, { epsilon: 5 }), Status.INVALID_ARGUMENT, /non-negative/);
    await rejectsWith(() => privatizer.privatizeText(42, { epsilon: 5 }), Status.INVALID_ARGUMENT, /text/);
    await rejectsWith(() => privatizer.privatizeText(SENTENCE, 'five'), Status.INVALID_ARGUMENT, /options/);
    // Integers beyond uint32_t are refused, not wrapped into another value (2 ** 32 + 3 trials would be 3).
    for (const [words, trials] of [[1, 2 ** 32 + 3], [-1, 1], [1.5, 1], [1, NaN]]) {
      await rejectsWith(() => privatizer.calibrate({ epsilon: 1 }, { words, trials }), Status.INVALID_ARGUMENT,
        /(words|trials) must be an integer in \[0, 2\^32\)/);
    }
    for (const nOut of [-1, 2 ** 32, 2 ** 32 + 1, 0.5]) {
      await rejectsWith(() => privatizer.syntf({ war: 1 }, nOut, { epsilon: 1 }), Status.INVALID_ARGUMENT, /nOut must be an integer/);
    }
    // The value is the library's to check, with its message, in both packages.
    await rejectsWith(() => privatizer.syntf({ war: 1 }, 0, { epsilon: 1 }), Status.INVALID_ARGUMENT, /^n_out must be at least 1$/);
    await rejectsWith(() => privatizer.syntf({ war: 1 }, 2 ** 24 + 1, { epsilon: 1 }), Status.INPUT_TOO_LARGE, /n_out is above the largest bag/);
    for (const index of [-1, 2 ** 32, 1.5]) await rejectsWith(() => model.word(index), Status.INVALID_ARGUMENT);
    await rejectsWith(() => model.word(2 ** 32 - 2), Status.NOT_FOUND);
  });

  test('api: a closed model refuses calls; a privatizer outlives it', async () => {
    await ready;
    const m = await Model.fromBuffer(fs.readFileSync(GOLDEN));
    const word = await m.word(0);
    const p = new Privatizer(m);
    m.close();
    m.close();
    assert.equal(m.closed, true);
    await rejectsWith(() => m.word(0), Status.INVALID_ARGUMENT, /closed/);
    await rejectsWith(() => m.fingerprint(), Status.INVALID_ARGUMENT, /closed/);
    await rejectsWith(() => new Privatizer(m), Status.INVALID_ARGUMENT, /closed/);
    // The privatizer keeps what it needs of the model until it closes.
    assert.equal(typeof (await p.privatizeWord(word, 1)).text, 'string');
    assert.ok((await p.privatizeText(`${word} ${word}`, 1)).text.length > 0);
    await p.close();
    await p.close();
    await rejectsWith(() => p.privatizeText(word, 1), Status.INVALID_ARGUMENT, /closed/);
  });

  test('api: output words: an OutputSet or an array; refusals come from the library', async () => {
    await ready;
    const allowed = ['house', 'river', 'music'];
    const set = await model.outputSet(allowed);
    assert.ok(set instanceof dxtext.OutputSet);
    assert.equal(set.size, 3);
    assert.deepEqual(set.words, allowed);
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
    await rejectsWith(() => model.outputSet([]), Status.INVALID_ARGUMENT, /at least one word/);
    await rejectsWith(() => model.outputSet(['house', 'house']), Status.INVALID_ARGUMENT);
    await rejectsWith(() => model.outputSet(['house', 'zzqxv']), Status.INVALID_ARGUMENT, /zzqxv/);
    await rejectsWith(() => model.outputSet('house'), Status.INVALID_ARGUMENT);
    await rejectsWith(() => privatizer.privatizeText('cat', { epsilon: 2, outputWords: set, outputTop: 10 }), Status.INVALID_ARGUMENT, /choose one/);
    await rejectsWith(() => privatizer.privatizeText('cat', { preset: 'features', outputWords: set }), Status.INVALID_ARGUMENT,
      /outputWords: the preset 'features' fixes the output vocabulary/);
    const golden = await Model.fromBuffer(fs.readFileSync(GOLDEN));
    const foreign = await golden.outputSet([await golden.word(0)]);
    await rejectsWith(() => privatizer.privatizeText('cat', { epsilon: 2, outputWords: foreign }), Status.INVALID_ARGUMENT, /another model/);
    set.close();
    await rejectsWith(() => privatizer.privatizeText('cat', { epsilon: 2, outputWords: set }), Status.INVALID_ARGUMENT, /closed/);
    golden.close();
  });

  test('api: one API: the exports, classes and members both declarations declare', async () => {
    await ready;
    const nodeTypes = fs.readFileSync(path.join(REPO, 'bindings', 'node', 'lib', 'index.d.ts'), 'utf8');
    const wasmTypes = fs.readFileSync(path.join(REPO, 'bindings', 'wasm', 'js', 'dxtext.d.ts'), 'utf8');
    const exported = (types) => new Set([...types.matchAll(/^export (?:class|function|const) (\w+)/gm)].map((m) => m[1]));
    const nodeNames = exported(nodeTypes);
    for (const name of nodeNames) assert.ok(name in dxtext, `the package does not export ${name}`);
    for (const name of nodeNames) assert.ok(exported(wasmTypes).has(name), `dxtext.d.ts does not declare ${name}`);
    const set = await model.outputSet(['war']);
    const instances = { Model: model, Privatizer: privatizer, OutputSet: set };
    for (const cls of ['Model', 'Privatizer', 'OutputSet']) {
      // Model.defaultPath is a file path: Node.js only.
      const node = declaredMembers(nodeTypes, cls).filter(([name]) => !(cls === 'Model' && name === 'defaultPath'));
      assert.deepEqual(declaredMembers(wasmTypes, cls), node, `${cls} is declared alike`);
      for (const [name, isStatic] of node) {
        const target = isStatic ? dxtext[cls] : instances[cls];
        assert.ok(name in target, `${cls}${isStatic ? '.' : '#'}${name}`);
      }
    }
    set.close();
  });

  // The ledger in a file (a path, under Node, in both packages).
  test('api: a ledger\'s totals, fresh releases, setCap and its file', async () => {
    // Spending, refusals past the cap, the memo and the scope's JSON are the
    // conformance suite's (its ledger cases); here totals, fresh, setCap, the
    // error class and the file.
    await ready;
    await inTemporaryDirectory(async (dir) => {
      const file = path.join(dir, 'privacy.dxl');
      const ledger = await Ledger.open(file, { scope: 'alice', cap: 10, key: Buffer.alloc(32, 7) });
      assert.equal((await ledger.privatizeText(privatizer, SENTENCE, { epsilon: 4 })).record.epsilon, 4);
      assert.equal((await ledger.privatizeText(privatizer, SENTENCE, { epsilon: 4 })).memoised, true);
      await ledger.privatizeText(privatizer, 'hello world', { epsilon: 4 });
      assert.deepEqual({ ...ledger.totals() }, {
        cap: 10, spent: 8, spentAnyInputs: 0, releases: 2, memoised: 2, memoCapacity: 64, words: 14,
      });
      const drawFresh = () => ledger.privatizeText(privatizer, SENTENCE, { epsilon: 4 }, { fresh: true });
      assert.ok((await rejectsWith(drawFresh, Status.BUDGET_EXCEEDED)) instanceof dxtext.BudgetExceededError);
      await ledger.setCap(20);
      const fresh = await drawFresh();
      assert.equal(fresh.memoised, false);
      assert.equal(ledger.totals().spent, 12);
      // setCap is synchronous in one package, a promise in the other: either refuses.
      await rejectsWith(() => ledger.setCap(NaN), Status.INVALID_ARGUMENT);
      await rejectsWith(() => ledger.setCap('lots'), Status.INVALID_ARGUMENT, /cap/);
      await rejectsWith(() => ledger.privatizeText({}, SENTENCE, { epsilon: 1 }), Status.INVALID_ARGUMENT, /Privatizer/);
      await ledger.close();
      await rejectsWith(() => ledger.privatizeText(privatizer, SENTENCE, { epsilon: 4 }), Status.INVALID_ARGUMENT, /closed/);
      // Another Ledger on the file goes on where this one stopped; the input is nowhere in the file.
      const reopened = await Ledger.open(file, { scope: 'alice', key: Buffer.alloc(32, 7) });
      assert.equal(reopened.totals().spent, 12);
      assert.equal((await reopened.privatizeText(privatizer, SENTENCE, { epsilon: 4 })).text, fresh.text);
      await reopened.close();
      const stored = fs.readFileSync(file).toString('latin1');
      assert.ok(!stored.includes(SENTENCE));
      assert.ok(stored.includes(fresh.text));
    });
  });

  test('api: another output vocabulary of the same text draws fresh', async () => {
    // Another shape, policy, mechanism or output_top: the conformance suite
    // (its ledger cases); here a word list, which its cases do not pass.
    await ready;
    await inTemporaryDirectory(async (dir) => {
      const ledger = await Ledger.open(path.join(dir, 'privacy.dxl'), { cap: 100, key: KEY });
      const text = 'zygote quixotic lunch anna';
      assert.equal((await ledger.privatizeText(privatizer, text, { epsilon: 1 })).memoised, false);
      // The whole vocabulary's output memoised, then the same text asked for
      // with a smaller output vocabulary.
      const words = ['the', 'of', 'and', 'to'];
      const listed = await ledger.privatizeText(privatizer, text, { epsilon: 1, outputWords: words });
      assert.equal(listed.memoised, false);
      for (const word of listed.text.toLowerCase().split(/\s+/)) assert.ok(words.includes(word), listed.text);
      const again = await ledger.privatizeText(privatizer, text, { epsilon: 1, outputWords: words });
      assert.equal(again.memoised, true);
      assert.equal(again.text, listed.text);
      await ledger.close();
    });
  });

  // Which files the library refuses, and that it leaves them as they are:
  // tests/unit/test_ledger.cpp. Here the error class and what the binding checks itself.
  test('api: a damaged ledger is a LedgerCorruptError; a scope with a NUL is refused', async () => {
    await ready;
    await inTemporaryDirectory(async (dir) => {
      const file = path.join(dir, 'privacy.dxl');
      const key = new Uint8Array(32).fill(7);
      const ledger = await Ledger.open(file, { scope: 'alice', cap: 10, key });
      await ledger.privatizeText(privatizer, SENTENCE, { epsilon: 1 });
      await ledger.close();
      const bad = Uint8Array.from(fs.readFileSync(file));
      bad[bad.length >> 1] ^= 1;
      fs.writeFileSync(file, bad);
      const corrupt = await rejectsWith(() => Ledger.open(file, { scope: 'alice', key }), Status.LEDGER_CORRUPT, /MAC/);
      assert.ok(corrupt instanceof dxtext.LedgerCorruptError);
      const fresh = path.join(dir, 'fresh.dxl');
      // A scope with a NUL would be cut at it by the C call: refused.
      await rejectsWith(() => Ledger.open(fresh, { scope: 'alice\0day1', cap: 1 }), Status.INVALID_ARGUMENT, /NUL/);
    });
  });

  // Issue 27, case 1: the copy saved after the first release, put back after
  // the second, is refused against the anchor stored after the last call.
  test('api: a ledger rollback is refused against the stored anchor', async () => {
    await ready;
    await inTemporaryDirectory(async (dir) => {
      const file = path.join(dir, 'privacy.dxl');
      const ledger = await Ledger.open(file, { cap: 8, key: KEY });
      await ledger.privatizeText(privatizer, 'hello', { epsilon: 4 });
      const saved = fs.readFileSync(file);
      await ledger.privatizeText(privatizer, 'world', { epsilon: 4 });
      await rejectsWith(() => ledger.privatizeText(privatizer, 'again', { epsilon: 4 }), Status.BUDGET_EXCEEDED);
      const anchor = ledger.anchor();
      await ledger.close();
      assert.ok(anchor instanceof LedgerAnchor);
      assert.equal(anchor.spent, 8);
      assert.equal(anchor.ledgerId.length, 16);
      assert.equal(typeof anchor.commits, 'bigint');
      // The stored form round-trips, from a Uint8Array or an ArrayBuffer.
      const stored = anchor.toBytes();
      assert.equal(stored.length, 32);
      for (const bytes of [Uint8Array.from(stored), Uint8Array.from(stored).buffer]) {
        const restored = LedgerAnchor.fromBytes(bytes);
        assert.ok(restored.equals(anchor));
        assert.deepEqual([restored.commits, restored.spent], [anchor.commits, anchor.spent]);
        assert.deepEqual(Uint8Array.from(restored.ledgerId), Uint8Array.from(anchor.ledgerId));
      }

      fs.writeFileSync(file, saved);
      const kept = LedgerAnchor.fromBytes(stored);
      const rolledBack = await rejectsWith(() => Ledger.open(file, { key: KEY, anchor: kept }), Status.LEDGER_ROLLBACK, /rolled back/);
      assert.ok(rolledBack instanceof dxtext.LedgerRollbackError);
      // Without the anchor, a deleted file, another ledger's anchor: tests/unit/test_ledger.cpp.
    });
  });

  test('api: a fresh ledger anchor round-trips; a bad one is an InvalidArgumentError', async () => {
    await inTemporaryDirectory(async (dir) => {
      const file = path.join(dir, 'privacy.dxl');
      const ledger = await Ledger.open(file, { cap: 1 });
      const anchor = ledger.anchor();
      assert.equal(anchor.spent, 0);
      assert.ok(ledger.anchor().equals(anchor)); // nothing changed since
      await ledger.close();
      const reopened = await Ledger.open(file, { anchor: LedgerAnchor.fromBytes(anchor.toBytes()) });
      assert.ok(reopened.anchor().equals(anchor));
      await reopened.close();

      for (const bytes of [new Uint8Array(31), new Uint8Array(33), new Uint8Array(0)]) {
        assert.throws(() => LedgerAnchor.fromBytes(bytes), (e) => e instanceof dxtext.InvalidArgumentError && /32 bytes/.test(e.message));
      }
      assert.throws(() => LedgerAnchor.fromBytes('not bytes'), dxtext.InvalidArgumentError);
      await rejectsWith(() => Ledger.open(file, { anchor: anchor.toBytes() }), Status.INVALID_ARGUMENT);
    });
  });
}

module.exports = { apiTests, rejecter, SENTENCE, SEED, EUCLID, EUCLID_SHA256, KEY };
