// A joint's forces on its free axis against mechanics: a spring's period and energy, a damped
// spring's decay, a spring's rest under a load, a servo reaching its target and holding a load
// with the proportional controller's offset, friction stopping a wheel in I w0 / tau and
// holding a load below it; and what the setters refuse.

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <numbers>
#include <stdexcept>
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

constexpr double kPi = std::numbers::pi;

double positionOf(const World& world, int joint) {
  const Joint& j = world.joints()[joint];
  return jointPosition(j, world.rigidBodies()[j.bodyA], world.rigidBodies()[j.bodyB]);
}

double velocityOf(const World& world, int joint) {
  const Joint& j = world.joints()[joint];
  return jointVelocity(j, world.rigidBodies()[j.bodyA], world.rigidBodies()[j.bodyB]);
}

/// A 1 kg ball on a slider to the world along `axis`, its spring's rest `rest` from where it
/// starts.
std::unique_ptr<World> ballOnSlider(const Vector3d& axis, const JointSpring& spring,
                                    double hertz = 120.0) {
  SceneDescription scene = emptyScene();
  scene.dt = 1.0 / hertz;
  scene.bodies.push_back(ball(Vector3d(0, 0, 2), 0.05, 1.0));
  auto world = std::make_unique<World>(scene);
  Joint slider = jointAt(JointType::Prismatic, *world, 0, 1, Vector3d(0, 0, 2),
                         Eigen::Quaterniond::FromTwoVectors(Vector3d::UnitZ(), axis));
  slider.spring = spring;
  world->addJoint(slider);
  return world;
}

/// The positions of joint 0 over `steps` steps, from the step's end.
std::vector<double> positions(World& world, int steps) {
  std::vector<double> x;
  for (int s = 0; s < steps; ++s) {
    world.step();
    x.push_back(positionOf(world, 0));
  }
  return x;
}

TEST(WorldJointDrives, SpringSwingsAtItsPeriodAndKeepsItsEnergy) {
  // k = 4 pi^2 N/m on 1 kg: a period of 1 s; released 0.1 m from its rest, 10 s.
  const double k = 4.0 * kPi * kPi;
  for (const double hertz : {60.0, 120.0}) {
    const auto world = ballOnSlider(Vector3d::UnitX(), {k, 0.0, -0.1}, hertz);
    std::vector<double> x = positions(*world, static_cast<int>(10.0 * hertz));
    double last = 0.0;
    for (double& xi : x) xi += 0.1;  // about the rest position
    for (std::size_t i = x.size() - static_cast<std::size_t>(hertz); i < x.size(); ++i) {
      last = std::max(last, std::abs(x[i]));
    }
    EXPECT_NEAR(meanPeriod(x, 1.0 / hertz), 1.0, 0.005) << hertz << " Hz";
    // The amplitude (energy) after ten periods: the midpoint form keeps it.
    EXPECT_NEAR(last, 0.1, 0.002) << hertz << " Hz";
  }
}

TEST(WorldJointDrives, DampedSpringDecaysAtItsRate) {
  // zeta = 0.1: each period takes exp(-2 pi zeta / sqrt(1 - zeta^2)) of the amplitude.
  const double k = 4.0 * kPi * kPi, zeta = 0.1;
  const auto world = ballOnSlider(Vector3d::UnitX(), {k, 2.0 * zeta * std::sqrt(k), -0.1});
  std::vector<double> x = positions(*world, 480);
  std::vector<double> peaks;
  for (std::size_t i = 1; i + 1 < x.size(); ++i) {
    const double xi = x[i] + 0.1;
    if (xi > x[i - 1] + 0.1 && xi >= x[i + 1] + 0.1 && xi > 0.0) peaks.push_back(xi);
  }
  ASSERT_GE(peaks.size(), 3u);
  const double expected = std::exp(-2.0 * kPi * zeta / std::sqrt(1.0 - zeta * zeta));
  for (std::size_t i = 1; i < peaks.size(); ++i) {
    EXPECT_NEAR(peaks[i] / peaks[i - 1], expected, 0.02 * expected) << i;
  }
}

TEST(WorldJointDrives, HangingSpringRestsAtItsLoad) {
  // A vertical slider (its axis up) with a critically damped 1000 N/m spring: it rests m g / k
  // below its rest, the spring carrying the weight.
  const double k = 1000.0;
  const auto world = ballOnSlider(Vector3d::UnitZ(), {k, 2.0 * std::sqrt(k), 0.0});
  stepN(*world, 360);
  EXPECT_NEAR(positionOf(*world, 0), -kG / k, 1e-6);
  EXPECT_NEAR(world->joints()[0].springForce, kG, 1e-4);
}

