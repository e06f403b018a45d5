#pragma once
// Scenes and assets the engine tests share (test_world_control.cpp, test_world_snapshot.cpp, ...).

#include <filesystem>
#include <string>

#include "engine/scene.hpp"
#include "engine/world.hpp"

namespace hb::test_scenes {

/// The shipped YCB objects.
inline const std::filesystem::path kYcbAssets = std::filesystem::path(HB_SOURCE_DIR) / "assets/ycb";

/// Ground only, of this friction.
inline SceneDescription groundScene(double friction = 0.8) {
  SceneDescription scene;
  scene.name = "control";
  scene.assetDir = kYcbAssets;
  StaticDescription ground;
  ground.material.friction = friction;
  scene.statics.push_back(ground);
  return scene;
}

/// A 0.2 x 0.2 x 0.1 m box of 2 kg.
inline BodyDescription box(const Eigen::Vector3d& position, double friction = 0.8) {
  BodyDescription b;
  b.shape.shape = Shape::box({0.1, 0.1, 0.05});
  b.pose.p = position;
  b.material.friction = friction;
  b.density = 500.0;
  return b;
}

/// The shipped funnel with 24 YCB drops (hulls and convex parts) and boxes, sleeping on.
inline SceneDescription funnelWithDrops() {
  SceneDescription scene = loadScene(std::string(HB_SOURCE_DIR) + "/assets/scenes/funnel.json");
  scene.spawner->count = 24;
  scene.spawner->interval = 0.05;
  return scene;
}

inline void stepN(World& world, int n) {
  for (int i = 0; i < n; ++i) world.step();
}

}  // namespace hb::test_scenes
