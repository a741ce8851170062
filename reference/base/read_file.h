// Reading a whole file: the command-line verbs and the conformance harness read programs,
// goldens and lists this way. Only regular files are read: a directory, FIFO, socket or
// device (`/dev/zero` never ends, a FIFO blocks) or a file of procfs / sysfs (whose size
// says nothing and whose text is the kernel's) is no program, golden or list.
#ifndef TDCONFORM_REFERENCE_BASE_READ_FILE_H_
#define TDCONFORM_REFERENCE_BASE_READ_FILE_H_

#include <cstdint>
#include <optional>
#include <string>

namespace tdc {

// Larger files are refused rather than read into memory: the largest golden is about
// 128 KiB; a program, list or golden of this size is a mistake or an attack.
inline constexpr int64_t kMaxReadFileBytes = int64_t{256} << 20;

struct FileContents {
  std::optional<std::string> bytes;  // set exactly when `error` is empty
  std::string error;                 // "cannot read file", "not a regular file (a directory)", ...
};

FileContents ReadRegularFile(const std::string& path);

// The file's bytes, or nullopt when ReadRegularFile refuses it.
std::optional<std::string> ReadFile(const std::string& path);

}  // namespace tdc

#endif  // TDCONFORM_REFERENCE_BASE_READ_FILE_H_
