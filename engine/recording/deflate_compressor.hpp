#pragma once
// Compresses whole buffers into zlib streams (RFC 1950: a deflate stream with its header and
// Adler-32 checksum), the format HDF5's standard deflate filter reads, with libdeflate. Its output
// is a function of the input and the level alone, which recordings need (the same run gives the
// same file bytes, docs/batch.md); ISA-L's igzip, though faster, did not give that, and libdeflate
// is faster than zlib for the same size (docs/design.md). Any zlib inflate reads the output.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

struct libdeflate_compressor;

namespace hb {

class DeflateCompressor {
 public:
  /// libdeflate's levels 0 (stored) to 12 (smallest output); throws std::invalid_argument
  /// otherwise.
  explicit DeflateCompressor(int level);
  ~DeflateCompressor();
  DeflateCompressor(const DeflateCompressor&) = delete;
  DeflateCompressor& operator=(const DeflateCompressor&) = delete;

  /// The zlib stream of `bytes` bytes at `data`, valid until the next call. Incompressible data
  /// grow by a few bytes per 64 KiB (stored blocks). Throws std::runtime_error if it fails.
  std::span<const std::uint8_t> compress(const void* data, std::size_t bytes);

  int level() const { return level_; }

 private:
  int level_;
  libdeflate_compressor* compressor_;
  std::vector<std::uint8_t> output_;
};

}  // namespace hb
