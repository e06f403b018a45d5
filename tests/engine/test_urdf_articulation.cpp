// URDF robots as scene bodies and joints: the shipped gripper's links, joints, limits and
// drives; an inertial away from the collision geometry swinging at its own pendulum's period; a
// mesh scaled into its hull; a link of several geometries, or a mesh of several objects, as a
// compound that collides as its pieces; a scene's joint targets; and every URDF a scene cannot take
// named with its file and element.

#include "engine/urdf_articulation.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>

#include "engine/scene.hpp"
#include "engine/state_hash.hpp"
#include "engine/world.hpp"
#include "tests/engine/joint_test_scenes.hpp"
#include "tests/engine/temp_dir_test.hpp"

namespace hb {
namespace {

using Eigen::Vector3d;

const std::filesystem::path kGripper = HB_SOURCE_DIR "/assets/robots/parallel_gripper.urdf";

std::string urdf(const std::string& body) {
  return "<?xml version=\"1.0\"?>\n<robot name=\"r\">\n" + body + "\n</robot>\n";
}

const char* kBox = R"(<collision><geometry><box size="0.1 0.1 0.1"/></geometry></collision>)";

class Urdf : public test::TempDirTest {
 protected:
  Urdf() : TempDirTest("hb_urdf_") {}

  /// The scene's parts of robot.urdf in the test's folder (throws what addArticulation throws).
  SceneDescription articulate() {
    SceneDescription scene;
    MeshHullCache meshes;
    ArticulationDescription robot;
    robot.urdf = dir_ / "robot.urdf";
    addArticulation(robot, meshes, scene);
    return scene;
  }

