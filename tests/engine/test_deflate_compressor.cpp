// The recorder's chunk compressor (libdeflate) against zlib, an independent decoder: what HDF5's
// deflate filter runs when a recording is read.

#include "engine/recording/deflate_compressor.hpp"

#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <span>
#include <stdexcept>
#include <vector>

namespace hb {
namespace {

using Bytes = std::vector<std::uint8_t>;

/// zlib's inflate of a whole zlib stream expected to hold `size` bytes; fails the test if the
/// stream is not valid (header, blocks, Adler-32) or holds another size.
Bytes inflate(std::span<const std::uint8_t> stream, std::size_t size) {
  Bytes out(size + 1);  // one more: a longer stream would fill it
  uLongf outSize = out.size();
  uLong inSize = stream.size();
  const int status = uncompress2(out.data(), &outSize, stream.data(), &inSize);
  EXPECT_EQ(status, Z_OK) << "zlib: " << zError(status);
  EXPECT_EQ(inSize, stream.size()) << "bytes after the end of the stream";
  out.resize(status == Z_OK ? outSize : 0);
  return out;
}

/// The bytes of a trajectory of positions and unit quaternions, like the recordings' rows.
Bytes trajectoryBytes(int rows) {
  std::vector<double> values;
  for (int i = 0; i < rows; ++i) {
    const double t = i / 120.0;
    const double angle = 0.5 * t;
    for (double v :
         {0.1 * std::sin(t), 0.0, 0.8 - 4.9 * t * t, std::cos(angle), 0.0, std::sin(angle), 0.0}) {
      values.push_back(v);
    }
  }
  Bytes bytes(values.size() * sizeof(double));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

Bytes randomBytes(std::size_t size, unsigned seed) {
  std::mt19937 rng(seed);
  Bytes bytes(size);
  for (std::uint8_t& b : bytes) b = static_cast<std::uint8_t>(rng());
  return bytes;
}

TEST(DeflateCompressor, ZlibReadsEveryLevelBackBitForBit) {
  const Bytes data = trajectoryBytes(20000);  // 1.1 MB: several deflate blocks
  for (const int level : {0, 1, 6, 9, 12}) {
    DeflateCompressor compressor(level);
    const std::span<const std::uint8_t> stream = compressor.compress(data.data(), data.size());
    EXPECT_EQ(inflate(stream, data.size()), data) << "level " << level;
    // Level 1 and up compress about as well as zlib at that level.
    Bytes reference(compressBound(data.size()));
    uLongf size = reference.size();
    ASSERT_EQ(compress2(reference.data(), &size, data.data(), data.size(), std::min(level, 9)),
              Z_OK);
    if (level > 0) {
      EXPECT_LT(stream.size(), size * 11 / 10) << "level " << level;
    }
  }
}

// Recordings promise the same bytes for the same run: a chunk's stream may depend on nothing
// the compressor saw before or on what its memory held.
TEST(DeflateCompressor, AChunkCompressesToTheSameBytesWhateverCameBefore) {
  const Bytes chunk = trajectoryBytes(3000);
  for (const int level : {0, 1, 9}) {
    DeflateCompressor fresh(level);
    const std::span<const std::uint8_t> first = fresh.compress(chunk.data(), chunk.size());
    const Bytes expected(first.begin(), first.end());
    // Memory freed with other contents in it, which the next compressor's buffers may reuse.
    for (const std::uint8_t fill : {0xA5, 0x5A}) {
      { const Bytes garbage(1 << 20, fill); }
      { const Bytes garbage(400000, fill); }
      DeflateCompressor recycled(level);
      const std::span<const std::uint8_t> stream = recycled.compress(chunk.data(), chunk.size());
      EXPECT_EQ(Bytes(stream.begin(), stream.end()), expected)
          << "level " << level << ", memory filled with " << int(fill);
    }
    DeflateCompressor used(level);
    for (unsigned seed = 1; seed <= 3; ++seed) {
      const Bytes other = seed == 2 ? randomBytes(50000, seed) : trajectoryBytes(1000 * seed + 7);
      used.compress(other.data(), other.size());
      const std::span<const std::uint8_t> again = used.compress(chunk.data(), chunk.size());
      EXPECT_EQ(Bytes(again.begin(), again.end()), expected)
          << "level " << level << ", after input " << seed;
    }
  }
}

TEST(DeflateCompressor, IncompressibleDataGrowsByBlockHeadersOnly) {
  const Bytes data = randomBytes(300000, 7);
  DeflateCompressor compressor(1);
  const std::span<const std::uint8_t> stream = compressor.compress(data.data(), data.size());
  EXPECT_EQ(inflate(stream, data.size()), data);
  // zlib header, 5 bytes per stored block of at most 65535 bytes, Adler-32.
  EXPECT_LE(stream.size(), data.size() + 2 + 5 * (data.size() / 65535 + 1) + 4);
}

TEST(DeflateCompressor, ZerosAndEmptyInput) {
  DeflateCompressor compressor(1);
  const Bytes zeros(207872, 0);  // a chunk of padding
  const std::span<const std::uint8_t> stream = compressor.compress(zeros.data(), zeros.size());
  EXPECT_LT(stream.size(), 1000u);
  EXPECT_EQ(inflate(stream, zeros.size()), zeros);
  const Bytes none;
  EXPECT_TRUE(inflate(compressor.compress(none.data(), 0), 0).empty());
}

TEST(DeflateCompressor, EachCallIsAWholeStream) {
  // The compressor reuses its buffers: a large call, then a small one, then the large again.
  DeflateCompressor compressor(1);
  const Bytes large = trajectoryBytes(5000);
  const Bytes small = randomBytes(100, 3);
  const std::span<const std::uint8_t> stream = compressor.compress(large.data(), large.size());
  const Bytes first(stream.begin(), stream.end());
  EXPECT_EQ(inflate(compressor.compress(small.data(), small.size()), small.size()), small);
  const std::span<const std::uint8_t> again = compressor.compress(large.data(), large.size());
  EXPECT_EQ(Bytes(again.begin(), again.end()), first);  // deterministic
  EXPECT_EQ(inflate(first, large.size()), large);
}

TEST(DeflateCompressor, RejectsLevelsLibdeflateDoesNotHave) {
  EXPECT_THROW(DeflateCompressor(13), std::invalid_argument);
  EXPECT_THROW(DeflateCompressor(-1), std::invalid_argument);
}

}  // namespace
}  // namespace hb
