// SPDX-License-Identifier: Apache-2.0
// The page's script: dxtext-wasm in a module Web Worker (createWorker), the
// default model the package carries, and the privatised text shown.
import { createWorker } from 'dxtext-wasm';

const $ = (id) => document.getElementById(id);
try {
  const dx = createWorker();
  const model = await dx.Model.openDefault();
  const privatizer = new dx.Privatizer(model);
  $('status').textContent = `Model: ${model.info.vocabularySize} words in ${model.info.dimension} dimensions; ` +
    'noise from crypto.getRandomValues, computed in a Web Worker.';
  $('privatize').disabled = false;
  $('privatize').addEventListener('click', async () => {
    try {
      const { text, record, localDiagnostics } = await privatizer.privatizeText($('input').value, {
        epsilon: 20,
        localDiagnostics: true,
      });
      $('output').textContent = text;
      // The diagnostics describe the input: shown here, on the device, never sent.
      $('report').textContent = `${localDiagnostics.wordsPrivatized} words privatised; guarantee ` +
        `${record.epsilon} · Σᵢ d(xᵢ, x′ᵢ) (${record.bound}, ${record.mechanism}); private: ${record.isPrivate}`;
      $('output').dataset.done = 'yes';
    } catch (error) {
      $('status').textContent = `error: ${error.message}`;
      $('status').dataset.error = 'yes';
    }
  });
} catch (error) {
  $('status').textContent = `error: ${error.message}`;
  $('status').dataset.error = 'yes';
}
