// Every engine of `heavyball bench sim` against heavyball's own description of the bodies: the
// same mass, centre of mass and world inertia tensor, and a body dropped on the ground coming to
// rest at the height its hull's bottom face gives, and compound bodies (convex parts) on their
// pieces' foot; MuJoCo's two rows against the integrator each names. Engines not in this build are
// skipped.

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <cstdio>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "apps/bench/sim/sim_peer.hpp"
#include "engine/asset_library.hpp"

namespace {

using hb::sim::SimPeer;
using hb::sim::SimScene;

constexpr const char* kGroundScene = R"({"name": "ground", "asset_dir": "../ycb",
  "statics": [{"type": "ground", "material": {"friction": 0.5, "restitution": 0.0}}]})";

hb::SceneDescription groundScene() {
  return hb::parseScene(kGroundScene, HB_SOURCE_DIR "/assets/scenes");
}

std::unique_ptr<SimPeer> makeEngine(const std::string& name, const SimScene& scene) {
  return name == "heavyball" ? hb::sim::makeHeavyballSim(scene) : hb::sim::makeSimPeer(name, scene);
}

std::vector<std::string> allEngines() {
  std::vector<std::string> names = {"heavyball"};
  for (const std::string& n : hb::sim::simPeerNames()) names.push_back(n);
  return names;
}

class SimPeerTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (GetParam() == "heavyball") return;
    if (const auto missing = hb::sim::simPeerUnavailable(GetParam())) {
      GTEST_SKIP() << GetParam() << " is not built: " << *missing;
    }
  }
};

/// Rotation angle between two orientations (rad).
double angle(const Eigen::Quaterniond& a, const Eigen::Quaterniond& b) {
  return a.angularDistance(b);
}

TEST_P(SimPeerTest, BodiesHaveHeavyballsMassCentreAndWorldInertia) {
  // Asymmetric assets in tilted poses, so that the inertia tensors are full in both the body
  // and the world frame.
  hb::SceneDescription scene = groundScene();
  const std::vector<std::string> assets = {"025_mug", "011_banana", "037_scissors", "048_hammer",
                                           "035_power_drill"};
  for (size_t i = 0; i < assets.size(); ++i) {
    hb::BodyDescription d;
    d.shape.asset = assets[i];
    d.pose.q = Eigen::AngleAxisd(0.3 + 0.4 * i, Eigen::Vector3d(1.0, 2.0, 0.5 + i).normalized());
    d.pose.p = {0.4 * i, 0.1, 1.0};
    d.linearVelocity = {0.1, -0.2, 0.3};
    d.angularVelocity = {1.0, 0.5 * i, -2.0};
    scene.bodies.push_back(d);
  }
  const SimScene sim = hb::sim::buildSimScene(scene);
  const std::unique_ptr<SimPeer> engine = makeEngine(GetParam(), sim);
  hb::AssetLibrary library(scene.assetDir, scene.hullTolerance);
  for (size_t i = 0; i < assets.size(); ++i) engine->drop(static_cast<int>(i));

  for (int stepCount : {0, 30}) {
    for (int i = 0; i < static_cast<int>(assets.size()); ++i) {
      // heavyball's own answer: the asset's mass properties (exact volume integrals of its
      // hull, mass from masses.csv) turned into the world by the body's current orientation.
      const hb::MassProperties expected =
          library.get(assets[i], scene.defaultDensity)->massProperties;
      const hb::Pose pose = engine->pose(i);
      const Eigen::Matrix3d r = pose.q.toRotationMatrix();
      const Eigen::Matrix3d inertiaWorld = r * expected.inertia * r.transpose();
      const hb::sim::BodyMass mass = engine->massProperties(i);
      SCOPED_TRACE(assets[i] + " after " + std::to_string(stepCount) + " steps");
      EXPECT_NEAR(mass.mass, expected.mass, 1e-12 * expected.mass);
      EXPECT_LT((mass.centerOfMass - pose.p).norm(), 1e-12);
      EXPECT_LT((mass.inertiaWorld - inertiaWorld).norm(), 1e-9 * inertiaWorld.norm());
      if (stepCount == 0) {
        EXPECT_LT((pose.p - sim.bodies[i].pose.p).norm(), 1e-12);
        EXPECT_LT(angle(pose.q, sim.bodies[i].pose.q), 1e-9);
      }
    }
    for (int s = 0; s < 30; ++s) engine->step();
  }
}

