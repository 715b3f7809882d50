// SPDX-License-Identifier: Apache-2.0
// Privatise a sentence with the WebAssembly build under Node:
//   node bindings/wasm/examples/privatize.mjs build-wasm/package [MODEL.dxe] [WORDS...]
// Without MODEL, the default model the package carries. In a browser, get a
// model's bytes with fetch() and open them with Model.fromBuffer. The API is
// the Node.js binding's (bindings/node/examples/privatize.js).
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [packageDir, modelPath, ...words] = process.argv.slice(2);
const { Model, Privatizer, DxtextError } = await import(pathToFileURL(path.join(path.resolve(packageDir), 'dxtext.js')).href);
const model = modelPath ? await Model.open(modelPath) : await Model.openDefault();
const privatizer = new Privatizer(model);
try {
  const sentence = words.length > 0 ? words.join(' ') : 'The president spoke to the nation about the war.';
  // A preset sets the mechanism, epsilon, release shape, output vocabulary and
  // policies at once: readable for text a person will read.
  const { text, record } = await privatizer.privatizeText(sentence, { preset: 'readable' });
  console.log(text);
  // The release record: the guarantee, safe to send with the text.
  console.log(`${JSON.parse(record.json).guarantee.release}; private: ${record.isPrivate}`);
  // features: the words alone, for analytics and model training.
  console.log((await privatizer.privatizeText(sentence, { preset: 'features' })).text);
  const { bag } = await privatizer.privatizeBag({ war: 2, peace: 1 }, { preset: 'features' });
  console.log(Object.fromEntries(bag));
} catch (e) {
  if (e instanceof DxtextError) {
    console.error(`dxtext error ${e.code} (${e.status}): ${e.message}`);
    process.exitCode = 1;
  } else {
    throw e;
  }
} finally {
  await privatizer.close();
  model.close();
}
