// SPDX-License-Identifier: Apache-2.0
/**
 * dxtext-wasm/worker.js: runs dxtext in a module Web Worker. Start it with
 * `new Worker(new URL('dxtext-wasm/worker.js', import.meta.url), { type: 'module' })`
 * and talk to it with connectWorker() (or use createWorker()) from
 * dxtext.js, which gives the same Model and Privatizer API. Models,
 * privatizers and output sets live in the worker; serveWorker (dxtext.js)
 * answers the calls on them, one after another, in order.
 */
import { serveWorker } from './dxtext.js';

serveWorker(self); // the worker's global scope
