#pragma once
// The funnel-pair scene with two known YCB objects (loading every asset would take seconds) and a
// sphere and a capsule beside them, so that inflated shapes are in the narrow phase too.

#include <Eigen/Geometry>
#include <filesystem>

#include "engine/scene.hpp"

namespace hb::test {

inline SceneDescription funnelPairWithInflatedShapes() {
  SceneDescription scene =
      loadScene(std::filesystem::path(HB_SOURCE_DIR) / "assets/scenes/funnel-pair.json");
  scene.spawner->assets = {"061_foam_brick", "048_hammer"};
  BodyDescription sphere;
  sphere.shape.shape = Shape::sphere(0.03);
  sphere.pose.p = {0.05, 0.0, 0.75};
  scene.bodies.push_back(sphere);
  BodyDescription capsule;
  capsule.shape.shape = Shape::capsule(0.02, 0.04);
  capsule.pose.p = {-0.05, 0.02, 0.9};
  capsule.pose.q =
      Eigen::Quaterniond(Eigen::AngleAxisd(0.7, Eigen::Vector3d(1, 1, 0).normalized()));
  scene.bodies.push_back(capsule);
  return scene;
}

}  // namespace hb::test
