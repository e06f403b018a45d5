#include "engine/input_file.hpp"
#include "engine/scene.hpp"
#include "engine/world.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <numbers>
#include <sstream>
#include <string>

#include "engine/json_read.hpp"

#include "temp_dir_test.hpp"

namespace hb {
namespace {

namespace fs = std::filesystem;

const fs::path kSourceDir = fs::path(HB_SOURCE_DIR);
const fs::path kScenesDir = kSourceDir / "assets" / "scenes";
const fs::path kYcbDir = kSourceDir / "assets" / "ycb";

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

/// The JsonError message of parsing `text` from the scenes folder (fails the test if none).
std::string errorOf(const std::string& text) {
  try {
    parseScene(text, kScenesDir);
  } catch (const JsonError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no JsonError for: " << text;
  return {};
}

#define EXPECT_SCENE_ERROR(text, ...)                                                     \
  do {                                                                                    \
    const std::string message_ = errorOf(text);                                           \
    for (const std::string& part_ : std::initializer_list<std::string>{__VA_ARGS__}) {    \
      EXPECT_TRUE(contains(message_, part_)) << "'" << part_ << "' not in: " << message_; \
    }                                                                                     \
  } while (false)

/// A fresh directory per test, removed afterwards.
class SceneFiles : public test::TempDirTest {
 protected:
  SceneFiles() : TempDirTest("hb_scene_") {}

  std::string loadError(const fs::path& file) {
    try {
      loadScene(file);
    } catch (const JsonError& e) {
      const std::string message = e.what();
      EXPECT_EQ(message.rfind(file.string() + ": ", 0), 0u) << message;
      return message;
    }
    ADD_FAILURE() << "no JsonError for " << file;
    return {};
  }
};

// --- the shipped scenes ---

TEST(Scene, ShippedFunnelLoads) {
  const SceneDescription scene = loadScene(kScenesDir / "funnel.json");
  EXPECT_EQ(scene.name, "funnel");
  EXPECT_TRUE(fs::equivalent(scene.assetDir, kYcbDir));
  ASSERT_EQ(scene.statics.size(), 6u);  // ground, funnel, four walls around the ground
  EXPECT_EQ(scene.statics[0].kind, StaticDescription::Kind::Ground);
  EXPECT_EQ(scene.statics[1].kind, StaticDescription::Kind::Funnel);
  for (int i = 2; i < 6; ++i) EXPECT_EQ(scene.statics[i].kind, StaticDescription::Kind::Shape);
  ASSERT_TRUE(scene.spawner.has_value());
  EXPECT_EQ(scene.spawner->count, 100);
  EXPECT_TRUE(scene.spawner->assets.empty());
  // Drops start above the funnel's rim.
  const FunnelDescription& funnel = scene.statics[1].funnel;
  EXPECT_GT(scene.spawner->center.z(), funnel.bottomZ + funnel.height);
  EXPECT_LT(scene.spawner->radius, funnel.topRadius);
  EXPECT_EQ(scene.solver.gjkVariant, GjkVariant::Nesterov);
  EXPECT_EQ(scene.solver.warmStart, WarmStart::TransformedPrevious);
  EXPECT_TRUE(scene.solver.sleeping);
  EXPECT_DOUBLE_EQ(scene.dt, 1.0 / 120.0);
}

TEST(Scene, ShippedFunnelPairLoads) {
  const SceneDescription scene = loadScene(kScenesDir / "funnel-pair.json");
  EXPECT_EQ(scene.name, "funnel-pair");
  ASSERT_EQ(scene.statics.size(), 2u);
  EXPECT_EQ(scene.statics[1].kind, StaticDescription::Kind::Funnel);
  ASSERT_TRUE(scene.spawner.has_value());
  EXPECT_EQ(scene.spawner->count, 2);
  EXPECT_GT(scene.spawner->maxLinearSpeed, 0.0);
  EXPECT_GT(scene.spawner->maxAngularSpeed, 0.0);
  EXPECT_FALSE(scene.solver.sleeping);
}

TEST(Scene, ShippedFunnelPileHasTheFunnelsStaticsAndAHundredBodies) {
  const SceneDescription pile = loadScene(kScenesDir / "funnel-pile.json");
  const SceneDescription funnel = loadScene(kScenesDir / "funnel.json");
  EXPECT_EQ(pile.name, "funnel-pile");
  EXPECT_FALSE(pile.spawner.has_value());
  ASSERT_EQ(pile.statics.size(), funnel.statics.size());
  for (size_t i = 0; i < pile.statics.size(); ++i) {
    EXPECT_EQ(pile.statics[i].kind, funnel.statics[i].kind) << i;
    EXPECT_EQ(pile.statics[i].pose.p, funnel.statics[i].pose.p) << i;
  }
  EXPECT_EQ(pile.statics[1].funnel.topRadius, funnel.statics[1].funnel.topRadius);
  EXPECT_EQ(pile.boundsMin, funnel.boundsMin);
  EXPECT_EQ(pile.boundsMax, funnel.boundsMax);
  EXPECT_EQ(pile.solver.gjkVariant, funnel.solver.gjkVariant);
  EXPECT_EQ(pile.solver.sleeping, funnel.solver.sleeping);
  ASSERT_EQ(pile.bodies.size(), 100u);
  for (const BodyDescription& body : pile.bodies) {
    EXPECT_FALSE(body.shape.asset.empty());
    EXPECT_EQ(body.material.friction, funnel.spawner->material.friction);
    EXPECT_EQ(body.material.restitution, funnel.spawner->material.restitution);
    EXPECT_EQ(body.linearVelocity, Eigen::Vector3d::Zero());
  }
}

TEST(Scene, ShippedChainHangsFromTheWorldByItsJoints) {
  const SceneDescription scene = loadScene(kScenesDir / "chain.json");
  ASSERT_EQ(scene.joints.size(), 8u);
  EXPECT_EQ(scene.joints[0].bodyA, 0);  // the world
  EXPECT_EQ(scene.joints[0].bodyB, 1);
  EXPECT_EQ(scene.joints[7].bodyA, 7);
  World world(scene);
  ASSERT_EQ(world.joints().size(), 8u);
  for (const Joint& j : world.joints()) {
    EXPECT_LT(jointError(j, world.rigidBodies()[j.bodyA], world.rigidBodies()[j.bodyB]), 1e-12);
  }
  for (int s = 0; s < 240; ++s) world.step();  // swung down into the stack
  for (const Joint& j : world.joints()) {
    EXPECT_LT(jointError(j, world.rigidBodies()[j.bodyA], world.rigidBodies()[j.bodyB]), 5e-3);
  }
  EXPECT_EQ(world.escapedBodies(), 0);
}

TEST(Scene, ShippedPendulumPileSwingsThroughThePile) {
  // A 50 kg ball on a 1.75 m hinge released level over the funnel as 100 objects fall in: it
  // ploughs through the pile's top, losing height to it, and its joint holds.
  World world(loadScene(kScenesDir / "pendulum-pile.json"));
  const int pendulum = world.findJoint("pendulum");
  ASSERT_GE(pendulum, 0);
  const Joint& j = world.joints()[pendulum];
  const RigidBody& bob = world.rigidBodies()[j.bodyB];
  const double released = bob.position.z();
  double worst = 0.0, highest = -1.0;
  for (int s = 0; s < 360; ++s) {
    world.step();
    worst = std::max(worst, jointError(j, world.rigidBodies()[0], bob));
    if (s > 120) highest = std::max(highest, bob.position.z());  // after its first pass
  }
  EXPECT_LT(worst, 1e-4);
  // The pile took some of its energy: how much depends on which objects the ball meets, which
  // the smallest change of the contacts alters (5 to 50 cm of height lost over ten variants of
  // the manifold reuse's tolerance); without the pile it would swing back to its release height.
  EXPECT_LT(highest, released - 0.03);
  EXPECT_GT(highest, 1.0);  // and it still swings
  EXPECT_EQ(world.escapedBodies(), 0);
  EXPECT_FALSE(world.nonFinite());
}

TEST(Scene, BadJointsNameTheirKey) {
  const std::string body = R"({"shape": {"type": "sphere", "radius": 0.1}})";
  const auto scene = [&](const std::string& joint, const std::string& solver = "{}") {
    return R"({"bodies": [)" + body + "," + body + R"(], "solver": )" + solver +
           R"(, "joints": [)" + joint + "]}";
  };
  EXPECT_SCENE_ERROR(scene(R"({"type": "hinge", "bodies": [0, 1], "anchor": [0, 0, 0]})"),
                     "joints[0].type", "unknown joint type 'hinge'");
  EXPECT_SCENE_ERROR(scene(R"({"type": "fixed", "bodies": [0, 2], "anchor": [0, 0, 0]})"),
                     "joints[0].bodies[1]");
  EXPECT_SCENE_ERROR(scene(R"({"type": "fixed", "bodies": [1, 1], "anchor": [0, 0, 0]})"),
                     "two different bodies");
  EXPECT_SCENE_ERROR(scene(R"({"type": "fixed", "bodies": ["world", 1]})"), "joints[0].anchor");
  EXPECT_SCENE_ERROR(
      scene(R"({"type": "spherical", "bodies": [0, 1], "anchor": [0, 0, 0], "motor": {}})"),
      "joints[0].motor.max_force", "missing");
  EXPECT_SCENE_ERROR(scene(R"({"type": "spherical", "bodies": [0, 1], "anchor": [0, 0, 0],
                               "motor": {"max_force": 1, "velocity": 2}})"),
                     "joints[0].motor.velocity", "three numbers");
  EXPECT_SCENE_ERROR(scene(R"({"type": "revolute", "bodies": [0, 1], "anchor": [0, 0, 0],
                               "motor": {"max_force": 1, "velocity": [0, 0, 2]}})"),
                     "joints[0].motor.velocity", "expected a number");
  EXPECT_SCENE_ERROR(
      scene(R"({"type": "fixed", "bodies": [0, 1], "anchor": [0, 0, 0], "spring": {}})"),
      "joints[0].spring", "only a revolute, prismatic or spherical joint");
  EXPECT_SCENE_ERROR(scene(R"({"type": "revolute", "bodies": [0, 1], "anchor": [0, 0, 0],
                               "twist": {"lower": -1, "upper": 1}})"),
                     "joints[0].twist", "only a spherical joint");
  EXPECT_SCENE_ERROR(scene(R"({"type": "spherical", "bodies": [0, 1], "anchor": [0, 0, 0],
                               "twist": {"lower": -4, "upper": 1}})"),
                     "joints[0].twist", "[-pi, pi]");
  EXPECT_SCENE_ERROR(scene(R"({"type": "spherical", "bodies": [0, 1], "anchor": [0, 0, 0],
                               "spring": {"stiffness": 1, "rest": 0.5}})"),
                     "joints[0].spring.rest", "no rest position");
  // A spherical joint's limit is a cone about its axis: lower 0, upper in (0, pi).
  EXPECT_SCENE_ERROR(scene(R"({"type": "spherical", "bodies": [0, 1], "anchor": [0, 0, 0],
                               "limit": {"lower": -0.1, "upper": 0.5}})"),
                     "joints[0].limit", "a cone");
  EXPECT_EQ(parseScene(scene(R"({"type": "spherical", "bodies": [0, 1], "anchor": [0, 0, 0],
                                 "limit": {"lower": 0, "upper": 0.5}})"),
                       kScenesDir)
                .joints[0]
                .limit.upper,
            0.5);
  EXPECT_SCENE_ERROR(scene(R"({"type": "revolute", "bodies": [0, 1], "anchor": [0, 0, 0],
                               "axis": [0, 0, 0]})"),
                     "joints[0].axis", "zero");
  EXPECT_SCENE_ERROR(scene(R"({"type": "revolute", "bodies": [0, 1], "anchor": [0, 0, 0],
                               "limit": {"lower": 1, "upper": -1}})"),
                     "joints[0].limit", "lower must not exceed upper");
  EXPECT_SCENE_ERROR(scene(R"({"type": "revolute", "bodies": [0, 1], "anchor": [0, 0, 0],
                               "motor": {"velocity": 1, "max_force": -2}})"),
                     "joints[0].motor.max_force");
  EXPECT_SCENE_ERROR(scene(R"({"type": "fixed", "bodies": [0, 1], "anchor": [0, 0, 0], "x": 1})"),
                     "joints[0]", "x");
  EXPECT_SCENE_ERROR(scene(R"({"type": "revolute", "bodies": [0, 1], "anchor": [0, 0, 0],
                               "motor": {"max_force": 1, "position": 1}})"),
                     "joints[0].motor.position", "stiffness");
  EXPECT_SCENE_ERROR(scene(R"({"type": "revolute", "bodies": [0, 1], "anchor": [0, 0, 0],
                               "motor": {"velocity": 1}})"),
                     "joints[0].motor.max_force", "missing");
  EXPECT_SCENE_ERROR(scene(R"({"type": "prismatic", "bodies": [0, 1], "anchor": [0, 0, 0],
                               "spring": {"stiffness": -1}})"),
                     "joints[0].spring.stiffness");
  EXPECT_SCENE_ERROR(scene(R"({"type": "prismatic", "bodies": [0, 1], "anchor": [0, 0, 0],
                               "spring": {"length": 1}})"),
                     "joints[0].spring", "length");
  EXPECT_SCENE_ERROR(scene(R"({"type": "revolute", "bodies": [0, 1], "anchor": [0, 0, 0],
                               "friction": -1})"),
                     "joints[0].friction");
}

