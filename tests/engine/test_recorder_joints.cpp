// Joints in recordings (format versions 6 and 7): a pendulum on a servo-driven hinge, a ball
// joint's servo and the shipped hinges scene recorded and read back bit for bit against the
// world's own values, files of the previous versions read without joints or turns, and damaged
// joint datasets refused with clear errors.

#include <gtest/gtest.h>

#include <hdf5.h>

#include <filesystem>
#include <string>
#include <vector>

#include "engine/recording/recorder.hpp"
#include "engine/recording/recording_reader.hpp"
#include "engine/scene.hpp"
#include "engine/world.hpp"
#include "tests/engine/joint_test_scenes.hpp"
#include "tests/process_temp_dir.hpp"

namespace hb {
namespace {

namespace fs = std::filesystem;
using Eigen::Vector3d;

const fs::path kSource = HB_SOURCE_DIR;

fs::path jointsTempFile(const std::string& name) {
  return hb::test::processTempDir("heavyball-test-recorder-joints-") / name;
}

/// A 1 kg ball on a 0.5 m arm, hinged to the world about y, driven by a servo ("shoulder").
std::unique_ptr<World> pendulum() {
  SceneDescription scene = joint_scenes::emptyScene();
  scene.bodies.push_back(joint_scenes::ball(Vector3d(0.5, 0, 1), 0.05, 1.0));
  auto world = std::make_unique<World>(scene);
  Joint hinge =
      joint_scenes::jointAt(JointType::Revolute, *world, 0, 1, Vector3d(0, 0, 1),
                            Eigen::Quaterniond(Eigen::AngleAxisd(M_PI / 2, Vector3d::UnitX())));
  hinge.name = "shoulder";
  hinge.motor = {true, 0.0, 50.0, 0.3, 40.0, 2.0};
  hinge.friction = 0.05;
  world->addJoint(hinge);
  return world;
}

std::vector<RecordedJointState> valuesOf(const World& world) {
  std::vector<RecordedJointState> out;
  for (const Joint& j : world.joints()) {
    const RigidBody& a = world.rigidBodies()[j.bodyA];
    const RigidBody& b = world.rigidBodies()[j.bodyB];
    out.push_back({jointPosition(j, a, b), jointVelocity(j, a, b), jointError(j, a, b),
                   j.motor.targetPosition, j.motor.targetVelocity, j.motorForce, j.springForce,
                   j.frictionForce, jointTurn(j, a, b), jointSpin(j, a, b),
                   Vector3d(j.motor.targetTurn), Vector3d(j.motor.targetSpin)});
  }
  return out;
}

/// Records `steps` steps of `world` (moving the first joint's targets when it has a servo) and
/// returns the joints' values at every recorded instant.
std::vector<std::vector<RecordedJointState>> record(World& world, const fs::path& file, int steps) {
  Recorder recorder(file, world, {});
  world.addObserver([&](const World& w) { recorder.record(w); });
  std::vector<std::vector<RecordedJointState>> values{valuesOf(world)};
  for (int i = 0; i < steps; ++i) {
    if (!world.joints().empty() && world.joints()[0].motor.servo()) {
      if (world.joints()[0].type == JointType::Spherical) {
        world.setJointTargets(0, Vector3d(0.01 * i, -0.2, 0.3), Vector3d(0.1, 0, 0));
      } else {
        world.setJointTargets(0, 0.3 + 0.01 * i, 0.1);
      }
    }
    world.step();
    values.push_back(valuesOf(world));
  }
  recorder.close();
  return values;
}

void expectSameBits(const RecordingReader& reader,
                    const std::vector<std::vector<RecordedJointState>>& values) {
  ASSERT_EQ(reader.stepCount(), static_cast<long>(values.size()));
  for (long i = 0; i < reader.stepCount(); ++i) {
    const std::vector<RecordedJointState> read = reader.jointStates(i);
    ASSERT_EQ(read.size(), values[i].size());
    for (std::size_t k = 0; k < read.size(); ++k) {
      const RecordedJointState &r = read[k], &w = values[i][k];
      EXPECT_EQ(r.position, w.position) << i << " " << k;
      EXPECT_EQ(r.velocity, w.velocity) << i << " " << k;
      EXPECT_EQ(r.error, w.error) << i << " " << k;
      EXPECT_EQ(r.targetPosition, w.targetPosition) << i << " " << k;
      EXPECT_EQ(r.targetVelocity, w.targetVelocity) << i << " " << k;
      EXPECT_EQ(r.motorForce, w.motorForce) << i << " " << k;
      EXPECT_EQ(r.springForce, w.springForce) << i << " " << k;
      EXPECT_EQ(r.frictionForce, w.frictionForce) << i << " " << k;
      EXPECT_EQ(r.turn, w.turn) << i << " " << k;
      EXPECT_EQ(r.spin, w.spin) << i << " " << k;
      EXPECT_EQ(r.targetTurn, w.targetTurn) << i << " " << k;
      EXPECT_EQ(r.targetSpin, w.targetSpin) << i << " " << k;
    }
  }
}

TEST(RecorderJoints, APendulumOnAServoReadsBackBitForBit) {
  const fs::path file = jointsTempFile("pendulum.h5");
  auto world = pendulum();
  // 150 steps: more than two chunks of 64 rows.
  const auto values = record(*world, file, 150);
  const RecordingReader reader(file);
  EXPECT_EQ(reader.info().formatVersion, 10);
  ASSERT_EQ(reader.joints().size(), 1u);
  EXPECT_EQ(reader.joints()[0].name, "shoulder");
  EXPECT_EQ(reader.joints()[0].type, JointType::Revolute);
  EXPECT_EQ(reader.joints()[0].typeName, "revolute");
  EXPECT_EQ(reader.joints()[0].bodyA, 0);
  EXPECT_EQ(reader.joints()[0].bodyB, 1);
  EXPECT_NE(values.back()[0].motorForce, 0.0);
  expectSameBits(reader, values);
  fs::remove(file);
}

TEST(RecorderJoints, TheHingesSceneReadsBackBitForBit) {
  const fs::path file = jointsTempFile("hinges.h5");
  World world(loadScene(kSource / "assets/scenes/hinges.json"));
  const auto values = record(world, file, 100);
  const RecordingReader reader(file);
  ASSERT_EQ(reader.joints().size(), world.joints().size());
  for (std::size_t k = 0; k < reader.joints().size(); ++k) {
    EXPECT_EQ(reader.joints()[k].type, world.joints()[k].type);
    EXPECT_EQ(reader.joints()[k].bodyB, world.joints()[k].bodyB);
  }
  expectSameBits(reader, values);
  fs::remove(file);
}

TEST(RecorderJoints, ABallJointOnAServoReadsBackBitForBit) {
  // Its turn, spin and three-valued targets (moved every step) with the hinge's values beside.
  const fs::path file = jointsTempFile("ball.h5");
  SceneDescription scene = joint_scenes::emptyScene();
  scene.bodies.push_back(joint_scenes::ball(Vector3d(0.3, 0, 1), 0.05, 1.0));
  scene.bodies.push_back(joint_scenes::ball(Vector3d(1, 0, 1), 0.05, 1.0));
  World world(scene);
  Joint ball = joint_scenes::jointAt(JointType::Spherical, world, 0, 1, Vector3d(0, 0, 1));
  ball.motor.enabled = true;
  ball.motor.maxForce = 20.0;
  ball.motor.stiffness = 30.0;
  ball.motor.damping = 1.0;
  world.addJoint(ball);
  world.addJoint(
      joint_scenes::jointAt(JointType::Revolute, world, 0, 2, Vector3d(1.5, 0, 1),
                            Eigen::Quaterniond(Eigen::AngleAxisd(M_PI / 2, Vector3d::UnitX()))));
  const auto values = record(world, file, 80);
  EXPECT_GT(values.back()[0].turn.norm(), 0.1);
  EXPECT_NE(values.back()[1].turn, Vector3d::Zero());  // a hinge's turn about its axis
  const RecordingReader reader(file);
  EXPECT_EQ(reader.joints()[0].type, JointType::Spherical);
  expectSameBits(reader, values);
  fs::remove(file);
}

bool hasDataset(const fs::path& file, const char* name) {
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  const bool there = H5Lexists(f, name, H5P_DEFAULT) > 0;
  H5Fclose(f);
  return there;
}

void setVersion(const fs::path& file, long long version) {
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  const hid_t a = H5Aopen(f, "format_version", H5P_DEFAULT);
  H5Awrite(a, H5T_NATIVE_LLONG, &version);
  H5Aclose(a);
  H5Fclose(f);
}

TEST(RecorderJoints, ARunWithoutJointsWritesNoJointDatasets) {
  const fs::path file = jointsTempFile("nojoints.h5");
  World world(joint_scenes::emptyScene());
  record(world, file, 5);
  EXPECT_FALSE(hasDataset(file, "joints"));
  EXPECT_FALSE(hasDataset(file, "joint_position"));
  const RecordingReader reader(file);
  EXPECT_TRUE(reader.joints().empty());
  EXPECT_TRUE(reader.jointStates(0).empty());
  fs::remove(file);
}

// Files of version 6 have the joints' scalar values only: the turns and spins read as NaN.
TEST(RecorderJoints, FilesOfVersionSixReadWithoutTurns) {
  const fs::path file = jointsTempFile("version6.h5");
  auto world = pendulum();
  const auto values = record(*world, file, 5);
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  for (const char* name : {"joint_turn", "joint_spin", "joint_target_turn", "joint_target_spin"}) {
    H5Ldelete(f, name, H5P_DEFAULT);
  }
  H5Fclose(f);
  setVersion(file, 6);
  const RecordingReader reader(file);
  EXPECT_EQ(reader.info().formatVersion, 6);
  const RecordedJointState state = reader.jointStates(5)[0];
  EXPECT_EQ(state.position, values[5][0].position);
  EXPECT_TRUE(state.turn.array().isNaN().all());
  EXPECT_TRUE(state.targetSpin.array().isNaN().all());
  fs::remove(file);
}

// Files of version 5 and earlier have no joints: read as before, joints empty.
TEST(RecorderJoints, FilesOfThePreviousVersionsReadWithoutJoints) {
  const fs::path file = jointsTempFile("version5.h5");
  auto world = pendulum();
  record(*world, file, 5);
  setVersion(file, 5);
  const RecordingReader reader(file);
  EXPECT_EQ(reader.info().formatVersion, 5);
  EXPECT_EQ(reader.stepCount(), 6);
  EXPECT_TRUE(reader.joints().empty());
  EXPECT_EQ(reader.states(5).size(), 2u);
  fs::remove(file);
  const RecordingReader one(kSource / "tests/engine/data/recording-version-1.h5");
  EXPECT_TRUE(one.joints().empty());
  EXPECT_TRUE(one.jointStates(0).empty());
}

/// The message of the RecordingError reading `file` (and its joints at every row) throws.
std::string jointsReadError(const fs::path& file) {
  try {
    const RecordingReader reader(file);
    for (long i = 0; i < reader.stepCount(); ++i) reader.jointStates(i);
  } catch (const RecordingError& e) {
    return e.what();
  }
  return "";
}

/// A pendulum recording of 100 steps, `damage` done to it; the error reading it.
template <class Damage>
std::string errorAfter(const char* name, const Damage& damage) {
  const fs::path file = jointsTempFile(name);
  auto world = pendulum();
  record(*world, file, 100);
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  damage(f);
  H5Fclose(f);
  std::string message = jointsReadError(file);
  EXPECT_NE(message.find(file.string()), std::string::npos) << message;
  fs::remove(file);
  return message;
}

TEST(RecorderJoints, DamagedJointDatasetsGiveClearErrors) {
  const std::string cut = errorAfter("cut.h5", [](hid_t f) {
    const hid_t d = H5Dopen(f, "joint_velocity", H5P_DEFAULT);
    const hsize_t rows[] = {40, 1};
    H5Dset_extent(d, rows);
    H5Dclose(d);
  });
  EXPECT_NE(cut.find("dataset /joint_velocity has 40 rows, fewer than the 101 step rows"),
            std::string::npos)
      << cut;
  const std::string missing =
      errorAfter("missing.h5", [](hid_t f) { H5Ldelete(f, "joint_error", H5P_DEFAULT); });
  EXPECT_NE(missing.find("missing dataset /joint_error"), std::string::npos) << missing;
  const std::string cutTurns = errorAfter("cut-turns.h5", [](hid_t f) {
    const hid_t d = H5Dopen(f, "joint_target_spin", H5P_DEFAULT);
    const hsize_t rows[] = {40, 1, 3};
    H5Dset_extent(d, rows);
    H5Dclose(d);
  });
  EXPECT_NE(cutTurns.find("dataset /joint_target_spin has 40 rows"), std::string::npos) << cutTurns;
  const std::string garbage = errorAfter("garbage.h5", [](hid_t f) {
    // A chunk whose bytes are not a deflate stream.
    const hid_t d = H5Dopen(f, "joint_motor_force", H5P_DEFAULT);
    const hsize_t origin[] = {0, 0};
    const std::vector<unsigned char> bytes(64, 0xA5);
    H5Dwrite_chunk(d, H5P_DEFAULT, 0, origin, bytes.size(), bytes.data());
    H5Dclose(d);
  });
  EXPECT_NE(garbage.find("cannot read /joint_motor_force"), std::string::npos) << garbage;
}

}  // namespace
}  // namespace hb
