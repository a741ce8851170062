#include "reference/base/sha256.h"

#include <fmt/format.h>
#include <openssl/evp.h>

#include <stdexcept>

namespace tdc {

std::string Sha256Hex(std::string_view data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  // OpenSSL's libcrypto (DESIGN D9: the field's library, not a digest of our own).
  if (EVP_Digest(data.data(), data.size(), digest, &size, EVP_sha256(), nullptr) != 1)
    throw std::runtime_error("OpenSSL EVP_Digest(sha256) failed");
  std::string hex;
  hex.reserve(2 * size);
  for (unsigned int i = 0; i < size; ++i)
    fmt::format_to(std::back_inserter(hex), "{:02x}", digest[i]);
  return hex;
}

}  // namespace tdc