TEST(Scene, JointDrivesAreRead) {
  const std::string body = R"({"shape": {"type": "sphere", "radius": 0.1}})";
  const SceneDescription scene = parseScene(R"({"bodies": [)" + body + R"(], "joints": [
      {"type": "revolute", "bodies": ["world", 0], "anchor": [0, 0, 1],
       "motor": {"max_force": 5, "position": 0.5, "velocity": 0.1, "stiffness": 40,
                 "damping": 3},
       "spring": {"stiffness": 2, "damping": 0.5, "rest": -0.25}, "friction": 0.2}]})",
                                            kScenesDir);
  ASSERT_EQ(scene.joints.size(), 1u);
  const JointDescription& j = scene.joints[0];
  EXPECT_TRUE(j.motor.enabled);
  EXPECT_TRUE(j.motor.servo());
  EXPECT_STREQ(toString(j.type), "revolute");
  EXPECT_EQ(j.motor.maxForce, 5.0);
  EXPECT_EQ(j.motor.targetPosition, 0.5);
  EXPECT_EQ(j.motor.targetVelocity, 0.1);
  EXPECT_EQ(j.motor.stiffness, 40.0);
  EXPECT_EQ(j.motor.damping, 3.0);
  EXPECT_EQ(j.spring.stiffness, 2.0);
  EXPECT_EQ(j.spring.damping, 0.5);
  EXPECT_EQ(j.spring.restPosition, -0.25);
  EXPECT_EQ(j.friction, 0.2);
  // A ball joint's twist limit, spring and friction.
  const SceneDescription ball = parseScene(R"({"bodies": [)" + body + R"(], "joints": [
      {"type": "spherical", "bodies": ["world", 0], "anchor": [0, 0, 1],
       "limit": {"lower": 0, "upper": 0.5}, "twist": {"lower": -0.25, "upper": 0.75},
       "spring": {"stiffness": 3, "damping": 0.5}, "friction": 0.1,
       "motor": {"max_force": 2, "position": [0.1, 0.2, 0.3], "velocity": [0, 0, 1],
                 "stiffness": 4}}]})",
                                           kScenesDir);
  const JointDescription& b = ball.joints[0];
  EXPECT_TRUE(b.twist.enabled);
  EXPECT_EQ(b.twist.lower, -0.25);
  EXPECT_EQ(b.twist.upper, 0.75);
  EXPECT_EQ(b.spring.stiffness, 3.0);
  EXPECT_EQ(b.friction, 0.1);
  EXPECT_EQ(b.motor.targetTurn[1], 0.2);
  EXPECT_EQ(b.motor.targetSpin[2], 1.0);
  EXPECT_EQ(b.motor.targetPosition, 0.0);
  World world(ball);
  EXPECT_EQ(world.joints()[0].twist.upper, 0.75);
  EXPECT_EQ(world.joints()[0].spring.damping, 0.5);
}

