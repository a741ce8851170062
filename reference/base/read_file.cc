#include "reference/base/read_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <cerrno>

namespace tdc {
namespace {

// statfs f_type of the kernel's pseudo file systems (linux/magic.h).
constexpr long kProcSuperMagic = 0x9fa0;
constexpr long kSysfsMagic = 0x62656572;

const char* KindOf(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  return "not a plain file";
}

// Closes the descriptor on every path out.
class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  ~Descriptor() {
    if (fd_ >= 0) close(fd_);
  }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

FileContents Refused(std::string error) { return FileContents{std::nullopt, std::move(error)}; }

FileContents TooLarge() {
  return Refused("file too large (over " + std::to_string(kMaxReadFileBytes >> 20) + " MiB)");
}

}  // namespace

FileContents ReadRegularFile(const std::string& path) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer before fstat can refuse it.
  Descriptor fd(open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
  if (fd.get() < 0) return Refused("cannot read file");
  struct stat st {};
  if (fstat(fd.get(), &st) != 0) return Refused("cannot read file");
  if (!S_ISREG(st.st_mode))
    return Refused(std::string("not a regular file (") + KindOf(st.st_mode) + ")");
  struct statfs fs {};
  if (fstatfs(fd.get(), &fs) == 0 && (fs.f_type == kProcSuperMagic || fs.f_type == kSysfsMagic)) {
    return Refused("not a regular file (a file of procfs or sysfs)");
  }
  if (st.st_size > kMaxReadFileBytes) return TooLarge();
  int flags = fcntl(fd.get(), F_GETFL);
  if (flags >= 0) fcntl(fd.get(), F_SETFL, flags & ~O_NONBLOCK);
  std::string bytes;
  bytes.reserve(static_cast<size_t>(st.st_size));
  char buffer[1 << 16];
  for (;;) {
    ssize_t n = read(fd.get(), buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Refused("cannot read file");
    if (n == 0) break;
    bytes.append(buffer, static_cast<size_t>(n));
    // A file that grows while it is read is held to the same limit.
    if (static_cast<int64_t>(bytes.size()) > kMaxReadFileBytes) return TooLarge();
  }
  return FileContents{std::move(bytes), ""};
}

std::optional<std::string> ReadFile(const std::string& path) { return ReadRegularFile(path).bytes; }

}  // namespace tdc
