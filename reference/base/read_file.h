// Reading a whole file: the command-line verbs and the conformance harness read programs,
// goldens and lists this way.
#ifndef TDCONFORM_REFERENCE_BASE_READ_FILE_H_
#define TDCONFORM_REFERENCE_BASE_READ_FILE_H_

#include <optional>
#include <string>

namespace tdc {

// The file's bytes, or nullopt when it cannot be read.
std::optional<std::string> ReadFile(const std::string& path);

}  // namespace tdc

#endif  // TDCONFORM_REFERENCE_BASE_READ_FILE_H_
