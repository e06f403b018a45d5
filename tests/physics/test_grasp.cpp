// The shipped grasp scene (assets/scenes/grasp.json, its gripper assets/robots/
// parallel_gripper.urdf) with each of the four YCB objects it is made for: the gripper closes,
// lifts the object 20 cm, shakes it, holds it for 5 s without it slipping by 1 mm in the
// fingers (awake throughout, not frozen by sleep), and drops it when it opens.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <ostream>
#include <string>

#include "engine/scene.hpp"
#include "engine/world.hpp"

namespace hb {
namespace {

using Eigen::Vector3d;

struct GraspCase {
  std::string asset;
  Vector3d centre;  // of the object's box in its mesh frame: placed between the fingers
  double bottom;    // its lowest point in the mesh frame
  double height;    // its height on the table
  double turn;      // about z, so that its narrow side faces the fingers
};

/// The object's pose relative to a finger's.
Pose inFinger(const World& world, int object, int finger) {
  const RigidBody& o = world.rigidBodies()[object];
  const RigidBody& p = world.rigidBodies()[finger];
  return Pose{p.orientation, p.position}.inverse() * Pose{o.orientation, o.position};
}

void PrintTo(const GraspCase& g, std::ostream* out) {
  *out << g.asset;
}

class Grasp : public testing::TestWithParam<GraspCase> {};

TEST_P(Grasp, LiftsShakesHoldsAndDrops) {
  const GraspCase& g = GetParam();
  SceneDescription scene = loadScene(HB_SOURCE_DIR "/assets/scenes/grasp.json");
  // The scene holds the mug; put this object in its place, on the table top (z = 0.4) between
  // the fingers, and the gripper's fingertips 5 mm above the table or its palm clear of the
  // object's top.
  ASSERT_EQ(scene.bodies.size(), 6u);  // the object, then the gripper's five links
  BodyDescription& object = scene.bodies[0];
  object.shape.asset = g.asset;
  const Eigen::Quaterniond turn(Eigen::AngleAxisd(g.turn, Vector3d::UnitZ()));
  object.pose = {turn, Vector3d(0, 0, 0.4 - g.bottom + 0.001) -
                           turn * Vector3d(g.centre.x(), g.centre.y(), 0.0)};
  const double raise = std::max(0.0, g.height + 0.01 - 0.125 - 0.005);
  for (BodyDescription& link : scene.bodies) {
    if (&link != &object) link.pose.p.z() += raise;
  }
  for (JointDescription& joint : scene.joints) joint.anchor.z() += raise;
  // Awake throughout: the hold is solved every step, not frozen by sleep.
  scene.solver.sleeping = false;
  World world(scene);
  const int finger = 5;  // the left one
  const double start = world.rigidBodies()[1].position.z();
  const auto stepTo = [&](double t) {
    while (world.time() < t - 1e-9) world.step();
  };
  stepTo(2.5);  // closed and lifted
  EXPECT_GT(world.rigidBodies()[1].position.z() - start, 0.19) << g.asset;
  // Shaken 3 cm either way along x at 2 Hz.
  const Joint& shake = world.joints()[world.findJoint("shake")];
  double shakeMin = 0.0, shakeMax = 0.0;
  while (world.time() < 4.75 - 1e-9) {
    world.step();
    const double q =
        jointPosition(shake, world.rigidBodies()[shake.bodyA], world.rigidBodies()[shake.bodyB]);
    shakeMin = std::min(shakeMin, q);
    shakeMax = std::max(shakeMax, q);
  }
  EXPECT_NEAR(shakeMin, -0.03, 1e-3);
  EXPECT_NEAR(shakeMax, 0.03, 1e-3);
  const Pose held = inFinger(world, 1, finger);
  stepTo(9.75);  // held for 5 s
  const Pose after = inFinger(world, 1, finger);
  EXPECT_LT((after.p - held.p).norm(), 1e-3) << g.asset;
  EXPECT_GT(world.rigidBodies()[1].position.z() - start, 0.19) << g.asset;
  stepTo(11.5);  // opened at 10 s: it falls back onto the table
  EXPECT_LT(world.rigidBodies()[1].position.z() - start, 0.02) << g.asset;
  EXPECT_FALSE(world.nonFinite());
  EXPECT_LT(world.energyGain(), world.energyGainLimit());
}

// Boxes of the google_16k meshes (their frames as scanned).
INSTANTIATE_TEST_SUITE_P(
    YcbObjects, Grasp,
    testing::Values(GraspCase{"025_mug", {-0.0089, 0.0173, 0}, -0.0005, 0.081, 0.0},
                    GraspCase{"003_cracker_box", {-0.0129, -0.0141, 0}, -0.0032, 0.213, 0.5 * M_PI},
                    GraspCase{"005_tomato_soup_can", {-0.0092, 0.084, 0}, 0.0001, 0.102, 0.0},
                    GraspCase{"011_banana", {0.0115, -0.0073, 0}, -0.0004, 0.037, 0.5 * M_PI}),
    [](const testing::TestParamInfo<GraspCase>& info) { return info.param.asset.substr(4); });

}  // namespace
}  // namespace hb
