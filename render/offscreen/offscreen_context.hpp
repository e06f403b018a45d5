#pragma once
// An OpenGL 3.3 core context without a window or a display: EGL's surfaceless platform (Mesa's
// software rasteriser where there is no GPU), for images rendered from scripts. Drawing goes to
// a framebuffer object the caller makes.

#include <stdexcept>

namespace hb {

/// No offscreen OpenGL here (no EGL, no surfaceless platform, no OpenGL 3.3 core).
class OffscreenContextError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class OffscreenContext {
 public:
  /// Creates the context, makes it current on this thread and loads the OpenGL entry points.
  /// Throws OffscreenContextError saying what is missing.
  OffscreenContext();
  ~OffscreenContext();
  OffscreenContext(const OffscreenContext&) = delete;
  OffscreenContext& operator=(const OffscreenContext&) = delete;

  /// Makes it current on the calling thread (several contexts may take turns).
  void makeCurrent() const;

 private:
  void* display_ = nullptr;
  void* context_ = nullptr;
};

}  // namespace hb