/// A 2 kg ball 0.5 m out on a light arm about a hinge at (0, 0, 2) along `axis`.
std::unique_ptr<World> armOn(const Vector3d& axis, const Joint& drive) {
  SceneDescription scene = emptyScene();
  scene.bodies.push_back(ball(Vector3d(0.5, 0, 2), 0.05, 2.0));
  auto world = std::make_unique<World>(scene);
  Joint hinge = jointAt(JointType::Revolute, *world, 0, 1, Vector3d(0, 0, 2),
                        Eigen::Quaterniond::FromTwoVectors(Vector3d::UnitZ(), axis));
  hinge.motor = drive.motor;
  hinge.spring = drive.spring;
  hinge.friction = drive.friction;
  world->addJoint(hinge);
  return world;
}

constexpr double kArmInertia = 2.0 * 0.5 * 0.5 + 0.4 * 2.0 * 0.05 * 0.05;  // about the hinge

TEST(WorldJointDrives, ServoReachesItsTarget) {
  // About a vertical axis (no load), critically damped; then a new target set between steps.
  Joint drive;
  drive.motor.enabled = true;
  drive.motor.maxForce = 100.0;
  drive.motor.stiffness = 50.0;
  drive.motor.damping = 2.0 * std::sqrt(50.0 * kArmInertia);
  drive.motor.targetPosition = 1.0;
  const auto world = armOn(Vector3d::UnitZ(), drive);
  stepN(*world, 360);
  EXPECT_NEAR(positionOf(*world, 0), 1.0, 1e-3);
  EXPECT_NEAR(velocityOf(*world, 0), 0.0, 1e-3);
  // The nearest way round: from 1 rad to -2.5 rad is 2.78 rad forward through pi.
  world->setJointTargets(0, -2.5, 0.0);
  double lowest = 10.0;
  for (int s = 0; s < 480; ++s) {
    world->step();
    lowest = std::min(lowest, positionOf(*world, 0));
  }
  EXPECT_NEAR(positionOf(*world, 0), -2.5, 1e-3);
  EXPECT_LT(lowest, -2.4);  // it never swept back through 0
  EXPECT_TRUE(world->joints()[0].motor.enabled);
}

TEST(WorldJointDrives, ServoHoldsALoadWithTheProportionalOffset) {
  // About a horizontal axis (world y), the arm held level against m g l = 9.81 N m: a PD
  // controller rests m g l / k short of its target.
  const double k = 2000.0, load = 2.0 * kG * 0.5;
  Joint drive;
  drive.motor = {true, 0.0, 100.0, 0.0, k, 2.0 * std::sqrt(k * kArmInertia)};
  const auto world = armOn(Vector3d::UnitY(), drive);
  stepN(*world, 360);
  // Turning about +y takes +x down (-z): the load pushes the position positive.
  EXPECT_NEAR(positionOf(*world, 0), load / k, 0.01 * load / k);
  EXPECT_NEAR(world->joints()[0].motorForce, -load, 0.01 * load);
  // With its force capped below the load it gives way, at its cap.
  drive.motor.maxForce = 0.5 * load;
  const auto weak = armOn(Vector3d::UnitY(), drive);
  stepN(*weak, 30);
  EXPECT_NEAR(weak->joints()[0].motorForce, -0.5 * load, 1e-9);
  EXPECT_GT(positionOf(*weak, 0), 0.1);
}

TEST(WorldJointDrives, FrictionStopsAWheelInItsTime) {
  // A ball spinning at 10 rad/s about a vertical hinge through its centre, friction 0.1 N m:
  // it slows uniformly and stops at t = I w0 / tau, then stays.
  SceneDescription scene = emptyScene();
  BodyDescription wheel = ball(Vector3d(0, 0, 2), 0.1, 2.0);
  wheel.angularVelocity = Vector3d(0, 0, 10.0);
  scene.bodies.push_back(wheel);
  World world(scene);
  Joint hinge = jointAt(JointType::Revolute, world, 0, 1, Vector3d(0, 0, 2));
  const double tau = 0.1, inertia = 0.4 * 2.0 * 0.1 * 0.1;
  hinge.friction = tau;
  world.addJoint(hinge);
  const double stop = inertia * 10.0 / tau;  // 0.8 s
  const int half = static_cast<int>(std::lround(0.5 * stop * 120.0));
  stepN(world, half);
  EXPECT_NEAR(velocityOf(world, 0), 5.0, 0.05);
  EXPECT_NEAR(world.joints()[0].frictionForce, -tau, 1e-9);
  stepN(world, half + 1);
  EXPECT_NEAR(velocityOf(world, 0), 0.0, 1e-9);
  stepN(world, 120);
  EXPECT_NEAR(velocityOf(world, 0), 0.0, 1e-9);
}

