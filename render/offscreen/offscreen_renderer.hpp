#pragma once
// Images of a World without a window: colour as the viewer draws it, depth in metres along the
// view axis and the body index of each pixel, from an orbit view, on an offscreen OpenGL context
// (offscreen_context.hpp). One renderer draws any number of frames of any world.

#include <memory>
#include <vector>

#include "engine/world.hpp"
#include "render/image.hpp"
#include "render/offscreen/offscreen_context.hpp"
#include "render/orbit_camera.hpp"
#include "render/render_settings.hpp"

namespace hb {

class SceneRenderer;
class ShaderProgram;

class OffscreenRenderer {
 public:
  /// Throws std::invalid_argument for a size outside [1, 8192] and OffscreenContextError where
  /// there is no offscreen OpenGL.
  OffscreenRenderer(int width, int height);
  ~OffscreenRenderer();
  OffscreenRenderer(const OffscreenRenderer&) = delete;
  OffscreenRenderer& operator=(const OffscreenRenderer&) = delete;

  /// The view the viewer opens with: the statics (the funnel, or the space above the ground)
  /// framed from the side, slightly above.
  OrbitView homeView(const World& world);
  /// Draws a frame of `world` from `view` and reads back its colour, depth and body indices
  /// (asset meshes and textures are loaded first, so the first frame looks like the others).
  void render(const World& world, const OrbitView& view);

  int width() const { return width_; }
  int height() const { return height_; }
  /// RGB, rows top first.
  const Image& colour() const { return colour_; }
  /// Per pixel, rows top first: metres from the camera along its view axis; +infinity where
  /// nothing was drawn.
  const std::vector<float>& depth() const { return depth_; }
  /// Per pixel, rows top first: the body index (0: the statics), -1 where nothing was drawn.
  /// The translucent funnel is left out (the bodies behind it are seen).
  const std::vector<int>& segmentation() const { return ids_; }
  RenderSettings& settings() { return settings_; }

 private:
  /// Sorts a new world's statics for drawing (SceneRenderer::setWorld) when it changes.
  void useWorld(const World& world);
  std::vector<std::uint8_t> readRgb() const;

  int width_;
  int height_;
  OffscreenContext context_;
  std::unique_ptr<SceneRenderer> scene_;
  std::unique_ptr<ShaderProgram> idProgram_;
  unsigned framebuffer_ = 0;
  unsigned colourBuffer_ = 0;
  unsigned depthBuffer_ = 0;
  const World* world_ = nullptr;
  std::size_t worldStatics_ = 0;
  RenderSettings settings_;
  Image colour_;
  std::vector<float> depth_;
  std::vector<int> ids_;
};

}  // namespace hb