TEST(Scene, BallJointTargetsFollowTheirSchedule) {
  using Eigen::Vector3d;
  // A servoed ball joint scheduled from rest to 1 rad about z at 1 s, then on to 1 rad about x
  // at 2 s: between keys the target turns at a constant rate about one axis, the spin.
  const std::string text = R"({"gravity": [0, 0, 0], "bodies": [
      {"shape": {"type": "sphere", "radius": 0.1}, "pose": {"p": [0, 0, 1]}, "mass": 1}],
      "joints": [{"name": "wrist", "type": "spherical", "bodies": ["world", 0],
                  "anchor": [0, 0, 1], "motor": {"max_force": 50, "stiffness": 40,
                                                 "damping": 0.8}}],
      "joint_targets": [{"joint": "wrist", "keys": [[0, [0, 0, 0]], [1, [0, 0, 1]],
                                                    [2, [1, 0, 0]]]}]})";
  const SceneDescription scene = parseScene(text, kScenesDir);
  ASSERT_EQ(scene.jointTargets.size(), 1u);
  const JointTargetSchedule& schedule = scene.jointTargets[0];
  EXPECT_TRUE(schedule.keys.empty());
  const auto [halfway, spin] = schedule.turnAt(0.5);
  EXPECT_LT((halfway - Vector3d(0, 0, 0.5)).norm(), 1e-12);
  EXPECT_LT((spin - Vector3d(0, 0, 1)).norm(), 1e-12);
  // From the second key to the third: at their ends the keys' orientations, in between a
  // rotation about one axis at the rate given as the spin (a finite difference of orientations).
  const auto orientation = [](const Vector3d& turn) {
    return Eigen::Quaterniond(Eigen::AngleAxisd(turn.norm(), turn.normalized()));
  };
  EXPECT_LT((schedule.turnAt(1.0 + 1e-12).first - Vector3d(0, 0, 1)).norm(), 1e-9);
  EXPECT_LT((schedule.turnAt(2.0 - 1e-12).first - Vector3d(1, 0, 0)).norm(), 1e-9);
  const double t = 1.3, h = 1e-6;
  const Eigen::Quaterniond dq = orientation(schedule.turnAt(t + h).first) *
                                orientation(schedule.turnAt(t - h).first).conjugate();
  const Eigen::AngleAxisd rate(dq);
  EXPECT_LT((rate.angle() * rate.axis() / (2 * h) - schedule.turnAt(t).second).norm(), 1e-6);
  EXPECT_EQ(schedule.turnAt(3.0).second, Vector3d::Zero());
  // The world's servo follows it: its target set before each step, the ball close behind.
  World world(scene);
  while (world.time() < 2.5 - 1e-9) world.step();
  const Joint& j = world.joints()[0];
  EXPECT_EQ(Eigen::Map<const Vector3d>(j.motor.targetTurn), Vector3d(1, 0, 0));
  EXPECT_LT(
      (jointTurn(j, world.rigidBodies()[0], world.rigidBodies()[1]) - Vector3d(1, 0, 0)).norm(),
      0.02);
  // Its keys are three numbers each.
  std::string scalar = text, flat = text;
  scalar.replace(scalar.find("[1, [0, 0, 1]]"), 14, "[1, 0.5]");
  EXPECT_SCENE_ERROR(scalar, "joint_targets[0].keys[1][1]");
  flat.replace(flat.find("[1, [0, 0, 1]]"), 14, "[1, 0, 0, 1]");
  EXPECT_SCENE_ERROR(flat, "joint_targets[0].keys[1]", "[time (s), [turn x, y, z] (rad)]");
}

