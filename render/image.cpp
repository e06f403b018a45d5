#include "render/image.hpp"

#include <stb_image.h>
#include <stb_image_resize.h>
#include <stb_image_write.h>

#include <algorithm>
#include <memory>
#include <string>

namespace hb {

Image loadImage(const std::filesystem::path& file, int maxSize) {
  int width = 0, height = 0, channels = 0;
  if (!stbi_info(file.string().c_str(), &width, &height, &channels)) {
    throw std::runtime_error(file.string() + ": " + stbi_failure_reason());
  }
  const int wanted = (channels == 2 || channels == 4) ? 4 : 3;
  std::unique_ptr<stbi_uc, void (*)(void*)> data(
      stbi_load(file.string().c_str(), &width, &height, &channels, wanted), stbi_image_free);
  if (!data) throw std::runtime_error(file.string() + ": " + stbi_failure_reason());

  Image image;
  image.channels = wanted;
  const double scale = std::min(1.0, double(maxSize) / std::max(width, height));
  image.width = std::max(1, int(width * scale));
  image.height = std::max(1, int(height * scale));
  image.pixels.resize(size_t(image.width) * image.height * wanted);
  if (image.width == width && image.height == height) {
    std::copy_n(data.get(), image.pixels.size(), image.pixels.begin());
  } else if (!stbir_resize_uint8(data.get(), width, height, 0, image.pixels.data(), image.width,
                                 image.height, 0, wanted)) {
    throw std::runtime_error(file.string() + ": cannot resize the image");
  }
  return image;
}

void writePng(const std::filesystem::path& file, const Image& image) {
  if (!stbi_write_png(file.string().c_str(), image.width, image.height, image.channels,
                      image.pixels.data(), image.width * image.channels)) {
    throw std::runtime_error(file.string() + ": cannot write the PNG");
  }
}

}  // namespace hb
