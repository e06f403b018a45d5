// Driving a world from outside: snapshots (restore then step equals step on, bit for bit), reset,
// setting a body's state, forces held and for one step, gravity, materials, masses and the
// contact impulses a body takes; bad values refused before anything changes.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "engine/run_summary.hpp"
#include "engine/scene.hpp"
#include "engine/state_hash.hpp"
#include "engine/world.hpp"

namespace hb {
namespace {

using Eigen::Vector3d;

SceneDescription groundScene(double friction = 0.8) {
  SceneDescription scene;
  scene.name = "control";
  scene.assetDir = std::string(HB_SOURCE_DIR) + "/assets/ycb";
  StaticDescription ground;
  ground.material.friction = friction;
  scene.statics.push_back(ground);
  return scene;
}

BodyDescription box(const Vector3d& position, double friction = 0.8) {
  BodyDescription b;
  b.shape.shape = Shape::box({0.1, 0.1, 0.05});
  b.pose.p = position;
  b.material.friction = friction;
  b.density = 500.0;
  return b;
}

// The funnel with YCB drops (hulls and convex parts) and boxes, sleeping on.
SceneDescription funnelWithDrops() {
  SceneDescription scene = loadScene(std::string(HB_SOURCE_DIR) + "/assets/scenes/funnel.json");
  scene.spawner->count = 24;
  scene.spawner->interval = 0.05;
  return scene;
}

void stepN(World& world, int n) {
  for (int i = 0; i < n; ++i) world.step();
}

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

TEST(WorldControl, APoseSetWithGravityOffIsKept) {
  SceneDescription scene = groundScene();
  scene.bodies.push_back(box({0, 0, 0.05}));
  World world(scene);
  stepN(world, 240);  // asleep on the ground
  ASSERT_TRUE(world.rigidBodies()[1].sleeping);
  world.setGravity(Vector3d::Zero());
  const Eigen::Quaterniond q(Eigen::AngleAxisd(0.7, Vector3d(1, 2, 3).normalized()));
  BodyStateUpdate update;
  update.position = Vector3d(0.3, -0.2, 1.5);
  update.orientation = q;
  world.setBodyState(1, update);
  EXPECT_FALSE(world.rigidBodies()[1].sleeping);
  stepN(world, 120);
  const RigidBody& r = world.rigidBodies()[1];
  EXPECT_EQ(r.position, *update.position);
  EXPECT_LT(r.orientation.angularDistance(q), 1e-15);
  EXPECT_TRUE(r.linearVelocity.isZero(0.0));
}

TEST(WorldControl, SetVelocitiesMoveTheBodyAsSet) {
  SceneDescription scene = groundScene();
  scene.gravity.setZero();
  scene.bodies.push_back(box({0, 0, 1.0}));
  World world(scene);
  BodyStateUpdate update;
  update.linearVelocity = Vector3d(1.0, 0.0, 0.5);
  world.setBodyState(1, update);
  stepN(world, 120);  // 1 s
  EXPECT_NEAR(world.rigidBodies()[1].position.x(), 1.0, 1e-12);
  EXPECT_NEAR(world.rigidBodies()[1].position.z(), 1.5, 1e-12);
}

TEST(WorldControl, BadStatesAreRefusedBeforeAnythingChanges) {
  SceneDescription scene = groundScene();
  scene.bodies.push_back(box({0, 0, 0.05}));
  World world(scene);
  const std::vector<std::uint8_t> before = world.saveState();
  const double nan = std::nan("");
  BodyStateUpdate bad;
  bad.position = Vector3d(0, nan, 0);
  EXPECT_THROW(world.setBodyState(1, bad), std::invalid_argument);
  bad = {};
  bad.orientation = Eigen::Quaterniond(1.0, 0.01, 0.0, 0.0);  // norm 1.00005
  try {
    world.setBodyState(1, bad);
    ADD_FAILURE();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("orientation"), std::string::npos);
  }
  bad = {};
  bad.linearVelocity = Vector3d(1e9, 0, 0);
  EXPECT_THROW(world.setBodyState(1, bad), std::invalid_argument);
  EXPECT_THROW(world.setBodyState(0, {}), std::invalid_argument);
  EXPECT_THROW(world.setBodyState(2, {}), std::out_of_range);
  EXPECT_THROW(world.applyForce(1, Vector3d(nan, 0, 0)), std::invalid_argument);
  EXPECT_THROW(world.applyForce(0, Vector3d(1, 0, 0)), std::invalid_argument);
  EXPECT_THROW(world.setExternalForce(1, Vector3d::Zero(), Vector3d(0, 0, nan)),
               std::invalid_argument);
  EXPECT_THROW(world.setMass(1, 0.0), std::invalid_argument);
  EXPECT_THROW(world.setMass(1, -1.0), std::invalid_argument);
  EXPECT_THROW(world.setMaterial(1, {-0.1, 0.0}), std::invalid_argument);
  EXPECT_THROW(world.setMaterial(1, {0.5, 1.5}), std::invalid_argument);
  EXPECT_THROW(world.setGravity(Vector3d(0, 0, nan)), std::invalid_argument);
  EXPECT_EQ(world.saveState(), before);
}

// F = m a on frictionless ground: the contacts push along the normal only.
TEST(WorldControl, AHeldForceAcceleratesAsFOverM) {
  for (const double mass : {0.0, 3.0}) {  // 0: the box's own mass (2 kg)
    SCOPED_TRACE(mass);
    SceneDescription scene = groundScene(0.0);
    scene.bodies.push_back(box({0, 0, 0.05}, 0.0));
    World world(scene);
    stepN(world, 60);
    if (mass > 0.0) world.setMass(1, mass);
    const double m = 1.0 / world.rigidBodies()[1].inverseMass;
    EXPECT_NEAR(m, mass > 0.0 ? mass : 2.0, 1e-12);
    const Vector3d v0 = world.rigidBodies()[1].linearVelocity;
    const Vector3d force(2.0, -1.0, 0.0);
    world.setExternalForce(1, force, Vector3d::Zero());
    const int steps = 240;
    stepN(world, steps);
    const Vector3d dv = world.rigidBodies()[1].linearVelocity - v0;
    const Vector3d expected = steps * world.scene().dt / m * force;
    EXPECT_NEAR(dv.x(), expected.x(), 1e-9 * expected.norm());
    EXPECT_NEAR(dv.y(), expected.y(), 1e-9 * expected.norm());
    EXPECT_FALSE(world.lastStep().energyGrew);
    world.setExternalForce(1, Vector3d::Zero(), Vector3d::Zero());
    const Vector3d coasting = world.rigidBodies()[1].linearVelocity;
    stepN(world, 10);
    EXPECT_NEAR((world.rigidBodies()[1].linearVelocity - coasting).head<2>().norm(), 0.0, 1e-12);
  }
}

TEST(WorldControl, AForceForOneStepActsOnce) {
  SceneDescription scene = groundScene();
  scene.gravity.setZero();
  scene.bodies.push_back(box({0, 0, 1.0}));
  World world(scene);
  const double m = 1.0 / world.rigidBodies()[1].inverseMass;
  world.applyForce(1, Vector3d(0, 0, 10.0));
  world.applyTorque(1, Vector3d(0, 0, 0.5));
  stepN(world, 3);
  const RigidBody& r = world.rigidBodies()[1];
  EXPECT_NEAR(r.linearVelocity.z(), world.scene().dt * 10.0 / m, 1e-12);
  const double iz = r.inertiaBody(2, 2);
  EXPECT_NEAR(r.angularVelocity.z(), world.scene().dt * 0.5 / iz, 1e-9);
  // Off the centre of mass a force turns the body too.
  World turned(scene);
  turned.applyForce(1, Vector3d(0, 1.0, 0), Vector3d(0.1, 0, 1.0));
  turned.step();
  EXPECT_NEAR(turned.rigidBodies()[1].angularVelocity.z(),
              turned.scene().dt * 0.1 / turned.rigidBodies()[1].inertiaBody(2, 2), 1e-9);
}

// At rest on the ground the contacts carry the weight: m g dt per step.
TEST(WorldControl, ARestingBoxTakesItsWeightFromTheGround) {
  SceneDescription scene = groundScene();
  scene.solver.sleeping = false;
  scene.bodies.push_back(box({0, 0, 0.05}));
  World world(scene);
  stepN(world, 240);
  const double m = 1.0 / world.rigidBodies()[1].inverseMass;
  const double weight = m * 9.81 * world.scene().dt;
  for (int i = 0; i < 10; ++i) {
    world.step();
    ASSERT_EQ(world.lastStep().substeps, 1);
    const Vector3d onBox = world.bodyContactImpulse(1);
    EXPECT_NEAR(onBox.z(), weight, 1e-3 * weight);
    EXPECT_LT(onBox.head<2>().norm(), 1e-6 * weight);
    EXPECT_NEAR(world.bodyContactImpulse(0).z(), -onBox.z(), 1e-12);
  }
}

TEST(WorldControl, ChangingGravityIsNotEnergyFromNowhere) {
  SceneDescription scene = groundScene();
  scene.bodies.push_back(box({0, 0, 1.0}));
  World world(scene);
  stepN(world, 10);
  const double gain = world.energyGain();
  world.setGravity(Vector3d(0, 0, -20.0));
  EXPECT_NEAR(world.energyGain(), gain, 1e-9);
  EXPECT_EQ(world.gravity(), Vector3d(0, 0, -20.0));
  const double vz = world.rigidBodies()[1].linearVelocity.z();
  world.step();
  EXPECT_NEAR(world.rigidBodies()[1].linearVelocity.z() - vz, -20.0 * world.scene().dt, 1e-12);
}

TEST(WorldControl, AMaterialSetTakesEffect) {
  // A box sliding at 1 m/s stops sooner on more friction.
  const auto slide = [](double friction) {
    SceneDescription scene = groundScene(0.0);
    scene.bodies.push_back(box({0, 0, 0.05}, 0.0));
    World world(scene);
    stepN(world, 10);
    world.setMaterial(1, {friction, 0.0});
    world.setMaterial(0, {friction, 0.0});
    BodyStateUpdate push;
    push.linearVelocity = Vector3d(1.0, 0, 0);
    world.setBodyState(1, push);
    stepN(world, 240);
    return world.rigidBodies()[1].position.x();
  };
  // mu g: 1 m/s stops after v^2 / (2 mu g) = 0.102 m at mu = 0.5; frictionless it slides 2 m.
  EXPECT_NEAR(slide(0.5), 0.102, 0.01);
  EXPECT_NEAR(slide(0.0), 2.0, 0.01);
}

// Removing a body leaves the others as if it had never been there once they stop touching it:
// a world with the body removed steps on as one where it was never added (apart from it, the
// same bodies at the same indices), here with the boxes far apart.
TEST(WorldControl, RemovingABodyShiftsTheLaterOnesAndKeepsThemStepping) {
  SceneDescription scene = groundScene();
  scene.bodies.push_back(box({-1.0, 0, 0.3}));
  scene.bodies.push_back(box({0, 0, 0.3}));
  BodyDescription ball;
  ball.shape.shape = Shape::sphere(0.05);
  ball.pose.p = {1.0, 0, 0.3};
  scene.bodies.push_back(ball);
  World world(scene);
  stepN(world, 30);
  world.removeBody(2);
  ASSERT_EQ(world.bodies().size(), 3u);
  EXPECT_EQ(world.bodies()[2].name, "sphere");
  for (size_t p = 0; p < world.proxies().size(); ++p) {
    const int b = world.proxies()[p].body;
    const auto& own = world.bodies()[b].proxies;
    EXPECT_NE(std::find(own.begin(), own.end(), static_cast<int>(p)), own.end());
  }
  EXPECT_TRUE(world.contacts().empty());
  SceneDescription without = groundScene();
  without.bodies = {scene.bodies[0], scene.bodies[2]};
  World reference(without);
  stepN(reference, 30);
  EXPECT_EQ(world.rigidBodies()[1].position, reference.rigidBodies()[1].position);
  EXPECT_EQ(world.rigidBodies()[2].position, reference.rigidBodies()[2].position);
  stepN(world, 120);
  stepN(reference, 120);
  EXPECT_EQ(world.rigidBodies()[2].position, reference.rigidBodies()[2].position);
  EXPECT_EQ(world.rigidBodies()[1].position, reference.rigidBodies()[1].position);
  EXPECT_FALSE(world.lastStep().energyGrew);
  EXPECT_THROW(world.removeBody(0), std::invalid_argument);
  EXPECT_THROW(world.removeBody(3), std::out_of_range);
}

}  // namespace
}  // namespace hb
