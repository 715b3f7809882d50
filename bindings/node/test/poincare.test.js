// SPDX-License-Identifier: Apache-2.0
'use strict';
// A Poincare model through the binding: its info and calibration. The
// small-epsilon route (docs/guarantees.md, "Poincare models at small
// epsilon": hyperbolic refused at epsilon <= n - 1, naming the route;
// exponential and tem at any epsilon, with d_H records) is the conformance
// suite's (tests/conformance/); the statistical check of what the words do
// at 0.5 and at 1e6 is Python's (bindings/python/tests/test_poincare.py).
// Run with `node --test test/` (DXTEXT_NODE_ADDON may name the addon).
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const dxtext = require(process.env.DXTEXT_NODE_PACKAGE || '..');

// The repository's WordNet model, else the default Poincare model.
const REPO_MODEL = path.join(__dirname, '..', '..', '..', 'models', 'dxtext-wordnet-poincare-10d.dxe');
let ball;
test.before(async () => {
  ball = await dxtext.Model.open(fs.existsSync(REPO_MODEL) ? REPO_MODEL : dxtext.Model.defaultPath('poincare'));
});

test('the model is a Poincare ball', () => {
  assert.equal(ball.info.geometry, 'poincare');
  assert.equal(ball.info.dimension, 10);
});

test('calibrate the exponential mechanism on a Poincare model', async () => {
  const privatizer = new dxtext.Privatizer(ball, { seed: Buffer.alloc(32, 9) });
  const low = await privatizer.calibrate({ epsilon: 0.5, mechanism: 'exponential' }, { words: 20, trials: 20 });
  const high = await privatizer.calibrate({ epsilon: 50, mechanism: 'exponential' }, { words: 20, trials: 20 });
  assert.equal(low.words, 20);
  assert.equal(low.trials, 20);
  assert.ok(low.keepMedian < 0.2, String(low.keepMedian));
  assert.ok(low.distinctMean > 10, String(low.distinctMean));
  assert.ok(high.keepMean > low.keepMean);
});
