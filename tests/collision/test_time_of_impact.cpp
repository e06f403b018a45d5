// Time of impact by conservative advancement: exact for translations (a sphere towards a box),
// never late against dense sampling of the distance along rotating motions, the same for pairs
// touching at the start and swept for when their overlap exceeds an allowance, stalled sweeps
// going on with a deeper allowance, and the cases
// that are not impacts (moving apart, touching from the start, bad input).

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <random>

#include "collision/collide.hpp"
#include "collision/convex_hull.hpp"
#include "collision/time_of_impact.hpp"
#include "tests/collision/random_geometry.hpp"

namespace hb {
namespace {

using Eigen::Vector3d;

double gap(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb) {
  CollisionOptions options;
  options.gjk.tolerance = 1e-14;
  return collide(a, pa, b, pb, pb.p - pa.p, options).distance;
}

TEST(TimeOfImpact, ATranslatingSphereStopsAtTheTargetDistance) {
  const Shape ball = Shape::sphere(0.05), box = Shape::box({0.5, 0.5, 0.01});
  RigidMotion falling;
  falling.start = Pose::translation({0.1, 0.0, 1.0});
  falling.linear = {0.0, 0.0, -50.0};
  RigidMotion still;
  const ToiOptions options;
  const ToiResult r =
      timeOfImpact(ball, Pose::identity(), falling, box, Pose::identity(), still, 0.1, options);
  ASSERT_EQ(r.status, ToiStatus::Hit);
  // The ball's bottom from 0.95 m down to the box's top at 0.01 m, less the target distance.
  const double expected = (1.0 - 0.05 - 0.01 - options.targetDistance) / 50.0;
  EXPECT_NEAR(r.time, expected, options.tolerance / 50.0);
  EXPECT_GE(r.distance, options.targetDistance - 1e-9);
  EXPECT_LT((r.normal - Vector3d(0, 0, -1)).norm(), 1e-6);
}

TEST(TimeOfImpact, RotatingPiecesAreNeverFoundLate) {
  std::mt19937 rng(21);
  int hits = 0;
  for (int trial = 0; trial < 150; ++trial) {
    const Shape a = Shape::convexHull(
        std::make_shared<const ConvexHull>(ConvexHull::build(test::randomCloud(rng, 12, 0.1))));
    const Shape b = Shape::box({0.3, 0.3, 0.01});
    RigidMotion ma;
    ma.start = {test::randomRotation(rng),
                test::randomVector(rng, -0.2, 0.2) + Vector3d(0, 0, 0.4)};
    ma.linear = test::randomVector(rng, -2.0, 2.0) + Vector3d(0, 0, -20.0);
    ma.angular = test::randomVector(rng, -40.0, 40.0);
    ma.reach = 0.1 * std::sqrt(3.0);
    RigidMotion mb;
    const double duration = 0.05;
    if (gap(a, ma.start, b, mb.start) <= 0.001) continue;
    const ToiOptions options;
    const ToiResult r =
        timeOfImpact(a, Pose::identity(), ma, b, Pose::identity(), mb, duration, options);
    // The first sampled time at which the pair comes within the target distance.
    double first = std::numeric_limits<double>::infinity();
    for (int k = 0; k <= 20000; ++k) {
      const double t = duration * k / 20000;
      if (gap(a, ma.at(t), b, mb.at(t)) <= options.targetDistance) {
        first = t;
        break;
      }
    }
    if (r.status == ToiStatus::Separated) {
      EXPECT_TRUE(std::isinf(first)) << trial << " sampled contact at " << first;
      continue;
    }
    ASSERT_TRUE(r.status == ToiStatus::Hit || r.status == ToiStatus::MaxIterations) << trial;
    ++hits;
    EXPECT_LE(r.time, first + duration / 20000) << trial;
    EXPECT_GE(gap(a, ma.at(r.time), b, mb.at(r.time)), options.targetDistance - 1e-7) << trial;
  }
  EXPECT_GT(hits, 50);
}

TEST(TimeOfImpact, ASinkingSphereStopsAtTheAllowedOverlap) {
  const Shape ball = Shape::sphere(0.05), box = Shape::box({0.5, 0.5, 0.01});
  RigidMotion sinking, still;
  sinking.start = Pose::translation({0.0, 0.0, 0.0602});  // 0.2 mm above the box
  sinking.linear = {0.0, 0.0, -10.0};
  ToiOptions options;
  options.allowedOverlap = 0.003;
  const ToiResult r =
      timeOfImpact(ball, Pose::identity(), sinking, box, Pose::identity(), still, 0.01, options);
  ASSERT_EQ(r.status, ToiStatus::Hit);
  EXPECT_NEAR(r.time, (0.0002 + 0.003) / 10.0, options.tolerance / 10.0);
  EXPECT_NEAR(r.distance, -0.003, options.tolerance);
  // Deeper than the allowance already: a tenth of it more.
  sinking.start.p.z() = 0.055;
  const ToiResult deep =
      timeOfImpact(ball, Pose::identity(), sinking, box, Pose::identity(), still, 0.01, options);
  ASSERT_EQ(deep.status, ToiStatus::Hit);
  EXPECT_NEAR(deep.time, 0.0003 / 10.0, options.tolerance / 10.0);
  // Rising out of the overlap: never deeper.
  sinking.linear.z() = 10.0;
  EXPECT_EQ(
      timeOfImpact(ball, Pose::identity(), sinking, box, Pose::identity(), still, 0.01, options)
          .status,
      ToiStatus::Separated);
}

TEST(TimeOfImpact, TouchingRotatingPiecesAreNeverFoundLate) {
  // Pieces resting on a plate at the start and turning fast into it, against dense sampling
  // of their signed distance (EPA).
  std::mt19937 rng(22);
  int hits = 0, misses = 0;
  for (int trial = 0; trial < 150; ++trial) {
    const Shape a = Shape::convexHull(
        std::make_shared<const ConvexHull>(ConvexHull::build(test::randomCloud(rng, 12, 0.1))));
    const Shape b = Shape::box({0.3, 0.3, 0.01});
    RigidMotion ma, mb;
    // Lowered onto the plate from 0.4 m, its lowest point 0-2 mm deep.
    ma.start = {test::randomRotation(rng), Vector3d(0, 0, 0.4)};
    ma.start.p.z() -=
        gap(a, ma.start, b, mb.start) + std::uniform_real_distribution<>(0.0, 0.002)(rng);
    ma.linear = test::randomVector(rng, -1.0, 1.0);
    ma.angular = test::randomVector(rng, -60.0, 60.0);
    ma.reach = 0.1 * std::sqrt(3.0);
    const double duration = 1.0 / 120.0;
    ToiOptions options;
    options.allowedOverlap = 0.003;
    const double start = gap(a, ma.start, b, mb.start);
    const double target = std::min(-options.allowedOverlap, start - 0.1 * options.allowedOverlap);
    const ToiResult r =
        timeOfImpact(a, Pose::identity(), ma, b, Pose::identity(), mb, duration, options);
    double first = std::numeric_limits<double>::infinity();
    for (int k = 0; k <= 5000; ++k) {
      const double t = duration * k / 5000;
      if (gap(a, ma.at(t), b, mb.at(t)) <= target) {
        first = t;
        break;
      }
    }
    if (r.status == ToiStatus::Separated) {
      EXPECT_TRUE(std::isinf(first)) << trial << " sampled overlap at " << first;
      ++misses;
      continue;
    }
    ASSERT_TRUE(r.status == ToiStatus::Hit || r.status == ToiStatus::MaxIterations) << trial;
    ++hits;
    EXPECT_LE(r.time, first + duration / 5000) << trial;
    EXPECT_GE(gap(a, ma.at(r.time), b, mb.at(r.time)), target - 1e-7) << trial;
  }
  EXPECT_GT(hits, 30);
  EXPECT_GT(misses, 10);
}

TEST(TimeOfImpact, ASpinAboutTheNormalDoesNotCloseTheGap) {
  // A plate spinning flat just above a table and sliding over it: no point of it comes nearer,
  // so the first advancement passes the whole interval.
  const Shape plate = Shape::box({0.2, 0.2, 0.01}), table = Shape::box({1.0, 1.0, 0.01});
  RigidMotion spinning, still;
  spinning.start = Pose::translation({0.0, 0.0, 0.021});
  spinning.linear = {1.0, 0.0, 0.0};
  spinning.angular = {0.0, 0.0, 80.0};
  spinning.reach = 0.2 * std::sqrt(2.0) + 0.01;
  const ToiResult r =
      timeOfImpact(plate, Pose::identity(), spinning, table, Pose::identity(), still, 1.0 / 60.0);
  EXPECT_EQ(r.status, ToiStatus::Separated);
  EXPECT_LE(r.iterations, 2);
}

TEST(TimeOfImpact, AStalledSweepGoesOnWithTheDeeperAllowanceAndIsNeverLate) {
  // Hulls of 2 m reach rolling on the ground, touching it at the start: the bound on how fast
  // the overlap can grow (the turn at the whole reach) is far above how fast it does, and
  // 32 advancements do not cover the step. With a stalled overlap the sweep goes on from where
  // it stopped; it is never later than dense sampling says the deeper allowance is reached.
  std::mt19937 rng(23);
  const Shape ground = Shape::box({50.0, 50.0, 1.0});
  const Pose groundPose = Pose::translation({0.0, 0.0, -1.0});
  int stalls = 0, relaxed = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const Shape hull = Shape::convexHull(
        std::make_shared<const ConvexHull>(ConvexHull::build(test::randomCloud(rng, 32, 2.0))));
    RigidMotion rolling, still;
    rolling.start = {test::randomRotation(rng), Vector3d(0, 0, 3.0)};
    rolling.start.p.z() -= gap(hull, rolling.start, ground, groundPose) + 0.001;
    const double speed = std::uniform_real_distribution<>(1.0, 6.0)(rng);
    rolling.linear = {speed, 0.0, 0.0};
    rolling.angular = {0.0, speed / 1.5, 0.0};
    rolling.reach = 2.0 * std::sqrt(3.0);
    const double duration = 1.0 / 60.0;
    ToiOptions options;
    options.allowedOverlap = 0.003;
    const ToiResult stalled =
        timeOfImpact(hull, Pose::identity(), rolling, ground, groundPose, still, duration, options);
    if (stalled.status != ToiStatus::MaxIterations) continue;
    ++stalls;
    options.stalledOverlap = 0.25;
    const ToiResult r =
        timeOfImpact(hull, Pose::identity(), rolling, ground, groundPose, still, duration, options);
    EXPECT_TRUE(r.relaxed) << trial;
    relaxed += r.relaxed;
    EXPECT_GE(r.time, stalled.time) << trial;
    double first = std::numeric_limits<double>::infinity();
    for (int k = 0; k <= 2000; ++k) {
      const double t = duration * k / 2000;
      const double g = gap(hull, rolling.at(t), ground, groundPose);
      // Before the stall the allowance is 3 mm; after it, a quarter metre.
      if (g <= (t <= stalled.time ? -0.003 - 0.0003 : -0.25)) {
        first = t;
        break;
      }
    }
    if (r.status == ToiStatus::Separated) {
      EXPECT_TRUE(std::isinf(first)) << trial << " sampled overlap at " << first;
    } else {
      EXPECT_LE(r.time, first + duration / 2000) << trial;
    }
  }
  EXPECT_GT(stalls, 10);
  EXPECT_EQ(relaxed, stalls);
}

TEST(TimeOfImpact, PartingTouchingAndBadMotionsAreNotImpacts) {
  const Shape ball = Shape::sphere(0.05), box = Shape::box({0.5, 0.5, 0.01});
  RigidMotion still, rising;
  rising.start = Pose::translation({0.0, 0.0, 0.5});
  rising.linear = {0.0, 0.0, 10.0};
  EXPECT_EQ(timeOfImpact(ball, Pose::identity(), rising, box, Pose::identity(), still, 0.1).status,
            ToiStatus::Separated);
  RigidMotion resting;
  resting.start = Pose::translation({0.0, 0.0, 0.06});
  resting.linear = {0.0, 0.0, -1.0};
  EXPECT_EQ(timeOfImpact(ball, Pose::identity(), resting, box, Pose::identity(), still, 0.1).status,
            ToiStatus::Touching);
  RigidMotion bad;
  bad.linear.x() = std::nan("");
  EXPECT_EQ(timeOfImpact(ball, Pose::identity(), bad, box, Pose::identity(), still, 0.1).status,
            ToiStatus::InvalidInput);
}

}  // namespace
}  // namespace hb
