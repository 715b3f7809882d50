// SPDX-License-Identifier: Apache-2.0
'use strict';
// Privatise a sentence with the default model and print the guarantee.
// In a project where the package is installed (npm install dxtext-*.tgz):
//   node privatize.js "The president spoke to the nation."
// The same program runs on dxtext-wasm (bindings/wasm/examples/privatize.mjs):
// the two packages share one API.
const dxtext = require('dxtext');

async function main() {
  const text = process.argv[2] || 'The president spoke to the nation about the war.';
  const model = await dxtext.Model.openDefault(); // share it
  const privatizer = new dxtext.Privatizer(model); // random state; calls on it queue
  // A preset sets the mechanism, epsilon, release shape, output vocabulary and
  // policies at once: readable for text a person will read.
  const { text: privateText, record } = await privatizer.privatizeText(text, { preset: 'readable' });
  console.log(privateText);
  console.log(record.json); // the guarantee; safe to send with the text
  // features: the words alone, for analytics and model training.
  console.log((await privatizer.privatizeText(text, { preset: 'features' })).text);
  console.log((await privatizer.privatizeWord('house', { preset: 'features' })).text);
  try {
    await privatizer.privatizeText(text, { epsilon: -1 });
  } catch (error) {
    if (!(error instanceof dxtext.InvalidEpsilonError)) throw error;
    console.error(`as expected: ${error.message} (${error.code})`);
  }
  await privatizer.close();
  model.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
