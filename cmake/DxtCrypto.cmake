# SPDX-License-Identifier: Apache-2.0
# DXT_CRYPTO: where the library's cryptography comes from.
#   openssl   (default) OpenSSL libcrypto: RAND_priv_bytes for noise, EVP
#             AES-256-CTR for the seeded deterministic mode, EVP SHA-256 for
#             model digests and fingerprints.
#   portable  no OpenSSL: noise from the operating system's generator
#             (getentropy(); on Apple platforms SecRandomCopyBytes), and
#             self-contained SHA-256 and AES-256-CTR giving the same digests
#             and the same seeded keystream. For WebAssembly (emscripten maps
#             getentropy to Web Crypto or Node's crypto) and iOS.
# Sets DXT_CRYPTO_LIBRARIES (link these) and provides
# dxt_select_crypto_sources(<list variable>) to drop the other backend's files.
set(DXT_CRYPTO "openssl" CACHE STRING "Cryptography backend: openssl or portable")
set_property(CACHE DXT_CRYPTO PROPERTY STRINGS openssl portable)

# Files of each backend (relative to the source root); all other src/ files,
# including the portable primitives themselves, are built in every build.
set(DXT_CRYPTO_OPENSSL_SOURCES
  src/rng/system_byte_source.cpp src/rng/keyed_stream.cpp src/rng/secure_wipe_openssl.cpp src/model/sha256.cpp)
set(DXT_CRYPTO_PORTABLE_SOURCES
  src/rng/portable_backend.cpp src/rng/secure_wipe_portable.cpp src/model/sha256_portable_backend.cpp)
set(DXT_CRYPTO_APPLE_SOURCES src/rng/secrandom_byte_source.cpp)

if(DXT_CRYPTO STREQUAL "openssl")
  find_package(OpenSSL 3.0 REQUIRED COMPONENTS Crypto)
  set(DXT_CRYPTO_LIBRARIES OpenSSL::Crypto)
elseif(DXT_CRYPTO STREQUAL "portable")
  set(DXT_CRYPTO_LIBRARIES "")
else()
  message(FATAL_ERROR "DXT_CRYPTO must be openssl or portable, not '${DXT_CRYPTO}'")
endif()
if(APPLE)
  list(APPEND DXT_CRYPTO_LIBRARIES "-framework Security")
endif()

function(dxt_select_crypto_sources sources_var)
  set(root ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/..)
  get_filename_component(root ${root} ABSOLUTE)
  set(drop "")
  if(DXT_CRYPTO STREQUAL "openssl")
    list(APPEND drop ${DXT_CRYPTO_PORTABLE_SOURCES})
  else()
    list(APPEND drop ${DXT_CRYPTO_OPENSSL_SOURCES})
  endif()
  if(NOT APPLE)
    list(APPEND drop ${DXT_CRYPTO_APPLE_SOURCES})
  endif()
  set(result ${${sources_var}})
  foreach(file IN LISTS drop)
    list(REMOVE_ITEM result ${root}/${file})
  endforeach()
  set(${sources_var} ${result} PARENT_SCOPE)
endfunction()
