#pragma once
// 8-bit images in memory, rows top first: decoding texture maps (stb_image, shrunk to a size
// cap with stb_image_resize) and writing screenshots (stb_image_write). No OpenGL here.

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <vector>

namespace hb {

struct Image {
  int width = 0;
  int height = 0;
  int channels = 0;  ///< 3 (RGB) or 4 (RGBA)
  std::vector<std::uint8_t> pixels;
};

/// Decodes a PNG or JPEG as RGB or RGBA, scaled down (aspect kept) so that no side exceeds
/// `maxSize`. YCB maps are 4096 x 4096: a 1024 copy looks the same at viewer scale and takes a
/// sixteenth of the memory. Throws std::runtime_error naming the file.
Image loadImage(const std::filesystem::path& file, int maxSize);

/// Writes a PNG. Throws std::runtime_error naming the file.
void writePng(const std::filesystem::path& file, const Image& image);

}  // namespace hb
