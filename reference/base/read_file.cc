#include "reference/base/read_file.h"

#include <fstream>
#include <sstream>

namespace tdc {

std::optional<std::string> ReadFile(const std::string& path) {
  // Binary, so that the bytes are the file's on every platform (no newline translation).
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

}  // namespace tdc
