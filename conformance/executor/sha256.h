// SHA-256 (FIPS 180-4), for checking the suite's files against the digests their goldens
// record (meta.fixture_sha256, as the oracle computes it: hashlib.sha256 of the file's bytes).
#ifndef TDCONFORM_CONFORMANCE_EXECUTOR_SHA256_H_
#define TDCONFORM_CONFORMANCE_EXECUTOR_SHA256_H_

#include <string>
#include <string_view>

namespace tdc::conformance {

// The digest of `bytes` in lower-case hex (64 digits).
std::string Sha256Hex(std::string_view bytes);

}  // namespace tdc::conformance

#endif  // TDCONFORM_CONFORMANCE_EXECUTOR_SHA256_H_
