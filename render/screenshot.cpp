#include "render/screenshot.hpp"

#include <algorithm>

#include "render/gl.hpp"

namespace hb {

Image readFramebuffer(int width, int height) {
  Image image;
  image.width = width;
  image.height = height;
  image.channels = 3;
  image.pixels.resize(size_t(width) * height * 3);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
  glReadBuffer(GL_BACK);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, image.pixels.data());
  // OpenGL's rows start at the bottom; image files start at the top.
  const size_t row = size_t(width) * 3;
  for (int y = 0; y < height / 2; ++y) {
    std::swap_ranges(image.pixels.begin() + y * row, image.pixels.begin() + (y + 1) * row,
                     image.pixels.begin() + (height - 1 - y) * row);
  }
  return image;
}

}  // namespace hb