TEST(WorldJointDrives, FrictionHoldsALoadBelowIt) {
  // The level arm's load is 9.81 N m about a horizontal hinge.
  const double load = 2.0 * kG * 0.5;
  Joint drive;
  drive.friction = 1.05 * load;
  const auto held = armOn(Vector3d::UnitY(), drive);
  stepN(*held, 240);
  EXPECT_LT(std::abs(positionOf(*held, 0)), 1e-6);
  drive.friction = 0.95 * load;
  const auto slips = armOn(Vector3d::UnitY(), drive);
  stepN(*slips, 60);
  EXPECT_GT(positionOf(*slips, 0), 0.05);
}

TEST(WorldJointDrives, TorqueTurnsAJointedBodyAboutItsHinge) {
  // 1 N m held on a 1 kg ball 0.3 m out on a vertical hinge: it turns at tau / I_hinge, the
  // joint holding (the torque spins the ball about its own centre within the step, which the
  // joint takes back: the anchors' arcs are predicted from the spin before it).
  SceneDescription scene = emptyScene();
  scene.gravity = Vector3d::Zero();
  scene.bodies.push_back(ball(Vector3d(0.3, 0, 2), 0.05, 1.0));
  World world(scene);
  world.addJoint(jointAt(JointType::Revolute, world, 0, 1, Vector3d(0, 0, 2)));
  world.setExternalForce(1, Vector3d::Zero(), Vector3d(0, 0, 1.0));
  const double inertia = 0.3 * 0.3 + 0.4 * 0.05 * 0.05;
  double worst = 0.0;
  for (int s = 0; s < 120; ++s) {
    world.step();
    const Joint& j = world.joints()[0];
    worst = std::max(worst, jointError(j, world.rigidBodies()[0], world.rigidBodies()[1]));
  }
  EXPECT_NEAR(velocityOf(world, 0), 1.0 / inertia, 0.002 / inertia);
  // 0.17 mm at 11 rad/s after 1 s (predicted from the spin after the torque: 14 mm).
  EXPECT_LT(worst, 3e-4);
}

// A spherical joint's turn: its spring and friction (dynamics/joint_turn_rows.cpp).

/// A 1 kg ball of radius 0.05 m 0.5 m below a ball joint on the world at (0, 0, 2), in no
/// gravity, turning about the world's y axis through the joint at `spin` rad/s.
std::unique_ptr<World> ballOnBallJoint(const Joint& drives, double spin, int softSubsteps = 0) {
  SceneDescription scene = emptyScene(softSubsteps);
  scene.gravity = Vector3d::Zero();
  BodyDescription bob = ball(Vector3d(0, 0, 1.5), 0.05, 1.0);
  bob.angularVelocity = Vector3d(0, spin, 0);
  bob.linearVelocity = Vector3d(0, spin, 0).cross(Vector3d(0, 0, -0.5));
  scene.bodies.push_back(bob);
  auto world = std::make_unique<World>(scene);
  Joint joint = jointAt(JointType::Spherical, *world, 0, 1, Vector3d(0, 0, 2));
  joint.spring = drives.spring;
  joint.friction = drives.friction;
  joint.twist = drives.twist;
  world->addJoint(joint);
  return world;
}

