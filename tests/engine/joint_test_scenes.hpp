#pragma once
// Scenes and measures the joint tests share (test_world_joints.cpp, test_world_joint_drives.cpp).

#include <cmath>
#include <numbers>
#include <vector>

#include "engine/scene.hpp"
#include "engine/world.hpp"

namespace hb::joint_scenes {

using Eigen::Vector3d;

constexpr double kG = 9.81;

/// No ground within reach: the joints alone hold the bodies; sleeping off; the rigid schedule,
/// or the soft step of `softSubsteps` substeps.
inline SceneDescription emptyScene(int softSubsteps = 0) {
  SceneDescription scene;
  scene.name = "joints";
  scene.gravity = Vector3d(0, 0, -kG);
  scene.solver.sleeping = false;
  scene.solver.softSubsteps = softSubsteps;
  StaticDescription ground;
  ground.groundHeight = -100.0;
  scene.statics.push_back(ground);
  scene.boundsMin = Vector3d(-200, -200, -200);
  scene.boundsMax = Vector3d(200, 200, 200);
  return scene;
}

inline BodyDescription ball(const Vector3d& position, double radius, double mass) {
  BodyDescription b;
  b.shape.shape = Shape::sphere(radius);
  b.pose.p = position;
  b.mass = mass;
  return b;
}

/// A joint of body `b` (its centre at `centre`) to body `a` at the world point `anchor`, the
/// joint frame's axes the world's rotated by `axes`.
inline Joint jointAt(JointType type, const World& world, int a, int b, const Vector3d& anchor,
                     const Eigen::Quaterniond& axes = Eigen::Quaterniond::Identity()) {
  Joint j;
  j.type = type;
  j.bodyA = a;
  j.bodyB = b;
  const Pose world_anchor{axes, anchor};
  const auto inBody = [&](int body) {
    const RigidBody& r = world.rigidBodies()[body];
    return Pose{r.orientation, r.position}.inverse() * world_anchor;
  };
  j.frameA = inBody(a);
  j.frameB = inBody(b);
  return j;
}

/// K(k), the complete elliptic integral of the first kind, by the arithmetic-geometric mean.
inline double ellipticK(double k) {
  double a = 1.0, g = std::sqrt(1.0 - k * k);
  for (int i = 0; i < 30; ++i) {
    const double next = 0.5 * (a + g);
    g = std::sqrt(a * g);
    a = next;
  }
  return std::numbers::pi / (2.0 * a);
}

/// The mean period of x(t)'s oscillation about zero from its upward crossings.
inline double meanPeriod(const std::vector<double>& x, double dt) {
  std::vector<double> crossings;
  for (std::size_t i = 1; i < x.size(); ++i) {
    if (x[i - 1] < 0.0 && x[i] >= 0.0) {
      crossings.push_back(dt * (static_cast<double>(i - 1) + x[i - 1] / (x[i - 1] - x[i])));
    }
  }
  if (crossings.size() < 2) return 0.0;
  return (crossings.back() - crossings.front()) / static_cast<double>(crossings.size() - 1);
}

}  // namespace hb::joint_scenes
