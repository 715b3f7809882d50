// SPDX-License-Identifier: Apache-2.0
#include "model/sha256.hpp"

#include <openssl/evp.h>

#include "errors/error.hpp"

namespace dxt {

Sha256::Sha256() : ctx_(EVP_MD_CTX_new()) {
  if (ctx_ == nullptr || EVP_DigestInit_ex(static_cast<EVP_MD_CTX*>(ctx_), EVP_sha256(), nullptr) != 1) {
    EVP_MD_CTX_free(static_cast<EVP_MD_CTX*>(ctx_));
    fail(DXT_E_INTERNAL, "OpenSSL SHA-256 initialisation failed");
  }
}

Sha256::~Sha256() { EVP_MD_CTX_free(static_cast<EVP_MD_CTX*>(ctx_)); }

void Sha256::update(const void* data, size_t size) {
  if (size > 0 && EVP_DigestUpdate(static_cast<EVP_MD_CTX*>(ctx_), data, size) != 1)
    fail(DXT_E_INTERNAL, "OpenSSL SHA-256 update failed");
}

Digest Sha256::finish() {
  Digest d{};
  unsigned int n = 0;
  if (EVP_DigestFinal_ex(static_cast<EVP_MD_CTX*>(ctx_), d.data(), &n) != 1 || n != d.size())
    fail(DXT_E_INTERNAL, "OpenSSL SHA-256 finalisation failed");
  return d;
}

}  // namespace dxt
