// SPDX-License-Identifier: Apache-2.0
'use strict';
// Run with `node --test test/` (DXTEXT_NODE_ADDON may name the addon;
// DXTEXT_NODE_PACKAGE an installed package to test instead of this one).
// The API's tests are shared with the WebAssembly package
// (tests/js/api_tests.cjs), as is the conformance suite
// (tests/js/conformance_tests.cjs); here what is this binding's own: files
// and the thread pool.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const dxtext = require(process.env.DXTEXT_NODE_PACKAGE || '..');
// The presets, as generated from tools/options/presets.table into the package tested.
const { PRESETS } = require(path.join(process.env.DXTEXT_NODE_PACKAGE || path.join(__dirname, '..'), 'lib',
  'options_table.js'));

const { apiTests, SENTENCE } = require('../../../tests/js/api_tests.cjs'); // a sentence of 12 words
const { conformanceTests } = require('../../../tests/js/conformance_tests.cjs');

let model;
test.before(async () => {
  model = await dxtext.Model.openDefault();
});

test('the default model is a file', () => {
  assert.ok(fs.existsSync(dxtext.Model.defaultPath('euclidean')));
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
  assert.equal(localDiagnostics.wordsPrivatized, 480);
  // The 480 nearest-word searches ran on the thread pool while timers fired.
  assert.ok(ticks > 0, `the event loop was blocked (ticks: ${ticks})`);
  await privatizer.close();
});

test('the preset names are the table\'s', () => {
  assert.deepEqual(dxtext.PRESET_NAMES, PRESETS.map((p) => p.name));
});

// The addon on its own, as `require` gives it: handles of another kind and
// arguments of the wrong type are refused with an error, never misread.
test('the addon refuses bad arguments', async () => {
  const root = process.env.DXTEXT_NODE_PACKAGE || path.join(__dirname, '..');
  const addon = require([process.env.DXTEXT_NODE_ADDON, path.join(root, 'build', 'dxtext.node'),
    path.join(root, 'prebuilds', `${process.platform}-${process.arch}`, 'dxtext.node')].find((f) => f && fs.existsSync(f)));
  const handle = addon.modelOpen(dxtext.Model.defaultPath(), false);
  const context = addon.contextCreate(handle, null);
  assert.throws(() => addon.modelInfo(context), /^Error: not a model handle$/);
  const bad = [undefined, null, -1, 2 ** 32, 1.5, 'a\0b', {}, [[1, 2]], [['epsilon', ['a\0']]], new Float64Array(4), handle, context];
  for (const [name, fn] of Object.entries(addon).filter(([name]) => !name.endsWith('Close'))) {
    for (const value of bad) {
      for (const args of [[value], [handle, value], [context, value, value, value], [value, context, 'war', [], false]]) {
        try {
          await fn(...args);
        } catch (error) {
          assert.ok(error instanceof Error, name);
        }
      }
    }
  }
  addon.contextClose(context);
  assert.throws(() => addon.contextClose(context), /the privatizer is closed/);
});

// The API's tests and the conformance suite (tests/conformance/cases.json) of both JavaScript packages, on this one.
apiTests({ dxtext, openModel: () => dxtext.Model.openDefault() });
conformanceTests({ dxtext });