TEST(WorldJointDrives, BallJointSpringSwingsAtItsPeriod) {
  // k = 4 pi^2 I about the joint: a period of 1 s, in both schedules; the energy kept.
  const double inertia = 0.5 * 0.5 + 0.4 * 0.05 * 0.05;
  for (const int soft : {0, 4}) {
    Joint drives;
    drives.spring = {4.0 * kPi * kPi * inertia, 0.0, 0.0};
    const auto world = ballOnBallJoint(drives, 0.3, soft);
    std::vector<double> x;
    for (int s = 0; s < 1200; ++s) {
      world->step();
      x.push_back(world->rigidBodies()[1].position.x());
    }
    EXPECT_NEAR(meanPeriod(x, 1.0 / 120.0), 1.0, 0.005) << soft;
    // The amplitude (0.3 rad/s over 2 pi rad per second: 0.0477 rad, 23.9 mm) after ten
    // periods.
    double first = 0.0, last = 0.0;
    for (int s = 0; s < 120; ++s) first = std::max(first, std::abs(x[s]));
    for (int s = 1080; s < 1200; ++s) last = std::max(last, std::abs(x[s]));
    EXPECT_NEAR(last, first, 0.01 * first) << soft;
    EXPECT_NEAR(first, 0.5 * std::sin(0.3 / (2.0 * kPi)), 2e-4) << soft;
    const Joint& j = world->joints()[0];
    EXPECT_LT(jointError(j, world->rigidBodies()[0], world->rigidBodies()[1]), 1e-4) << soft;
  }
}

TEST(WorldJointDrives, BallJointFrictionStopsASpinInItsTime) {
  // A ball spinning about its own centre at the joint, 10 rad/s about (1, 1, 0) / sqrt(2);
  // friction 0.1 N m: it slows about the same axis and stops at I w0 / tau (0.8 s).
  SceneDescription scene = emptyScene();
  const Vector3d axis = Vector3d(1, 1, 0).normalized();
  BodyDescription spinner = ball(Vector3d(0, 0, 2), 0.1, 2.0);
  spinner.angularVelocity = 10.0 * axis;
  scene.bodies.push_back(spinner);
  World world(scene);
  Joint joint = jointAt(JointType::Spherical, world, 0, 1, Vector3d(0, 0, 2));
  joint.friction = 0.1;
  world.addJoint(joint);
  stepN(world, 48);  // 0.4 s
  const Vector3d w = world.rigidBodies()[1].angularVelocity;
  EXPECT_NEAR(w.norm(), 5.0, 0.05);
  EXPECT_NEAR(w.normalized().dot(axis), 1.0, 1e-9);
  EXPECT_NEAR(world.joints()[0].frictionForce, 0.1, 1e-9);
  stepN(world, 49);
  EXPECT_LT(world.rigidBodies()[1].angularVelocity.norm(), 1e-9);
}

TEST(WorldJointDrives, BallJointTwistHeldAtItsLimit) {
  // The ball spun about the joint's axis (z, along the arm) at 3 rad/s against a twist limit
  // of +-0.3 rad: stopped there, overshooting less than 0.5 deg, in both schedules.
  for (const int soft : {0, 4}) {
    SceneDescription scene = emptyScene(soft);
    BodyDescription spinner = ball(Vector3d(0, 0, 1.5), 0.05, 1.0);
    spinner.angularVelocity = Vector3d(0, 0, 3.0);
    scene.bodies.push_back(spinner);
    World world(scene);
    Joint joint = jointAt(JointType::Spherical, world, 0, 1, Vector3d(0, 0, 2));
    joint.twist = {true, -0.3, 0.3};
    world.addJoint(joint);
    double widest = 0.0;
    for (int s = 0; s < 120; ++s) {
      world.step();
      const Joint& j = world.joints()[0];
      const Pose fa = jointFrameA(j, world.rigidBodies()[0]);
      const Pose fb = jointFrameB(j, world.rigidBodies()[1]);
      widest = std::max(widest, jointPositionBetween(JointType::Revolute, fa, fb));
    }
    EXPECT_LT(widest, 0.3 + 0.5 * kPi / 180.0) << soft;
    EXPECT_GT(widest, 0.3 - 0.01) << soft;
  }
}

/// A 1 kg ball of radius 0.1 m centred on a ball joint to the world (frame axes the world's),
/// with `motor`, in no gravity.
std::unique_ptr<World> ballOnItsJoint(const JointMotor& motor, int softSubsteps = 0) {
  SceneDescription scene = emptyScene(softSubsteps);
  scene.gravity = Vector3d::Zero();
  scene.bodies.push_back(ball(Vector3d(0, 0, 2), 0.1, 1.0));
  auto world = std::make_unique<World>(scene);
  Joint joint = jointAt(JointType::Spherical, *world, 0, 1, Vector3d(0, 0, 2));
  joint.motor = motor;
  world->addJoint(joint);
  return world;
}

