// SPDX-License-Identifier: Apache-2.0
/**
 * dxtext-wasm/worker.js: runs dxtext in a module Web Worker. Start it with
 * `new Worker(new URL('dxtext-wasm/worker.js', import.meta.url), { type: 'module' })`
 * and talk to it with connectWorker() (or use createWorker()) from
 * dxtext.js, which gives the same Model and Privatizer API. Messages are
 * { id, method, args }; answers { id, result } or { id, error: { status,
 * message, name } }. Models, privatizers and output sets live in the worker
 * and are named by a number; requests run one after another, in order.
 */
import { InvalidArgumentError, Model, OutputSet, Privatizer, Status, WORKER_METHODS, libraryVersion } from './dxtext.js';

const scope = self; // the worker's global scope
const objects = new Map();
let nextHandle = 1;

function keep(object) {
  const handle = nextHandle++;
  objects.set(handle, object);
  return handle;
}

function find(handle, Kind) {
  const object = objects.get(handle);
  if (!(object instanceof Kind)) throw new InvalidArgumentError(Status.INVALID_ARGUMENT, 'the object is closed or of another kind');
  return object;
}

// Options as posted: an output set's handle stands for the OutputSet.
function localOptions(options) {
  const words = options && typeof options === 'object' ? options.outputWords : undefined;
  if (!words || typeof words !== 'object' || Array.isArray(words) || !('outputSetHandle' in words)) return options;
  return { ...options, outputWords: find(words.outputSetHandle, OutputSet) };
}

const methods = {
  version: () => libraryVersion(),
  model: async (kind, args) => {
    if (!['open', 'fromBuffer', 'openDefault'].includes(kind)) throw new InvalidArgumentError(Status.INVALID_ARGUMENT, `unknown opener '${kind}'`);
    const model = await Model[kind](...args);
    return { handle: keep(model), info: model.info, path: model.path };
  },
  privatizer: (modelHandle, seed) => keep(new Privatizer(find(modelHandle, Model), seed === null ? {} : { seed })),
  outputSet: async (modelHandle, words) => {
    const set = await find(modelHandle, Model).outputSet(words);
    return { handle: keep(set), words: set.words };
  },
  close: async (handle) => {
    const object = objects.get(handle);
    objects.delete(handle);
    if (object) await object.close();
  },
  call: (handle, method, args) => {
    const object = objects.get(handle);
    const kind = object instanceof Model ? 'model' : object instanceof Privatizer ? 'privatizer' : null;
    if (!kind) throw new InvalidArgumentError(Status.INVALID_ARGUMENT, 'the object is closed');
    if (!WORKER_METHODS[kind].includes(method)) throw new InvalidArgumentError(Status.INVALID_ARGUMENT, `unknown method '${method}'`);
    return object[method](...args.map(localOptions));
  },
};

let queue = Promise.resolve();
scope.addEventListener('message', ({ data }) => {
  const { id, method, args } = data || {};
  queue = queue.then(async () => {
    try {
      if (!Object.prototype.hasOwnProperty.call(methods, method)) {
        throw new InvalidArgumentError(Status.INVALID_ARGUMENT, `unknown request '${method}'`);
      }
      scope.postMessage({ id, result: await methods[method](...(args || [])) });
    } catch (e) {
      scope.postMessage({ id, error: { status: typeof e?.status === 'number' ? e.status : undefined, message: String(e && e.message), name: e && e.name } });
    }
  });
});
