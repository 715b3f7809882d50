// Privatise a sentence with the WebAssembly build under Node:
//   node bindings/wasm/examples/privatize.js build-wasm/package models/dxtext-en-euclid-100d-50k.dxe
// In a browser, get the model's bytes with fetch() instead of readFile.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

async function main([packageDir, modelPath, ...words]) {
  const dxtext = require(path.resolve(packageDir));
  const bytes = fs.readFileSync(modelPath); // any ArrayBuffer or typed array
  const model = await dxtext.loadModel(bytes);
  try {
    const sentence = words.length > 0 ? words.join(' ') : 'The president spoke to the nation about the war.';
    const { text, report } = model.privatize(sentence, { epsilon: 20, withReport: true });
    console.log(text);
    console.log(`${report.wordsPrivatized} words, ${report.epsilonPerUnitDistance} * d(w, w') per word, ` +
      `${report.epsilonDocument} * EMD for the text, private: ${report.isPrivate}`);
    const bag = model.privatizeBag({ war: 2, peace: 1 }, { epsilon: 20 });
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
}

main(process.argv.slice(2));