TEST(Scene, ShippedStackLoads) {
  const SceneDescription scene = loadScene(kScenesDir / "stack.json");
  ASSERT_EQ(scene.statics.size(), 1u);
  EXPECT_EQ(scene.statics[0].kind, StaticDescription::Kind::Ground);
  ASSERT_EQ(scene.bodies.size(), 5u);
  double top = scene.statics[0].groundHeight;
  for (const BodyDescription& body : scene.bodies) {
    ASSERT_TRUE(body.shape.shape.has_value());
    ASSERT_EQ(body.shape.shape->type(), ShapeType::Box);
    const double half = body.shape.shape->halfExtents().z();
    // Each box rests on the one below (or the ground), without overlap.
    EXPECT_NEAR(body.pose.p.z() - half, top, 1e-9);
    top = body.pose.p.z() + half;
  }
  EXPECT_TRUE(scene.solver.sleeping);
}

TEST(Scene, ShippedSlopeHasAStickingAndASlidingBox) {
  const SceneDescription scene = loadScene(kScenesDir / "slope.json");
  const StaticDescription* ramp = nullptr;
  for (const StaticDescription& s : scene.statics) {
    if (s.kind == StaticDescription::Kind::Shape) ramp = &s;
  }
  ASSERT_NE(ramp, nullptr);
  ASSERT_EQ(ramp->shape->type(), ShapeType::Box);
  const Eigen::Vector3d up = ramp->pose.q * Eigen::Vector3d::UnitZ();
  const double slope = std::acos(up.z());
  EXPECT_NEAR(slope, 20.0 * std::numbers::pi / 180.0, 1e-9);
  ASSERT_EQ(scene.bodies.size(), 2u);
  // bodies[0] sticks, bodies[1] slides (docs/scenes.md), with the world's geometric-mean rule.
  const double tanSlope = std::tan(slope);
  const double sticking = std::sqrt(ramp->material.friction * scene.bodies[0].material.friction);
  const double sliding = std::sqrt(ramp->material.friction * scene.bodies[1].material.friction);
  EXPECT_GT(sticking, tanSlope + 0.05);
  EXPECT_LT(sliding, tanSlope - 0.05);
  // Also under the smaller-coefficient rule.
  EXPECT_GT(std::min(ramp->material.friction, scene.bodies[0].material.friction), tanSlope + 0.03);
  EXPECT_LT(std::min(ramp->material.friction, scene.bodies[1].material.friction), tanSlope - 0.03);
  EXPECT_DOUBLE_EQ(scene.bodies[0].material.friction, 0.5);
  EXPECT_DOUBLE_EQ(scene.bodies[1].material.friction, 0.2);
  // Both rest on the ramp's top face, within its footprint.
  const double rampTop = ramp->shape->halfExtents().z();
  for (const BodyDescription& body : scene.bodies) {
    const Eigen::Vector3d local = ramp->pose.applyInverse(body.pose.p);
    const double half = body.shape.shape->halfExtents().z();
    EXPECT_NEAR(local.z(), rampTop + half, 1e-9);
    EXPECT_LT(std::abs(local.x()), ramp->shape->halfExtents().x());
    EXPECT_LT(std::abs(local.y()), ramp->shape->halfExtents().y());
    EXPECT_LT((body.pose.q.coeffs() - ramp->pose.q.coeffs()).norm(), 1e-12);
  }
  EXPECT_FALSE(scene.solver.sleeping);
}

// --- defaults ---

void expectSameMaterial(const Material& a, const Material& b) {
  EXPECT_EQ(a.friction, b.friction);
  EXPECT_EQ(a.restitution, b.restitution);
}

void expectSameShape(const std::optional<Shape>& a, const std::optional<Shape>& b) {
  ASSERT_EQ(a.has_value(), b.has_value());
  if (!a) return;
  EXPECT_EQ(a->type(), b->type());
  EXPECT_EQ(a->radius(), b->radius());
  EXPECT_EQ(a->halfExtents(), b->halfExtents());
}

void expectSamePose(const Pose& a, const Pose& b) {
  EXPECT_EQ(a.p, b.p);
  EXPECT_EQ(a.q.coeffs(), b.q.coeffs());
}

