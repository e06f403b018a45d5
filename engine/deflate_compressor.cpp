#include "engine/deflate_compressor.hpp"

#include <isa-l/igzip_lib.h>

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

namespace hb {
namespace {

std::size_t levelBufferBytes(int level) {
  switch (level) {
    case 0:
      return ISAL_DEF_LVL0_DEFAULT;
    case 1:
      return ISAL_DEF_LVL1_DEFAULT;
    case 2:
      return ISAL_DEF_LVL2_DEFAULT;
    case 3:
      return ISAL_DEF_LVL3_DEFAULT;
  }
  throw std::invalid_argument("igzip compression level " + std::to_string(level) +
                              " does not exist (0 to 3)");
}

// igzip falls back to stored blocks when compressing does not pay: the input, 5 bytes of block
// header per 65535 bytes, the largest Huffman header it may have begun with, the zlib header
// and the Adler-32 trailer.
std::size_t worstCaseBytes(std::size_t input) {
  return input + 5 * (input / 65535 + 1) + ISAL_DEF_MAX_HDR_SIZE + 2 + 4 + 64;
}

}  // namespace

DeflateCompressor::DeflateCompressor(int level)
    : level_(level),
      stream_(std::make_unique<isal_zstream>()),
      levelBufferBytes_(levelBufferBytes(level)),
      levelBuffer_(new std::uint8_t[levelBufferBytes_]) {}

DeflateCompressor::~DeflateCompressor() = default;

std::span<const std::uint8_t> DeflateCompressor::compress(const void* data, std::size_t bytes) {
  if (worstCaseBytes(bytes) > std::numeric_limits<std::uint32_t>::max()) {
    throw std::runtime_error("igzip: " + std::to_string(bytes) +
                             " bytes are more than one call compresses");
  }
  if (outputBytes_ < worstCaseBytes(bytes)) {
    outputBytes_ = worstCaseBytes(bytes);
    output_.reset(new std::uint8_t[outputBytes_]);
  }
  isal_zstream& stream = *stream_;
  isal_deflate_stateless_init(&stream);
  stream.level = static_cast<std::uint32_t>(level_);
  stream.level_buf = levelBufferBytes_ > 0 ? levelBuffer_.get() : nullptr;
  stream.level_buf_size = static_cast<std::uint32_t>(levelBufferBytes_);
  stream.gzip_flag = IGZIP_ZLIB;
  stream.end_of_stream = 1;
  stream.flush = NO_FLUSH;
  // igzip reads the input only; its interface is not const-qualified.
  stream.next_in = static_cast<std::uint8_t*>(const_cast<void*>(data));
  stream.avail_in = static_cast<std::uint32_t>(bytes);
  stream.next_out = output_.get();
  stream.avail_out = static_cast<std::uint32_t>(outputBytes_);
  const int status = isal_deflate_stateless(&stream);
  if (status != COMP_OK || stream.avail_in != 0) {
    throw std::runtime_error("igzip: compressing " + std::to_string(bytes) +
                             " bytes failed (status " + std::to_string(status) + ")");
  }
  return {output_.get(), stream.total_out};
}

}  // namespace hb
