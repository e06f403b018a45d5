#pragma once
// A 2-D colour texture on the GPU with mipmaps, sampled trilinearly and repeated.

#include "render/image.hpp"

namespace hb {

class Texture {
 public:
  explicit Texture(const Image& image);
  ~Texture();
  Texture(const Texture&) = delete;
  Texture& operator=(const Texture&) = delete;

  void bind(int unit) const;

 private:
  unsigned id_ = 0;
};

}  // namespace hb