TEST(WorldJointDrives, BallJointMotorSpinsToItsTarget) {
  // A velocity motor: the ball spins at (0, 2, 1) rad/s within a step of its torque (4e-3 kg m^2
  // times 2.24 rad/s is 9e-3 N m s; 10 N m gives 0.08 N m s a step), to within the free
  // rotation's own tolerance (1.4e-5 rad/s).
  JointMotor motor;
  motor.enabled = true;
  motor.maxForce = 10.0;
  motor.targetSpin[1] = 2.0;
  motor.targetSpin[2] = 1.0;
  const auto world = ballOnItsJoint(motor);
  stepN(*world, 12);
  EXPECT_LT((world->rigidBodies()[1].angularVelocity - Vector3d(0, 2, 1)).norm(), 1e-4);
  EXPECT_LT(world->joints()[0].motorForce, 1e-3);  // spinning on takes nothing
}

TEST(WorldJointDrives, BallJointMotorBelowItsLoadStallsAtItsTorque) {
  // A 1 kg ball 0.5 m out level on a ball joint: the load is 4.905 N m about the world's y;
  // a motor holding the spin at zero with half of it stalls at its torque, and the ball sags.
  SceneDescription scene = emptyScene();
  scene.bodies.push_back(ball(Vector3d(0.5, 0, 2), 0.05, 1.0));
  World world(scene);
  Joint joint = jointAt(JointType::Spherical, world, 0, 1, Vector3d(0, 0, 2));
  const double limit = 0.5 * kG * 0.5;
  joint.motor.enabled = true;
  joint.motor.maxForce = limit;
  world.addJoint(joint);
  world.step();
  EXPECT_NEAR(world.joints()[0].motorForce, limit, 0.01 * limit);
  EXPECT_NEAR(std::abs(world.joints()[0].motorTorque[1]), limit, 0.01 * limit);
  stepN(world, 30);
  EXPECT_LT(world.rigidBodies()[1].position.z(), 2.0 - 0.01);
}

TEST(WorldJointDrives, BallJointServoTurnsToItsTargetOrientation) {
  // A critically damped servo (k = 2 N m/rad on I = 4e-3 kg m^2: 3.6 Hz) turns the ball to
  // the rotation vector (0.3, -0.2, 0.5) and holds it, in both schedules.
  const Vector3d goal(0.3, -0.2, 0.5);
  for (const int soft : {0, 4}) {
    JointMotor motor;
    motor.enabled = true;
    motor.maxForce = 5.0;
    motor.stiffness = 2.0;
    motor.damping = 2.0 * std::sqrt(2.0 * 0.4 * 0.1 * 0.1);
    for (int k = 0; k < 3; ++k) motor.targetTurn[k] = goal[k];
    const auto world = ballOnItsJoint(motor, soft);
    stepN(*world, 360);
    const Eigen::Quaterniond& q = world->rigidBodies()[1].orientation;
    EXPECT_LT((Eigen::AngleAxisd(q).angle() * Eigen::AngleAxisd(q).axis() - goal).norm(), 1e-4)
        << soft;
    EXPECT_LT(world->rigidBodies()[1].angularVelocity.norm(), 1e-4) << soft;
  }
}

TEST(WorldJointDrives, BallJointTargetsSetWhileRunning) {
  // The servo above, its target given after a second at rest with setJointTargets (as a
  // controller does): the ball turns to it and holds it, gains and force limit kept.
  JointMotor motor;
  motor.enabled = true;
  motor.maxForce = 5.0;
  motor.stiffness = 2.0;
  motor.damping = 2.0 * std::sqrt(2.0 * 0.4 * 0.1 * 0.1);
  const auto world = ballOnItsJoint(motor);
  stepN(*world, 120);
  EXPECT_LT(world->rigidBodies()[1].angularVelocity.norm(), 1e-12);
  const Vector3d goal(-0.4, 0.1, 0.2);
  world->setJointTargets(0, goal, Vector3d::Zero());
  EXPECT_EQ(world->joints()[0].motor.stiffness, 2.0);
  EXPECT_EQ(world->joints()[0].motor.maxForce, 5.0);
  stepN(*world, 360);
  const Joint& j = world->joints()[0];
  const auto& bodies = world->rigidBodies();
  EXPECT_LT((jointTurn(j, bodies[0], bodies[1]) - goal).norm(), 1e-4);
  // A spin target with no stiffness: the ball spins at it.
  JointMotor spinning = j.motor;
  spinning.stiffness = 0.0;
  world->setJointMotor(0, spinning);
  world->setJointTargets(0, Vector3d::Zero(), Vector3d(0.0, 0.0, 1.5));
  stepN(*world, 60);
  EXPECT_LT((jointSpin(j, bodies[0], bodies[1]) - Vector3d(0, 0, 1.5)).norm(), 1e-4);
  // Three-valued targets belong to a ball joint; non-finite ones and no such joint are refused.
  EXPECT_THROW(world->setJointTargets(0, 0.5, 0.0), std::invalid_argument);
  EXPECT_THROW(world->setJointTargets(0, Vector3d(std::nan(""), 0, 0), Vector3d::Zero()),
               std::invalid_argument);
  EXPECT_THROW(world->setJointTargets(1, Vector3d::Zero(), Vector3d::Zero()), std::out_of_range);
}

