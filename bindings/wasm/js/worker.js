// SPDX-License-Identifier: Apache-2.0
/**
 * dxtext-wasm/worker.js: runs dxtext in a module Web Worker. Start it with
 * `new Worker(new URL('dxtext-wasm/worker.js', import.meta.url), { type: 'module' })`
 * and talk to it with connectWorker() (or use createWorker()) from
 * dxtext.js. Messages are { id, method, args }; answers { id, result } or
 * { id, error: { status, message, name } }. Models live in the worker and
 * are named by a number.
 */
import { DxtextError, Status, WORKER_METHODS, load } from './dxtext.js';

const scope = self; // the worker's global scope
const instance = load();
const models = new Map();
let nextHandle = 1;

function opened(model) {
  const handle = nextHandle++;
  models.set(handle, model);
  return { handle, info: model.info };
}

const methods = {
  version: async () => (await instance).version,
  loadModel: async (data, options) => opened(await (await instance).loadModel(data, options)),
  loadDefaultModel: async (options) => opened(await (await instance).loadDefaultModel(options)),
  close: async (handle) => {
    const model = models.get(handle);
    models.delete(handle);
    if (model) model.close();
  },
  call: async (handle, method, ...args) => {
    const model = models.get(handle);
    if (!model) throw new DxtextError(Status.INVALID_ARGUMENT, 'the model is closed');
    if (!WORKER_METHODS.includes(method)) throw new DxtextError(Status.INVALID_ARGUMENT, `unknown method '${method}'`);
    return model[method](...args);
  },
};

scope.addEventListener('message', async ({ data }) => {
  const { id, method, args } = data || {};
  try {
    if (!Object.prototype.hasOwnProperty.call(methods, method)) {
      throw new DxtextError(Status.INVALID_ARGUMENT, `unknown request '${method}'`);
    }
    scope.postMessage({ id, result: await methods[method](...(args || [])) });
  } catch (e) {
    scope.postMessage({ id, error: { status: e instanceof DxtextError ? e.status : undefined, message: String(e && e.message), name: e && e.name } });
  }
});