void expectSameScene(const SceneDescription& a, const SceneDescription& b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.assetDir, b.assetDir);
  EXPECT_EQ(a.gravity, b.gravity);
  EXPECT_EQ(a.dt, b.dt);
  EXPECT_EQ(a.defaultDensity, b.defaultDensity);
  EXPECT_EQ(a.hullTolerance, b.hullTolerance);
  EXPECT_EQ(a.boundsMin, b.boundsMin);
  EXPECT_EQ(a.boundsMax, b.boundsMax);
  ASSERT_EQ(a.statics.size(), b.statics.size());
  for (size_t i = 0; i < a.statics.size(); ++i) {
    SCOPED_TRACE("statics[" + std::to_string(i) + "]");
    const StaticDescription& s = a.statics[i];
    const StaticDescription& t = b.statics[i];
    EXPECT_EQ(s.kind, t.kind);
    EXPECT_EQ(s.groundHeight, t.groundHeight);
    EXPECT_EQ(s.funnel.topRadius, t.funnel.topRadius);
    EXPECT_EQ(s.funnel.bottomRadius, t.funnel.bottomRadius);
    EXPECT_EQ(s.funnel.height, t.funnel.height);
    EXPECT_EQ(s.funnel.bottomZ, t.funnel.bottomZ);
    EXPECT_EQ(s.funnel.wallThickness, t.funnel.wallThickness);
    EXPECT_EQ(s.funnel.panels, t.funnel.panels);
    expectSameShape(s.shape, t.shape);
    expectSamePose(s.pose, t.pose);
    expectSameMaterial(s.material, t.material);
  }
  ASSERT_EQ(a.bodies.size(), b.bodies.size());
  for (size_t i = 0; i < a.bodies.size(); ++i) {
    SCOPED_TRACE("bodies[" + std::to_string(i) + "]");
    const BodyDescription& s = a.bodies[i];
    const BodyDescription& t = b.bodies[i];
    EXPECT_EQ(s.shape.asset, t.shape.asset);
    EXPECT_EQ(s.shape.parts, t.shape.parts);
    expectSameShape(s.shape.shape, t.shape.shape);
    expectSamePose(s.pose, t.pose);
    EXPECT_EQ(s.linearVelocity, t.linearVelocity);
    EXPECT_EQ(s.angularVelocity, t.angularVelocity);
    expectSameMaterial(s.material, t.material);
    EXPECT_EQ(s.mass, t.mass);
    EXPECT_EQ(s.density, t.density);
  }
  ASSERT_EQ(a.spawner.has_value(), b.spawner.has_value());
  if (a.spawner) {
    const SpawnerDescription& s = *a.spawner;
    const SpawnerDescription& t = *b.spawner;
    EXPECT_EQ(s.assets, t.assets);
    EXPECT_EQ(s.count, t.count);
    EXPECT_EQ(s.seed, t.seed);
    EXPECT_EQ(s.center, t.center);
    EXPECT_EQ(s.radius, t.radius);
    EXPECT_EQ(s.height, t.height);
    EXPECT_EQ(s.maxLinearSpeed, t.maxLinearSpeed);
    EXPECT_EQ(s.maxAngularSpeed, t.maxAngularSpeed);
    EXPECT_EQ(s.interval, t.interval);
    expectSameMaterial(s.material, t.material);
    EXPECT_EQ(s.parts, t.parts);
  }
  const SolverDescription& s = a.solver;
  const SolverDescription& t = b.solver;
  EXPECT_EQ(s.gjkVariant, t.gjkVariant);
  EXPECT_EQ(s.warmStart, t.warmStart);
  EXPECT_EQ(s.gjkTolerance, t.gjkTolerance);
  EXPECT_EQ(s.gjkMaxIterations, t.gjkMaxIterations);
  EXPECT_EQ(s.velocityIterations, t.velocityIterations);
  EXPECT_EQ(s.manifoldIterations, t.manifoldIterations);
  EXPECT_EQ(s.shockIterations, t.shockIterations);
  EXPECT_EQ(s.positionIterations, t.positionIterations);
  EXPECT_EQ(s.solverTolerance, t.solverTolerance);
  EXPECT_EQ(s.speculativeMargin, t.speculativeMargin);
  EXPECT_EQ(s.convexRadius, t.convexRadius);
  EXPECT_EQ(s.restitutionThreshold, t.restitutionThreshold);
  EXPECT_EQ(s.sleeping, t.sleeping);
  EXPECT_EQ(s.continuousCollision, t.continuousCollision);
  EXPECT_EQ(s.softSubsteps, t.softSubsteps);
  EXPECT_EQ(s.contactHertz, t.contactHertz);
  EXPECT_EQ(s.contactDampingRatio, t.contactDampingRatio);
}

TEST(Scene, SpawnersChooseHullsOrParts) {
  const SceneDescription parts = parseScene(
      R"({"spawner": {"assets": ["024_bowl", "025_mug"], "collision": "parts"}})", kScenesDir);
  EXPECT_TRUE(parts.spawner->parts);
  const SceneDescription hulls = parseScene(R"({"spawner": {"collision": "hull"}})", kScenesDir);
  EXPECT_FALSE(hulls.spawner->parts);
  EXPECT_SCENE_ERROR(R"({"spawner": {"collision": "pieces"}})", "spawner.collision", "\"hull\"",
                     "\"parts\"", "pieces");
}

TEST(Scene, HullToleranceIsRead) {
  EXPECT_EQ(parseScene(R"({"hull_tolerance": 0.001})", kScenesDir).hullTolerance, 0.001);
  EXPECT_EQ(parseScene(R"({"hull_tolerance": 0})", kScenesDir).hullTolerance, 0.0);
  EXPECT_EQ(parseScene("{}", kScenesDir).hullTolerance, kDefaultHullTolerance);
}

TEST(Scene, EmptyObjectGivesTheHeaderDefaults) {
  SceneDescription expected;
  expected.assetDir = kYcbDir.lexically_normal();
  const SceneDescription scene = parseScene("{}", kScenesDir);
  expectSameScene(scene, expected);
  EXPECT_TRUE(scene.assetDir.is_absolute());
}

TEST(Scene, AbsentKeysTakeTheDefaultsOfEachElement) {
  const SceneDescription scene = parseScene(R"({"statics": [{"type": "ground"}, {"type": "funnel"}],
                     "bodies": [{"asset": "025_mug"}], "spawner": {}})",
                                            kScenesDir);
  SceneDescription expected;
  expected.assetDir = kYcbDir.lexically_normal();
  expected.statics.resize(2);
  expected.statics[1].kind = StaticDescription::Kind::Funnel;
  expected.bodies.resize(1);
  expected.bodies[0].shape.asset = "025_mug";
  expected.spawner.emplace();
  expectSameScene(scene, expected);
}

// The "Defaults at a glance" block of docs/scenes.md writes every key at its default: it must
// read back as the scene with those keys left out.
TEST(Scene, DocumentedDefaultsRoundTrip) {
  std::ifstream in(kSourceDir / "docs" / "scenes.md");
  ASSERT_TRUE(in) << "docs/scenes.md missing";
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string doc = buffer.str();
  const size_t section = doc.find("## Defaults at a glance");
  ASSERT_NE(section, std::string::npos);
  const size_t begin = doc.find("```json\n", section);
  ASSERT_NE(begin, std::string::npos);
  const size_t end = doc.find("\n```", begin + 8);
  ASSERT_NE(end, std::string::npos);
  const std::string documented = doc.substr(begin + 8, end - begin - 8);

  const SceneDescription full = parseScene(documented, kScenesDir);
  const SceneDescription minimal = parseScene(
      R"({"statics": [{"type": "ground"}, {"type": "funnel"}],
          "bodies": [{"shape": {"type": "sphere", "radius": 0.05}}], "spawner": {}})",
      kScenesDir);
  expectSameScene(full, minimal);
}

