#include "render/offscreen/offscreen_renderer.hpp"
#include "render/opening_view.hpp"

#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <string>

#include "render/gl.hpp"
#include "render/scene_renderer.hpp"
#include "render/shader_program.hpp"

namespace hb {
namespace {

constexpr int kMaxSide = 8192;
constexpr int kMaxTextureSize = 1024;  // as the viewer's default
constexpr int kShadowMapSize = 2048;

}  // namespace

OffscreenRenderer::OffscreenRenderer(int width, int height) : width_(width), height_(height) {
  if (width < 1 || width > kMaxSide || height < 1 || height > kMaxSide) {
    throw std::invalid_argument("renderer: width and height must be within [1, " +
                                std::to_string(kMaxSide) + "] pixels (got " +
                                std::to_string(width) + " x " + std::to_string(height) + ")");
  }
  scene_ = std::make_unique<SceneRenderer>(kMaxTextureSize, kShadowMapSize);
  idProgram_ = std::make_unique<ShaderProgram>(std::vector<std::string_view>{"shadow.vert"},
                                               std::vector<std::string_view>{"id.frag"});
  glGenFramebuffers(1, &framebuffer_);
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
  glGenRenderbuffers(1, &colourBuffer_);
  glBindRenderbuffer(GL_RENDERBUFFER, colourBuffer_);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, colourBuffer_);
  glGenRenderbuffers(1, &depthBuffer_);
  glBindRenderbuffer(GL_RENDERBUFFER, depthBuffer_);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT32F, width, height);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, depthBuffer_);
  if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
    throw OffscreenContextError("offscreen rendering: the framebuffer is incomplete");
  }
  // Rows are read back tightly packed.
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
}

OffscreenRenderer::~OffscreenRenderer() {
  context_.makeCurrent();
  // The GL objects of the scene renderer go first, with the context still current.
  scene_.reset();
  idProgram_.reset();
  glDeleteRenderbuffers(1, &depthBuffer_);
  glDeleteRenderbuffers(1, &colourBuffer_);
  glDeleteFramebuffers(1, &framebuffer_);
}

void OffscreenRenderer::useWorld(const World& world) {
  const std::size_t statics = world.bodies().empty() ? 0 : world.bodies()[0].proxies.size();
  if (&world == world_ && statics == worldStatics_) return;
  scene_->setWorld(world);
  world_ = &world;
  worldStatics_ = statics;
}

OrbitView OffscreenRenderer::homeView(const World& world) {
  context_.makeCurrent();
  useWorld(world);
  return openingView(world.scene(), *scene_);
}

std::vector<std::uint8_t> OffscreenRenderer::readRgb() const {
  std::vector<std::uint8_t> rows(static_cast<size_t>(width_) * height_ * 3);
  glReadPixels(0, 0, width_, height_, GL_RGB, GL_UNSIGNED_BYTE, rows.data());
  // OpenGL's rows run bottom up; images' top down.
  std::vector<std::uint8_t> out(rows.size());
  const size_t stride = static_cast<size_t>(width_) * 3;
  for (int y = 0; y < height_; ++y) {
    std::copy_n(rows.data() + (height_ - 1 - y) * stride, stride, out.data() + y * stride);
  }
  return out;
}

void OffscreenRenderer::render(const World& world, const OrbitView& view) {
  context_.makeCurrent();
  useWorld(world);
  OrbitCamera camera;
  camera.setHome(view);
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
  glViewport(0, 0, width_, height_);
  // Asset meshes load on worker threads: start them, wait, and collect the loaded ones.
  scene_->collect(world, camera, height_);
  scene_->meshes().finishLoading();
  scene_->collect(world, camera, height_);
  scene_->render(camera, width_, height_, settings_, BodyHighlights{});
  glFinish();
  colour_ = Image{width_, height_, 3, readRgb()};

  // Depth: the window-space depth back to the distance along the view axis.
  std::vector<float> window(static_cast<size_t>(width_) * height_);
  glReadPixels(0, 0, width_, height_, GL_DEPTH_COMPONENT, GL_FLOAT, window.data());
  const double n = camera.nearPlane(), f = camera.farPlane();
  depth_.resize(window.size());
  for (int y = 0; y < height_; ++y) {
    for (int x = 0; x < width_; ++x) {
      const double d = window[static_cast<size_t>(height_ - 1 - y) * width_ + x];
      const double ndc = 2.0 * d - 1.0;
      depth_[static_cast<size_t>(y) * width_ + x] =
          d >= 1.0 ? std::numeric_limits<float>::infinity()
                   : static_cast<float>(2.0 * n * f / (f + n - ndc * (f - n)));
    }
  }

  // Body indices, in a second pass of flat colours.
  glClearColor(0.0f, 0.0f, 0.0f, 0.0f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  scene_->renderIds(camera, width_, height_, *idProgram_);
  glFinish();
  const std::vector<std::uint8_t> codes = readRgb();
  ids_.resize(static_cast<size_t>(width_) * height_);
  for (size_t i = 0; i < ids_.size(); ++i) {
    const int code = codes[3 * i] | (codes[3 * i + 1] << 8) | (codes[3 * i + 2] << 16);
    ids_[i] = code - 1;
  }
}

}  // namespace hb
