// Assets that collide as their convex decomposition (convex_parts.obj): a ball dropped into the
// bowl comes to rest inside it, below the rim, where with the bowl's hull it rests on the lid the
// hull puts over it; the parts body's mass properties come from the scan mesh; the broad phase,
// which culls a compound's pieces by its body's box, misses no piece pair within the contact
// margin (brute force over every piece pair); a compound on the ground rests on four points.

#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "dynamics/mass_properties.hpp"
#include "engine/asset_library.hpp"
#include "engine/contact_reduction.hpp"
#include "engine/run_summary.hpp"
#include "engine/scene.hpp"
#include "engine/world.hpp"
#include "tests/engine/world_test_scenes.hpp"

namespace hb {
namespace {

using Eigen::Vector3d;

/// The bowl standing on the ground (its OBJ frame's lowest point at z = 0) and a 2 cm ball
/// 10 cm above its rim, over its middle; where the ball ends relative to the bowl's axis:
/// (horizontal distance, height).
Eigen::Vector2d ballRestingPlace(bool parts, double& rim) {
  AssetLibrary library(test_scenes::kYcbAssets);
  const ConvexHull& hull = library.get("024_bowl", 500.0)->shape.hull();
  double low = 1e9, high = -1e9;
  for (const Vector3d& v : hull.vertices())
    low = std::min(low, v.z()), high = std::max(high, v.z());
  rim = high - low;
  SceneDescription scene;
  scene.name = "bowl";
  scene.assetDir = test_scenes::kYcbAssets;
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
  AssetLibrary library(test_scenes::kYcbAssets);
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

/// A bowl and a mug (parts) dropped onto the ground, a mug and two balls into the bowl.
SceneDescription bowlAndMugScene() {
  return parseScene(
      R"({"name": "compounds", "asset_dir": ")" + test_scenes::kYcbAssets.string() + R"(",
    "statics": [{"type": "ground"}],
    "bodies": [
      {"asset": "024_bowl", "collision": "parts", "pose": {"p": [0, 0, 0.05]}},
      {"asset": "025_mug", "collision": "parts", "pose": {"p": [0.01, 0.0, 0.2],
       "q": [0.9, 0.3, 0.1, 0.3]}},
      {"asset": "025_mug", "collision": "parts", "pose": {"p": [0.2, 0.0, 0.1]}},
      {"shape": {"type": "sphere", "radius": 0.02}, "pose": {"p": [0.0, 0.03, 0.35]}},
      {"shape": {"type": "sphere", "radius": 0.02}, "pose": {"p": [0.2, 0.0, 0.3]}}]})",
      ".");
}

TEST(CompoundBodies, TheBroadPhaseMissesNoPiecePairWithinTheMargin) {
  World world(bowlAndMugScene());
  const auto& proxies = world.proxies();
  int checked = 0;
  for (int step = 0; step < 240; ++step) {
    // Every piece pair of two bodies, one awake, closer than the speculative margin at the
    // step's start must reach the narrow phase.
    std::vector<std::pair<int, int>> close;
    if (step % 6 == 0) {
      for (size_t a = 0; a < proxies.size(); ++a) {
        for (size_t b = a + 1; b < proxies.size(); ++b) {
          const int ba = proxies[a].body, bb = proxies[b].body;
          if (ba == bb) continue;
          if (!world.rigidBodies()[ba].isActive() && !world.rigidBodies()[bb].isActive()) continue;
          const Pose pa = world.bodyPose(ba) * proxies[a].inBody;
          const Pose pb = world.bodyPose(bb) * proxies[b].inBody;
          const GjkResult g =
              gjk(proxies[a].shape, pa, proxies[b].shape, pb, pa.p - pb.p, GjkOptions{});
          if (g.distance < world.scene().solver.speculativeMargin) {
            close.emplace_back(static_cast<int>(a), static_cast<int>(b));
          }
        }
      }
    }
    world.step();
    std::set<std::pair<int, int>> queried;
    for (const NarrowPhaseRecord& r : world.narrowPhaseRecords()) {
      queried.emplace(r.proxyA, r.proxyB);
    }
    for (const auto& pair : close) {
      EXPECT_TRUE(queried.count(pair))
          << "step " << step << ": pieces " << pair.first << ", " << pair.second;
      ++checked;
    }
  }
  EXPECT_GT(checked, 200);
}

TEST(CompoundBodies, ACompoundRestsOnFourPointsPerContactRegion) {
  World world(bowlAndMugScene());
  int most = 0;
  for (int step = 0; step < 360; ++step) {
    world.step();
    // The bowl (body 1) touching the ground: one region of at most four points, however many of
    // its 80 pieces touch it (and one more for the pieces hovering within the margin).
    int touching = 0, all = 0;
    for (const ContactConstraint& c : world.contacts()) {
      if (c.bodyA != 0 || c.bodyB != 1) continue;
      ++all;
      if (c.depth > -ContactReductionOptions{}.touchingGap) ++touching;
    }
    EXPECT_LE(touching, 4) << step;
    EXPECT_LE(all, 8) << step;
    most = std::max(most, touching);
  }
  EXPECT_GE(most, 3);
  // Held still by them: the bowl and both mugs fall asleep.
  for (const int body : {1, 2, 3}) EXPECT_TRUE(world.rigidBodies()[body].sleeping) << body;
}

}  // namespace
}  // namespace hb