TEST(Scene, LoadSceneNamesTheSceneAfterTheFileByDefault) {
  const fs::path dir = fs::temp_directory_path() / ("hb_scene_name_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path file = dir / "my-scene.json";
  std::ofstream(file) << R"({"asset_dir": ")" << kYcbDir.string() << R"("})";
  const SceneDescription scene = loadScene(file);
  EXPECT_EQ(scene.name, "my-scene");
  EXPECT_EQ(scene.assetDir, kYcbDir);  // absolute paths are kept
  fs::remove_all(dir);
}

TEST(Scene, ReadsEveryStaticAndBodyKind) {
  const SceneDescription scene = parseScene(R"({
    "statics": [
      {"type": "shape", "shape": {"type": "capsule", "radius": 0.1, "half_length": 0.2},
       "pose": {"p": [1, 2, 3], "q": [0, 1, 0, 0]}, "material": {"friction": 0.9}}
    ],
    "bodies": [
      {"asset": "025_mug", "pose": {"p": [0, 0, 1]}, "linear_velocity": [1, 0, 0],
       "angular_velocity": [0, 0, 2], "mass": 0.3},
      {"shape": {"type": "mesh", "path": "../ycb/013_apple/textured.obj"}, "density": 800,
       "material": {"friction": 0.1, "restitution": 0.4}}
    ],
    "spawner": {"assets": ["013_apple", "055_baseball"], "count": 3, "seed": 42, "interval": 0.1}
  })",
                                            kScenesDir);
  ASSERT_EQ(scene.statics.size(), 1u);
  EXPECT_EQ(scene.statics[0].kind, StaticDescription::Kind::Shape);
  EXPECT_EQ(scene.statics[0].shape->type(), ShapeType::Capsule);
  EXPECT_EQ(scene.statics[0].pose.p, Eigen::Vector3d(1, 2, 3));
  EXPECT_EQ(scene.statics[0].material.friction, 0.9);
  EXPECT_EQ(scene.statics[0].material.restitution, 0.0);
  ASSERT_EQ(scene.bodies.size(), 2u);
  EXPECT_EQ(scene.bodies[0].shape.asset, "025_mug");
  EXPECT_FALSE(scene.bodies[0].shape.shape.has_value());
  EXPECT_EQ(scene.bodies[0].mass, 0.3);
  EXPECT_FALSE(scene.bodies[0].density.has_value());
  EXPECT_EQ(scene.bodies[0].angularVelocity, Eigen::Vector3d(0, 0, 2));
  ASSERT_TRUE(scene.bodies[1].shape.shape.has_value());
  EXPECT_EQ(scene.bodies[1].shape.shape->type(), ShapeType::ConvexHull);
  EXPECT_EQ(scene.bodies[1].density, 800.0);
  EXPECT_EQ(scene.bodies[1].material.restitution, 0.4);
  ASSERT_TRUE(scene.spawner.has_value());
  EXPECT_EQ(scene.spawner->assets, (std::vector<std::string>{"013_apple", "055_baseball"}));
  EXPECT_EQ(scene.spawner->seed, 42u);
}

// --- errors name the JSON path ---

TEST(Scene, UnknownKeysAreErrors) {
  EXPECT_SCENE_ERROR(R"({"gravty": [0, 0, -9.81]})", "gravty: unknown key", "gravity");
  EXPECT_SCENE_ERROR(R"({"solver": {"sleep": true}})", "solver.sleep: unknown key");
  EXPECT_SCENE_ERROR(R"({"bodies": [{"asset": "025_mug"}, {"asset": "025_mug",
                          "material": {"frictoin": 0.3}}]})",
                     "bodies[1].material.frictoin: unknown key");
  EXPECT_SCENE_ERROR(R"({"statics": [{"type": "ground", "heigth": 1}]})",
                     "statics[0].heigth: unknown key");
  EXPECT_SCENE_ERROR(R"({"statics": [{"type": "funnel", "radius": 1}]})",
                     "statics[0].radius: unknown key");
  EXPECT_SCENE_ERROR(R"({"spawner": {"cout": 3}})", "spawner.cout: unknown key");
  EXPECT_SCENE_ERROR(R"({"bounds": {"low": [0, 0, 0]}})", "bounds.low: unknown key");
  EXPECT_SCENE_ERROR(R"({"bodies": [{"asset": "025_mug", "pose": {"x": [0, 0, 0]}}]})",
                     "bodies[0].pose.x: unknown key");
  EXPECT_SCENE_ERROR(R"({"statics": [{"type": "shape", "shape": {"type": "box",
                          "half_extents": [1, 1, 1], "radius": 2}}]})",
                     "statics[0].shape.radius: unknown key");
}

TEST(Scene, DuplicateKeysAreErrorsNamingTheirPath) {
  EXPECT_SCENE_ERROR(R"({"dt": 0.01, "name": "x", "dt": 0.02})", "dt: duplicate key");
  EXPECT_SCENE_ERROR(R"({"bodies": [{"asset": "025_mug"}, [1, {"a": 1}], {"asset": "025_mug",
                          "material": {"friction": 0.3, "friction": 0.5}}]})",
                     "bodies[2].material.friction: duplicate key");
  // The same key in two objects is no duplicate.
  EXPECT_NO_THROW(parseScene(R"({"bodies": [{"asset": "025_mug", "material": {"friction": 0.3}},
                                 {"asset": "025_mug", "material": {"friction": 0.5}}]})",
                             kScenesDir));
}

TEST(Scene, WrongTypesAreErrors) {
  EXPECT_SCENE_ERROR(R"([1, 2])", "expected a JSON object");
  EXPECT_SCENE_ERROR(R"({"dt": "fast"})", "dt: expected a number");
  EXPECT_SCENE_ERROR(R"({"name": 3})", "name: expected a string");
  EXPECT_SCENE_ERROR(R"({"gravity": [0, -9.81]})", "gravity: expected array of 3 numbers");
  EXPECT_SCENE_ERROR(R"({"statics": {"type": "ground"}})", "statics: expected an array");
  EXPECT_SCENE_ERROR(R"({"bodies": [3]})", "bodies[0]: expected an object");
  EXPECT_SCENE_ERROR(R"({"bodies": [{"asset": 25}]})", "bodies[0].asset: expected a string");
  EXPECT_SCENE_ERROR(R"({"solver": {"sleeping": 1}})", "solver.sleeping: expected true or false");
  EXPECT_SCENE_ERROR(R"({"solver": {"soft_substeps": -1}})",
                     "solver.soft_substeps: expected an integer in [0, 64]");
  EXPECT_SCENE_ERROR(R"({"solver": {"contact_hertz": 0}})", "solver.contact_hertz: expected");
  EXPECT_SCENE_ERROR(R"({"solver": {"contact_damping_ratio": -1}})",
                     "solver.contact_damping_ratio: expected");
  {
    const SolverDescription soft =
        parseScene(R"({"solver": {"soft_substeps": 4, "contact_hertz": 20,
                                  "contact_damping_ratio": 5}})",
                   kScenesDir)
            .solver;
    EXPECT_EQ(soft.softSubsteps, 4);
    EXPECT_EQ(soft.contactHertz, 20.0);
    EXPECT_EQ(soft.contactDampingRatio, 5.0);
    const SolverDescription plain = parseScene("{}", kScenesDir).solver;
    EXPECT_EQ(plain.softSubsteps, 0);
    EXPECT_EQ(plain.contactHertz, 30.0);
    EXPECT_EQ(plain.contactDampingRatio, 10.0);
  }
  EXPECT_SCENE_ERROR(R"({"solver": {"max_pairs_per_piece": 0}})",
                     "solver.max_pairs_per_piece: expected an integer in [1, 1000000]");
  EXPECT_EQ(
      parseScene(R"({"solver": {"max_pairs_per_piece": 200}})", kScenesDir).solver.maxPairsPerPiece,
      200);
  EXPECT_EQ(parseScene("{}", kScenesDir).solver.maxPairsPerPiece, 64);
  EXPECT_SCENE_ERROR(R"({"solver": {"velocity_iterations": 2.5}})",
                     "solver.velocity_iterations: expected an integer");
  EXPECT_SCENE_ERROR(R"({"solver": {"gjk_variant": "fast"}})", "solver.gjk_variant: unknown");
  EXPECT_SCENE_ERROR(R"({"solver": {"warm_start": "best"}})", "solver.warm_start: unknown");
  EXPECT_SCENE_ERROR(R"({"statics": [{"type": "wall"}]})", "statics[0].type: unknown static");
  EXPECT_SCENE_ERROR(R"({"statics": [{"height": 1}]})", "statics[0].type: missing required key");
  EXPECT_SCENE_ERROR(R"({"statics": [{"type": "shape"}]})",
                     "statics[0].shape: missing required key");
  EXPECT_SCENE_ERROR(R"({"spawner": {"assets": "025_mug"}})", "spawner.assets: expected an array");
  EXPECT_SCENE_ERROR(R"({"bodies": [{}]})", "bodies[0]: expected exactly one of");
  EXPECT_SCENE_ERROR(R"({"bodies": [{"asset": "025_mug",
                          "shape": {"type": "sphere", "radius": 1}}]})",
                     "bodies[0]: expected exactly one of");
}

