// SPDX-License-Identifier: Apache-2.0
'use strict';
/**
 * dxtext for Node.js: sanitise text under metric differential privacy.
 *
 *   const dxtext = require('dxtext');
 *   const model = await dxtext.Model.openDefault();    // share it
 *   const privatizer = new dxtext.Privatizer(model);   // random state
 *   const { text, record } = await privatizer.privatizeText('The quick brown fox', { epsilon: 20 });
 *
 * The same API as the WebAssembly package (dxtext-wasm; docs/bindings/
 * wasm.md): the same classes, methods, option names and result shapes, and
 * every call that opens, looks up or privatises returns a promise. Here the
 * work runs on the libuv thread pool. Errors are instances of DxtextError
 * subclasses with .status (the C status number) and .code
 * ('DXT_E_INVALID_EPSILON', ...).
 */
const fs = require('node:fs');
const path = require('node:path');
const shared = require('./shared.js');

const { GEOMETRIES, Status, LedgerAnchor, createApi, errorFor, indexOfName } = shared;
// The error classes (tools/options/js_shared.js): one copy for both packages.
const ERRORS = Object.fromEntries(Object.entries(shared).filter(([name]) => name.endsWith('Error')));

// --------------------------------------------------------------------------
// The addon

// DXTEXT_NODE_ADDON, else the addon built by `npm install` from source
// (build/), else the prebuilt one of this platform (prebuilds/).
function loadAddon() {
  const root = path.join(__dirname, '..');
  const candidates = process.env.DXTEXT_NODE_ADDON
    ? [process.env.DXTEXT_NODE_ADDON]
    : [path.join(root, 'build', 'dxtext.node'), path.join(root, 'prebuilds', `${process.platform}-${process.arch}`, 'dxtext.node')];
  const file = candidates.find((candidate) => fs.existsSync(candidate)) || candidates[0];
  try {
    return require(file);
  } catch (error) {
    throw new Error(
      `cannot load the dxtext addon ${file}: ${error.message}\n` +
        'Build it with `node scripts/install.js` in the package (`npm install` does), or set DXTEXT_NODE_ADDON.',
    );
  }
}

// An addon function whose errors (or its promise's) become the error class
// of their .status.
function typedErrors(fn) {
  const typed = (error) => (typeof error?.status === 'number' ? errorFor(error.status, error.message) : error);
  return (...args) => {
    try {
      const out = fn(...args);
      return out instanceof Promise ? out.catch((error) => Promise.reject(typed(error))) : out;
    } catch (error) {
      throw typed(error);
    }
  };
}

// The addon's functions. The texts, bags, SynTF and calibration run on the
// libuv thread pool (a promise).
const addon = Object.fromEntries(Object.entries(loadAddon()).map(([name, fn]) => [name, typedErrors(fn)]));

// The backend of the shared classes (createApi of shared.js): the addon, and
// the default model's path.
const backend = {
  ...addon,
  modelOpenDefault(geometry, verify) {
    const file = Model.defaultPath(geometry);
    return { handle: addon.modelOpen(file, verify), path: file };
  },
  outputSetClose() {}, // the addon frees the set once no call holds it
  ledgerOpen: (filePath, { scope, anchor, ...settings }) =>
    addon.ledgerOpen(String(filePath), scope, { ...settings, anchor: anchor && anchor.toBytes() }),
};

const api = createApi(backend);
const { Model, OutputSet, Privatizer, libraryVersion } = api;

/**
 * The path of the default model for 'euclidean' or 'poincare': the file
 * named by DXTEXT_MODEL, else the newest model of that geometry in the
 * package's models/ directory, else the library's default (beside the
 * library, the installed models directory, the source tree's models/).
 */
Model.defaultPath = function defaultPath(geometry = 'euclidean') {
  const code = indexOfName(GEOMETRIES, geometry, 'geometry');
  if (!process.env.DXTEXT_MODEL) {
    const prefix = code === 2 ? 'dxtext-wordnet-poincare-' : 'dxtext-en-euclid-';
    const dir = path.join(__dirname, '..', 'models');
    const names = fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => n.startsWith(prefix) && n.endsWith('.dxe')) : [];
    if (names.length > 0) return path.join(dir, names.sort().pop());
  }
  return backend.defaultModelPath(code);
};

/**
 * A privacy budget per scope in a file the app owns (docs/budgets.md), which
 * the library locks: Ledger.open(filePath, options). Store
 * ledger.anchor().toBytes() outside the file after every call and pass
 * LedgerAnchor.fromBytes(stored) as options.anchor to open(): without it an
 * older copy of the file put back is not detected. totals(), anchor() and
 * toJSON() read the file; anchor() throws LedgerRollbackError when it is
 * older than what this handle last saw.
 */
class Ledger extends api.Ledger {
  /** Set the scope's cap (finite, >= 0). */
  setCap(cap) {
    backend.ledgerSetCap(this._ledger(), cap);
  }
}

module.exports = {
  ...ERRORS,
  Model,
  Privatizer,
  OutputSet,
  Ledger,
  LedgerAnchor,
  libraryVersion,
  Status,
  MECHANISM_NAMES: shared.MECHANISM_NAMES,
  PRESET_NAMES: shared.PRESET_NAMES,
  MAX_BAG_WORDS: shared.MAX_BAG_WORDS,
  EPSILON_MIN: shared.EPSILON_MIN,
  EPSILON_MAX: shared.EPSILON_MAX,
};