  /// The scene with one articulation of `text` at `pose`; the error's message if it fails.
  std::string sceneError(const std::string& text, const std::string& extra = "") {
    write("robot.urdf", text);
    try {
      parseScene(R"({"articulations": [{"urdf": "robot.urdf")" + extra + "}]}", dir_);
    } catch (const std::exception& e) {
      return e.what();
    }
    return "";
  }
};

TEST_F(Urdf, ShippedGripperBecomesBodiesAndJoints) {
  SceneDescription scene;
  MeshHullCache meshes;
  ArticulationDescription gripper;
  gripper.urdf = kGripper;
  gripper.pose.p = Vector3d(0, 0, 1);
  gripper.drive.stiffness = 100.0;
  gripper.drive.damping = 10.0;
  addArticulation(gripper, meshes, scene);
  // The mount has no geometry: it is the world. Carriage, rod, palm, two fingers.
  EXPECT_TRUE(scene.statics.empty());
  ASSERT_EQ(scene.bodies.size(), 5u);
  ASSERT_EQ(scene.joints.size(), 5u);
  const JointDescription& shake = scene.joints[0];
  EXPECT_EQ(shake.name, "shake");
  EXPECT_EQ(shake.type, JointType::Prismatic);
  EXPECT_EQ(shake.bodyA, 0);
  EXPECT_EQ(shake.bodyB, 1);
  EXPECT_TRUE(shake.anchor.isApprox(Vector3d(0, 0, 0.95)));
  EXPECT_TRUE(shake.axis.isApprox(Vector3d::UnitX()));
  EXPECT_TRUE(shake.limit.enabled);
  EXPECT_DOUBLE_EQ(shake.limit.lower, -0.1);
  EXPECT_TRUE(shake.motor.enabled);
  EXPECT_DOUBLE_EQ(shake.motor.maxForce, 200.0);
  EXPECT_DOUBLE_EQ(shake.motor.stiffness, 100.0);
  // The rod's box and inertial sit 0.15 m above its link frame (0.25 m below the carriage).
  const BodyDescription& rod = scene.bodies[1];
  EXPECT_TRUE(rod.pose.p.isApprox(Vector3d(0, 0, 1 - 0.05 - 0.25 + 0.15)));
  ASSERT_TRUE(rod.inertial.has_value());
  EXPECT_DOUBLE_EQ(rod.inertial->mass, 0.1);
  EXPECT_NEAR(rod.inertial->centerOfMass.norm(), 0.0, 1e-12);
  const JointDescription& wrist = scene.joints[2];
  EXPECT_EQ(wrist.name, "wrist");
  EXPECT_EQ(wrist.type, JointType::Fixed);
  EXPECT_FALSE(wrist.motor.enabled);
  const JointDescription& left = scene.joints[3];
  EXPECT_TRUE(left.axis.isApprox(-Vector3d::UnitY()));
  EXPECT_DOUBLE_EQ(left.motor.maxForce, 20.0);
  EXPECT_DOUBLE_EQ(left.limit.upper, 0.1);
}

TEST_F(Urdf, InertialAwayFromTheGeometrySwingsAtItsPendulumPeriod) {
  // A small sphere on a hinge through its centre, its mass 1 m below: a point pendulum of 1 m.
  write("pendulum.urdf", urdf(R"(
    <link name="base"/>
    <link name="bob">
      <inertial><origin xyz="0 0 -1"/><mass value="1"/>
        <inertia ixx="1e-6" ixy="0" ixz="0" iyy="1e-6" iyz="0" izz="1e-6"/></inertial>
      <collision><geometry><sphere radius="0.02"/></geometry></collision>
    </link>
    <joint name="hinge" type="continuous">
      <parent link="base"/><child link="bob"/><axis xyz="0 1 0"/>
    </joint>)"));
  SceneDescription scene = joint_scenes::emptyScene();
  MeshHullCache meshes;
  ArticulationDescription pendulum;
  pendulum.urdf = dir_ / "pendulum.urdf";
  // Released 5 degrees out about the hinge (world y).
  const double amplitude = 5.0 * std::numbers::pi / 180.0;
  pendulum.pose = {Eigen::Quaterniond(Eigen::AngleAxisd(amplitude, Vector3d::UnitY())),
                   Vector3d(0, 0, 2)};
  addArticulation(pendulum, meshes, scene);
  ASSERT_EQ(scene.joints.size(), 1u);
  EXPECT_FALSE(scene.joints[0].limit.enabled);  // continuous
  World world(scene);
  std::vector<double> x;
  for (int i = 0; i < 1440; ++i) {
    world.step();
    x.push_back(world.rigidBodies()[1].position.x());
  }
  const double expected =
      4.0 * std::sqrt(1.0 / joint_scenes::kG) * joint_scenes::ellipticK(std::sin(0.5 * amplitude));
  EXPECT_NEAR(joint_scenes::meanPeriod(x, scene.dt), expected, 0.005 * expected);
}

TEST_F(Urdf, MeshIsScaledIntoItsHull) {
  write("tetra.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n");
  write("robot.urdf", urdf(R"(
    <link name="base"/>
    <link name="piece">
      <collision><geometry><mesh filename="tetra.obj" scale="0.1 0.2 0.3"/></geometry></collision>
    </link>
    <joint name="j" type="fixed"><parent link="base"/><child link="piece"/></joint>)"));
  const SceneDescription scene = articulate();
  ASSERT_EQ(scene.bodies.size(), 1u);
  const Shape& shape = *scene.bodies[0].shape.shape;
  ASSERT_EQ(shape.type(), ShapeType::ConvexHull);
  Vector3d top = Vector3d::Constant(-1.0);
  for (const Vector3d& v : shape.hull().vertices()) top = top.cwiseMax(v);
  EXPECT_TRUE(top.isApprox(Vector3d(0.1, 0.2, 0.3)));
  EXPECT_FALSE(scene.bodies[0].inertial.has_value());  // no inertial: the scene's density
}

TEST_F(Urdf, LinkOfSeveralGeometriesCollidesAsItsPieces) {
  // A free dumbbell: two 0.1 m cubes 0.4 m apart (no inertial: density 1000), lying on the
  // ground; a ball dropped between them falls through the gap, which the pieces' hull would close.
  write("robot.urdf", urdf(R"(
    <link name="bell">
      <collision><origin xyz="-0.2 0 0"/><geometry><box size="0.1 0.1 0.1"/></geometry></collision>
      <collision><origin xyz="0.2 0 0" rpy="0 0 0.5"/><geometry><box size="0.1 0.1 0.1"/></geometry></collision>
    </link>)"));
  SceneDescription scene = parseScene(R"({"default_density": 1000, "statics": [{"type": "ground"}],
      "solver": {"sleeping": false},
      "bodies": [{"shape": {"type": "sphere", "radius": 0.03}, "pose": {"p": [0, 0, 0.3]}}],
      "articulations": [{"urdf": "robot.urdf", "fixed_base": false,
                         "pose": {"p": [0, 0, 0.05]}}]})",
                                      dir_);
  ASSERT_EQ(scene.bodies.size(), 2u);
  ASSERT_EQ(scene.bodies[1].shape.pieces.size(), 2u);
  World world(scene);
  const RigidBody& bell = world.rigidBodies()[2];
  // Mass properties of the two cubes together: 2 kg, the centre between them, and about the
  // vertical axis each cube's own plus m d^2 (turning a cube about z leaves its inertia).
  EXPECT_NEAR(1.0 / bell.inverseMass, 2.0, 1e-12);
  EXPECT_LT((bell.position - Vector3d(0, 0, 0.05)).norm(), 1e-12);
  const double cube = 1.0 * 0.01 / 6.0;  // m (2a)^2 / 6
  EXPECT_NEAR(bell.inertiaBody(2, 2), 2.0 * (cube + 1.0 * 0.04), 1e-12);
  EXPECT_EQ(world.bodies()[2].proxies.size(), 2u);
  for (int s = 0; s < 60; ++s) world.step();
  // A snapshot of the compound steps on as the world does.
  const std::vector<std::uint8_t> snapshot = world.saveState();
  for (int s = 0; s < 60; ++s) world.step();
  const std::uint64_t stepped = stateHash(world);
  world.restoreState(snapshot);
  for (int s = 0; s < 60; ++s) world.step();
  EXPECT_EQ(stateHash(world), stepped);
  const RigidBody& ball = world.rigidBodies()[1];
  EXPECT_NEAR(ball.position.z(), 0.03, 2e-3);  // on the ground, between the cubes
  EXPECT_NEAR(world.rigidBodies()[2].position.z(), 0.05, 2e-3);
}

TEST_F(Urdf, MeshOfSeveralObjectsCollidesAsTheirHulls) {
  write("parts.obj",
        "o first\nv 0 0 0\nv 0.1 0 0\nv 0 0.1 0\nv 0 0 0.1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n"
        "o second\nv 1 0 0\nv 1.1 0 0\nv 1 0.1 0\nv 1 0 0.1\nf 5 7 6\nf 5 6 8\nf 5 8 7\nf 6 7 8\n");
  write("robot.urdf", urdf(R"(
    <link name="base"/>
    <link name="piece">
      <collision><geometry><mesh filename="parts.obj" scale="2 2 2"/></geometry></collision>
    </link>
    <joint name="j" type="fixed"><parent link="base"/><child link="piece"/></joint>)"));
  const SceneDescription scene = articulate();
  ASSERT_EQ(scene.bodies.size(), 1u);
  const auto& pieces = scene.bodies[0].shape.pieces;
  ASSERT_EQ(pieces.size(), 2u);
  for (int k = 0; k < 2; ++k) {
    ASSERT_EQ(pieces[k].shape.type(), ShapeType::ConvexHull);
    EXPECT_EQ(pieces[k].shape.hull().numVertices(), 4);
    Vector3d low = Vector3d::Constant(10.0);
    for (const Vector3d& v : pieces[k].shape.hull().vertices()) low = low.cwiseMin(v);
    EXPECT_TRUE(low.isApprox(Vector3d(2.0 * k, 0, 0))) << low.transpose();  // scaled by 2
  }
  // An object of the file that is no solid is named.
  write("flat.obj",
        "o a\nv 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 2 3\nf 1 2 4\n"
        "o b\nv 2 0 0\nv 3 0 0\nv 4 0 0\nf 5 6 7\n");
  write("robot.urdf", urdf(R"(<link name="a"/><link name="b"><collision><geometry>
        <mesh filename="flat.obj"/></geometry></collision></link>
      <joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint>)"));
  try {
    articulate();
    ADD_FAILURE() << "a degenerate object was taken";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("object 1"), std::string::npos) << e.what();
  }
}

TEST_F(Urdf, JointTargetsDriveTheGripper) {
  const std::string text = R"({"articulations": [{"urdf": ")" + kGripper.string() + R"(",
      "pose": {"p": [0, 0, 1]}, "drive": {"stiffness": 20000, "damping": 400}}],
      "joint_targets": [{"joint": "lift", "keys": [[0, 0], [1, 0.1]]}]})";
  SceneDescription scene = parseScene(text, dir_);
  scene.statics.clear();  // nothing to land on
  ASSERT_EQ(scene.jointTargets.size(), 1u);
  EXPECT_EQ(scene.jointTargets[0].at(0.5), std::make_pair(0.05, 0.1));
  EXPECT_EQ(scene.jointTargets[0].at(2.0), std::make_pair(0.1, 0.0));
  World world(scene);
  const int lift = world.findJoint("lift");
  ASSERT_GE(lift, 0);
  while (world.time() < 1.5) world.step();
  const Joint& j = world.joints()[lift];
  EXPECT_NEAR(jointPosition(j, world.rigidBodies()[j.bodyA], world.rigidBodies()[j.bodyB]), 0.1,
              1e-3);
  EXPECT_EQ(world.findJoint("no such joint"), -1);
}

