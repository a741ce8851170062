// SHA-256 (FIPS 180-4) of a byte string, as lower-case hex: a golden's meta names the
// fixture bytes it describes by this digest (fixtures/SCHEMA.md, `fixture_sha256`).
#ifndef TDCONFORM_REFERENCE_BASE_SHA256_H_
#define TDCONFORM_REFERENCE_BASE_SHA256_H_

#include <string>
#include <string_view>

namespace tdc {

// 64 lower-case hex digits, as Python's hashlib.sha256(data).hexdigest().
std::string Sha256Hex(std::string_view data);

}  // namespace tdc

#endif  // TDCONFORM_REFERENCE_BASE_SHA256_H_
