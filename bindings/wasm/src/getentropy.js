// getentropy() for the dxtext WebAssembly module, replacing emscripten's
// (which calls the platform generator once per byte, far too slow for the
// exponential mechanism's Gumbel noise over a whole vocabulary). Each call
// fills the requested bytes with one call to the platform's cryptographic
// generator: Web Crypto's crypto.getRandomValues (browsers, workers, Node 18+)
// or Node's crypto.randomFillSync. POSIX semantics: at most 256 bytes, and
// -1 with errno set on failure; with no cryptographic generator it fails
// (ENOSYS) and dxtext reports DXT_E_RNG_FAILURE: there is no fallback.
mergeInto(LibraryManager.library, {
  getentropy__deps: ['$setErrNo'],
  getentropy: function (buffer, size) {
    if (size > 256) {
      setErrNo({{{ cDefine('EIO') }}});
      return -1;
    }
    var view = HEAPU8.subarray(buffer, buffer + size);
    try {
      if (typeof crypto == 'object' && typeof crypto.getRandomValues == 'function') {
        crypto.getRandomValues(view);
        return 0;
      }
      if (ENVIRONMENT_IS_NODE) {
        var nodeCrypto = require('crypto');
        if (typeof nodeCrypto.randomFillSync == 'function') {
          nodeCrypto.randomFillSync(view);
          return 0;
        }
      }
    } catch (e) {
      setErrNo({{{ cDefine('EIO') }}});
      return -1;
    }
    setErrNo({{{ cDefine('ENOSYS') }}});
    return -1;
  },
});