TEST_F(Urdf, WhatAScenesCannotTakeIsNamed) {
  const auto expectError = [&](const std::string& text, const std::string& part) {
    const std::string message = sceneError(text);
    EXPECT_NE(message.find("articulations[0]"), std::string::npos) << message;
    EXPECT_NE(message.find(part), std::string::npos) << part << " not in: " << message;
  };
  expectError("<robot name=", "not a readable URDF file");
  expectError(urdf(R"(<link name="a"/><link name="b"/>
      <joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint>)"),
              "link 'b': no collision geometry");
  expectError(urdf(std::string(R"(<link name="a"/><link name="b">)") + kBox + R"(</link>
      <joint name="j" type="planar"><parent link="a"/><child link="b"/></joint>)"),
              "joint 'j': a planar");
  expectError(urdf(std::string(R"(<link name="a"/><link name="b">)") + kBox +
                   R"(</link><link name="c">)" + kBox + R"(</link>
      <joint name="j" type="prismatic"><parent link="a"/><child link="b"/>
        <limit lower="0" upper="1" effort="1" velocity="1"/></joint>
      <joint name="k" type="prismatic"><parent link="a"/><child link="c"/>
        <limit lower="0" upper="1" effort="1" velocity="1"/><mimic joint="j"/></joint>)"),
              "joint 'k': mimic");
  expectError(urdf(R"(<link name="a"/><link name="b"><collision><geometry>
        <mesh filename="package://robot/b.obj"/></geometry></collision></link>
      <joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint>)"),
              "package://");
  expectError(urdf(std::string(R"(<link name="a"/><link name="b">
        <inertial><mass value="0"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/>
        </inertial>)") +
                   kBox + R"(</link>
      <joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint>)"),
              "mass > 0");
  expectError(urdf(std::string(R"(<link name="a"/><link name="b">)") + kBox + R"(</link>
      <joint name="j" type="continuous"><parent link="a"/><child link="b"/>
        <dynamics damping="-1"/></joint>)"),
              "damping and friction must be finite");
  expectError(urdf(R"(<link name="a"/><link name="b"><collision><geometry>
        <box size="0 0.1 0.1"/></geometry></collision></link>
      <joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint>)"),
              "link 'b'");
  // The scene's own keys.
  EXPECT_NE(sceneError(urdf(R"(<link name="a"/>)"), R"(, "fixed_base": 2)").find("fixed_base"),
            std::string::npos);
  EXPECT_NE(sceneError(urdf(R"(<link name="a"/>)"), R"(, "drive": {"gain": 1})").find("gain"),
            std::string::npos);
  write("robot.urdf", urdf(R"(<link name="a"/>)"));
  try {
    parseScene(R"({"articulations": [{"urdf": "missing.urdf"}]})", dir_);
    ADD_FAILURE() << "a missing URDF file was taken";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("no such file"), std::string::npos) << e.what();
  }
}

