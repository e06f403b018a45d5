// Drops placed clear of the bodies already there: the spawner's (only real overlap moves a drop)
// and the helper's two tests of what is in the way.

#include <gtest/gtest.h>

#include <limits>

#include "collision/collide.hpp"
#include "engine/drop_clearance.hpp"
#include "engine/scene.hpp"
#include "engine/world.hpp"

namespace hb {
namespace {

using Eigen::Vector3d;

/// A scene whose drop region is filled by one large box resting on a ground: every drop the
/// spawner draws there starts inside the box.
SceneDescription blockedDropRegion(bool liftClear) {
  SceneDescription scene;
  scene.name = "blocked";
  scene.assetDir = std::string(HB_SOURCE_DIR) + "/assets/ycb";
  StaticDescription ground;
  ground.kind = StaticDescription::Kind::Ground;
  scene.statics.push_back(ground);
  BodyDescription block;
  block.shape.shape = Shape::box({0.5, 0.5, 0.5});
  block.pose.p = {0.0, 0.0, 0.5};
  block.density = 500.0;
  scene.bodies.push_back(block);
  SpawnerDescription spawner;
  spawner.count = 8;
  spawner.seed = 3;
  spawner.center = {0.0, 0.0, 0.3};
  spawner.radius = 0.2;
  spawner.height = 0.4;
  spawner.interval = 0.1;
  spawner.liftClear = liftClear;
  scene.spawner = spawner;
  return scene;
}

/// The deepest overlap of the last body added with any other dynamic body (0: none).
double deepestOverlapOfLast(const World& world) {
  const auto& proxies = world.proxies();
  const int last = static_cast<int>(proxies.size()) - 1;
  double deepest = 0.0;
  for (int p = 0; p < last; ++p) {
    if (proxies[p].body == 0) continue;
    const CollisionResult c =
        collide(proxies[last].shape, world.proxyPose(last), proxies[p].shape, world.proxyPose(p),
                world.proxyPose(last).p - world.proxyPose(p).p, {});
    if (c.collide) deepest = std::min(deepest, c.distance);
  }
  return deepest;
}

TEST(DropClearance, TheSpawnerLiftsDropsOutOfTheBodiesInTheirWay) {
  for (const bool lift : {false, true}) {
    // The first drop is due at once, when the world is built; the others at the start of a
    // step. Each is checked against the others as that step left them: a drop lifted clear
    // falls freely for one step, which cannot bring it into the block.
    World world(blockedDropRegion(lift));
    int drops = 1;
    double deepest = deepestOverlapOfLast(world);
    for (int step = 0; step < 120 && drops < 8; ++step) {
      const std::size_t before = world.bodies().size();
      world.step();
      if (world.bodies().size() == before) continue;
      ++drops;
      deepest = std::min(deepest, deepestOverlapOfLast(world));
    }
    EXPECT_EQ(drops, 8);
    if (lift) {
      EXPECT_EQ(deepest, 0.0);
    } else {
      EXPECT_LT(deepest, -0.05);  // the raw draws start well inside the block
    }
  }
}

TEST(DropClearance, BoxesCountBoundingBoxesShapesOnlyRealOverlap) {
  SceneDescription scene;
  scene.name = "two";
  scene.assetDir = std::string(HB_SOURCE_DIR) + "/assets/ycb";
  BodyDescription ball;
  ball.shape.shape = Shape::sphere(0.1);
  ball.pose.p = {0.0, 0.0, 1.0};
  ball.density = 500.0;
  scene.bodies.push_back(ball);
  const World world(scene);

  // A small sphere in the corner of the ball's bounding box, outside the ball itself.
  const Shape small = Shape::sphere(0.01);
  BodyDescription drop;
  drop.shape.shape = small;
  drop.pose.p = {0.09, 0.09, 0.95};
  const Obb box = localObb(small);

  BodyDescription byShapes = drop;
  EXPECT_EQ(liftClearOfBodies(world, byShapes, small, box, DropClearance::Shapes), 0.0);
  EXPECT_EQ(byShapes.pose.p, drop.pose.p);

  BodyDescription byBoxes = drop;
  const double rise = liftClearOfBodies(world, byBoxes, small, box, DropClearance::Boxes);
  // Above the ball's box (top at 1.1) by the gap, bottom of the drop at 1.1 + gap.
  EXPECT_GT(rise, 0.0);
  EXPECT_NEAR(byBoxes.pose.p.z() - 0.01, 1.1, 0.01);
  EXPECT_GT(byBoxes.pose.p.z() - 0.01, 1.1);

  // Inside the ball: both tests lift it clear.
  BodyDescription inside = drop;
  inside.pose.p = {0.0, 0.0, 1.0};
  EXPECT_GT(liftClearOfBodies(world, inside, small, box, DropClearance::Shapes), 0.0);
  EXPECT_GT(inside.pose.p.z() - 0.01, 1.1);
}

TEST(DropClearance, WorldBoxesAndTheirHighestTopFollowThePosesBetweenSteps) {
  // The lift reads the world's boxes between steps (the viewer drops there): after every step
  // they are the pieces' local boxes at the current poses, and the highest dynamic top is the
  // highest of them (recomputed here by brute force).
  World world(blockedDropRegion(true));
  for (int step = 0; step < 60; ++step) {
    world.step();
    double highest = -std::numeric_limits<double>::infinity();
    for (int p = 0; p < static_cast<int>(world.proxies().size()); ++p) {
      const Obb expected = world.proxies()[p].localObb.transformed(world.proxyPose(p));
      const Obb& actual = world.worldObbs()[p];
      ASSERT_LT((actual.center - expected.center).norm(), 1e-12) << "step " << step;
      ASSERT_LT((actual.axes - expected.axes).norm(), 1e-12) << "step " << step;
      if (world.proxies()[p].body == 0) continue;
      for (const Vector3d& corner : expected.corners()) highest = std::max(highest, corner.z());
    }
    ASSERT_NEAR(world.highestDynamicTop(), highest, 1e-9) << "step " << step;
  }
}

TEST(DropClearance, AColumnOfDropsStartsClearOfEveryBody) {
  // Interval 0 stacks every drop above the previous one; the lift's shortcut (a drop above the
  // highest dynamic box is clear) must agree with the full check on all of them.
  SceneDescription scene = blockedDropRegion(true);
  scene.spawner->interval = 0.0;
  scene.spawner->count = 40;
  const World world(scene);
  ASSERT_EQ(world.bodies().size(), 42u);  // the static body, the block and 40 drops
  const auto& proxies = world.proxies();
  for (int a = 0; a < static_cast<int>(proxies.size()); ++a) {
    for (int b = a + 1; b < static_cast<int>(proxies.size()); ++b) {
      if (proxies[a].body == 0 || proxies[b].body == 0) continue;
      const CollisionResult c =
          collide(proxies[a].shape, world.proxyPose(a), proxies[b].shape, world.proxyPose(b),
                  world.proxyPose(a).p - world.proxyPose(b).p, {});
      EXPECT_FALSE(c.collide) << "pieces " << a << " and " << b;
    }
  }
}

}  // namespace
}  // namespace hb
