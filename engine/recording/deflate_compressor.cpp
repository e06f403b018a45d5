#include "engine/recording/deflate_compressor.hpp"

#include <libdeflate.h>

#include <stdexcept>
#include <string>

namespace hb {

DeflateCompressor::DeflateCompressor(int level) : level_(level), compressor_(nullptr) {
  if (level < 0 || level > 12) {
    throw std::invalid_argument("libdeflate compression level " + std::to_string(level) +
                                " does not exist (0 to 12)");
  }
  compressor_ = libdeflate_alloc_compressor(level);
  if (!compressor_) throw std::runtime_error("libdeflate: cannot allocate a compressor");
}

DeflateCompressor::~DeflateCompressor() {
  libdeflate_free_compressor(compressor_);
}

std::span<const std::uint8_t> DeflateCompressor::compress(const void* data, std::size_t bytes) {
  output_.resize(libdeflate_zlib_compress_bound(compressor_, bytes));
  const std::size_t written =
      libdeflate_zlib_compress(compressor_, data, bytes, output_.data(), output_.size());
  // The bound always suffices; 0 would mean the output did not fit.
  if (written == 0) {
    throw std::runtime_error("libdeflate: compressing " + std::to_string(bytes) + " bytes failed");
  }
  return {output_.data(), written};
}

}  // namespace hb
