#include "render/ground_grid.hpp"

#include <algorithm>
#include <cmath>

#include "render/gl.hpp"
#include "render/shadow_map.hpp"

namespace hb {

GroundGrid::GroundGrid()
    : program_(std::make_unique<ShaderProgram>(
          std::vector<std::string_view>{"ground.vert"},
          std::vector<std::string_view>{"lighting.glsl", "ground.frag"})) {
  const float corners[] = {-1, -1, 1, -1, 1, 1, -1, -1, 1, 1, -1, 1};
  glGenVertexArrays(1, &vao_);
  glGenBuffers(1, &vbo_);
  glBindVertexArray(vao_);
  glBindBuffer(GL_ARRAY_BUFFER, vbo_);
  glBufferData(GL_ARRAY_BUFFER, sizeof corners, corners, GL_STATIC_DRAW);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 2 * sizeof(float), nullptr);
  glBindVertexArray(0);
}

GroundGrid::~GroundGrid() {
  glDeleteBuffers(1, &vbo_);
  glDeleteVertexArrays(1, &vao_);
}

void GroundGrid::draw(double height, const OrbitCamera& camera,
                      const Eigen::Matrix4f& viewProjection, const Lighting& lighting,
                      const ShadowMap& shadow, bool shadows, bool showGrid,
                      const Eigen::Vector3f& backgroundColor) {
  // The plane fades out well inside its edge, at a distance that follows the zoom.
  const double fogEnd = std::clamp(6.0 * camera.view().distance, 4.0, 60.0);
  const Eigen::Vector3d target = camera.view().target;
  program_->use();
  setLightingUniforms(*program_, lighting, camera.position(), shadow, shadows);
  program_->set("uViewProjection", viewProjection);
  program_->set("uHeight", static_cast<float>(height));
  program_->set("uHalfSize", static_cast<float>(1.2 * fogEnd + std::abs(camera.position().z())));
  program_->set("uCenter", Eigen::Vector2f(target.head<2>().cast<float>()));
  program_->set("uColor", Eigen::Vector3f(0.80f, 0.80f, 0.78f));
  program_->set("uLineColor", Eigen::Vector3f(0.50f, 0.52f, 0.56f));
  program_->set("uFogColor", backgroundColor);
  program_->set("uFogStart", static_cast<float>(0.35 * fogEnd));
  program_->set("uFogEnd", static_cast<float>(fogEnd));
  program_->set("uShowGrid", showGrid);
  glBindVertexArray(vao_);
  glDrawArrays(GL_TRIANGLES, 0, 6);
  glBindVertexArray(0);
}

}  // namespace hb
