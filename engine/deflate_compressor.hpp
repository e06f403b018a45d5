#pragma once
// Compresses whole buffers into zlib streams (RFC 1950: a deflate stream with its header and
// Adler-32 checksum), the format HDF5's standard deflate filter reads, with ISA-L's igzip. On
// recording chunks igzip's level 1 is about 5x faster than zlib's level 1 and 2.5x faster than
// libdeflate's, for 3% more bytes (docs/batch.md). Any zlib inflate reads the output.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

struct isal_zstream;

namespace hb {

class DeflateCompressor {
 public:
  /// igzip's levels 0 (fastest) to 3 (smallest output); throws std::invalid_argument otherwise.
  explicit DeflateCompressor(int level);
  ~DeflateCompressor();
  DeflateCompressor(const DeflateCompressor&) = delete;
  DeflateCompressor& operator=(const DeflateCompressor&) = delete;

  /// The zlib stream of `bytes` bytes at `data`, valid until the next call. Incompressible data
  /// grow by a few bytes per 64 KiB (stored blocks). Throws std::runtime_error if igzip fails.
  std::span<const std::uint8_t> compress(const void* data, std::size_t bytes);

  int level() const { return level_; }

 private:
  int level_;
  std::unique_ptr<isal_zstream> stream_;  // 80 KiB of state: on the heap, zeroed once
  std::size_t levelBufferBytes_;
  std::unique_ptr<std::uint8_t[]> levelBuffer_;  // igzip's hash tables and tokens for the level
  std::size_t outputBytes_ = 0;
  std::unique_ptr<std::uint8_t[]> output_;
};

}  // namespace hb
