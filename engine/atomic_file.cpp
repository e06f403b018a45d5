#include "engine/atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>

namespace hb {
namespace {

[[noreturn]] void throwWriteError(const std::string& what, const std::filesystem::path& file) {
  throw std::runtime_error(what + " " + file.string() + ": " + std::strerror(errno));
}

}  // namespace

void commitFile(const std::filesystem::path& temporary, const std::filesystem::path& target) {
  // fsync before the rename: otherwise a power loss could leave a renamed but empty file.
  const int fd = ::open(temporary.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throwWriteError("cannot open", temporary);
  const bool synced = ::fsync(fd) == 0;
  ::close(fd);
  if (!synced) throwWriteError("cannot flush", temporary);
  if (std::rename(temporary.c_str(), target.c_str()) != 0) {
    throwWriteError("cannot rename " + temporary.string() + " to", target);
  }
}

void writeFileAtomically(const std::filesystem::path& target,
                         const std::filesystem::path& temporary, std::string_view text) {
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throwWriteError("cannot create", temporary);
  // A write that fails (a full disk) leaves no temporary behind: the error says it all.
  const auto failAndRemove = [&temporary](const std::string& what, const std::filesystem::path& f) {
    const int error = errno;
    std::error_code ignored;
    std::filesystem::remove(temporary, ignored);
    errno = error;
    throwWriteError(what, f);
  };
  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int error = errno;
      ::close(fd);
      errno = error;
      failAndRemove("cannot write", temporary);
    }
    written += static_cast<std::size_t>(n);
  }
  const bool synced = ::fsync(fd) == 0;
  if (::close(fd) != 0 || !synced) failAndRemove("cannot write", temporary);
  if (std::rename(temporary.c_str(), target.c_str()) != 0) {
    failAndRemove("cannot rename " + temporary.string() + " to", target);
  }
}

}  // namespace hb
