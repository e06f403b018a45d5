#include "render/texture.hpp"

#include "render/gl.hpp"

namespace hb {

Texture::Texture(const Image& image) {
  glGenTextures(1, &id_);
  glBindTexture(GL_TEXTURE_2D, id_);
  // RGB rows are not 4-byte aligned in general.
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  const GLenum format = image.channels == 4 ? GL_RGBA : GL_RGB;
  glTexImage2D(GL_TEXTURE_2D, 0, image.channels == 4 ? GL_RGBA8 : GL_RGB8, image.width,
               image.height, 0, format, GL_UNSIGNED_BYTE, image.pixels.data());
  glGenerateMipmap(GL_TEXTURE_2D);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_REPEAT);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
}

Texture::~Texture() {
  glDeleteTextures(1, &id_);
}

void Texture::bind(int unit) const {
  glActiveTexture(GL_TEXTURE0 + unit);
  glBindTexture(GL_TEXTURE_2D, id_);
}

}  // namespace hb
