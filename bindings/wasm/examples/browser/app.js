// SPDX-License-Identifier: Apache-2.0
// The page's script (index.html beside it): dxtext-wasm in a module Web
// Worker (createWorker: the page stays responsive), the default model the
// package carries, the readable preset, and the text that would be sent.
import { createWorker } from 'dxtext-wasm';

const $ = (id) => document.getElementById(id);
const ms = (t0) => Math.round(performance.now() - t0);
try {
  let t0 = performance.now();
  const dx = createWorker();
  const model = await dx.Model.openDefault(); // fetched beside dxtext.js
  const privatizer = new dx.Privatizer(model); // noise from crypto.getRandomValues
  const opened = ms(t0);
  $('status').textContent = `Model: ${model.info.vocabularySize} words in ${model.info.dimension} dimensions, ` +
    `opened in ${opened} ms; computed in a Web Worker.`;
  $('privatize').disabled = false;
  let calls = 0;
  $('privatize').addEventListener('click', async () => {
    try {
      t0 = performance.now();
      // readable: text a person will read (docs/options.md, "Presets").
      const { text, record, localDiagnostics } = await privatizer.privatizeText($('input').value, {
        preset: 'readable',
        localDiagnostics: true,
      });
      const took = ms(t0);
      calls += 1;
      $('output').textContent = text;
      // The diagnostics describe the input: shown here, on the device, never sent.
      $('report').textContent = `preset ${record.preset} (${record.mechanism}, epsilon ${record.epsilon}): ` +
        `${localDiagnostics.wordsPrivatized} words privatised; private: ${record.isPrivate}`;
      $('timings').textContent += `${calls === 1 ? `open ${opened} ms; ` : ''}call ${calls}: ${took} ms; `;
      $('output').dataset.done = String(calls);
    } catch (error) {
      $('status').textContent = `error: ${error.message}`;
      $('status').dataset.error = 'yes';
    }
  });
} catch (error) {
  $('status').textContent = `error: ${error.message}`;
  $('status').dataset.error = 'yes';
}
