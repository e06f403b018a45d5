#pragma once
// The ground plane with its grid: a large quad under the camera's target, lit, shadowed and
// fading into the background colour (assets/shaders/ground.*).

#include <Eigen/Core>
#include <memory>

#include "render/lighting.hpp"
#include "render/orbit_camera.hpp"
#include "render/shader_program.hpp"

namespace hb {

class GroundGrid {
 public:
  GroundGrid();
  ~GroundGrid();
  GroundGrid(const GroundGrid&) = delete;
  GroundGrid& operator=(const GroundGrid&) = delete;

  void draw(double height, const OrbitCamera& camera, const Eigen::Matrix4f& viewProjection,
            const Lighting& lighting, const ShadowMap& shadow, bool shadows, bool showGrid,
            const Eigen::Vector3f& backgroundColor);

 private:
  std::unique_ptr<ShaderProgram> program_;
  unsigned vao_ = 0, vbo_ = 0;
};

}  // namespace hb
