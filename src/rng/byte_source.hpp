// SPDX-License-Identifier: Apache-2.0
// Where random bytes come from. Every sampler draws through RandomStream,
// which sits on one ByteSource: the OpenSSL CSPRNG in production, a keyed
// AES-256-CTR stream in the explicit deterministic mode. Both run the same
// sampling code, so tests exercise exactly what ships.
//
// The CMake option DXT_CRYPTO picks what make_system_byte_source and
// make_keyed_stream return: OpenSSL (default), or, with "portable", the
// operating system's generator (getentropy; SecRandomCopyBytes on Apple
// platforms) and a self-contained AES-256-CTR with the same keystream.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "dxtext/dxtext.h"

namespace dxt {

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Fills out[0..n) or throws Error(DXT_E_RNG_FAILURE): never a fallback.
  virtual void fill(uint8_t* out, size_t n) = 0;
  virtual dxt_rng_mode mode() const = 0;
};

// OpenSSL RAND_priv_bytes: the private generator. Fork-safe inside OpenSSL.
std::unique_ptr<ByteSource> make_system_byte_source();

// AES-256-CTR keystream keyed by a 32-byte seed, counter from zero.
// Reproducible, therefore NOT private; reports say so.
std::unique_ptr<ByteSource> make_keyed_stream(const std::array<uint8_t, 32>& seed);

// The portable implementations, compiled in every build so the tests can
// compare them with OpenSSL. getentropy() (Linux, BSDs, emscripten, where it
// reads Web Crypto or Node's crypto) is asked for at most 256 bytes a call,
// as POSIX allows no more; a failure is DXT_E_RNG_FAILURE, never a fallback.
std::unique_ptr<ByteSource> make_getentropy_byte_source();
std::unique_ptr<ByteSource> make_portable_keyed_stream(const std::array<uint8_t, 32>& seed);
#if defined(__APPLE__)
// Security.framework's SecRandomCopyBytes: the system generator on iOS and macOS.
std::unique_ptr<ByteSource> make_secrandom_byte_source();
#endif

// A number that is the same throughout one process and different in any
// child process, however it was made (fork, _Fork, clone): see
// fork_generation.cpp. RandomStream compares it on every draw to discard
// buffered bytes a child inherited.
uint64_t fork_generation();

}  // namespace dxt