TEST(Scene, OutOfRangeValuesAreErrors) {
  EXPECT_SCENE_ERROR(R"({"dt": 0})", "dt: expected a number in [1e-05, 0.1]");
  EXPECT_SCENE_ERROR(R"({"dt": 1e-300})", "dt: expected a number in [1e-05, 0.1]");
  EXPECT_SCENE_ERROR(R"({"dt": 0.5})", "dt: expected a number in [1e-05, 0.1]");
  // Overflowing literals never become infinities.
  EXPECT_SCENE_ERROR(R"({"dt": 1e999})", "invalid JSON", "1e999");
  EXPECT_SCENE_ERROR(R"({"gravity": [0, 0, -1e999]})", "invalid JSON", "1e999");
  EXPECT_SCENE_ERROR(R"({"default_density": 0})", "default_density: expected a positive");
  EXPECT_SCENE_ERROR(R"({"hull_tolerance": -0.001})", "hull_tolerance: expected a number in");
  EXPECT_SCENE_ERROR(R"({"hull_tolerance": 0.5})", "hull_tolerance: expected a number in");
  EXPECT_SCENE_ERROR(R"({"bounds": {"min": [0, 0, 0], "max": [1, 0, 1]}})",
                     "bounds: expected min < max");
  EXPECT_SCENE_ERROR(R"({"bounds": {"min": [-1, -1, 6]}})", "bounds: expected min < max");
  EXPECT_SCENE_ERROR(R"({"solver": {"manifold_iterations": 0}})",
                     "solver.manifold_iterations: expected an integer in [1,");
  EXPECT_SCENE_ERROR(R"({"solver": {"shock_iterations": 0}})",
                     "solver.shock_iterations: expected an integer in [1,");
  EXPECT_SCENE_ERROR(R"({"solver": {"velocity_iterations": 0}})",
                     "solver.velocity_iterations: expected an integer in [1,");
  EXPECT_SCENE_ERROR(R"({"solver": {"position_iterations": 0}})",
                     "solver.position_iterations: expected an integer in [1,");
  EXPECT_SCENE_ERROR(R"({"solver": {"gjk_max_iterations": -3}})", "solver.gjk_max_iterations");
  EXPECT_SCENE_ERROR(R"({"solver": {"gjk_tolerance": 0}})", "solver.gjk_tolerance: expected a");
  EXPECT_SCENE_ERROR(R"({"solver": {"speculative_margin": -0.01}})",
                     "solver.speculative_margin: expected a number >= 0");
  EXPECT_SCENE_ERROR(R"({"solver": {"convex_radius": -0.001}})",
                     "solver.convex_radius: expected a number in [0, 0.02]");
  EXPECT_SCENE_ERROR(R"({"solver": {"convex_radius": 0.05}})",
                     "solver.convex_radius: expected a number in [0, 0.02]");
  EXPECT_SCENE_ERROR(R"({"solver": {"convex_radius": "2mm"}})",
                     "solver.convex_radius: expected a number");
  EXPECT_SCENE_ERROR(R"({"statics": [{"type": "ground", "material": {"friction": -0.1}}]})",
                     "statics[0].material.friction: expected a number >= 0");
  EXPECT_SCENE_ERROR(R"({"bodies": [{"asset": "025_mug", "material": {"restitution": 1.5}}]})",
                     "bodies[0].material.restitution: expected a number in [0, 1]");
  EXPECT_SCENE_ERROR(R"({"statics": [{"type": "funnel", "top_radius": -0.3}]})",
                     "statics[0].top_radius: expected a positive number");
  EXPECT_SCENE_ERROR(R"({"statics": [{"type": "funnel", "bottom_radius": 0.35}]})",
                     "statics[0].bottom_radius: must be smaller than top_radius");
  EXPECT_SCENE_ERROR(R"({"statics": [{"type": "funnel", "panels": 2}]})",
                     "statics[0].panels: expected an integer in [3,");
  EXPECT_SCENE_ERROR(R"({"statics": [{"type": "funnel", "wall_thickness": 0}]})",
                     "statics[0].wall_thickness: expected a positive number");
  EXPECT_SCENE_ERROR(R"({"bodies": [{"shape": {"type": "sphere", "radius": -1}}]})",
                     "bodies[0].shape.radius: expected a positive number");
  EXPECT_SCENE_ERROR(R"({"bodies": [{"shape": {"type": "sphere", "radius": 1e-9}}]})",
                     "bodies[0].shape.radius: expected a length in [1e-06, 1e+06] m");
  EXPECT_SCENE_ERROR(R"({"bodies": [{"shape": {"type": "box", "half_extents": [1, 1e13, 1]}}]})",
                     "bodies[0].shape.half_extents: expected a length in [1e-06, 1e+06] m");
  EXPECT_SCENE_ERROR(R"({"bodies": [{"asset": "025_mug", "pose": {"p": [0, 0, 1e154]}}]})",
                     "bodies[0].pose.p: expected coordinates within 1e+06 m");
  EXPECT_SCENE_ERROR(R"({"bodies": [{"asset": "025_mug", "mass": 0}]})",
                     "bodies[0].mass: expected a positive number");
  EXPECT_SCENE_ERROR(R"({"bodies": [{"asset": "025_mug", "mass": 1, "density": 100}]})",
                     "bodies[0].density: give either mass or density");
  EXPECT_SCENE_ERROR(R"({"spawner": {"count": -1}})", "spawner.count: expected an integer");
  EXPECT_SCENE_ERROR(R"({"spawner": {"seed": 4294967296}})", "spawner.seed: expected an integer");
  EXPECT_SCENE_ERROR(R"({"bodies": [{"asset": "025_mug\u0000/../x"}]})",
                     "bodies[0].asset: contains a NUL character");
  EXPECT_SCENE_ERROR(R"({"spawner": {"max_linear_speed": -1}})",
                     "spawner.max_linear_speed: expected a number >= 0");
}

