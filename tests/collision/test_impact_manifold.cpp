// Manifolds at the time of impact: two balls in an oblique collision meet along the line of
// centres at impact (closed form); for random hulls and boxes, the pair placed at the reported
// impact touches (GJK distance ~0) along the reported normal, and no earlier translation along
// the path touches (brute force); pairs that stay apart, touch already, approach head-on or
// turn fast keep their start manifold.

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "collision/collide.hpp"
#include "collision/convex_hull.hpp"
#include "collision/impact_manifold.hpp"
#include "random_geometry.hpp"

namespace hb {
namespace {

using Eigen::Vector3d;

CollisionResult narrowPhase(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB) {
  return collide(a, poseA, b, poseB, poseB.p - poseA.p, CollisionOptions{});
}

TEST(ImpactManifold, BallsMeetAlongTheLineOfCentresAtImpact) {
  const double r = 0.05, speed = 2.0, dt = 1.0 / 120.0;
  const Shape ball = Shape::sphere(r);
  for (const double b : {0.01, 0.05, 0.09}) {
    // A moves along +x, B is offset sideways by b; they touch when their x-separation is
    // sqrt(4 r^2 - b^2), reached 0.4 dt after the start.
    const double touchX = std::sqrt(4 * r * r - b * b);
    const Pose poseA = Pose::translation({0, 0, 0});
    const Pose poseB = Pose::translation({touchX + 0.4 * dt * speed, b, 0});
    const CollisionResult start = narrowPhase(ball, poseA, ball, poseB);
    const auto impact =
        impactManifold(ball, poseA, ball, poseB, start, {speed, 0, 0}, 0.0, dt, 0.01);
    // To the cast's tolerance, 1e-6 m from the surface, a few um along a grazing path (where
    // the normal turns 2e-5 rad per um).
    ASSERT_TRUE(impact.has_value()) << b;
    EXPECT_NEAR(impact->time, 0.4 * dt, 1e-5 / speed) << b;
    EXPECT_NEAR((impact->shift - Vector3d(0.4 * dt * speed, 0, 0)).norm(), 0.0, 1e-5) << b;
    const Vector3d expected = Vector3d(touchX, b, 0) / (2 * r);
    EXPECT_NEAR((impact->manifold.normal - expected).norm(), 0.0, 1e-4) << b;
    // The start's normal is off by the angle the line of centres turns before the impact.
    EXPECT_GT((start.normal - expected).norm(), 1e-3) << b;
    ASSERT_EQ(impact->manifold.size, 1);
    EXPECT_NEAR(impact->manifold.points[0].depth, 0.0, 2e-6);
    EXPECT_NEAR((impact->manifold.points[0].pointB - (poseB.p - r * expected)).norm(), 0.0, 1e-5);
  }
}

TEST(ImpactManifold, OnlyForPairsThatMeetMovingSideways) {
  const Shape ball = Shape::sphere(0.05);
  const double dt = 1.0 / 120.0;
  const Pose poseA = Pose::translation({0, 0, 0});
  const Pose poseB = Pose::translation({0.11, 0.02, 0});
  const CollisionResult start = narrowPhase(ball, poseA, ball, poseB);
  ASSERT_GT(start.distance, 0.0);
  // Closing along x at 2 m/s: 1.7 cm in the step, the gap is about 1.2 cm.
  EXPECT_TRUE(impactManifold(ball, poseA, ball, poseB, start, {2, 0, 0}, 0, dt, 0.01));
  // Too slow to close the gap in the step.
  EXPECT_FALSE(impactManifold(ball, poseA, ball, poseB, start, {0.5, 0, 0}, 0, dt, 0.01));
  // Moving apart.
  EXPECT_FALSE(impactManifold(ball, poseA, ball, poseB, start, {-2, 0, 0}, 0, dt, 0.01));
  // Head-on: along the start's normal the start's manifold is the impact's.
  EXPECT_FALSE(impactManifold(ball, poseA, ball, poseB, start, 2.0 * start.normal, 0, dt, 0.01));
  // Turning fast: the translation does not predict the impact.
  EXPECT_FALSE(impactManifold(ball, poseA, ball, poseB, start, {2, 0, 0}, 1.0, dt, 0.01));
  // Touching already.
  const Pose touching = Pose::translation({0.099, 0.0, 0});
  EXPECT_FALSE(impactManifold(ball, poseA, ball, touching, narrowPhase(ball, poseA, ball, touching),
                              {2, 0, 0}, 0, dt, 0.01));
}

// Random hulls and boxes, random approach: at A + shift the pair touches along the normal, and
// no translation a little short of it along the path touches yet.
TEST(ImpactManifold, RandomPairsTouchAtTheReportedImpact) {
  std::mt19937 rng(29);
  const double dt = 1.0 / 60.0;
  int impacts = 0;
  for (int k = 0; k < 2000; ++k) {
    const auto cloud = test::randomCloud(rng, 12, 0.08);
    const Shape a = k % 2
                        ? Shape::box(test::randomVector(rng, 0.02, 0.1))
                        : Shape::convexHull(std::make_shared<ConvexHull>(ConvexHull::build(cloud)));
    const Shape b = Shape::box(test::randomVector(rng, 0.02, 0.1));
    const Pose poseB = {test::randomRotation(rng), Vector3d::Zero()};
    const Vector3d direction = test::randomUnitVector(rng);
    const Pose poseA = {test::randomRotation(rng), -0.35 * direction};
    const CollisionResult start = narrowPhase(a, poseA, b, poseB);
    if (!(start.distance > 0.0)) continue;
    // Aimed roughly at B, fast enough to cover the gap within the step at most times.
    const Vector3d velocity = 20.0 * (direction + 0.3 * test::randomUnitVector(rng));
    const auto impact = impactManifold(a, poseA, b, poseB, start, velocity, 0.0, dt, 0.01);
    if (!impact) continue;
    ++impacts;
    Pose atImpact = poseA;
    atImpact.p += impact->shift;
    const CollisionResult there = narrowPhase(a, atImpact, b, poseB);
    EXPECT_NEAR(there.distance, 0.0, 1e-5) << k;
    EXPECT_GT(there.normal.dot(impact->manifold.normal), 1.0 - 1e-4) << k;
    EXPECT_NEAR((impact->shift - impact->time * velocity).norm(), 0.0, 1e-12) << k;
    EXPECT_LE(impact->time, dt) << k;
    for (const double fraction : {0.25, 0.5, 0.75, 0.99}) {
      Pose before = poseA;
      before.p += (fraction * impact->time - 1e-5 / velocity.norm()) * velocity;
      EXPECT_GT(narrowPhase(a, before, b, poseB).distance, 0.0) << k << " at " << fraction;
    }
  }
  EXPECT_GT(impacts, 500);
}

}  // namespace
}  // namespace hb