TEST(WorldJointDrives, BadDrivesAreRefused) {
  const auto world = armOn(Vector3d::UnitZ(), Joint{});
  JointMotor motor{true, 0.0, 10.0, 0.0, -1.0, 0.0};
  EXPECT_THROW(world->setJointMotor(0, motor), std::invalid_argument);
  motor.stiffness = 1.0;
  motor.targetPosition = std::nan("");
  EXPECT_THROW(world->setJointMotor(0, motor), std::invalid_argument);
  EXPECT_THROW(world->setJointSpring(0, {std::nan(""), 0.0, 0.0}), std::invalid_argument);
  EXPECT_THROW(world->setJointSpring(0, {1.0, -1.0, 0.0}), std::invalid_argument);
  EXPECT_THROW(world->setJointFriction(0, -0.1), std::invalid_argument);
  EXPECT_THROW(world->setJointTargets(0, std::nan(""), 0.0), std::invalid_argument);
  EXPECT_THROW(world->setJointTargets(1, 0.0, 0.0), std::out_of_range);
  EXPECT_THROW(world->setJointTargets(0, Vector3d::Zero(), Vector3d::Zero()),
               std::invalid_argument);  // a hinge's targets are scalars
  // A ball joint has no free axis to drive; its spring pulls its frames together; its twist
  // lies within [-pi, pi]; a hinge has no twist.
  SceneDescription scene = emptyScene();
  scene.bodies.push_back(ball(Vector3d(0, 0, 1), 0.05, 1.0));
  World balls(scene);
  Joint ballJoint = jointAt(JointType::Spherical, balls, 0, 1, Vector3d(0, 0, 2));
  ballJoint.motor = {true, 1.0, 1.0};
  EXPECT_THROW(balls.addJoint(ballJoint), std::invalid_argument);
  ballJoint.motor = {};
  ballJoint.spring = {1.0, 0.0, 0.5};
  EXPECT_THROW(balls.addJoint(ballJoint), std::invalid_argument);
  ballJoint.spring = {};
  balls.addJoint(ballJoint);
  EXPECT_THROW(balls.setJointTargets(0, 0.0, 0.0), std::invalid_argument);
  EXPECT_THROW(balls.setJointMotor(0, {true, 1.0, 1.0}), std::invalid_argument);
  EXPECT_THROW(balls.setJointSpring(0, {1.0, 0.0, 0.5}), std::invalid_argument);
  EXPECT_THROW(balls.setJointTwist(0, {true, -4.0, 0.0}), std::invalid_argument);
  EXPECT_THROW(balls.setJointTwist(0, {true, 0.5, -0.5}), std::invalid_argument);
  EXPECT_THROW(world->setJointTwist(0, {true, -0.5, 0.5}), std::invalid_argument);
  // A ball joint's motor targets are three-valued; a hinge's one.
  JointMotor turning{true, 0.0, 1.0};
  turning.targetSpin[2] = 1.0;
  EXPECT_THROW(world->setJointMotor(0, turning), std::invalid_argument);
  balls.setJointMotor(0, turning);
  turning.targetTurn[0] = std::nan("");
  EXPECT_THROW(balls.setJointMotor(0, turning), std::invalid_argument);
  balls.setJointFriction(0, 1.0);
  balls.setJointTwist(0, {true, -0.5, 0.5});
  EXPECT_EQ(balls.joints()[0].friction, 1.0);
  // Nothing changed.
  EXPECT_FALSE(world->joints()[0].motor.enabled);
  EXPECT_EQ(world->joints()[0].friction, 0.0);
}

}  // namespace
}  // namespace hb
