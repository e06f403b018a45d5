// Driving a world from outside: setting a body's state, forces held and for one step, gravity,
// materials, masses, removing bodies and the contact impulses a body takes; bad values refused
// before anything changes. Snapshots: test_world_snapshot.cpp.

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

TEST(WorldControl, ASleepingBoxRestsOnTheContactsTheCacheKeeps) {
  SceneDescription scene = groundScene();
  scene.bodies.push_back(box({0, 0, 0.05}));
  World world(scene);
  EXPECT_TRUE(world.restingContacts().empty());  // nothing asleep yet
  for (int i = 0; i < 1200 && !world.rigidBodies()[1].sleeping; ++i) world.step();
  ASSERT_TRUE(world.rigidBodies()[1].sleeping);
  world.step();
  EXPECT_TRUE(world.contacts().empty());  // a sleeping body's contacts are not solved
  const std::vector<World::RestingContact> resting = world.restingContacts();
  ASSERT_EQ(resting.size(), 4u);  // the box's bottom corners
  const double m = 1.0 / world.rigidBodies()[1].inverseMass;
  Vector3d total = Vector3d::Zero();
  for (const World::RestingContact& c : resting) {
    EXPECT_EQ(c.bodyA, 0);
    EXPECT_EQ(c.bodyB, 1);
    EXPECT_NEAR(c.point.z(), 0.0, 1e-3);
    EXPECT_NEAR(std::abs(c.point.x()), 0.1, 1e-3);
    total += c.force;
  }
  EXPECT_NEAR(total.z(), m * 9.81, 1e-3 * m * 9.81);  // the weight it fell asleep under
  EXPECT_LT(total.head<2>().norm(), 1e-6 * m * 9.81);
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