TEST_P(SimPeerTest, DroppedBodiesRestOnTheirBottomFaceAtItsHeight) {
  // YCB objects stand on the z = 0 plane of their own frame: dropped upright from 1 cm, each
  // comes to rest on its bottom face, its centre of mass at that face's distance above the
  // ground.
  hb::SceneDescription scene = groundScene();
  const std::vector<std::string> assets = {"003_cracker_box", "036_wood_block", "007_tuna_fish_can",
                                           "025_mug"};
  hb::AssetLibrary library(scene.assetDir, scene.hullTolerance);
  std::vector<double> restHeight;
  for (size_t i = 0; i < assets.size(); ++i) {
    const auto asset = library.get(assets[i], scene.defaultDensity);
    const hb::ConvexHull& hull = asset->shape.hull();
    const int bottom = hull.mostAlignedFace(-Eigen::Vector3d::UnitZ());
    const Eigen::Vector3d& com = asset->massProperties.centerOfMass;
    restHeight.push_back(hull.faceOffset(bottom) - hull.faceNormal(bottom).dot(com));
    double lowest = INFINITY;
    for (const Eigen::Vector3d& v : hull.vertices()) lowest = std::min(lowest, v.z());
    hb::BodyDescription d;
    d.shape.asset = assets[i];
    d.pose.p = {0.5 * i, 0.0, 0.01 - lowest};
    scene.bodies.push_back(d);
  }
  const SimScene sim = hb::sim::buildSimScene(scene);
  const std::unique_ptr<SimPeer> engine = makeEngine(GetParam(), sim);
  for (size_t i = 0; i < assets.size(); ++i) engine->drop(static_cast<int>(i));
  const int steps = static_cast<int>(std::lround(1.5 / scene.dt));
  for (int s = 0; s < steps; ++s) engine->step();
  for (size_t i = 0; i < assets.size(); ++i) {
    const hb::Pose pose = engine->pose(static_cast<int>(i));
    SCOPED_TRACE(assets[i]);
    std::printf("%s: %s rests %+.2f mm from its bottom face's height\n", GetParam().c_str(),
                assets[i].c_str(), 1000.0 * (pose.p.z() - restHeight[i]));
    // MuJoCo's soft contacts rest the small can 2.9-3.2 mm deep (by build: rounding moves its
    // slow rocking), the rigid engines within 1 mm.
    const double tolerance = GetParam().starts_with("mujoco") ? 0.004 : 0.003;
    EXPECT_NEAR(pose.p.z(), restHeight[i], tolerance);                   // m
    EXPECT_LT((pose.q * Eigen::Vector3d::UnitZ()).z(), 1.0 + 1e-12);     // a unit vector
    EXPECT_GT((pose.q * Eigen::Vector3d::UnitZ()).z(), std::cos(0.05));  // upright within 3 deg
    EXPECT_LT(
        std::hypot(pose.p.x() - sim.bodies[i].pose.p.x(), pose.p.y() - sim.bodies[i].pose.p.y()),
        0.01);  // m: no sliding away
  }
}

TEST_P(SimPeerTest, CompoundBodiesRestOnTheirPiecesFoot) {
  // The bowl and the mug as their convex parts, dropped upright from 1 cm: each engine collides
  // with every piece (Bullet a compound shape, MuJoCo one geom per piece), and each body comes
  // to rest upright with its lowest piece vertex on the ground.
  hb::SceneDescription scene = groundScene();
  const std::vector<std::string> assets = {"024_bowl", "025_mug"};
  hb::AssetLibrary library(scene.assetDir, scene.hullTolerance);
  std::vector<double> restHeight;
  for (size_t i = 0; i < assets.size(); ++i) {
    const auto asset = library.getParts(assets[i], scene.defaultDensity);
    double lowest = INFINITY;
    for (const hb::Shape& piece : asset->parts) {
      for (const Eigen::Vector3d& v : piece.hull().vertices()) lowest = std::min(lowest, v.z());
    }
    restHeight.push_back(-asset->meshInBody.apply(Eigen::Vector3d(0, 0, lowest)).z());
    hb::BodyDescription d;
    d.shape.asset = assets[i];
    d.shape.parts = true;
    d.pose.p = {0.5 * i, 0.0, 0.01 - lowest};
    scene.bodies.push_back(d);
  }
  const SimScene sim = hb::sim::buildSimScene(scene);
  ASSERT_TRUE(sim.bodies[0].isCompound());
  const std::unique_ptr<SimPeer> engine = makeEngine(GetParam(), sim);
  for (size_t i = 0; i < assets.size(); ++i) engine->drop(static_cast<int>(i));
  for (int s = 0; s < static_cast<int>(std::lround(1.5 / scene.dt)); ++s) engine->step();
  for (size_t i = 0; i < assets.size(); ++i) {
    SCOPED_TRACE(assets[i]);
    const hb::Pose pose = engine->pose(static_cast<int>(i));
    std::printf("%s: %s (parts) rests %+.2f mm from its foot's height\n", GetParam().c_str(),
                assets[i].c_str(), 1000.0 * (pose.p.z() - restHeight[i]));
    EXPECT_NEAR(pose.p.z(), restHeight[i], GetParam().starts_with("mujoco") ? 0.004 : 0.003);
    EXPECT_GT((pose.q * Eigen::Vector3d::UnitZ()).z(), std::cos(0.05));
  }
}

