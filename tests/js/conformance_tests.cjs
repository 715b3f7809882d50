// SPDX-License-Identifier: Apache-2.0
// The conformance suite of tests/conformance/cases.json (its README says
// what a case is), registered once for both packages of the one JavaScript
// API: the Node.js binding (bindings/node/test/dxtext.test.js) and the
// WebAssembly package (bindings/wasm/test/dxtext.test.mjs). Each case's
// outcome must be what the C ABI gives: the same text, the same release
// record, the same error status and message.
'use strict';

const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { test } = require('node:test');

const REPO = path.resolve(__dirname, '..', '..');
const SUITE = JSON.parse(fs.readFileSync(path.join(REPO, 'tests', 'conformance', 'cases.json'), 'utf8'));
// The record's and the calibration's JSON names of the API's camelCase ones.
const snake = (name) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

// A ledger case: its releases, each with a new privatizer of the seed,
// through a new ledger file, and the scope's JSON.
async function ledgerOutcome(dxtext, model, c) {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'dxtext-conformance-'));
  try {
    const key = c.key ? Buffer.from(c.key, 'hex') : undefined;
    const ledger = await dxtext.Ledger.open(path.join(directory, 'ledger.dxl'), { scope: c.scope, cap: c.cap, key });
    const releases = [];
    for (const release of c.releases) {
      const privatizer = new dxtext.Privatizer(model, { seed: c.seed });
      try {
        const { text, memoised } = await ledger.privatizeText(privatizer, release.input, release.options);
        releases.push({ text, memoised });
      } catch (error) {
        if (!(error instanceof dxtext.DxtextError)) throw error;
        releases.push({ error: { status: error.status, message: error.message } });
      } finally {
        await privatizer.close();
      }
    }
    const json = ledger.toJSON();
    await ledger.close();
    return { releases, ledger: json };
  } finally {
    fs.rmSync(directory, { recursive: true, force: true });
  }
}

// What the package gives for a case, in the shape of its "expect" (and the
// typed record beside it).
async function outcome(dxtext, model, c) {
  if (c.call === 'ledger') return ledgerOutcome(dxtext, model, c);
  const file = path.join(REPO, c.model || SUITE.model);
  try {
    if (c.call === 'open') {
      (await dxtext.Model.open(file)).close();
      return { opened: true };
    }
    const privatizer = new dxtext.Privatizer(model, { seed: c.seed });
    try {
      if (c.call === 'calibrate') {
        const calibration = await privatizer.calibrate(c.options, { words: c.words, trials: c.trials });
        return { calibration: Object.fromEntries(Object.entries(calibration).map(([k, v]) => [snake(k), v])) };
      }
      if (c.call === 'bag' || c.call === 'syntf') {
        // The bag as [word, count] pairs, in the order of the draws.
        const { bag, record } = c.call === 'bag' ? await privatizer.privatizeBag(c.bag, c.options)
          : await privatizer.syntf(c.bag, c.n_out, c.options);
        return { bag: Object.fromEntries(bag), record: JSON.parse(record.json), typed: record };
      }
      const call = c.call === 'word' ? 'privatizeWord' : 'privatizeText';
      const { text, record } = await privatizer[call](c.input, c.options);
      return { text, record: JSON.parse(record.json), typed: record };
    } finally {
      await privatizer.close();
    }
  } catch (error) {
    if (!(error instanceof dxtext.DxtextError)) throw error;
    return { error: { status: error.status, message: error.message.replaceAll(file, '{path}') } };
  }
}

// dxtext: the package under test; opensFromMemory: true when its
// Model.open reads the file and opens the bytes (the WebAssembly package),
// so that the library's messages cannot name the file (cases.py checks
// that they are otherwise the same).
function conformanceTests({ dxtext, opensFromMemory = false }) {
  const opened = new Map(); // the models the privatising cases name, opened once
  const modelOf = (file) => {
    if (!opened.has(file)) opened.set(file, dxtext.Model.open(path.join(REPO, file)));
    return opened.get(file);
  };
  for (const c of SUITE.cases) {
    test(`conformance: ${c.name}`, async () => {
      const model = await modelOf(c.call === 'open' ? SUITE.model : c.model || SUITE.model);
      const { typed, ...got } = await outcome(dxtext, model, c);
      const expect = opensFromMemory ? JSON.parse(JSON.stringify(c.expect).replaceAll(" (in '{path}')", '')) : c.expect;
      assert.deepEqual(got, expect);
      if (typed) { // the typed record says what its JSON says
        const fields = {
          release: snake(typed.release), mechanism: typed.mechanism, epsilon: typed.epsilon, metric: typed.metric,
          rng: typed.rngMode, private: typed.isPrivate, model_sha256: typed.modelFingerprint, bound: snake(typed.bound),
          reveals: typed.reveals.map(snake).sort(), shape: typed.releaseShape, preset: typed.preset,
          output_vocabulary: { kind: typed.outputKind, size: typed.outputSize, sha256: typed.outputDigest },
        };
        // A record says nothing of the output vocabulary when it is the model's whole vocabulary.
        const json = {
          ...expect.record, preset: expect.record.preset || 'none', reveals: [...expect.record.reveals].sort(),
          output_vocabulary: expect.record.output_vocabulary || { kind: 'vocabulary', size: model.size, sha256: null },
        };
        assert.deepEqual(fields, Object.fromEntries(Object.keys(fields).map((key) => [key, json[key]])));
        // Every number of the JSON is the typed record's field of its name (floor: uniformFloor).
        for (const [key, value] of Object.entries(expect.record)) {
          const name = key === 'floor' ? 'uniformFloor' : key.replace(/_([a-z])/g, (_, letter) => letter.toUpperCase());
          if (typeof value === 'number') assert.equal(typed[name], value, key);
        }
      }
    });
  }
}

module.exports = { conformanceTests };
