// One frame of the viewer: the simulation steps due (when no physics thread runs them), then
// the scene, the overlays and the grab line.

#include <spdlog/spdlog.h>

#include <chrono>

#include "apps/viewer/viewer_app.hpp"
#include "render/screenshot.hpp"

namespace hb::viewer {

void ViewerApp::stepOnce() {
  const double dt = world_->scene().dt;
  try {
    const int dropped = dropper_.rain(*world_, ui_.drop, dt);
    ui_.drop.dropped += dropped;
    if (dropLimit_ >= 0 && ui_.drop.dropped >= dropLimit_) ui_.drop.rain = false;
  } catch (const std::exception& e) {
    ui_.drop.rain = false;
    ui_.status = std::string("rain stopped: ") + e.what();
  }
  spring_.apply(*world_, dt);
  try {
    world_->step();
  } catch (const PairLimitError& e) {  // bodies inside one another: the world stays as it was
    ui_.simulation.paused = true;
    ui_.status = std::string("paused: ") + e.what();
    return;
  }
  ++stepsSinceFrame_;
  history_.addStep(*world_);
  if (recording_.active()) {
    try {
      recording_.record(*world_);
    } catch (const std::exception& e) {
      ui_.recording.error = e.what();
    }
  }
}

int ViewerApp::runSteps(int steps) {
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < steps; ++i) stepOnce();
  stepMsLastFrame_ =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return steps;
}

void ViewerApp::drawScene() {
  collectFrame();
  renderFrame();
}

void ViewerApp::collectFrame() {
  highlights_.selected = ui_.selectedBody;
  highlights_.hovered = input_.hovered();
  highlights_.grabbed = spring_.active() ? spring_.body() : -1;
  renderer_->collect(*world_, camera_, window_->framebufferHeight());
  lines_.clear();
  ui_.debug.focusBody = ui_.selectedBody;
  debugDraw_.build(*world_, ui_.debug, lines_);
  springLines_.clear();
  if (spring_.active()) {
    // The rubber band from the grabbed point to the cursor, always visible.
    const Eigen::Vector3d anchor = spring_.anchor(*world_);
    const Color orange(1.0f, 0.55f, 0.1f, 1.0f);
    springLines_.line(anchor, spring_.target(), orange);
    springLines_.cross(spring_.target(), 0.01, orange);
    springLines_.cross(anchor, 0.006, orange);
  }
}

void ViewerApp::renderFrame() {
  const int width = window_->framebufferWidth(), height = window_->framebufferHeight();
  renderer_->render(camera_, width, height, ui_.render, highlights_);
  const double aspect = double(width) / std::max(height, 1);
  const Eigen::Matrix4f viewProjection = camera_.projectionMatrix(aspect) * camera_.viewMatrix();
  lineRenderer_->draw(lines_, viewProjection, ui_.debug.onTop);
  if (!springLines_.empty()) lineRenderer_->draw(springLines_, viewProjection, true);
}

bool ViewerApp::takeScreenshot(const std::filesystem::path& file) {
  std::string status;
  bool saved = false;
  try {
    writePng(file, readFramebuffer(window_->framebufferWidth(), window_->framebufferHeight()));
    status = "saved " + file.string();
    saved = true;
  } catch (const std::exception& e) {
    status = e.what();
  }
  const auto lock = lockWorldForFrame();  // the physics thread sets the status line too
  ui_.status = status;
  if (!saved) spdlog::error("{}", status);
  return saved;
}

}  // namespace hb::viewer
