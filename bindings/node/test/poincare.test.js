// SPDX-License-Identifier: Apache-2.0
'use strict';
// The small-epsilon route on Poincare models (docs/guarantees.md, "Poincare
// models at small epsilon"): the hyperbolic mechanism needs epsilon > n - 1
// and refuses less, naming the route; the exponential mechanism and TEM rate
// every word by d_H itself and give epsilon * d_H for any epsilon in range.
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

// The words of `n` privatisations of `word`, one after another.
async function words(privatizer, n, word, options) {
  const out = [];
  for (let i = 0; i < n; ++i) out.push((await privatizer.privatizeWord(word, options)).text);
  return out;
}

function counts(words) {
  const out = new Map();
  for (const w of words) out.set(w, (out.get(w) || 0) + 1);
  return out;
}

test('the model is a Poincare ball', () => {
  assert.equal(ball.info.geometry, 'poincare');
  assert.equal(ball.info.dimension, 10);
});

test('hyperbolic refuses epsilon <= n - 1 and names the exponential/tem route', async () => {
  const privatizer = new dxtext.Privatizer(ball);
  for (const epsilon of [0.5, 1, 9]) {
    await assert.rejects(privatizer.privatizeWord('dog', { epsilon, mechanism: 'hyperbolic' }), (error) => {
      assert.ok(error instanceof dxtext.InvalidEpsilonError, String(error));
      assert.match(error.message, /exponential or tem/);
      return true;
    });
  }
  const released = (await privatizer.privatizeWord('dog', { epsilon: 9.5, mechanism: 'hyperbolic' })).text;
  assert.ok((await ball.lookup(released.replace(/ /g, '_'))) >= 0, released);
});

for (const mechanism of ['exponential', 'tem']) {
  test(`${mechanism} runs below n - 1 on d_H, with a record that says so`, async () => {
    const privatizer = new dxtext.Privatizer(ball);
    for (const epsilon of [0.25, 1, 5]) {
      const { text, record } = await privatizer.privatizeText('dog entity river', { epsilon, mechanism });
      // A multiword lemma is released with spaces ("domestic dog"), never
      // with WordNet's '_'; each word call releases one lemma.
      assert.ok(!text.includes('_'), text);
      for (const word of ['dog', 'entity', 'river']) {
        const w = (await privatizer.privatizeWord(word, { epsilon, mechanism })).text;
        assert.ok((await ball.lookup(w.replace(/ /g, '_'))) >= 0, w);
      }
      assert.equal(record.mechanism, mechanism);
      assert.equal(record.metric, 'hyperbolic');
      assert.equal(record.epsilon, epsilon);
      assert.equal(record.bound, 'positionwise');
      assert.equal(record.isPrivate, true);
      assert.equal(record.modelFingerprint, await ball.fingerprint());
    }
  });

  test(`${mechanism}: words move at epsilon 0.5 and stay in their synset at 1e6`, async () => {
    // At 0.5 the law exp(-eps d_H / 2) spreads over 117 798 lemmas; at 1e6
    // only the lemmas sharing dog's point (d_H = 0, the same score) remain,
    // each with probability 1/3 (all three in 60 draws but with probability
    // below 1e-10). tem by design leaves the words beyond gamma a total mass
    // of about beta / (1 - beta) = 0.001 at any epsilon: one of 60 draws
    // lands there with probability about 0.06, more than 5 below 1e-12.
    const privatizer = new dxtext.Privatizer(ball);
    const spread = counts(await words(privatizer, 300, 'dog', { epsilon: 0.5, mechanism }));
    assert.ok((spread.get('dog') || 0) < 30, JSON.stringify([...spread].slice(0, 5)));
    assert.ok(spread.size > 100, String(spread.size));
    const kept = counts(await words(privatizer, 60, 'dog', { epsilon: 1e6, mechanism }));
    const synset = ['canis familiaris', 'dog', 'domestic dog']; // released with spaces, not WordNet's '_'
    if (mechanism === 'exponential') {
      assert.deepEqual([...kept.keys()].sort(), synset);
    } else {
      for (const w of synset) assert.ok(kept.has(w), w);
      assert.ok(synset.reduce((n, w) => n + kept.get(w), 0) >= 55, JSON.stringify([...kept]));
    }
  });
}

test('exponential on a Poincare model: seeded output repeats and is marked not private', async () => {
  const seed = Buffer.alloc(32, 3);
  const a = await new dxtext.Privatizer(ball, { seed }).privatizeText('dog entity', { epsilon: 1, mechanism: 'exponential' });
  const b = await new dxtext.Privatizer(ball, { seed }).privatizeText('dog entity', { epsilon: 1, mechanism: 'exponential' });
  assert.equal(a.text, b.text);
  assert.equal(a.record.isPrivate, false);
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