TEST_F(Urdf, JointTargetsAreChecked) {
  const auto errorOf = [&](const std::string& targets) {
    try {
      parseScene(R"({"articulations": [{"urdf": ")" + kGripper.string() +
                     R"(", "drive": {"stiffness": 100}}], "joint_targets": )" + targets + "}",
                 dir_);
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(errorOf(R"([{"joint": "elbow", "keys": [[0, 1]]}])").find("no joint named 'elbow'"),
            std::string::npos);
  EXPECT_NE(errorOf(R"([{"joint": "wrist", "keys": [[0, 1]]}])").find("has no motor"),
            std::string::npos);
  EXPECT_NE(
      errorOf(R"([{"joint": "lift", "keys": [[1, 0], [0.5, 1]]}])").find("times must increase"),
      std::string::npos);
  EXPECT_NE(errorOf(R"([{"joint": "lift", "keys": []}])").find("at least one"), std::string::npos);
  EXPECT_NE(errorOf(R"([{"joint": "lift", "keys": [[0, 1, 2]]}])").find("[time (s), position]"),
            std::string::npos);
  // Two of the same robot need prefixes.
  try {
    parseScene(R"({"articulations": [{"urdf": ")" + kGripper.string() + R"("}, {"urdf": ")" +
                   kGripper.string() + R"("}]})",
               dir_);
    ADD_FAILURE() << "two joints of one name were taken";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("prefix"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace hb
