// SPDX-License-Identifier: Apache-2.0
// The preset tests of the one JavaScript API, written once for both of its
// packages: the Node.js binding (bindings/node/test/dxtext.test.js) and the
// WebAssembly package (bindings/wasm/test/dxtext.test.mjs) each register
// them against the package they test. The presets' values come from that
// package's generated options_table.js (tools/options/presets.table) and are
// never repeated here.
'use strict';

const assert = require('node:assert/strict');
const { test } = require('node:test');

// The policy options with the name the library's messages use and the token
// class each governs; what a policy is counted as in local diagnostics; and
// what an option a preset fixes is when left unset
// (dxt_privatize_options_init).
const POLICIES = [
  { option: 'inVocabulary', name: 'in_vocabulary', tokenClass: 'inVocabulary' },
  { option: 'oov', name: 'oov', tokenClass: 'outOfVocabulary' },
  { option: 'numbers', name: 'numbers', tokenClass: 'number' },
  { option: 'stopwords', name: 'stopwords', tokenClass: 'stopword' },
];
const COUNTED_AS = { privatize: 'privatized', placeholder: 'placeholder', drop: 'dropped', keep: 'kept' };
const DEFAULTS = {
  mechanism: 'laplace', releaseShape: 'keep', inVocabulary: 'privatize', oov: 'privatize', numbers: 'privatize',
  stopwords: 'privatize',
};

