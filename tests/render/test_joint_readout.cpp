// The joints panel's numbers and sliders: positions in deg or mm, the slider of a servo within
// its limits (else a fixed range widened to hold its target), a velocity motor's slider, a ball
// joint's three, no slider without a motor, and the targets a moved slider sends.

#include <gtest/gtest.h>

#include <numbers>

#include "render/joint_readout.hpp"

namespace hb {
namespace {

constexpr double kDeg = 180.0 / std::numbers::pi;

Joint jointOf(JointType type) {
  Joint joint;
  joint.type = type;
  joint.bodyA = 0;
  joint.bodyB = 1;
  return joint;
}

RigidBody turnedAboutZ(double angle) {
  RigidBody body = RigidBody::fixed();
  body.orientation = Eigen::Quaterniond(Eigen::AngleAxisd(angle, Eigen::Vector3d::UnitZ()));
  body.angularVelocity = Eigen::Vector3d(0.0, 0.0, 0.5);
  return body;
}

TEST(JointReadout, RevoluteInDegreesAndPrismaticInMillimetres) {
  Joint hinge = jointOf(JointType::Revolute);
  hinge.motor = {true, 0.5, 10.0};
  hinge.motorForce = 2.5;
  const RigidBody world = RigidBody::fixed();
  const JointReadout r = jointReadout(hinge, world, turnedAboutZ(0.3));
  EXPECT_NEAR(r.position, 0.3 * kDeg, 1e-9);
  EXPECT_NEAR(r.velocity, 0.5 * kDeg, 1e-9);
  EXPECT_EQ(r.effort, 2.5);
  EXPECT_NEAR(r.errorMm, 0.0, 1e-9);
  EXPECT_STREQ(jointPositionUnit(JointType::Revolute), "deg");
  EXPECT_STREQ(jointEffortUnit(JointType::Revolute), "N m");

  Joint slide = jointOf(JointType::Prismatic);
  RigidBody moved = RigidBody::fixed();
  moved.position = Eigen::Vector3d(0.0, 0.002, 0.125);
  const JointReadout s = jointReadout(slide, world, moved);
  EXPECT_NEAR(s.position, 125.0, 1e-9);
  EXPECT_NEAR(s.errorMm, 2.0, 1e-9);  // off the axis by 2 mm
  EXPECT_STREQ(jointVelocityUnit(JointType::Prismatic), "mm/s");
  EXPECT_STREQ(jointEffortUnit(JointType::Prismatic), "N");

  // A ball joint: the angle of its turn and the rate of its spin.
  Joint ballJoint = jointOf(JointType::Spherical);
  ballJoint.motorForce = 0.75;
  const JointReadout ball = jointReadout(ballJoint, world, turnedAboutZ(0.3));
  EXPECT_NEAR(ball.position, 0.3 * kDeg, 1e-9);
  EXPECT_NEAR(ball.velocity, 0.5 * kDeg, 1e-9);
  EXPECT_EQ(ball.effort, 0.75);
  EXPECT_STREQ(jointPositionUnit(JointType::Spherical), "deg");
  EXPECT_STREQ(jointEffortUnit(JointType::Spherical), "N m");
  EXPECT_STREQ(jointPositionUnit(JointType::Fixed), "");
}

TEST(JointReadout, AServoSlidesItsTargetPositionWithinItsLimits) {
  Joint hinge = jointOf(JointType::Revolute);
  hinge.motor = {true, 0.0, 20.0, 0.6, 40.0, 2.0};
  hinge.limit = {true, -1.0, 1.2};
  JointTargetSlider slider = jointTargetSlider(hinge);
  EXPECT_EQ(slider.kind, JointTargetSlider::Kind::Position);
  EXPECT_NEAR(slider.values.x(), 0.6 * kDeg, 1e-9);
  EXPECT_EQ(slider.components, 1);
  EXPECT_NEAR(slider.min, -1.0 * kDeg, 1e-9);
  EXPECT_NEAR(slider.max, 1.2 * kDeg, 1e-9);
  // Without limits: +-180 deg, widened to hold a target beyond.
  hinge.limit.enabled = false;
  slider = jointTargetSlider(hinge);
  EXPECT_EQ(slider.min, -180.0);
  EXPECT_EQ(slider.max, 180.0);
  hinge.motor.targetPosition = 4.0;
  slider = jointTargetSlider(hinge);
  EXPECT_NEAR(slider.max, 4.0 * kDeg, 1e-9);
  EXPECT_NEAR(slider.min, -4.0 * kDeg, 1e-9);
  // Moved to 30 deg: the position target in rad, the velocity target kept.
  hinge.motor.targetVelocity = 0.25;
  const JointTargets t = jointTargetsAt(hinge, slider.kind, Eigen::Vector3d(30.0, 0, 0));
  EXPECT_NEAR(t.position, std::numbers::pi / 6.0, 1e-12);
  EXPECT_EQ(t.velocity, 0.25);
}

TEST(JointReadout, AVelocityMotorSlidesItsTargetVelocity) {
  Joint slide = jointOf(JointType::Prismatic);
  slide.motor = {true, 0.2, 50.0};
  slide.motor.targetPosition = 0.05;
  const JointTargetSlider slider = jointTargetSlider(slide);
  EXPECT_EQ(slider.kind, JointTargetSlider::Kind::Velocity);
  EXPECT_NEAR(slider.values.x(), 200.0, 1e-9);
  EXPECT_EQ(slider.min, -1000.0);
  EXPECT_EQ(slider.max, 1000.0);
  const JointTargets t = jointTargetsAt(slide, slider.kind, Eigen::Vector3d(-300.0, 0, 0));
  EXPECT_NEAR(t.velocity, -0.3, 1e-12);
  EXPECT_EQ(t.position, 0.05);
}

TEST(JointReadout, NoSliderWithoutAMotorOrAFreeAxis) {
  Joint hinge = jointOf(JointType::Revolute);
  EXPECT_EQ(jointTargetSlider(hinge).kind, JointTargetSlider::Kind::None);  // maxForce 0
  // A motor switched off but with a force still gets one: the slider turns it on.
  hinge.motor = {false, 0.0, 5.0};
  EXPECT_EQ(jointTargetSlider(hinge).kind, JointTargetSlider::Kind::Velocity);
  Joint fixed = jointOf(JointType::Fixed);
  fixed.motor = {true, 0.0, 5.0};
  EXPECT_EQ(jointTargetSlider(fixed).kind, JointTargetSlider::Kind::None);
  Joint ball = jointOf(JointType::Spherical);
  EXPECT_EQ(jointTargetSlider(ball).kind, JointTargetSlider::Kind::None);
}

TEST(JointReadout, ABallJointSlidesItsThreeValuedTargets) {
  Joint ball = jointOf(JointType::Spherical);
  ball.motor = {true, 0.0, 5.0, 0.0, 2.0, 0.1};  // a servo
  ball.motor.targetTurn[1] = 0.2;
  ball.motor.targetSpin[2] = 0.4;
  JointTargetSlider slider = jointTargetSlider(ball);
  EXPECT_EQ(slider.kind, JointTargetSlider::Kind::Position);
  EXPECT_EQ(slider.components, 3);
  EXPECT_NEAR(slider.values.y(), 0.2 * kDeg, 1e-9);
  EXPECT_EQ(slider.min, -180.0);
  // Within its cone of 0.5 rad, each component.
  ball.limit = {true, 0.0, 0.5};
  slider = jointTargetSlider(ball);
  EXPECT_NEAR(slider.max, 0.5 * kDeg, 1e-9);
  EXPECT_NEAR(slider.min, -0.5 * kDeg, 1e-9);
  // Moved: the turn target in rad, the spin target kept.
  const JointTargets t = jointTargetsAt(ball, slider.kind, Eigen::Vector3d(10.0, -20.0, 0.0));
  EXPECT_LT((t.turn - Eigen::Vector3d(10.0, -20.0, 0.0) / kDeg).norm(), 1e-12);
  EXPECT_EQ(t.spin, Eigen::Vector3d(0, 0, 0.4));
  // A velocity motor slides its spin.
  ball.motor.stiffness = ball.motor.damping = 0.0;
  slider = jointTargetSlider(ball);
  EXPECT_EQ(slider.kind, JointTargetSlider::Kind::Velocity);
  EXPECT_NEAR(slider.values.z(), 0.4 * kDeg, 1e-9);
  EXPECT_EQ(slider.max, 360.0);
  const JointTargets v = jointTargetsAt(ball, slider.kind, Eigen::Vector3d(0.0, 90.0, 0.0));
  EXPECT_LT((v.spin - Eigen::Vector3d(0.0, 0.5 * std::numbers::pi, 0.0)).norm(), 1e-12);
  EXPECT_EQ(v.turn, Eigen::Vector3d(0, 0.2, 0));
}

}  // namespace
}  // namespace hb
