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

const { apiTests } = require('../../../tests/js/api_tests.cjs');
const { conformanceTests } = require('../../../tests/js/conformance_tests.cjs');

const SENTENCE = 'The president spoke to the nation about the war.';

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
  assert.equal(localDiagnostics.wordsPrivatized, 360);
  // The 360 nearest-word searches ran on the thread pool while timers fired.
  assert.ok(ticks > 0, `the event loop was blocked (ticks: ${ticks})`);
  await privatizer.close();
});

test('the preset names are the table\'s', () => {
  assert.deepEqual(dxtext.PRESET_NAMES, PRESETS.map((p) => p.name));
});

// The API's tests and the conformance suite (tests/conformance/cases.json) of both JavaScript packages, on this one.
apiTests({ dxtext, openModel: () => dxtext.Model.openDefault() });
conformanceTests({ dxtext });