// A run's length in steps: refused, not run for no step, when it is not a usable time.
TEST(Scene, StepsForRefusesTimesThatAreNotUsable) {
  EXPECT_EQ(stepsFor(1.0, 1.0 / 120.0), 120);
  EXPECT_EQ(stepsFor(1e-6, 1.0 / 120.0), 1);  // at least one step
  EXPECT_EQ(stepsFor(kMaxSimulatedSeconds, kMinTimeStep), 1'000'000'000'000L);
  for (const double bad : {0.0, -1.0, std::nan(""), HUGE_VAL, 1e20, 1.0001e7}) {
    EXPECT_THROW(stepsFor(bad, 1.0 / 120.0), std::invalid_argument) << bad;
  }
  EXPECT_THROW(stepsFor(1.0, 0.0), std::invalid_argument);
}

TEST(Scene, NonUnitQuaternionIsAnError) {
  EXPECT_SCENE_ERROR(R"({"bodies": [
      {"asset": "025_mug"}, {"asset": "025_mug"},
      {"asset": "025_mug", "pose": {"q": [1, 0, 0, 0.5]}}]})",
                     "bodies[2].pose.q: expected a unit quaternion");
  EXPECT_SCENE_ERROR(R"({"statics": [{"type": "shape",
      "shape": {"type": "sphere", "radius": 1}, "pose": {"q": [0, 0, 0, 0]}}]})",
                     "statics[0].pose.q: expected a unit quaternion");
}

TEST(Scene, MissingAssetFoldersAreErrorsNamingThePath) {
  const std::string missing = (kYcbDir / "999_nothing" / "textured.obj").string();
  EXPECT_SCENE_ERROR(R"({"bodies": [{"asset": "999_nothing"}]})", "bodies[0].asset: no such asset",
                     missing);
  EXPECT_SCENE_ERROR(R"({"spawner": {"assets": ["025_mug", "999_nothing"], "count": 2}})",
                     "spawner.assets[1]: no such asset", missing);
  EXPECT_SCENE_ERROR(R"({"asset_dir": "nowhere", "bodies": [{"asset": "025_mug"}]})",
                     "bodies[0].asset: no such asset",
                     (kScenesDir / "nowhere" / "025_mug" / "textured.obj").string());
  EXPECT_SCENE_ERROR(R"({"asset_dir": "nowhere", "spawner": {"count": 1}})",
                     "spawner.assets: no list given and no asset folder",
                     (kScenesDir / "nowhere").string());
  EXPECT_SCENE_ERROR(R"({"bodies": [{"shape": {"type": "mesh", "path": "no/such.obj"}}]})",
                     "bodies[0].shape.path", "no/such.obj");
}

TEST_F(SceneFiles, LoadErrorsStartWithTheFile) {
  const fs::path file = write("bad.json", R"({"bodies": [{"shape": {"type": "sphere",
      "radius": 0.1}, "pose": {"q": [2, 0, 0, 0]}}]})");
  const std::string message = loadError(file);
  EXPECT_TRUE(contains(message, "bodies[0].pose.q: expected a unit quaternion")) << message;
}

TEST_F(SceneFiles, InvalidJsonNamesTheFileLineAndColumn) {
  const fs::path file = write("broken.json", "{\n  \"dt\": 0.01,\n  \"name\" \"x\"\n}\n");
  const std::string message = loadError(file);
  EXPECT_TRUE(contains(message, "invalid JSON")) << message;
  EXPECT_TRUE(contains(message, "line 3")) << message;
  EXPECT_TRUE(contains(message, "column")) << message;
}

TEST_F(SceneFiles, EmptyFileIsInvalidJson) {
  EXPECT_TRUE(contains(loadError(write("empty.json", "")), "invalid JSON"));
}

TEST_F(SceneFiles, MissingFileIsAnErrorNamingIt) {
  const std::string message = loadError(dir_ / "absent.json");
  EXPECT_TRUE(contains(message, "no such file")) << message;
}

TEST_F(SceneFiles, DevicesFifosAndHugeFilesAreRefusedNotReadForever) {
  ASSERT_EQ(::mkfifo((dir_ / "fifo.json").c_str(), 0600), 0);
  for (const fs::path& file : {fs::path("/dev/zero"), dir_ / "fifo.json"}) {
    const std::string message = loadError(file);
    EXPECT_TRUE(contains(message, "not a regular file")) << message;
  }
  const fs::path huge = write("huge.json", "{}");
  fs::resize_file(huge, kMaxInputFileBytes + 1);  // sparse: no disk used
  const std::string message = loadError(huge);
  EXPECT_TRUE(contains(message, "larger than 64 MiB")) << message;
}

TEST_F(SceneFiles, DirectoryIsAnErrorNamingIt) {
  const std::string message = loadError(dir_);
  EXPECT_TRUE(contains(message, "not a file")) << message;
}

TEST_F(SceneFiles, RelativePathsResolveAgainstTheSceneFile) {
  // A copy of the apple's mesh next to the scene, named relatively.
  fs::copy_file(kYcbDir / "013_apple" / "textured.obj", dir_ / "apple.obj");
  fs::create_directories(dir_ / "objects" / "apple");
  fs::copy_file(kYcbDir / "013_apple" / "textured.obj",
                dir_ / "objects" / "apple" / "textured.obj");
  const fs::path file = write("scene.json", R"({"asset_dir": "objects",
      "bodies": [{"asset": "apple"}, {"shape": {"type": "mesh", "path": "apple.obj"}}]})");
  const SceneDescription scene = loadScene(file);
  EXPECT_EQ(scene.assetDir, (dir_ / "objects").lexically_normal());
  ASSERT_EQ(scene.bodies.size(), 2u);
  EXPECT_EQ(scene.bodies[1].shape.shape->type(), ShapeType::ConvexHull);
}

}  // namespace
}  // namespace hb
