// Assets that collide as their convex decomposition (convex_parts.obj): a ball dropped into the
// bowl comes to rest inside it, below the rim, where with the bowl's hull it rests on the lid the
// hull puts over it; the parts body's mass properties come from the scan mesh.

#include <gtest/gtest.h>

#include <filesystem>

#include "dynamics/mass_properties.hpp"
#include "engine/asset_library.hpp"
#include "engine/run_summary.hpp"
#include "engine/scene.hpp"
#include "engine/world.hpp"

namespace hb {
namespace {

using Eigen::Vector3d;

const std::filesystem::path kAssets = std::filesystem::path(HB_SOURCE_DIR) / "assets/ycb";

/// The bowl standing on the ground (its OBJ frame's lowest point at z = 0) and a 2 cm ball
/// 10 cm above its rim, over its middle; where the ball ends relative to the bowl's axis:
/// (horizontal distance, height).
Eigen::Vector2d ballRestingPlace(bool parts, double& rim) {
  AssetLibrary library(kAssets);
  const ConvexHull& hull = library.get("024_bowl", 500.0)->shape.hull();
  double low = 1e9, high = -1e9;
  for (const Vector3d& v : hull.vertices())
    low = std::min(low, v.z()), high = std::max(high, v.z());
  rim = high - low;
  SceneDescription scene;
  scene.name = "bowl";
  scene.assetDir = kAssets;
  StaticDescription ground;
  ground.kind = StaticDescription::Kind::Ground;
  scene.statics.push_back(ground);
  BodyDescription bowl;
  bowl.shape.asset = "024_bowl";
  bowl.shape.parts = parts;
  bowl.pose.p = {-hull.centroid().x(), -hull.centroid().y(), -low + 1e-3};
  scene.bodies.push_back(bowl);
  BodyDescription ball;
  ball.shape.shape = Shape::sphere(0.02);
  ball.pose.p = {0.0, 0.0, rim + 0.1};
  ball.density = 1000.0;
  scene.bodies.push_back(ball);
  World world(scene);
  const RunSummary summary = runSteps(world, 360);
  EXPECT_FALSE(summary.blewUp());
  const Pose bowlPose = world.bodyPose(1);
  const Vector3d axisPoint = bowlPose.apply(world.bodies()[1].asset->meshInBody.apply(
      Vector3d(hull.centroid().x(), hull.centroid().y(), 0.0)));
  const Vector3d ballAt = world.rigidBodies()[2].position;
  return {(ballAt - axisPoint).head<2>().norm(), ballAt.z()};
}

TEST(CompoundBodies, ABallRestsInsideTheBowlOnlyWithItsParts) {
  double rim = 0.0;
  const Eigen::Vector2d inside = ballRestingPlace(true, rim);
  // In the bowl: near its axis, below the rim.
  EXPECT_LT(inside.y(), rim - 0.01) << "rim " << rim;
  EXPECT_LT(inside.x(), 0.05);
  // With the hull the ball cannot get in: it stays on the lid the hull puts over the bowl or
  // rolls off it, outside the bowl's 8 cm radius.
  const Eigen::Vector2d hullCase = ballRestingPlace(false, rim);
  EXPECT_TRUE(hullCase.y() > rim + 0.015 || hullCase.x() > 0.08)
      << hullCase.transpose() << ", rim " << rim;
}

TEST(CompoundBodies, PartsCarryTheScanMassAndEveryPiece) {
  AssetLibrary library(kAssets);
  const auto hull = library.get("024_bowl", 500.0);
  const auto parts = library.getParts("024_bowl", 500.0);
  EXPECT_GE(parts->parts.size(), 60u);
  EXPECT_EQ(parts->parts.size(), parts->partBoxes.size());
  // masses.csv's mass either way; the scan's centre of mass sits lower than its hull's (the
  // hull fills the bowl's hollow).
  EXPECT_NEAR(parts->massProperties.mass, hull->massProperties.mass, 1e-9);
  EXPECT_LT(parts->massProperties.centerOfMass.z(), hull->massProperties.centerOfMass.z());
  EXPECT_TRUE(hull->parts.empty());
}

}  // namespace
}  // namespace hb
