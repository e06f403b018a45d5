// A joint's debug glyph: its anchors are the joint frames' origins, a revolute joint's limit arc
// spans lower..upper about A's z and its angle tip sits at the joint's position, a prismatic
// joint's ticks sit at its limits on the axis, a line joins anchors that are apart; and the debug
// draw draws a world's joints only while its switch is on.

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

#include "engine/world.hpp"
#include "render/debug_draw.hpp"
#include "render/joint_draw.hpp"

namespace hb {
namespace {

using Eigen::Quaterniond;
using Eigen::Vector3d;

Quaterniond randomRotation(std::mt19937& rng) {
  std::normal_distribution<double> n;
  return Quaterniond(n(rng), n(rng), n(rng), n(rng)).normalized();
}

Vector3d randomPoint(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  return {u(rng), u(rng), u(rng)};
}

RigidBody bodyAt(const Pose& pose) {
  RigidBody body = RigidBody::fixed();
  body.position = pose.p;
  body.orientation = pose.q;
  return body;
}

/// A joint between two bodies in random poses, with random frames on each.
struct RandomJoint {
  Joint joint;
  RigidBody a, b;
};

RandomJoint randomJoint(JointType type, std::mt19937& rng) {
  RandomJoint r;
  r.joint.type = type;
  r.joint.bodyA = 1;
  r.joint.bodyB = 2;
  r.joint.frameA = {randomRotation(rng), randomPoint(rng)};
  r.joint.frameB = {randomRotation(rng), randomPoint(rng)};
  r.a = bodyAt({randomRotation(rng), randomPoint(rng)});
  r.b = bodyAt({randomRotation(rng), randomPoint(rng)});
  return r;
}

/// Body B posed so that its joint frame is A's turned by `angle` about A's z and moved `slide`
/// along it: a joint that holds, at that position.
void placeB(RandomJoint& r, double angle, double slide) {
  const Pose fa = jointFrameA(r.joint, r.a);
  const Pose turned{Quaterniond(Eigen::AngleAxisd(angle, Vector3d::UnitZ())),
                    Vector3d(0, 0, slide)};
  const Pose body = fa * turned * r.joint.frameB.inverse();
  r.b = bodyAt(body);
}

/// The angle of `point` about A's frame z, from its x towards its y (rad).
double angleAbout(const Pose& frameA, const Vector3d& point) {
  const Vector3d local = frameA.applyInverse(point);
  return std::atan2(local.y(), local.x());
}

TEST(JointDraw, AnchorsAreTheJointFrameOrigins) {
  std::mt19937 rng(3);
  for (const JointType type :
       {JointType::Fixed, JointType::Revolute, JointType::Prismatic, JointType::Spherical}) {
    for (int i = 0; i < 20; ++i) {
      const RandomJoint r = randomJoint(type, rng);
      const JointGlyph glyph = jointGlyph(r.joint, r.a, r.b, 0.1);
      EXPECT_LT((glyph.anchorA - jointFrameA(r.joint, r.a).p).norm(), 1e-12);
      EXPECT_LT((glyph.anchorB - jointFrameB(r.joint, r.b).p).norm(), 1e-12);
      // The drawn marker on A is a cross centred on its anchor (segments whose midpoint it is).
      LineList lines;
      drawJointGlyph(glyph, 0.1, lines);
      int centred = 0;
      const auto& v = lines.vertices();
      for (size_t k = 0; k + 1 < v.size(); k += 2) {
        Vector3d mid;
        for (int c = 0; c < 3; ++c) mid[c] = 0.5 * (v[k].position[c] + v[k + 1].position[c]);
        centred += (mid - glyph.anchorA).norm() < 1e-5;
      }
      EXPECT_GE(centred, 3);
    }
  }
}

TEST(JointDraw, RevoluteArcSpansLowerToUpperAboutTheAxis) {
  std::mt19937 rng(5);
  for (int i = 0; i < 20; ++i) {
    RandomJoint r = randomJoint(JointType::Revolute, rng);
    r.joint.limit = {true, -0.7 - 0.1 * i, 0.4 + 0.1 * i};
    const double position = 0.3 - 0.05 * i;
    placeB(r, position, 0.0);
    const double size = 0.2;
    const JointGlyph glyph = jointGlyph(r.joint, r.a, r.b, size);
    const Pose fa = jointFrameA(r.joint, r.a);
    ASSERT_GE(glyph.limitArc.size(), 3u);
    EXPECT_NEAR(angleAbout(fa, glyph.limitArc.front()), r.joint.limit.lower, 1e-9);
    EXPECT_NEAR(angleAbout(fa, glyph.limitArc.back()), r.joint.limit.upper, 1e-9);
    const Vector3d axis = fa.q * Vector3d::UnitZ();
    double previous = -std::numbers::pi;
    for (const Vector3d& p : glyph.limitArc) {
      EXPECT_NEAR((p - fa.p).norm(), glyph.radius, 1e-9);
      EXPECT_NEAR((p - fa.p).dot(axis), 0.0, 1e-9);
      const double angle = angleAbout(fa, p);
      EXPECT_GT(angle, previous);  // the span stays within (-pi, pi) here: no wrap
      previous = angle;
    }
    EXPECT_NEAR(jointPosition(r.joint, r.a, r.b), position, 1e-9);
    EXPECT_NEAR(angleAbout(fa, glyph.angleTip), position, 1e-9);
    EXPECT_NEAR((glyph.axisTo - glyph.axisFrom).normalized().dot(axis), 1.0, 1e-12);
    EXPECT_NEAR((glyph.axisTo - glyph.axisFrom).norm(), 2.0 * size, 1e-12);
    EXPECT_FALSE(glyph.gap);  // the joint holds
  }
}

TEST(JointDraw, RevoluteWithoutLimitsHasNoArcAndAServoShowsItsTarget) {
  std::mt19937 rng(7);
  RandomJoint r = randomJoint(JointType::Revolute, rng);
  r.joint.motor = {true, 0.0, 10.0, 0.9, 40.0, 2.0};
  placeB(r, -0.2, 0.0);
  const JointGlyph glyph = jointGlyph(r.joint, r.a, r.b, 0.1);
  EXPECT_TRUE(glyph.limitArc.empty());
  ASSERT_TRUE(glyph.target);
  EXPECT_NEAR(angleAbout(jointFrameA(r.joint, r.a), *glyph.target), 0.9, 1e-9);
  r.joint.motor = {true, 1.0, 10.0};  // a velocity motor has no position to show
  EXPECT_FALSE(jointGlyph(r.joint, r.a, r.b, 0.1).target);
}

TEST(JointDraw, SphericalConeRimLiesAtItsHalfAngleAboutTheAxis) {
  std::mt19937 rng(9);
  for (int i = 0; i < 20; ++i) {
    RandomJoint r = randomJoint(JointType::Spherical, rng);
    EXPECT_TRUE(jointGlyph(r.joint, r.a, r.b, 0.1).coneRim.empty());  // no limit, no cone
    r.joint.limit = {true, 0.0, 0.1 + 0.1 * i};
    const double size = 0.3;
    const JointGlyph glyph = jointGlyph(r.joint, r.a, r.b, size);
    const Pose fa = jointFrameA(r.joint, r.a);
    const Vector3d axis = fa.q * Vector3d::UnitZ();
    ASSERT_GE(glyph.coneRim.size(), 8u);
    EXPECT_LT((glyph.coneRim.front() - glyph.coneRim.back()).norm(), 1e-12);  // closed
    for (const Vector3d& p : glyph.coneRim) {
      EXPECT_NEAR((p - fa.p).norm(), size, 1e-12);
      EXPECT_NEAR(std::acos(std::clamp((p - fa.p).normalized().dot(axis), -1.0, 1.0)),
                  r.joint.limit.upper, 1e-9);
    }
    // The tip shows B's frame z from B's anchor.
    const Pose fb = jointFrameB(r.joint, r.b);
    EXPECT_LT((glyph.angleTip - fb.p - size * (fb.q * Vector3d::UnitZ())).norm(), 1e-12);
  }
}

TEST(JointDraw, SphericalTwistArcSpansItsLimitsAndShowsTheTwist) {
  std::mt19937 rng(10);
  for (int i = 0; i < 20; ++i) {
    RandomJoint r = randomJoint(JointType::Spherical, rng);
    EXPECT_TRUE(jointGlyph(r.joint, r.a, r.b, 0.1).twistArc.empty());  // no twist limit
    r.joint.twist = {true, -0.2 - 0.05 * i, 0.3 + 0.05 * i};
    const double twist = -0.5 + 0.05 * i;
    placeB(r, twist, 0.0);
    const double size = 0.4;
    const JointGlyph glyph = jointGlyph(r.joint, r.a, r.b, size);
    const Pose fa = jointFrameA(r.joint, r.a);
    ASSERT_GE(glyph.twistArc.size(), 3u);
    EXPECT_NEAR(angleAbout(fa, glyph.twistArc.front()), r.joint.twist.lower, 1e-9);
    EXPECT_NEAR(angleAbout(fa, glyph.twistArc.back()), r.joint.twist.upper, 1e-9);
    for (const Vector3d& p : glyph.twistArc) EXPECT_NEAR((p - fa.p).norm(), 0.5 * size, 1e-12);
    EXPECT_NEAR(angleAbout(fa, glyph.twistTip), twist, 1e-9);
  }
}

TEST(JointDraw, PrismaticTicksSitAtItsLimitsOnTheAxis) {
  std::mt19937 rng(11);
  RandomJoint r = randomJoint(JointType::Prismatic, rng);
  r.joint.limit = {true, -0.25, 0.4};
  r.joint.motor = {true, 0.0, 50.0, 0.1, 500.0, 20.0};
  placeB(r, 0.0, 0.3);
  const double size = 0.1;
  const JointGlyph glyph = jointGlyph(r.joint, r.a, r.b, size);
  const Pose fa = jointFrameA(r.joint, r.a);
  const Vector3d axis = fa.q * Vector3d::UnitZ();
  ASSERT_EQ(glyph.limitTicks.size(), 2u);
  EXPECT_LT((glyph.limitTicks[0] - (fa.p - 0.25 * axis)).norm(), 1e-12);
  EXPECT_LT((glyph.limitTicks[1] - (fa.p + 0.4 * axis)).norm(), 1e-12);
  ASSERT_TRUE(glyph.target);
  EXPECT_LT((*glyph.target - (fa.p + 0.1 * axis)).norm(), 1e-12);
  // The axis runs past both limits, and the slide to B's anchor is no error.
  EXPECT_LT((glyph.axisFrom - (fa.p - (0.25 + 0.25 * size) * axis)).norm(), 1e-12);
  EXPECT_LT((glyph.axisTo - (fa.p + (0.4 + 0.25 * size) * axis)).norm(), 1e-12);
  EXPECT_FALSE(glyph.gap);
  // Off the axis by 5 mm: the gap runs from the axis to B's anchor.
  const Vector3d across = fa.q * Vector3d::UnitX();
  r.b.position += 0.005 * across;
  const JointGlyph off = jointGlyph(r.joint, r.a, r.b, size);
  ASSERT_TRUE(off.gap);
  EXPECT_LT((off.gap->first - (fa.p + 0.3 * axis)).norm(), 1e-9);
  EXPECT_LT((off.gap->second - off.anchorB).norm(), 1e-12);
  EXPECT_NEAR((off.gap->second - off.gap->first).norm(), 0.005, 1e-9);
}

TEST(JointDraw, AnchorsApartAreJoinedByALine) {
  std::mt19937 rng(13);
  RandomJoint r = randomJoint(JointType::Spherical, rng);
  placeB(r, 0.0, 0.0);
  EXPECT_FALSE(jointGlyph(r.joint, r.a, r.b, 0.1).gap);
  r.b.position += Vector3d(0.0, 0.0, 0.01);
  const JointGlyph glyph = jointGlyph(r.joint, r.a, r.b, 0.1);
  ASSERT_TRUE(glyph.gap);
  EXPECT_LT((glyph.gap->first - glyph.anchorA).norm(), 1e-12);
  EXPECT_LT((glyph.gap->second - glyph.anchorB).norm(), 1e-12);
}

TEST(JointDraw, TheDebugDrawDrawsTheWorldsJointsWhileSwitchedOn) {
  SceneDescription scene;
  BodyDescription arm;
  arm.shape.shape = Shape::box({0.2, 0.02, 0.02});
  arm.pose.p = Vector3d(0.2, 0.0, 1.0);
  scene.bodies.push_back(arm);
  World world(scene);
  JointDescription hinge;
  hinge.type = JointType::Revolute;
  hinge.bodyA = 0;
  hinge.bodyB = 1;
  hinge.anchor = Vector3d(0.0, 0.0, 1.0);
  hinge.axis = Vector3d(0.0, -1.0, 0.0);
  hinge.limit = {true, -0.5, 0.5};
  world.addJoint(hinge);
  DebugDraw draw;
  DebugDrawOptions options;
  LineList lines;
  draw.build(world, options, lines);
  EXPECT_FALSE(lines.empty());
  options.joints = false;
  lines.clear();
  draw.build(world, options, lines);
  EXPECT_TRUE(lines.empty());
}

}  // namespace
}  // namespace hb
