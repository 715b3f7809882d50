// SPDX-License-Identifier: Apache-2.0
// Privatise a sentence with the WebAssembly build under Node:
//   node bindings/wasm/examples/privatize.mjs build-wasm/package [MODEL.dxe] [WORDS...]
// Without MODEL, the default model the package carries. In a browser, get a
// model's bytes with fetch() instead of readFile.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [packageDir, modelPath, ...words] = process.argv.slice(2);
const dxtext = await import(pathToFileURL(path.join(path.resolve(packageDir), 'dxtext.js')).href);
// any ArrayBuffer or typed array, or the package's own model
const model = modelPath ? await dxtext.loadModel(await readFile(modelPath)) : await dxtext.loadDefaultModel();
try {
  const sentence = words.length > 0 ? words.join(' ') : 'The president spoke to the nation about the war.';
  const { text, record } = await model.privatize(sentence, { epsilon: 20, withRecord: true });
  console.log(text);
  // The release record: the guarantee, safe to send with the text.
  console.log(`${JSON.parse(record.json).guarantee.release}; private: ${record.isPrivate}`);
  const bag = await model.privatizeBag({ war: 2, peace: 1 }, { epsilon: 20 });
  console.log(Object.fromEntries(bag));
} catch (e) {
  if (e instanceof dxtext.DxtextError) {
    console.error(`dxtext error ${e.code} (${e.status}): ${e.message}`);
    process.exitCode = 1;
  } else {
    throw e;
  }
} finally {
  model.close();
}
