#pragma once
// Files and lines heavyball reads whole (scene files, `heavyball query` problem lines): regular
// files of a bounded size only, so that a device, a FIFO or a runaway file is a clear error
// rather than a read that blocks forever or takes every byte of memory.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <istream>
#include <stdexcept>
#include <string>

namespace hb {

/// The largest scene file and the longest `heavyball query` line (bytes): a scene of 300,000
/// bodies is about 60 MB.
inline constexpr std::uintmax_t kMaxInputFileBytes = std::uintmax_t{64} << 20;
inline constexpr std::size_t kMaxInputLineBytes = std::size_t{64} << 20;

/// What is wrong with an input file; the message starts with the file.
class InputFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Throws InputFileError unless `file` is a regular file (after following links): directories,
/// devices such as /dev/zero, FIFOs and sockets are refused.
void requireRegularFile(const std::filesystem::path& file);

/// The whole of a regular file of at most `limit` bytes; throws InputFileError otherwise, or when
/// it cannot be opened or read.
std::string readInputFile(const std::filesystem::path& file,
                          std::uintmax_t limit = kMaxInputFileBytes);

enum class LineRead { Line, TooLong, End };

/// The next line of `in` without its '\n' (as std::getline), at most `limit` bytes: a longer line
/// is read to its end and dropped, and TooLong returned, so that memory stays bounded whatever
/// the input.
LineRead readBoundedLine(std::istream& in, std::string& line,
                         std::size_t limit = kMaxInputLineBytes);

}  // namespace hb
