#pragma once
// Reading back what was drawn, for screenshots and scripted runs.

#include "render/image.hpp"

namespace hb {

/// The window's back buffer as RGB, rows top first (call after drawing, before presenting).
Image readFramebuffer(int width, int height);

}  // namespace hb
