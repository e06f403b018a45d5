// heavyball's orbit camera framing a 0.5 m sphere at the origin, with heavyball::render.
#include <cstdio>

#include "render/orbit_camera.hpp"

int main() {
  hb::OrbitCamera camera;
  camera.frame(Eigen::Vector3d::Zero(), 0.5);
  camera.update(10.0);  // let the glide finish
  const Eigen::Vector3d eye = camera.position();
  std::printf("camera at (%.3f, %.3f, %.3f), %.3f m from the target\n", eye.x(), eye.y(), eye.z(),
              eye.norm());
  return eye.norm() > 0.5 ? 0 : 1;
}