// Test names: the engine's, with '_' for '-' (gtest allows letters, digits and '_').
INSTANTIATE_TEST_SUITE_P(Engines, SimPeerTest, ::testing::ValuesIn(allEngines()),
                         [](const auto& info) {
                           std::string name = info.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

/// The MuJoCo rows and the integrator each runs.
struct MujocoRow {
  std::string name;
  std::string integrator;  ///< as the settings line names it
};

void PrintTo(const MujocoRow& row, std::ostream* out) {
  *out << row.name;
}

class MujocoIntegratorTest : public ::testing::TestWithParam<MujocoRow> {
 protected:
  void SetUp() override {
    if (const auto missing = hb::sim::simPeerUnavailable(GetParam().name)) {
      GTEST_SKIP() << GetParam().name << " is not built: " << *missing;
    }
  }
};

TEST_P(MujocoIntegratorTest, RowAndSettingsNameTheIntegrator) {
  const SimScene sim = hb::sim::buildSimScene(groundScene());
  const std::unique_ptr<SimPeer> engine = hb::sim::makeSimPeer(GetParam().name, sim);
  EXPECT_EQ(engine->name(), GetParam().name);
  const std::string settings = engine->settings();
  EXPECT_NE(settings.find(", " + GetParam().integrator + " integrator:"), std::string::npos)
      << settings;
  EXPECT_EQ(settings.find(GetParam().integrator == "Euler" ? "implicit" : "Euler"),
            std::string::npos)
      << settings;
}

// A box spinning fast about its intermediate principal axis in free flight: semi-implicit Euler
// takes the gyroscopic term at the step's start and adds rotational energy; the implicit
// integrator also takes its derivative with respect to the velocity and loses energy instead.
TEST_P(MujocoIntegratorTest, FreeSpinGainsEnergyOnlyWithSemiImplicitEuler) {
  hb::SceneDescription scene =
      hb::parseScene(R"({"name": "free", "gravity": [0, 0, 0]})", HB_SOURCE_DIR "/assets/scenes");
  hb::BodyDescription box;
  // Moments about x < y < z: y is the intermediate axis.
  box.shape.shape = hb::Shape::box({0.2, 0.05, 0.01});
  box.mass = 1.0;
  box.angularVelocity = {0.5, 30.0, 0.5};  // rad/s
  scene.bodies.push_back(box);
  const SimScene sim = hb::sim::buildSimScene(scene);
  const std::unique_ptr<SimPeer> engine = hb::sim::makeSimPeer(GetParam().name, sim);
  engine->drop(0);

  // Rotational energy from the rotation over one step (MuJoCo moves the pose with the velocity
  // it has just computed, so this is that velocity).
  auto rotationalEnergy = [&] {
    const Eigen::Quaterniond q0 = engine->pose(0).q;
    engine->step();
    const Eigen::AngleAxisd turn(engine->pose(0).q * q0.conjugate());
    const Eigen::Vector3d omega = turn.angle() / scene.dt * turn.axis();
    return 0.5 * omega.dot(engine->massProperties(0).inertiaWorld * omega);
  };
  const double initial = rotationalEnergy();
  for (int s = 0; s < 120; ++s) engine->step();
  const double after = rotationalEnergy();
  std::printf("%s: rotational energy %.3f J after one step, %.3f J one second later\n",
              GetParam().name.c_str(), initial, after);
  if (GetParam().integrator == "Euler") {
    EXPECT_GT(after, 2.0 * initial);
  } else {
    EXPECT_LT(after, initial);
  }
}

INSTANTIATE_TEST_SUITE_P(Rows, MujocoIntegratorTest,
                         ::testing::Values(MujocoRow{"mujoco", "Euler"},
                                           MujocoRow{"mujoco-implicit", "implicit"}),
                         [](const auto& info) {
                           return info.param.integrator == "Euler" ? std::string("Euler")
                                                                   : std::string("Implicit");
                         });

TEST(SimPeers, UnknownEnginesAreErrors) {
  EXPECT_THROW(hb::sim::simPeerUnavailable("physx"), std::invalid_argument);
  const SimScene sim = hb::sim::buildSimScene(groundScene());
  EXPECT_THROW(hb::sim::makeSimPeer("physx", sim), std::invalid_argument);
}

}  // namespace
