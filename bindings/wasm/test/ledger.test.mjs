// SPDX-License-Identifier: Apache-2.0
// The privacy ledger of the WebAssembly build, kept in the app's own storage
// (docs/budgets.md, "A ledger in the caller's storage"), under Node's test
// runner: DXTEXT_WASM_PACKAGE=<build>/package node --test bindings/wasm/test/
// With DXTEXT_CLI=<native build>/bin/dxtext, a ledger file written here is
// also read by the native `dxtext ledger`.

import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const packageDir = process.env.DXTEXT_WASM_PACKAGE;
if (!packageDir) throw new Error('set DXTEXT_WASM_PACKAGE to the built package directory (<build>/package)');
const dxtext = await import(pathToFileURL(path.join(path.resolve(packageDir), 'dxtext.js')).href);
const { DxtextError, Ledger, LedgerAnchor, LedgerRollbackError, Model, Privatizer, Status } = dxtext;

const here = path.dirname(fileURLToPath(import.meta.url));
const modelsDir = path.resolve(here, '..', '..', '..', 'models');
const euclidName = fs.readdirSync(modelsDir).filter((n) => n.startsWith('dxtext-en-euclid-') && n.endsWith('.dxe')).sort().pop();
const bytes = fs.readFileSync(path.join(modelsDir, euclidName));
const model = await Model.fromBuffer(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
const privatizer = new Privatizer(model);
const TEXT = 'see you at noon by the river with anna';
const KEY = new Uint8Array(32).fill(9); // an app key: without one a ledger memoises nothing

async function rejectsWith(fn, status, pattern) {
  await assert.rejects(async () => fn(), (e) => {
    assert.ok(e instanceof DxtextError, `expected a DxtextError, got ${e}`);
    assert.equal(e.status, status, `status ${e.code} (${e.message})`);
    if (pattern) assert.match(e.message, pattern);
    return true;
  });
}

test('budget, refusal before any draw, memo, and the bytes in the store', async () => {
  const store = Ledger.memoryStore();
  const ledger = await Ledger.open(store, { scope: 'alice', cap: 10, key: KEY });
  assert.equal(new TextDecoder().decode(store.bytes.subarray(0, 8)), 'DXTLEDG1'); // stored at open
  const first = await ledger.privatizeText(privatizer, TEXT, { epsilon: 4 });
  assert.equal(first.memoised, false);
  assert.equal(first.record.epsilon, 4);
  const again = await ledger.privatizeText(privatizer, TEXT, { epsilon: 4 });
  assert.equal(again.memoised, true);
  assert.equal(again.text, first.text);
  await ledger.privatizeText(privatizer, 'hello world', { epsilon: 4 });
  assert.deepEqual({ ...ledger.totals() }, {
    cap: 10, spent: 8, spentAnyInputs: 0, releases: 2, memoised: 2, memoCapacity: 64, words: 11,
  });
  const before = Uint8Array.from(store.bytes);
  await rejectsWith(() => ledger.privatizeText(privatizer, 'a new text', { epsilon: 4 }), Status.BUDGET_EXCEEDED,
    /nothing was drawn/);
  assert.deepEqual(store.bytes, before); // a refusal changes nothing
  // Memoised repeats still pass; a fresh draw is charged.
  assert.equal((await ledger.privatizeText(privatizer, TEXT, { epsilon: 4 })).text, first.text);
  await ledger.setCap(20);
  const fresh = await ledger.privatizeText(privatizer, TEXT, { epsilon: 4 }, { fresh: true });
  assert.equal(fresh.memoised, false);
  const json = ledger.toJSON();
  assert.equal(json.scope, 'alice');
  assert.equal(json.spent, 12);
  assert.deepEqual(json.spent_by_metric, { euclidean: 12 });
  await ledger.close();
  await rejectsWith(() => ledger.privatizeText(privatizer, TEXT, { epsilon: 4 }), Status.INVALID_ARGUMENT, /closed/);

  // Another Ledger on the stored bytes goes on where this one stopped.
  const reopened = await Ledger.open(Ledger.memoryStore(store.bytes), { scope: 'alice', key: KEY });
  assert.equal(reopened.totals().spent, 12);
  assert.equal((await reopened.privatizeText(privatizer, TEXT, { epsilon: 4 })).text, fresh.text);
  // The input is nowhere in the bytes; the output is.
  const stored = Buffer.from(store.bytes).toString('latin1');
  assert.ok(!stored.includes(TEXT));
  assert.ok(stored.includes(fresh.text));
});

test('another output vocabulary of the same text draws fresh', async () => {
  // Another shape, policy, mechanism or output_top: the conformance suite
  // (its ledger cases); here a word list, which its cases do not pass.
  const ledger = await Ledger.open(Ledger.memoryStore(), { cap: 100, key: KEY });
  const text = 'zygote quixotic lunch anna';
  assert.equal((await ledger.privatizeText(privatizer, text, { epsilon: 1 })).memoised, false);
  // The reported case: the whole vocabulary's output memoised, then the
  // same text asked for with a smaller output vocabulary.
  const words = ['the', 'of', 'and', 'to'];
  const listed = await ledger.privatizeText(privatizer, text, { epsilon: 1, outputWords: words });
  assert.equal(listed.memoised, false);
  for (const word of listed.text.toLowerCase().split(/\s+/)) assert.ok(words.includes(word), listed.text);
  const again = await ledger.privatizeText(privatizer, text, { epsilon: 1, outputWords: words });
  assert.equal(again.memoised, true);
  assert.equal(again.text, listed.text);
  const top = await ledger.privatizeText(privatizer, text, { epsilon: 1, outputTop: 50 });
  assert.equal(top.record.outputKind, 'top');
  assert.equal(ledger.totals().releases, 3);
});

test('a release whose bytes cannot be stored is discarded, and was not charged', async () => {
  const inner = Ledger.memoryStore();
  let failing = false;
  const store = {
    name: 'failing-store',
    load: () => inner.load(),
    save: (data) => {
      if (failing) throw new Error('quota exceeded');
      inner.save(data);
    },
  };
  const ledger = await Ledger.open(store, { cap: 10 });
  failing = true;
  await rejectsWith(() => ledger.privatizeText(privatizer, TEXT, { epsilon: 4 }), Status.IO, /quota exceeded.*|discarded/);
  failing = false;
  const next = await ledger.privatizeText(privatizer, TEXT, { epsilon: 4 });
  assert.equal(next.memoised, false); // the first draw was never committed
  assert.equal(ledger.totals().spent, 4);
});

test('calls on one store are serialised: two Ledgers never pass the cap together', async () => {
  const store = Ledger.memoryStore();
  const a = await Ledger.open(store, { cap: 5 });
  const b = await Ledger.open(store, { cap: 5 });
  const attempts = [];
  for (let i = 0; i < 8; ++i) {
    attempts.push(a.privatizeText(privatizer, `text number ${i} from a`, { epsilon: 1 }));
    attempts.push(b.privatizeText(privatizer, `text number ${i} from b`, { epsilon: 1 }));
  }
  const outcomes = await Promise.allSettled(attempts);
  assert.equal(outcomes.filter((o) => o.status === 'fulfilled').length, 5);
  for (const o of outcomes) if (o.status === 'rejected') assert.equal(o.reason.status, Status.BUDGET_EXCEEDED);
  await b.refresh();
  assert.equal(b.totals().spent, 5);
});

test('damaged bytes and a missing app key are refused, and the bytes are left as they were', async () => {
  const key = new Uint8Array(32).fill(7);
  const store = Ledger.memoryStore();
  const ledger = await Ledger.open(store, { cap: 10, key });
  await ledger.privatizeText(privatizer, TEXT, { epsilon: 1 });
  const good = Uint8Array.from(store.bytes);
  await rejectsWith(() => Ledger.open(Ledger.memoryStore(good), { cap: 10 }), Status.LEDGER_CORRUPT, /app key/);
  const bad = Uint8Array.from(good);
  bad[40] ^= 1;
  const damaged = Ledger.memoryStore(bad);
  await rejectsWith(() => Ledger.open(damaged, { key }), Status.LEDGER_CORRUPT, /MAC/);
  assert.deepEqual(damaged.bytes, bad);
  await rejectsWith(() => Ledger.open(Ledger.memoryStore(good.subarray(0, 50)), { key }), Status.LEDGER_CORRUPT);
  const reopened = await Ledger.open(Ledger.memoryStore(good), { key });
  assert.equal(reopened.totals().spent, 1);
  await rejectsWith(() => Ledger.open(Ledger.memoryStore(), { key: new Uint8Array(4) }), Status.INVALID_ARGUMENT, /16 to 64/);
  await rejectsWith(() => Ledger.open(Ledger.memoryStore(), { scope: '' }), Status.INVALID_ARGUMENT, /scope/);
  await rejectsWith(() => Ledger.open(Ledger.memoryStore(), { scope: 'alice\0day1' }), Status.INVALID_ARGUMENT, /NUL/);
  await rejectsWith(() => Ledger.open(42), Status.INVALID_ARGUMENT, /store/);
  await rejectsWith(() => ledger.privatizeText({}, TEXT, { epsilon: 1 }), Status.INVALID_ARGUMENT, /Privatizer/);
  await rejectsWith(() => ledger.setCap('lots'), Status.INVALID_ARGUMENT, /cap/);
});

test('localStorage keeps the bytes as base64 under one key', async () => {
  const items = new Map();
  const storage = { getItem: (k) => (items.has(k) ? items.get(k) : null), setItem: (k, v) => items.set(k, String(v)) };
  const store = Ledger.localStorageStore('dxtext-ledger', storage);
  const ledger = await Ledger.open(store, { scope: 'user-42/2026-11', cap: 8, key: KEY });
  const r = await ledger.privatizeText(privatizer, TEXT, { epsilon: 8 });
  assert.match(items.get('dxtext-ledger'), /^[A-Za-z0-9+/]+=*$/);
  const again = await Ledger.open(Ledger.localStorageStore('dxtext-ledger', storage), { scope: 'user-42/2026-11', key: KEY });
  assert.equal((await again.privatizeText(privatizer, TEXT, { epsilon: 8 })).text, r.text);
  await rejectsWith(() => again.privatizeText(privatizer, 'something else', { epsilon: 8 }), Status.BUDGET_EXCEEDED);
  assert.throws(() => Ledger.localStorageStore('x', undefined), (e) => e.status === Status.UNSUPPORTED);
});

test('under Node a path is a ledger file, atomically replaced, that the native program reads', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dxtext-wasm-ledger-'));
  try {
    const file = path.join(dir, 'privacy.dxl');
    const ledger = await Ledger.open(file, { scope: 'alice', cap: 20, key: KEY });
    const r = await ledger.privatizeText(privatizer, TEXT, { epsilon: 8 });
    assert.equal(fs.readFileSync(file).subarray(0, 8).toString('latin1'), 'DXTLEDG1');
    assert.deepEqual(fs.readdirSync(dir), ['privacy.dxl']); // no temporary file left
    const again = await Ledger.open(file, { scope: 'alice', key: KEY });
    assert.equal((await again.privatizeText(privatizer, TEXT, { epsilon: 8 })).text, r.text);
    if (process.env.DXTEXT_CLI) {
      const keyFile = path.join(dir, 'app.key');
      fs.writeFileSync(keyFile, KEY);
      const json = JSON.parse(execFileSync(process.env.DXTEXT_CLI, ['ledger', '--scope', 'alice', '--ledger-key-file', keyFile,
        '--ledger-anchor', path.join(dir, 'anchor'), file], { encoding: 'utf8' }));
      assert.equal(json.spent, 8);
      assert.equal(json.releases, 1);
    }
    await rejectsWith(() => Ledger.open(path.join(dir, 'no', 'such', 'dir.dxl'), { cap: 1 }), Status.IO, /cannot write/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

// Issue 27, case 1: the bytes saved after the first release, put back after
// the second, are refused against the anchor stored after the last call.
test('a rollback is refused against the stored anchor', async () => {
  const store = Ledger.memoryStore();
  const ledger = await Ledger.open(store, { cap: 8, key: KEY });
  await ledger.privatizeText(privatizer, 'hello', { epsilon: 4 });
  const saved = Uint8Array.from(store.bytes);
  await ledger.privatizeText(privatizer, 'world', { epsilon: 4 });
  await rejectsWith(() => ledger.privatizeText(privatizer, 'again', { epsilon: 4 }), Status.BUDGET_EXCEEDED);
  const anchor = ledger.anchor();
  await ledger.close();
  assert.ok(anchor instanceof LedgerAnchor);
  assert.equal(anchor.spent, 8);
  assert.equal(anchor.ledgerId.length, 16);
  assert.equal(typeof anchor.commits, 'bigint');
  const stored = anchor.toBytes();
  assert.equal(stored.length, 32);
  const restored = LedgerAnchor.fromBytes(stored.buffer);
  assert.ok(restored.equals(anchor));
  assert.deepEqual([restored.commits, restored.spent], [anchor.commits, anchor.spent]);

  const putBack = Ledger.memoryStore(saved);
  await assert.rejects(Ledger.open(putBack, { key: KEY, anchor: restored }), (e) => {
    assert.ok(e instanceof LedgerRollbackError, `expected a LedgerRollbackError, got ${e}`);
    assert.equal(e.status, 20);
    assert.equal(e.status, Status.LEDGER_ROLLBACK);
    assert.equal(e.code, 'DXT_E_LEDGER_ROLLBACK');
    assert.match(e.message, /rolled back/);
    return true;
  });
  assert.deepEqual(putBack.bytes, saved); // left as it was
  // Without the anchor it is not detected (documented).
  const blind = await Ledger.open(Ledger.memoryStore(saved), { key: KEY });
  assert.equal(blind.totals().spent, 4);
  await blind.close();
  // No bytes at all (the ledger deleted) is a rollback too, and none are made.
  const empty = Ledger.memoryStore();
  await rejectsWith(() => Ledger.open(empty, { key: KEY, anchor }), Status.LEDGER_ROLLBACK);
  assert.equal(empty.bytes, null);
});

test('a Ledger checks every later load against the anchor of its last call', async () => {
  const store = Ledger.memoryStore();
  const ledger = await Ledger.open(store, { cap: 8, key: KEY });
  await ledger.privatizeText(privatizer, 'hello', { epsilon: 4 });
  const saved = Uint8Array.from(store.bytes);
  await ledger.privatizeText(privatizer, 'world', { epsilon: 4 });
  store.save(saved); // put back under the open Ledger
  await rejectsWith(() => ledger.refresh(), Status.LEDGER_ROLLBACK);
  await rejectsWith(() => ledger.privatizeText(privatizer, 'again', { epsilon: 4 }), Status.LEDGER_ROLLBACK);
  await ledger.close();
});

test('a fresh anchor round-trips; a bad one is an InvalidArgumentError', async () => {
  const store = Ledger.memoryStore();
  const ledger = await Ledger.open(store, { cap: 1 });
  const anchor = ledger.anchor();
  assert.equal(anchor.spent, 0);
  assert.ok(LedgerAnchor.fromBytes(anchor.toBytes()).equals(anchor));
  await ledger.refresh();
  assert.ok(ledger.anchor().equals(anchor)); // nothing changed since
  await ledger.close();
  const reopened = await Ledger.open(store, { anchor: LedgerAnchor.fromBytes(anchor.toBytes()) });
  assert.ok(reopened.anchor().equals(anchor));
  await reopened.close();

  for (const bytes of [new Uint8Array(31), new Uint8Array(33), new Uint8Array(0)]) {
    assert.throws(() => LedgerAnchor.fromBytes(bytes), (e) => {
      assert.equal(e.status, Status.INVALID_ARGUMENT);
      assert.match(e.message, /32 bytes/);
      return true;
    });
  }
  assert.throws(() => LedgerAnchor.fromBytes('not bytes'), (e) => e.status === Status.INVALID_ARGUMENT);
  await rejectsWith(() => Ledger.open(store, { anchor: anchor.toBytes() }), Status.INVALID_ARGUMENT);
  // The anchor of another ledger: these bytes are not its ledger.
  const other = await Ledger.open(Ledger.memoryStore(), { cap: 1 });
  await rejectsWith(() => Ledger.open(store, { anchor: other.anchor() }), Status.LEDGER_ROLLBACK);
  await other.close();
});
