#pragma once
// A temporary directory per test process, removed when the process exits. CTest runs the tests
// of one file in parallel processes, so the process id keeps them apart.

#include <unistd.h>

#include <filesystem>
#include <string>
#include <system_error>

namespace hb::test {

/// The directory `prefix` + process id under the system's temporary directory, created on the
/// first call and removed (with its contents) at exit.
inline const std::filesystem::path& processTempDir(const std::string& prefix) {
  static const struct Dir {
    std::filesystem::path path;
    explicit Dir(const std::string& p)
        : path(std::filesystem::temp_directory_path() / (p + std::to_string(::getpid()))) {
      std::filesystem::create_directories(path);
    }
    ~Dir() {
      std::error_code ignored;
      std::filesystem::remove_all(path, ignored);
    }
  } dir(prefix);
  return dir.path;
}

}  // namespace hb::test
