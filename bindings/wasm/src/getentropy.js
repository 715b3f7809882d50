// SPDX-License-Identifier: Apache-2.0
// getentropy() for the dxtext WebAssembly module, replacing emscripten's
// (which calls the platform generator once per byte, far too slow for the
// exponential mechanism's Gumbel noise over a whole vocabulary). Each call
// fills the requested bytes with one call to the platform's cryptographic
// generator: Web Crypto's crypto.getRandomValues (browsers, workers, Node 20+),
// or the Web Crypto object the wrapper passes as Module.dxtextCrypto (Node
// 18's node:crypto webcrypto). POSIX semantics: at most 256 bytes, and
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
      var generator = Module['dxtextCrypto'];
      if (!generator && typeof crypto == 'object') generator = crypto;
      if (generator && typeof generator.getRandomValues == 'function') {
        generator.getRandomValues(view);
        return 0;
      }
    } catch (e) {
      setErrNo({{{ cDefine('EIO') }}});
      return -1;
    }
    setErrNo({{{ cDefine('ENOSYS') }}});
    return -1;
  },
});
