// AssetLibrary: a hull tolerance gives the scans far fewer hull vertices, every mesh point
// within the tolerance of the collision hull, with the mass properties of the exact hull;
// bodies of one asset at two densities get two masses; bad tolerances are refused.

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <limits>

#include "engine/asset_library.hpp"
#include "engine/obj_mesh.hpp"
#include "engine/scene.hpp"
#include "engine/world.hpp"
#include "temp_dir_test.hpp"
#include "tests/engine/world_test_scenes.hpp"

namespace hb {
namespace {

/// How far the furthest of `points` lies outside `hull` (negative: all inside).
double furthestOutside(const ConvexHull& hull, const std::vector<Eigen::Vector3d>& points) {
  double furthest = -std::numeric_limits<double>::infinity();
  for (const Eigen::Vector3d& p : points) {
    double distance = -std::numeric_limits<double>::infinity();
    for (int f = 0; f < hull.numFaces(); ++f) {
      distance = std::max(distance, hull.faceNormal(f).dot(p) - hull.faceOffset(f));
    }
    furthest = std::max(furthest, distance);
  }
  return furthest;
}

TEST(AssetLibrary, HullToleranceKeepsTheMassAndEveryPointWithinIt) {
  AssetLibrary exactLibrary(test_scenes::kYcbAssets);
  AssetLibrary library(test_scenes::kYcbAssets, kDefaultHullTolerance);
  EXPECT_EQ(library.hullTolerance(), kDefaultHullTolerance);
  for (const char* name : {"015_peach", "003_cracker_box", "025_mug"}) {
    SCOPED_TRACE(name);
    const auto exact = exactLibrary.get(name, 500.0);
    const auto simple = library.get(name, 500.0);
    const ConvexHull& hull = simple->shape.hull();
    EXPECT_LT(hull.numVertices(), exact->shape.hull().numVertices() / 2);
    const ObjMesh mesh = loadObjMesh(simple->objPath);
    const double outside = furthestOutside(hull, mesh.vertices);
    EXPECT_GT(outside, 0.0);
    EXPECT_LE(outside, kDefaultHullTolerance * (1.0 + 1e-6));
    // The body is the object, whatever its collision hull: the same mass properties.
    EXPECT_EQ(simple->massProperties.mass, exact->massProperties.mass);
    EXPECT_EQ(simple->massProperties.centerOfMass, exact->massProperties.centerOfMass);
    EXPECT_EQ(simple->massProperties.inertia, exact->massProperties.inertia);
    EXPECT_EQ(simple->meshInBody.p, exact->meshInBody.p);
    // The box still holds the collision hull.
    for (const Eigen::Vector3d& v : hull.vertices()) {
      EXPECT_TRUE(simple->localObb.contains(v, 1e-9));
    }
  }
  // The largest scan: from thousands of hull vertices to a few hundred.
  EXPECT_GT(exactLibrary.get("015_peach", 500.0)->shape.hull().numVertices(), 5000);
  EXPECT_LT(library.get("015_peach", 500.0)->shape.hull().numVertices(), 400);
}

TEST(AssetLibrary, PartsTakeTheToleranceToo) {
  AssetLibrary exactLibrary(test_scenes::kYcbAssets);
  AssetLibrary library(test_scenes::kYcbAssets, 1e-3);
  const auto exact = exactLibrary.getParts("024_bowl", 500.0);
  const auto simple = library.getParts("024_bowl", 500.0);
  ASSERT_EQ(simple->parts.size(), exact->parts.size());
  int exactVertices = 0, simpleVertices = 0;
  for (size_t k = 0; k < exact->parts.size(); ++k) {
    exactVertices += exact->parts[k].hull().numVertices();
    simpleVertices += simple->parts[k].hull().numVertices();
    EXPECT_LE(simple->parts[k].hull().numVertices(), exact->parts[k].hull().numVertices());
  }
  EXPECT_LT(simpleVertices, exactVertices);
  EXPECT_EQ(simple->massProperties.mass, exact->massProperties.mass);
}

class AssetDensityTest : public test::TempDirTest {
 protected:
  AssetDensityTest() : TempDirTest("hb_asset_density_") {}
};

// An asset without a masses.csv entry takes each body's density: two bodies of it in one world
// at 500 and 1000 kg/m^3 weigh one and two units.
TEST_F(AssetDensityTest, BodiesOfOneAssetTakeTheirOwnDensity) {
  std::filesystem::create_directories(dir_ / "cube");
  write("cube/textured.obj",
        "v 0 0 0\nv 0.1 0 0\nv 0 0.1 0\nv 0.1 0.1 0\nv 0 0 0.1\nv 0.1 0 0.1\nv 0 0.1 0.1\n"
        "v 0.1 0.1 0.1\nf 1 3 4 2\nf 5 6 8 7\nf 1 2 6 5\nf 3 7 8 4\nf 1 5 7 3\nf 2 4 8 6\n");
  SceneDescription scene;
  scene.assetDir = dir_;
  for (const double density : {500.0, 1000.0}) {
    BodyDescription body;
    body.shape.asset = "cube";
    body.density = density;
    body.pose.p = {density / 1000.0, 0.0, 1.0};
    scene.bodies.push_back(body);
  }
  World world(scene);
  EXPECT_NEAR(1.0 / world.rigidBodies()[1].inverseMass, 0.5, 1e-12);
  EXPECT_NEAR(1.0 / world.rigidBodies()[2].inverseMass, 1.0, 1e-12);
}

TEST(AssetLibrary, BadHullToleranceIsAClearError) {
  for (const double bad : {-1e-4, std::numeric_limits<double>::quiet_NaN()}) {
    try {
      AssetLibrary library(test_scenes::kYcbAssets, bad);
      ADD_FAILURE() << "no error for " << bad;
    } catch (const MeshLoadError& e) {
      EXPECT_NE(std::string(e.what()).find("hull tolerance"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace hb