// dxtext: the package; OPTIONS, PRESETS: its options_table.js; openModel():
// a promise of the open default model; sentence: a text to privatise; seed:
// 64 hex digits for the reproducible runs.
function presetTests({ dxtext, OPTIONS, PRESETS, openModel, sentence, seed }) {
  // Each enum option's names (tools/options/privatize_options.table).
  const values = Object.fromEntries(OPTIONS.filter((o) => o.values).map((o) => [o.name, Object.keys(o.values)]));
  const otherThan = (option, ...taken) => values[option].find((value) => !taken.includes(value));

  // A text under a fresh privatizer with the fixed seed.
  async function seededText(model, text, options) {
    const privatizer = new dxtext.Privatizer(model, { seed });
    try {
      return await privatizer.privatizeText(text, options);
    } finally {
      await privatizer.close();
    }
  }

  // A rejection with the error class and status of `status` and a message
  // that contains `message`.
  const rejects = (promise, status, ErrorClass, message) => assert.rejects(promise, (error) => {
    assert.ok(error instanceof ErrorClass, String(error));
    assert.equal(error.status, dxtext.Status[status], `${error.code} (${error.message})`);
    assert.ok(error.message.includes(message), `${error.message} (expected: ${message})`);
    return true;
  });

  test('presets: each resolves to the values of its table and is those options written out', async () => {
    const model = await openModel();
    assert.deepEqual(dxtext.PRESET_NAMES, PRESETS.map((p) => p.name));
    const privatizer = new dxtext.Privatizer(model);
    for (const { name, options: o } of PRESETS) {
      const { text, record } = await seededText(model, sentence, { preset: name });
      assert.equal(record.preset, name);
      assert.equal(JSON.parse(record.json).preset, name);
      assert.equal(record.mechanism, o.mechanism, name);
      assert.equal(record.epsilon, o.epsilon, name);
      assert.equal(record.releaseShape, o.releaseShape, name);
      if (o.negations === 'keep') {
        // The top words without negators: a list, no larger.
        assert.equal(record.outputKind, 'list', name);
        assert.ok(record.outputSize <= Math.min(o.outputTop || model.size, model.size), name);
        assert.ok(record.reveals.includes('negations'), name);
      } else if (o.outputTop) {
        assert.equal(record.outputKind, 'top', name);
        assert.equal(record.outputSize, Math.min(o.outputTop, model.size), name);
        assert.match(record.outputDigest, /^[0-9a-f]{64}$/);
      } else {
        assert.equal(record.outputKind, 'vocabulary', name);
        assert.equal(record.outputSize, model.size, name);
      }
      // The same noise gives the same text with the options written out, and
      // the preset's own values beside it are accepted (a default that is not
      // the preset's value is refused: the next test).
      assert.equal((await seededText(model, sentence, { ...o })).text, text, name);
      assert.equal((await seededText(model, sentence, { preset: name, ...o })).text, text, name);
      const sameAsDefault = Object.fromEntries(Object.entries(DEFAULTS).filter(([k, v]) => o[k] === v));
      assert.equal((await seededText(model, sentence, { preset: name, ...sameAsDefault })).text, text, name);
      // An epsilon overrides the preset's, and only that.
      const epsilon = o.epsilon === 1.5 ? 2.5 : 1.5; // not the preset's
      const over = (await privatizer.privatizeText(sentence, { preset: name, epsilon })).record;
      assert.equal(over.epsilon, epsilon);
      for (const field of ['preset', 'mechanism', 'releaseShape', 'outputKind', 'outputSize']) {
        assert.equal(over[field], record[field], `${name}: ${field}`);
      }
    }
    await privatizer.close();
  });

  test('presets: each token class follows the policy of the preset', async () => {
    const privatizer = new dxtext.Privatizer(await openModel(), { seed });
    // One token of each class: a stopword, a vocabulary word, a number, an unknown word.
    const tokens = { stopwords: 'the', inVocabulary: 'war', numbers: '42', oov: 'zzqxv' };
    for (const { name, options: o } of PRESETS) {
      const { text, localDiagnostics } = await privatizer.privatizeText(Object.values(tokens).join(' '), {
        preset: name, localDiagnostics: true,
      });
      for (const { option, tokenClass } of POLICIES) {
        assert.equal(localDiagnostics.counts[tokenClass][COUNTED_AS[o[option]]], 1, `${name}: ${option}`);
      }
      const released = POLICIES.filter(({ option }) => o[option] !== 'drop').length;
      assert.equal(text.split(/\s+/).filter(Boolean).length, released, `${name}: ${text}`);
      assert.equal(localDiagnostics.wordsPrivatized, POLICIES.filter(({ option }) => o[option] === 'privatize').length);
      // A bag: each entry's count is released unless its class is dropped.
      const counts = { stopwords: 1, inVocabulary: 3, numbers: 2, oov: 1 };
      const input = Object.fromEntries(Object.entries(counts).map(([option, n]) => [tokens[option], n]));
      const { bag, record } = await privatizer.privatizeBag(input, { preset: name });
      const expected = Object.entries(counts).filter(([option]) => o[option] !== 'drop').reduce((a, [, n]) => a + n, 0);
      assert.equal([...bag.values()].reduce((a, n) => a + n, 0), expected, name);
      assert.equal(record.preset, name);
      // SynTF draws words or drops them: it refuses a placeholder or keep policy.
      if (POLICIES.some(({ option }) => ['placeholder', 'keep'].includes(o[option]))) {
        await rejects(privatizer.syntf({ war: 2, peace: 1 }, 3, { preset: name }), 'UNSUPPORTED',
          dxtext.UnsupportedError, 'placeholder or keep');
      } else {
        const synthetic = await privatizer.syntf({ war: 2, peace: 1 }, 3, { preset: name });
        assert.equal(synthetic.record.preset, name);
        assert.equal(synthetic.record.mechanism, 'syntf');
        assert.equal(synthetic.record.epsilon, o.epsilon);
      }
      const c = await privatizer.calibrate({ preset: name }, { words: 5, trials: 5 });
      assert.equal(c.words, 5);
    }
    await privatizer.close();
  });

  test('presets: an option set to anything but the preset\'s value, its default included, is refused and named', async () => {
    const model = await openModel();
    const privatizer = new dxtext.Privatizer(model);
    const refused = (options, message) =>
      rejects(privatizer.privatizeText('cat', options), 'INVALID_ARGUMENT', dxtext.InvalidArgumentError, message);
    for (const { name, options: o } of PRESETS) {
      const named = (option, value) => `${option}: '${value}' conflicts with the preset '${name}'`;
      const mechanism = otherThan('mechanism', DEFAULTS.mechanism, o.mechanism);
      await refused({ preset: name, mechanism }, named('mechanism', mechanism));
      const releaseShape = otherThan('releaseShape', DEFAULTS.releaseShape, o.releaseShape);
      if (releaseShape) await refused({ preset: name, releaseShape }, named('releaseShape', releaseShape));
      for (const { option } of POLICIES) {
        const value = otherThan(option, DEFAULTS[option], o[option]);
        await refused({ preset: name, [option]: value }, named(option, value));
      }
      // The default is refused too when it is not the preset's value:
      // { preset: 'readable', releaseShape: 'keep' } is a conflict, as on
      // the command line, not a value silently ignored.
      for (const [option, value] of Object.entries(DEFAULTS)) {
        if (o[option] !== value) await refused({ preset: name, [option]: value }, named(option, value));
      }
      const outputTop = [7, 8].find((n) => n !== o.outputTop && n !== Math.min(o.outputTop, model.size));
      await refused({ preset: name, outputTop }, named('outputTop', outputTop));
    }
    await refused({ preset: 'tidy' }, "preset: 'tidy' is not one of none, readable");
    await privatizer.close();
  });
}

module.exports = { presetTests };
