#include "render/offscreen/offscreen_context.hpp"

#include <EGL/egl.h>
#include <EGL/eglext.h>

#include <cstdio>
#include <string>

#include "render/gl.hpp"

namespace hb {
namespace {

std::string eglErrorText() {
  char code[16];
  std::snprintf(code, sizeof code, "0x%04x", static_cast<unsigned>(eglGetError()));
  return code;
}

EGLDisplay surfacelessDisplay() {
  const auto getPlatformDisplay = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(
      eglGetProcAddress("eglGetPlatformDisplayEXT"));
  if (getPlatformDisplay) {
    const EGLDisplay d =
        getPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
    if (d != EGL_NO_DISPLAY) return d;
  }
  return eglGetDisplay(EGL_DEFAULT_DISPLAY);
}

}  // namespace

OffscreenContext::OffscreenContext() {
  const EGLDisplay display = surfacelessDisplay();
  EGLint major = 0, minor = 0;
  if (display == EGL_NO_DISPLAY || !eglInitialize(display, &major, &minor)) {
    throw OffscreenContextError(
        "offscreen rendering: no EGL display (install libegl1 and libegl-mesa0; EGL error " +
        eglErrorText() + ")");
  }
  display_ = display;
  const EGLint configAttributes[] = {EGL_SURFACE_TYPE, EGL_DONT_CARE, EGL_RENDERABLE_TYPE,
                                     EGL_OPENGL_BIT, EGL_NONE};
  EGLConfig config = nullptr;
  EGLint configs = 0;
  if (!eglBindAPI(EGL_OPENGL_API) ||
      !eglChooseConfig(display, configAttributes, &config, 1, &configs) || configs < 1) {
    eglTerminate(display);
    throw OffscreenContextError("offscreen rendering: EGL offers no OpenGL configuration (EGL " +
                                std::to_string(major) + "." + std::to_string(minor) + ")");
  }
  const EGLint contextAttributes[] = {EGL_CONTEXT_MAJOR_VERSION,
                                      3,
                                      EGL_CONTEXT_MINOR_VERSION,
                                      3,
                                      EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                      EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                      EGL_NONE};
  const EGLContext context = eglCreateContext(display, config, EGL_NO_CONTEXT, contextAttributes);
  if (context == EGL_NO_CONTEXT) {
    eglTerminate(display);
    throw OffscreenContextError("offscreen rendering: no OpenGL 3.3 core context (EGL error " +
                                eglErrorText() + ")");
  }
  context_ = context;
  if (!eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) {
    eglDestroyContext(display, context);
    eglTerminate(display);
    throw OffscreenContextError(
        "offscreen rendering: the context cannot be made current without a surface (EGL error " +
        eglErrorText() + ")");
  }
  if (!gladLoadGL(reinterpret_cast<GLADloadfunc>(eglGetProcAddress))) {
    eglDestroyContext(display, context);
    eglTerminate(display);
    throw OffscreenContextError("offscreen rendering: the OpenGL 3.3 entry points did not load");
  }
}

OffscreenContext::~OffscreenContext() {
  const auto display = static_cast<EGLDisplay>(display_);
  eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroyContext(display, static_cast<EGLContext>(context_));
  // The display stays initialised: every context of the process shares it, and EGL does not
  // count initialisations, so terminating it would break the others.
}

void OffscreenContext::makeCurrent() const {
  if (!eglMakeCurrent(static_cast<EGLDisplay>(display_), EGL_NO_SURFACE, EGL_NO_SURFACE,
                      static_cast<EGLContext>(context_))) {
    throw OffscreenContextError("offscreen rendering: cannot make the context current (EGL error " +
                                eglErrorText() + ")");
  }
}

}  // namespace hb
