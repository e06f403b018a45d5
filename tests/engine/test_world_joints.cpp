// Joints in the world against mechanics: pendulum periods (small amplitude and 90 degrees, the
// exact elliptic-integral period of the physical pendulum), a hanging chain's drift, a double
// pendulum's energy, a heavy body under a light one, a motor reaching its target or stalling at
// its force, a hinge held at its limit; and what addJoint refuses.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <numbers>
#include <utility>
#include <vector>

#include "engine/scene.hpp"
#include "engine/world.hpp"
#include "tests/engine/joint_test_scenes.hpp"
#include "tests/engine/world_test_scenes.hpp"

namespace hb {
namespace {

using Eigen::Vector3d;
using test_scenes::stepN;
using namespace joint_scenes;

/// The period of a ball of radius r on a massless link of length l (its centre l from the
/// pivot), released at `amplitude` (rad): T = 4 sqrt(I / (m g l)) K(sin(amplitude / 2)) with
/// I = m l^2 + 2/5 m r^2 about the pivot.
double pendulumPeriod(double l, double r, double amplitude) {
  const double inertia = l * l + 0.4 * r * r;  // per unit mass
  return 4.0 * std::sqrt(inertia / (kG * l)) * ellipticK(std::sin(0.5 * amplitude));
}

double measuredPendulumPeriod(double amplitude, double hertz, int softSubsteps = 0) {
  constexpr double l = 1.0, r = 0.02;
  SceneDescription scene = emptyScene(softSubsteps);
  scene.dt = 1.0 / hertz;
  const Vector3d pivot(0, 0, 2);
  scene.bodies.push_back(
      ball(pivot + l * Vector3d(std::sin(amplitude), 0, -std::cos(amplitude)), r, 1.0));
  World world(scene);
  world.addJoint(jointAt(JointType::Spherical, world, 0, 1, pivot));
  std::vector<double> x;
  for (int i = 0; i < static_cast<int>(12.0 * hertz); ++i) {
    world.step();
    x.push_back(world.rigidBodies()[1].position.x());
  }
  return meanPeriod(x, scene.dt);
}

TEST(WorldJoints, SmallPendulumSwingsAtItsPeriod) {
  const double amplitude = 5.0 * std::numbers::pi / 180.0;
  const double expected = pendulumPeriod(1.0, 0.02, amplitude);
  EXPECT_NEAR(expected, 2.0 * std::numbers::pi * std::sqrt(1.0 / kG), 0.002 * expected);
  const double measured = measuredPendulumPeriod(amplitude, 120.0);
  EXPECT_NEAR(measured, expected, 0.005 * expected);
}

TEST(WorldJoints, PendulumReleasedLevelSwingsAtTheEllipticPeriod) {
  const double amplitude = 0.5 * std::numbers::pi;
  const double expected = pendulumPeriod(1.0, 0.02, amplitude);  // 1.18 times the small one
  const double measured = measuredPendulumPeriod(amplitude, 120.0);
  EXPECT_NEAR(measured, expected, 0.01 * expected);
}

/// A chain of `links` boxes 0.1 m long hanging from (0, 0, 2), each held to the one above by a
/// ball joint at their shared end (once added); the first to the world.
World hangingChain(int links, const std::vector<double>& masses = {}, int softSubsteps = 0) {
  SceneDescription scene = emptyScene(softSubsteps);
  for (int i = 0; i < links; ++i) {
    BodyDescription link;
    link.shape.shape = Shape::box({0.01, 0.01, 0.05});
    link.pose.p = Vector3d(0, 0, 2.0 - 0.05 - 0.1 * i);
    link.mass = masses.empty() ? 0.1 : masses[i];
    scene.bodies.push_back(link);
  }
  return World(scene);
}

double largestJointError(const World& world) {
  double largest = 0.0;
  for (const Joint& j : world.joints()) {
    largest = std::max(largest,
                       jointError(j, world.rigidBodies()[j.bodyA], world.rigidBodies()[j.bodyB]));
  }
  return largest;
}

/// Each link of a hanging chain held to the one above.
void joinChain(World& world) {
  const int links = static_cast<int>(world.rigidBodies().size()) - 1;
  for (int i = 0; i < links; ++i) {
    world.addJoint(jointAt(JointType::Spherical, world, i, i + 1, Vector3d(0, 0, 2.0 - 0.1 * i)));
  }
}

/// A chain of 10 links of 0.1 kg hangs 10 s from the world: its joints hold within 0.1 mm, it
/// stays straight down and at rest, and the top joint carries its weight.
void expectChainHangsAtRest(int softSubsteps) {
  World world = hangingChain(10, {}, softSubsteps);
  joinChain(world);
  EXPECT_LT(largestJointError(world), 1e-12);
  double drift = 0.0;
  for (int s = 0; s < 1200; ++s) {  // 10 s
    world.step();
    drift = std::max(drift, largestJointError(world));
  }
  EXPECT_LT(drift, 1e-4);
  // Still hanging straight down, at rest.
  EXPECT_NEAR(world.rigidBodies()[10].position.z(), 2.0 - 0.05 - 0.9, 1e-4);
  EXPECT_LT(world.rigidBodies()[10].linearVelocity.norm(), 1e-3);
  // The top joint carries the chain's weight: 10 links of 0.1 kg.
  EXPECT_NEAR(world.joints()[0].force[2], 10 * 0.1 * kG, 1e-3);
}

TEST(WorldJoints, HangingChainStaysTogether) {
  expectChainHangsAtRest(0);
}

TEST(WorldJoints, HeavyBallUnderALightChainHangsConnected) {
  // Four links of 10 g holding 1 kg (100:1), from rest: the joints' held rows are one system
  // (dynamics/joint_block.hpp), so the load reaches the top in every sweep. (Swung, the light
  // links whip at 50 rad/s: the heavy-chain scenario of tests/physics.)
  World world = hangingChain(5, {0.01, 0.01, 0.01, 0.01, 1.0});
  joinChain(world);
  double drift = 0.0;
  for (int s = 0; s < 600; ++s) {
    world.step();
    drift = std::max(drift, largestJointError(world));
  }
  EXPECT_LT(drift, 1e-6);
  EXPECT_NEAR(world.joints()[0].force[2], (4 * 0.01 + 1.0) * kG, 1e-6);
}

/// A frictionless double pendulum of two 1 kg balls on 1 m links released level, 10 s at
/// 120 Hz: its largest energy error as a fraction of its energy above hanging straight down,
/// and its largest joint error at the end (m).
std::pair<double, double> doublePendulumDrift(int softSubsteps = 0) {
  SceneDescription scene = emptyScene(softSubsteps);
  const Vector3d pivot(0, 0, 3);
  scene.bodies.push_back(ball(pivot + Vector3d(1, 0, 0), 0.02, 1.0));
  scene.bodies.push_back(ball(pivot + Vector3d(1, 0, -1), 0.02, 1.0));
  World world(scene);
  world.addJoint(jointAt(JointType::Spherical, world, 0, 1, pivot));
  world.addJoint(jointAt(JointType::Spherical, world, 1, 2, pivot + Vector3d(1, 0, 0)));
  const auto energy = [&] {
    double e = 0.0;
    for (int i = 1; i <= 2; ++i) {
      const RigidBody& r = world.rigidBodies()[i];
      e += r.kineticEnergy() + 1.0 * kG * r.position.z();  // 1 kg each
    }
    return e;
  };
  const double e0 = energy();
  const double rest = 1.0 * kG * (pivot.z() - 1.0) + 1.0 * kG * (pivot.z() - 2.0);
  double worst = 0.0;
  for (int s = 0; s < 1200; ++s) {
    world.step();
    worst = std::max(worst, std::abs(energy() - e0));
  }
  return {worst / (e0 - rest), largestJointError(world)};
}

TEST(WorldJoints, DoublePendulumKeepsItsEnergy) {
  // 0.65% measured in substeps of 240 Hz (solver.joint_rate; 1.4% in whole steps).
  const auto [drift, error] = doublePendulumDrift();
  EXPECT_LT(drift, 0.01);
  EXPECT_LT(error, 1e-3);
}

/// The largest angle from straight down, over 3 s at 120 Hz, of a 1 kg ball hanging 1 m below
/// a ball joint whose cone of half-angle `cone` points straight down, pushed so that without
/// the cone it would swing to `amplitude` (rad).
double widestSwing(double cone, double amplitude, int softSubsteps = 0) {
  SceneDescription scene = emptyScene(softSubsteps);
  const Vector3d pivot(0, 0, 2);
  scene.bodies.push_back(ball(pivot - Vector3d::UnitZ(), 0.02, 1.0));
  World world(scene);
  JointDescription joint;
  joint.type = JointType::Spherical;
  joint.bodyA = 0;
  joint.bodyB = 1;
  joint.anchor = pivot;
  joint.axis = -Vector3d::UnitZ();
  joint.limit = {true, 0.0, cone};
  world.addJoint(joint);
  const double speed = std::sqrt(2.0 * kG * (1.0 - std::cos(amplitude)));
  world.applyImpulse(1, world.rigidBodies()[1].position, Vector3d(speed, 0, 0));
  double widest = 0.0;
  for (int s = 0; s < 360; ++s) {
    world.step();
    const Vector3d arm = world.rigidBodies()[1].position - pivot;
    widest = std::max(widest, std::acos(std::clamp(-arm.normalized().z(), -1.0, 1.0)));
  }
  return widest;
}

TEST(WorldJoints, SphericalConeHoldsTheSwing) {
  const double degree = std::numbers::pi / 180.0;
  // A swing of 20 deg inside a 30 deg cone: as without a limit.
  EXPECT_NEAR(widestSwing(30 * degree, 20 * degree), 20 * degree, 0.2 * degree);
  // One of 40 deg in a 20 deg cone: stopped at its wall, overshooting less than 0.5 deg.
  const double held = widestSwing(20 * degree, 40 * degree);
  EXPECT_LT(held, 20.5 * degree);
  EXPECT_GT(held, 19.5 * degree);
}

TEST(WorldJoints, SphericalLimitIsACone) {
  SceneDescription scene = emptyScene();
  scene.bodies.push_back(ball(Vector3d(0, 0, 1), 0.02, 1.0));
  World world(scene);
  Joint j = jointAt(JointType::Spherical, world, 0, 1, Vector3d(0, 0, 2));
  j.limit = {true, -0.1, 0.5};  // a lower bound means nothing to a cone
  EXPECT_THROW(world.addJoint(j), std::invalid_argument);
  j.limit = {true, 0.0, 4.0};  // wider than pi
  EXPECT_THROW(world.addJoint(j), std::invalid_argument);
  j.limit = {true, 0.0, 0.5};
  const int added = world.addJoint(j);
  EXPECT_THROW(world.setJointLimit(added, {true, 0.0, 0.0}), std::invalid_argument);
  world.setJointLimit(added, {true, 0.0, 1.0});
  EXPECT_EQ(world.joints()[added].limit.upper, 1.0);
}

/// A 2 kg ball 0.5 m out on a light arm about a horizontal hinge (world y) at (0, 0, 2).
std::unique_ptr<World> armOnHinge(JointMotor motor, JointLimit limit = {}, int softSubsteps = 0) {
  SceneDescription scene = emptyScene(softSubsteps);
  scene.bodies.push_back(ball(Vector3d(0.5, 0, 2), 0.05, 2.0));
  auto world = std::make_unique<World>(scene);
  // The frame's z along world y.
  const Eigen::Quaterniond axes(Eigen::AngleAxisd(-0.5 * std::numbers::pi, Vector3d::UnitX()));
  Joint hinge = jointAt(JointType::Revolute, *world, 0, 1, Vector3d(0, 0, 2), axes);
  hinge.motor = motor;
  hinge.limit = limit;
  world->addJoint(hinge);
  return world;
}

TEST(WorldJoints, MotorReachesItsTargetUnderLoad) {
  const auto arm = armOnHinge({true, 1.0, 100.0});
  World& world = *arm;
  stepN(world, 60);
  const Joint& j = world.joints()[0];
  const double velocity = jointVelocity(j, world.rigidBodies()[0], world.rigidBodies()[1]);
  EXPECT_NEAR(velocity, 1.0, 1e-4);
  EXPECT_LT(jointError(j, world.rigidBodies()[0], world.rigidBodies()[1]), 1e-4);
}

TEST(WorldJoints, MotorBelowItsLoadStallsAtItsForce) {
  // The load at level is 2 kg x g x 0.5 m = 9.81 N m about the hinge; the motor has half.
  const double limit = 0.5 * 2.0 * kG * 0.5;
  const auto arm = armOnHinge({true, 0.0, limit});
  World& world = *arm;
  world.step();
  const Joint& j = world.joints()[0];
  EXPECT_NEAR(std::abs(j.motorForce), limit, 0.01 * limit);
  // It sags: the motor cannot hold the arm level.
  stepN(world, 30);
  EXPECT_LT(world.rigidBodies()[1].position.z(), 2.0 - 0.01);
}

TEST(WorldJoints, HingeHeldAtItsLimit) {
  // Driven hard towards +0.5 rad.
  const auto arm = armOnHinge({true, 5.0, 1000.0}, {true, -0.5, 0.5});
  World& world = *arm;
  double highest = -1.0;
  for (int s = 0; s < 240; ++s) {
    world.step();
    const Joint& j = world.joints()[0];
    highest = std::max(highest, jointPosition(j, world.rigidBodies()[0], world.rigidBodies()[1]));
  }
  EXPECT_LT(highest, 0.5 + 0.5 * std::numbers::pi / 180.0);
  EXPECT_GT(highest, 0.5 - 0.01);
}

TEST(WorldJoints, JointedBodiesDoNotCollide) {
  // Two overlapping boxes held together by a fixed joint rest as one body would.
  SceneDescription scene = emptyScene();
  BodyDescription a = test_scenes::box(Vector3d(0, 0, 1));
  BodyDescription b = test_scenes::box(Vector3d(0.1, 0, 1));
  scene.bodies = {a, b};
  World world(scene);
  world.addJoint(jointAt(JointType::Fixed, world, 1, 2, Vector3d(0.05, 0, 1)));
  stepN(world, 60);
  EXPECT_EQ(world.contacts().size(), 0u);
  EXPECT_LT(largestJointError(world), 1e-4);
  // Falling together, neither pushed off the other.
  EXPECT_NEAR(world.rigidBodies()[2].position.x() - world.rigidBodies()[1].position.x(), 0.1, 1e-4);
}

TEST(WorldJoints, BadJointsAreRefused) {
  SceneDescription scene = emptyScene();
  scene.bodies.push_back(ball(Vector3d(0, 0, 1), 0.1, 1.0));
  World world(scene);
  Joint j = jointAt(JointType::Spherical, world, 0, 1, Vector3d(0, 0, 1.5));
  Joint self = j;
  self.bodyA = 1;
  EXPECT_THROW(world.addJoint(self), std::invalid_argument);
  Joint missing = j;
  missing.bodyB = 7;
  EXPECT_THROW(world.addJoint(missing), std::out_of_range);
  Joint skewed = j;
  skewed.frameA.q.coeffs() *= 1.1;
  EXPECT_THROW(world.addJoint(skewed), std::invalid_argument);
  Joint nan = j;
  nan.frameB.p.x() = std::nan("");
  EXPECT_THROW(world.addJoint(nan), std::invalid_argument);
  Joint inverted = j;
  inverted.limit = {true, 0.5, -0.5};
  EXPECT_THROW(world.addJoint(inverted), std::invalid_argument);
  EXPECT_TRUE(world.joints().empty());
  EXPECT_THROW(world.setJointMotor(0, {}), std::out_of_range);
}

TEST(WorldJoints, RemovingABodyTakesItsJoints) {
  World world = hangingChain(3);
  joinChain(world);
  world.removeBody(2);
  ASSERT_EQ(world.joints().size(), 1u);  // world-link 1 stays; 1-2 and 2-3 go
  EXPECT_EQ(world.joints()[0].bodyB, 1);
  stepN(world, 10);
}

// The same mechanics in the soft step (solver.soft_substeps): the joints' rows re-aimed at the
// bodies' poses before each of its sweeps, soft in the push sweep, rigid in the relax sweep.
constexpr int kSoft = 4;

TEST(WorldJointsSoftStep, PendulumsSwingAtTheirPeriods) {
  for (const double degrees : {5.0, 90.0}) {
    const double amplitude = degrees * std::numbers::pi / 180.0;
    const double expected = pendulumPeriod(1.0, 0.02, amplitude);
    const double tolerance = degrees < 10.0 ? 0.005 : 0.01;
    EXPECT_NEAR(measuredPendulumPeriod(amplitude, 120.0, kSoft), expected, tolerance * expected)
        << degrees;
  }
}

TEST(WorldJointsSoftStep, HangingChainStaysTogether) {
  expectChainHangsAtRest(kSoft);
}

TEST(WorldJointsSoftStep, HeavyBallOnALightChainSwingsConnected) {
  // Four links of 10 g and a 1 kg one released level: the light links whip round.
  SceneDescription scene = emptyScene(kSoft);
  const std::vector<double> masses = {0.01, 0.01, 0.01, 0.01, 1.0};
  for (int i = 0; i < 5; ++i) {
    BodyDescription link;
    link.shape.shape = Shape::box({0.05, 0.01, 0.01});
    link.pose.p = Vector3d(0.05 + 0.1 * i, 0, 2);
    link.mass = masses[i];
    scene.bodies.push_back(link);
  }
  World world(scene);
  for (int i = 0; i < 5; ++i) {
    world.addJoint(jointAt(JointType::Spherical, world, i, i + 1, Vector3d(0.1 * i, 0, 2)));
  }
  double worst = 0.0;
  for (int s = 0; s < 360; ++s) {
    world.step();
    worst = std::max(worst, largestJointError(world));
  }
  EXPECT_LT(worst, 1e-3);
}

TEST(WorldJointsSoftStep, DoublePendulumKeepsItsEnergy) {
  const auto [drift, error] = doublePendulumDrift(kSoft);
  EXPECT_LT(drift, 0.01);
  EXPECT_LT(error, 1e-3);
}

TEST(WorldJointsSoftStep, MotorsAndLimitsAct) {
  {
    const auto arm = armOnHinge({true, 1.0, 100.0}, {}, kSoft);
    stepN(*arm, 60);
    const auto& b = arm->rigidBodies();
    EXPECT_NEAR(jointVelocity(arm->joints()[0], b[0], b[1]), 1.0, 1e-3);
  }
  {
    const double limit = 0.5 * 2.0 * kG * 0.5;  // half the load at level
    const auto arm = armOnHinge({true, 0.0, limit}, {}, kSoft);
    arm->step();
    EXPECT_NEAR(std::abs(arm->joints()[0].motorForce), limit, 0.01 * limit);
  }
  {
    const auto arm = armOnHinge({true, 5.0, 1000.0}, {true, -0.5, 0.5}, kSoft);
    double highest = -1.0;
    for (int s = 0; s < 240; ++s) {
      arm->step();
      const auto& b = arm->rigidBodies();
      highest = std::max(highest, jointPosition(arm->joints()[0], b[0], b[1]));
    }
    EXPECT_LT(highest, 0.5 + 0.5 * std::numbers::pi / 180.0);
    EXPECT_GT(highest, 0.5 - 0.01);
  }
  const double degree = std::numbers::pi / 180.0;
  const double held = widestSwing(20 * degree, 40 * degree, kSoft);
  EXPECT_LT(held, 20.5 * degree);
  EXPECT_GT(held, 19.5 * degree);
}

TEST(WorldJointsSoftStep, JointAndContactShareALoad) {
  // A 1 m rod of 2 kg hinged to the world at one end, its other end resting on a ball lying on
  // the ground 0.95 m out (bodies jointed to the world do not touch the statics): the hinge
  // carries m g (1 - 0.5 / 0.95) and the ball the rest.
  SceneDescription scene = emptyScene(kSoft);
  scene.statics[0].groundHeight = 0.0;
  BodyDescription rod;
  rod.shape.shape = Shape::box({0.5, 0.05, 0.05});
  rod.pose.p = Vector3d(0.5, 0, 0.25);
  rod.mass = 2.0;
  scene.bodies.push_back(rod);
  scene.bodies.push_back(ball(Vector3d(0.95, 0, 0.1), 0.1, 1.0));
  World world(scene);
  const Eigen::Quaterniond axes(Eigen::AngleAxisd(-0.5 * std::numbers::pi, Vector3d::UnitX()));
  world.addJoint(jointAt(JointType::Revolute, world, 0, 1, Vector3d(0, 0, 0.25), axes));
  stepN(world, 240);
  const double hinge = 2.0 * kG * (1.0 - 0.5 / 0.95);
  EXPECT_NEAR(world.joints()[0].force[2], hinge, 0.01 * hinge);
  EXPECT_LT(largestJointError(world), 1e-4);
  EXPECT_LT(world.rigidBodies()[1].angularVelocity.norm(), 1e-3);
  EXPECT_NEAR(world.rigidBodies()[2].position.x(), 0.95, 1e-3);  // the ball stays put
}

}  // namespace
}  // namespace hb
