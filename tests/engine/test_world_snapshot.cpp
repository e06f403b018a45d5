// World snapshots: restore then step equals stepping on, bit for bit, in the same world and a
// fresh one; reset; bad and damaged snapshots refused before anything changes.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "engine/run_summary.hpp"
#include "engine/scene.hpp"
#include "engine/state_hash.hpp"
#include "engine/world.hpp"
#include "tests/engine/world_test_scenes.hpp"

namespace hb {
namespace {

using Eigen::Vector3d;

using namespace test_scenes;

TEST(WorldSnapshot, RestoreThenStepEqualsSteppingOnBitForBit) {
  const SceneDescription scene = funnelWithDrops();
  World world(scene);
  world.setThreads(1);
  stepN(world, 150);  // 12 of the 24 dropped, some in contact
  const std::vector<std::uint8_t> snapshot = world.saveState();
  const size_t bodiesAtSnapshot = world.bodies().size();
  stepN(world, 350);
  const std::uint64_t on = stateHash(world);
  const std::vector<std::uint8_t> endOn = world.saveState();

  // The same world, brought back.
  world.restoreState(snapshot);
  EXPECT_EQ(world.stepCount(), 150);
  EXPECT_EQ(world.saveState(), snapshot);
  stepN(world, 350);
  EXPECT_EQ(stateHash(world), on);
  EXPECT_EQ(world.saveState(), endOn);

  // A fresh world of the same scene: the bodies dropped since are added again.
  World fresh(scene);
  fresh.setThreads(2);
  fresh.restoreState(snapshot);
  EXPECT_LT(World(scene).bodies().size(), bodiesAtSnapshot);
  EXPECT_EQ(fresh.bodies().size(), bodiesAtSnapshot);
  stepN(fresh, 350);
  EXPECT_EQ(stateHash(fresh), on);
  const std::vector<std::uint8_t> endFresh = fresh.saveState();
  ASSERT_EQ(endFresh.size(), endOn.size());
  const auto differ = std::mismatch(endFresh.begin(), endFresh.end(), endOn.begin());
  EXPECT_EQ(differ.first, endFresh.end())
      << "first difference at byte " << (differ.first - endFresh.begin());
}

TEST(WorldSnapshot, BallJointDrivesComeBack) {
  // A ball swinging on a ball joint with a spring, friction and a twist limit: restored, its
  // torques warm-start the steps after to the same bits.
  SceneDescription scene;
  scene.solver.sleeping = false;
  BodyDescription bob;
  bob.shape.shape = Shape::sphere(0.05);
  bob.pose.p = Eigen::Vector3d(0.3, 0.1, 1.5);
  bob.angularVelocity = Eigen::Vector3d(0, 0, 2.0);
  bob.mass = 1.0;
  scene.bodies.push_back(bob);
  World world(scene);
  JointDescription ball;
  ball.type = JointType::Spherical;
  ball.bodyA = 0;
  ball.bodyB = 1;
  ball.anchor = Eigen::Vector3d(0, 0, 2);
  ball.axis = Eigen::Vector3d(0, 0, -1);
  ball.twist = {true, -0.2, 0.2};
  ball.spring = {5.0, 0.2, 0.0};
  ball.friction = 0.05;
  world.addJoint(ball);
  stepN(world, 30);
  const std::vector<std::uint8_t> snapshot = world.saveState();
  const Joint held = world.joints()[0];
  EXPECT_GT(std::abs(held.springTorque[0]) + std::abs(held.springTorque[1]), 0.0);
  stepN(world, 60);
  const std::uint64_t on = stateHash(world);
  world.restoreState(snapshot);
  EXPECT_EQ(world.joints()[0].springTorque[0], held.springTorque[0]);
  EXPECT_EQ(world.joints()[0].twist.upper, 0.2);
  stepN(world, 60);
  EXPECT_EQ(stateHash(world), on);
}

TEST(WorldSnapshot, JointsComeBackWithTheirTargetsAndForces) {
  // The gripper of grasp.json closing on its mug: restored mid-grasp, in the same world and in
  // a fresh one, the steps after are the same bits; targets set after the snapshot go.
  const SceneDescription scene = loadScene(HB_SOURCE_DIR "/assets/scenes/grasp.json");
  World world(scene);
  stepN(world, 120);  // closed, about to lift
  const std::vector<std::uint8_t> snapshot = world.saveState();
  const std::vector<Joint> joints(world.joints().begin(), world.joints().end());
  stepN(world, 120);
  const std::uint64_t on = stateHash(world);
  world.setJointTargets(world.findJoint("shake"), 0.05, 0.0);
  world.restoreState(snapshot);
  ASSERT_EQ(world.joints().size(), joints.size());
  for (std::size_t j = 0; j < joints.size(); ++j) {
    EXPECT_EQ(world.joints()[j].motor.targetPosition, joints[j].motor.targetPosition);
    EXPECT_EQ(world.joints()[j].motorForce, joints[j].motorForce);
    EXPECT_EQ(world.joints()[j].name, joints[j].name);
  }
  stepN(world, 120);
  EXPECT_EQ(stateHash(world), on);
  World fresh(scene);
  fresh.restoreState(snapshot);
  stepN(fresh, 120);
  EXPECT_EQ(stateHash(fresh), on);
  // A joint of a body that is not there is damage, not a crash.
  std::vector<std::uint8_t> damaged = snapshot;
  const std::string name = "finger_right";
  const auto at = std::search(damaged.begin(), damaged.end(), name.begin(), name.end());
  ASSERT_NE(at, damaged.end());
  at[static_cast<long>(name.size()) + 1] = 0x7f;  // past the name: the type, now unknown
  EXPECT_THROW(fresh.restoreState(damaged), SnapshotError);
}

TEST(WorldSnapshot, ResetGoesBackToTheStateAfterLoading) {
  const SceneDescription scene = funnelWithDrops();
  World world(scene);
  const std::vector<std::uint8_t> start = world.saveState();
  stepN(world, 200);
  world.addBody(box({0.0, 0.0, 1.0}));
  world.reset();
  EXPECT_EQ(world.saveState(), start);
  EXPECT_EQ(world.stepCount(), 0);
  stepN(world, 100);
  World fresh(scene);
  stepN(fresh, 100);
  EXPECT_EQ(stateHash(world), stateHash(fresh));
}

TEST(WorldSnapshot, BadSnapshotsAreClearErrorsAndChangeNothing) {
  World world(funnelWithDrops());
  stepN(world, 50);
  const std::vector<std::uint8_t> good = world.saveState();
  stepN(world, 10);
  const std::vector<std::uint8_t> before = world.saveState();
  const auto refused = [&](std::vector<std::uint8_t> bytes, const char* says) {
    try {
      world.restoreState(bytes);
      ADD_FAILURE() << "accepted: " << says;
    } catch (const SnapshotError& e) {
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
    }
    EXPECT_EQ(world.saveState(), before);
  };
  for (const size_t keep : {size_t{0}, size_t{5}, size_t{40}, good.size() / 2, good.size() - 1}) {
    refused(std::vector<std::uint8_t>(good.begin(), good.begin() + keep), "snapshot");
  }
  std::vector<std::uint8_t> magic = good;
  magic[0] = 'x';
  refused(magic, "not a heavyball snapshot");
  std::vector<std::uint8_t> version = good;
  version[8] = 99;
  refused(version, "format version 99");
  std::vector<std::uint8_t> longer = good;
  longer.push_back(0);
  refused(longer, "bytes past its end");
  World other(groundScene());
  refused(other.saveState(), "another scene");
  // The same statics, another body at index 1.
  SceneDescription a = groundScene(), b = groundScene();
  a.bodies.push_back(box({0, 0, 0.05}));
  b.bodies.push_back(box({0, 0, 0.05}));
  b.bodies[0].shape.shape = Shape::sphere(0.1);
  World boxWorld(a), sphereWorld(b);
  EXPECT_THROW(boxWorld.restoreState(sphereWorld.saveState()), SnapshotError);
}

// Damaged bytes anywhere: the restore succeeds or throws a clear error (SnapshotError, mostly),
// and a world that took it steps on without crashing (its state may be nonsense, which the step
// reports); the sanitizer build runs this too.
TEST(WorldSnapshot, FlippedBytesNeverCrash) {
  World world(funnelWithDrops());
  stepN(world, 120);
  const std::vector<std::uint8_t> good = world.saveState();
  std::mt19937 rng(7);
  std::uniform_int_distribution<size_t> at(0, good.size() - 1);
  std::uniform_int_distribution<int> bit(0, 7);
  int refused = 0;
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<std::uint8_t> bytes = good;
    for (int k = 0; k < 1 + trial % 3; ++k)
      bytes[at(rng)] ^= static_cast<std::uint8_t>(1 << bit(rng));
    try {
      world.restoreState(bytes);
      world.step();
    } catch (const SnapshotError&) {
      ++refused;
    } catch (const std::exception& e) {
      // Another clear error: a re-added body's damaged dimensions refused by its shape, or a
      // step refusing what the damaged state asks of it (PairLimitError).
      SUCCEED() << e.what();
    }
    world.restoreState(good);
  }
  EXPECT_GT(refused, 0);
}

}  // namespace
}  // namespace hb
