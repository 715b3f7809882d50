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
import { pathToFileURL } from 'node:url';
import apiModule from '../../../tests/js/api_tests.cjs';

const packageDir = process.env.DXTEXT_WASM_PACKAGE;
if (!packageDir) throw new Error('set DXTEXT_WASM_PACKAGE to the built package directory (<build>/package)');
const dxtext = await import(pathToFileURL(path.join(path.resolve(packageDir), 'dxtext.js')).href);
const { Ledger, Model, Privatizer, Status } = dxtext;
const { EUCLID, KEY } = apiModule; // KEY: an app key, without which a ledger memoises nothing
const rejectsWith = apiModule.rejecter(dxtext);

const model = await Model.fromBuffer(fs.readFileSync(EUCLID));
const privatizer = new Privatizer(model);
const TEXT = 'see you at noon by the river with anna';

test('a memory store: the bytes at open, a refusal changes none, another Ledger goes on from them', async () => {
  // Spending, the memo, the totals and damaged bytes are the API's tests
  // (tests/js/api_tests.cjs, in this package's file store); here the store's bytes.
  await rejectsWith(() => Ledger.open(42), Status.INVALID_ARGUMENT, /store/);
  const store = Ledger.memoryStore();
  const ledger = await Ledger.open(store, { scope: 'alice', cap: 8, key: KEY });
  assert.equal(new TextDecoder().decode(store.bytes.subarray(0, 8)), 'DXTLEDG1'); // stored at open
  const first = await ledger.privatizeText(privatizer, TEXT, { epsilon: 4 });
  await ledger.privatizeText(privatizer, 'hello world', { epsilon: 4 });
  const before = Uint8Array.from(store.bytes);
  await rejectsWith(() => ledger.privatizeText(privatizer, 'a new text', { epsilon: 4 }), Status.BUDGET_EXCEEDED,
    /nothing was drawn/);
  assert.deepEqual(store.bytes, before); // a refusal changes nothing
  await ledger.close();
  // Another Ledger on the stored bytes goes on where this one stopped.
  const reopened = await Ledger.open(Ledger.memoryStore(store.bytes), { scope: 'alice', key: KEY });
  assert.equal(reopened.totals().spent, 8);
  assert.equal((await reopened.privatizeText(privatizer, TEXT, { epsilon: 4 })).text, first.text);
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
    await ledger.privatizeText(privatizer, TEXT, { epsilon: 8 });
    assert.equal(fs.readFileSync(file).subarray(0, 8).toString('latin1'), 'DXTLEDG1');
    assert.deepEqual(fs.readdirSync(dir), ['privacy.dxl']); // no temporary file left
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
  // With nothing changed since the last call, refresh() keeps the anchor;
  // an empty store opened with an anchor is a rollback, and no bytes are made.
  const fresh = await Ledger.open(Ledger.memoryStore(), { cap: 1 });
  const anchor = fresh.anchor();
  await fresh.refresh();
  assert.ok(fresh.anchor().equals(anchor));
  await fresh.close();
  const empty = Ledger.memoryStore();
  await rejectsWith(() => Ledger.open(empty, { key: KEY, anchor }), Status.LEDGER_ROLLBACK);
  assert.equal(empty.bytes, null);
});
