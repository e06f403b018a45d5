#pragma once
// An exclusive advisory lock on a file (flock), held while the object lives. The kernel releases
// it when the process ends, however it ends, so a killed holder never leaves a stale lock.

#include <filesystem>
#include <optional>

namespace hb {

class FileLock {
 public:
  /// Creates `file` if needed and locks it; nullopt when another open file description (another
  /// process, or another FileLock in this one) holds it. Throws std::system_error when the file
  /// cannot be opened or locked for another reason.
  static std::optional<FileLock> tryAcquire(const std::filesystem::path& file);
  /// tryAcquire, again every 0.1 s until `seconds` have passed (the holder may be ending).
  static std::optional<FileLock> acquireWithin(const std::filesystem::path& file, double seconds);

  FileLock(FileLock&& other) noexcept;
  FileLock& operator=(FileLock&& other) noexcept;
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  ~FileLock();

 private:
  explicit FileLock(int fd) : fd_(fd) {}
  int fd_ = -1;
};

}  // namespace hb
