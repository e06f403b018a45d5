// The collision translation (GJK ray cast) against exact answers: spheres (a quadratic), boxes
// along an axis, and random polytopes, rounded shapes and mixed pairs against an independent
// search on the distance query (the first translation at which GJK + EPA report contact,
// bracketed and bisected). Misses are checked through their separating plane.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <random>

#include "collision/collide.hpp"
#include "collision/convex_hull.hpp"
#include "collision/cta.hpp"
#include "collision/shape_cast.hpp"
#include "tests/collision/random_geometry.hpp"

namespace hb {
namespace {

using Eigen::Vector3d;
using test::randomPose;
using test::randomUnitVector;
using test::randomVector;

// Converged far below the cast's tolerance (the default counts 0.1 mm apart as touching).
double signedDistance(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb) {
  CollisionOptions options;
  options.gjk.tolerance = 1e-16;
  options.gjk.maxIterations = 1000;
  return collide(a, pa, b, pb, pa.p - pb.p, options).distance;
}

Pose translated(const Pose& p, const Vector3d& t) {
  return {p.q, p.p + t};
}

// The first s in [0, limit] with A translated by s r touching B, by stepping then bisecting
// the signed distance; infinity when none.
double firstContact(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb,
                    const Vector3d& r, double limit) {
  const auto gap = [&](double s) { return signedDistance(a, translated(pa, s * r), b, pb); };
  if (gap(0.0) <= 0.0) return 0.0;
  const double step = 0.002;
  double lo = 0.0;
  for (double s = step; s <= limit; s += step) {
    if (gap(s) <= 0.0) {
      double hi = s;
      for (int i = 0; i < 60; ++i) {
        const double mid = 0.5 * (lo + hi);
        (gap(mid) <= 0.0 ? hi : lo) = mid;
      }
      return hi;
    }
    lo = s;
  }
  return std::numeric_limits<double>::infinity();
}

Shape randomPolytope(std::mt19937& rng, double scale) {
  std::uniform_int_distribution<int> count(4, 40);
  return Shape::convexHull(std::make_shared<const ConvexHull>(
      ConvexHull::build(test::randomCloud(rng, count(rng), scale))));
}

TEST(ShapeCast, SpheresTouchWhereTheQuadraticSays) {
  std::mt19937 rng(11);
  int hits = 0, misses = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const double ra = std::uniform_real_distribution<double>(0.01, 0.3)(rng);
    const double rb = std::uniform_real_distribution<double>(0.01, 0.3)(rng);
    const Pose pa = randomPose(rng, 1.0), pb = randomPose(rng, 1.0);
    // Half of the casts aimed near B, so that hits and misses both occur often.
    const Vector3d r = trial % 2 == 0 ? randomUnitVector(rng)
                                      : (pb.p + randomVector(rng, -0.4, 0.4) - pa.p).normalized();
    const CastResult c = castShape(Shape::sphere(ra), pa, Shape::sphere(rb), pb, 3.7 * r);
    // |pa + s r - pb| = ra + rb: s^2 + 2 s r.(pa - pb) + |pa - pb|^2 - R^2 = 0.
    const Vector3d e = pa.p - pb.p;
    const double radius = ra + rb, half = r.dot(e), cc = e.squaredNorm() - radius * radius;
    const double disc = half * half - cc;
    if (cc <= 0.0) {
      EXPECT_EQ(c.status, CastStatus::Overlapping) << trial;
      EXPECT_EQ(c.distance, 0.0);
      continue;
    }
    if (disc < 0.0 || half > 0.0) {
      ASSERT_EQ(c.status, CastStatus::Miss) << trial;
      ++misses;
      continue;
    }
    const double s = -half - std::sqrt(disc);
    // Grazing rays (the ray within a few micrometres of tangent) may go either way.
    if (disc < 1e-8) continue;
    ASSERT_EQ(c.status, CastStatus::Hit) << trial;
    ++hits;
    EXPECT_NEAR(c.distance, s, 1e-5) << trial;
    // The normal at contact points from A's centre to B's, the witnesses lie on the spheres.
    const Vector3d centreA = pa.p + c.distance * r;
    EXPECT_LT((c.normal - (pb.p - centreA).normalized()).norm(), 1e-4) << trial;
    EXPECT_NEAR((c.witnessA - centreA).norm(), ra, 1e-5);
    EXPECT_NEAR((c.witnessB - pb.p).norm(), rb, 1e-5);
  }
  EXPECT_GT(hits, 200);
  EXPECT_GT(misses, 200);
}

TEST(ShapeCast, BoxesAlongAnAxisCloseTheirGap) {
  const Shape a = Shape::box({0.1, 0.2, 0.3}), b = Shape::box({0.05, 0.05, 0.05});
  const Pose pa = Pose::identity();
  const Pose pb = Pose::translation({1.0, 0.05, -0.1});
  const CastResult c = castShape(a, pa, b, pb, {2.0, 0.0, 0.0});
  ASSERT_EQ(c.status, CastStatus::Hit);
  EXPECT_NEAR(c.distance, 1.0 - 0.1 - 0.05, 1e-9);
  EXPECT_LT((c.normal - Vector3d::UnitX()).norm(), 1e-9);
  // A's face, moved from x = 0.1 to B's at 0.95.
  EXPECT_NEAR(c.witnessA.x(), 0.95, 1e-6);
  EXPECT_NEAR(c.witnessB.x(), 0.95, 1e-6);
  // Away from it, or past it sideways: a miss, with a plane between.
  for (const Vector3d& away : {Vector3d(-1, 0, 0), Vector3d(0, 0, 1)}) {
    const CastResult m = castShape(a, pa, b, pb, away);
    ASSERT_EQ(m.status, CastStatus::Miss);
    EXPECT_TRUE(std::isinf(m.distance));
  }
}

TEST(ShapeCast, DirectionsOfAnyLengthGiveTheSameAnswer) {
  // Squared norms that overflow (1e155 and beyond) or fall into the denormals (below 1e-154)
  // once made the direction infinite ("already touching") or not unit (0.9447 for 0.85).
  const Shape a = Shape::box({0.1, 0.1, 0.1}), b = Shape::sphere(0.05);
  const Pose pb = Pose::translation({1.0, 0.0, 0.0});
  const CastResult unit = castShape(a, Pose::identity(), b, pb, Vector3d::UnitX());
  EXPECT_NEAR(unit.distance, 0.85, 1e-8);
  for (const double length : {1e155, 1e200, 1e308, 2e-162, 3e-162, 1e-161, 1e-160, 5e-324}) {
    const CastResult c = castShape(a, Pose::identity(), b, pb, {length, 0.0, 0.0});
    ASSERT_EQ(c.status, CastStatus::Hit) << length;
    EXPECT_EQ(c.distance, unit.distance) << length;
    EXPECT_EQ(c.witnessA, unit.witnessA) << length;
    const CastResult r = castCta(CtaPolyhedron(a), Pose::identity(),
                                 CtaPolyhedron(Shape::box({0.05, 0.05, 0.05})), pb, {length, 0, 0});
    ASSERT_EQ(r.status, CastStatus::Hit) << length;
    EXPECT_NEAR(r.distance, 0.85, 1e-9) << length;
  }
  EXPECT_LT((unitVector({3e-162, 4e-162, 0.0}) - Vector3d(0.6, 0.8, 0.0)).norm(), 1e-15);
  EXPECT_LT((unitVector({3e200, 0.0, -4e200}) - Vector3d(0.6, 0.0, -0.8)).norm(), 1e-15);
  EXPECT_TRUE(unitVector({1e308, std::numeric_limits<double>::infinity(), 0.0}).isZero());
}

TEST(ShapeCast, RandomPairsAgreeWithTheFirstContactOfTheDistanceQuery) {
  std::mt19937 rng(12);
  int hits = 0, misses = 0;
  for (int trial = 0; trial < 300; ++trial) {
    Shape a = randomPolytope(rng, 0.15);
    Shape b = trial % 3 == 0   ? Shape::capsule(0.05, 0.1)
              : trial % 3 == 1 ? Shape::box({0.1, 0.05, 0.08}).withConvexRadius(0.01)
                               : randomPolytope(rng, 0.15);
    const Pose pa = randomPose(rng, 0.1);
    const Pose pb = {test::randomRotation(rng), randomVector(rng, -0.6, 0.6)};
    // Aimed near B, so that hits and misses both occur.
    const Vector3d aim = (pb.p + randomVector(rng, -0.3, 0.3) - pa.p).normalized();
    const CastResult c = castShape(a, pa, b, pb, aim);
    const double expected = firstContact(a, pa, b, pb, aim, 3.0);
    if (std::isinf(expected)) {
      ASSERT_EQ(c.status, CastStatus::Miss) << trial << ": " << toString(c.status) << " after "
                                            << c.iterations << " at " << c.distance;
      ++misses;
      continue;
    }
    if (expected == 0.0) {
      EXPECT_EQ(c.status, CastStatus::Overlapping) << trial;
      continue;
    }
    ASSERT_EQ(c.status, CastStatus::Hit) << trial << " expected " << expected;
    ++hits;
    EXPECT_NEAR(c.distance, expected, 2e-5) << trial;
    // Touching there: the witnesses agree and the distance query says contact.
    EXPECT_LT((c.witnessA - c.witnessB).norm(), 1e-5) << trial;
    EXPECT_LE(signedDistance(a, translated(pa, c.distance * aim), b, pb), 1e-5) << trial;
  }
  EXPECT_GT(hits, 60);
  EXPECT_GT(misses, 30);
}

TEST(ShapeCast, AMissesPlaneSeparatesTheWholeSweepFromB) {
  std::mt19937 rng(13);
  int checked = 0;
  for (int trial = 0; trial < 400 && checked < 100; ++trial) {
    const std::vector<Vector3d> cloudA = test::randomCloud(rng, 20, 0.1);
    const std::vector<Vector3d> cloudB = test::randomCloud(rng, 20, 0.1);
    const Shape a =
        Shape::convexHull(std::make_shared<const ConvexHull>(ConvexHull::build(cloudA)));
    const Shape b =
        Shape::convexHull(std::make_shared<const ConvexHull>(ConvexHull::build(cloudB)));
    const Pose pa = randomPose(rng, 0.1);
    const Pose pb = {test::randomRotation(rng), randomVector(rng, -0.8, 0.8)};
    const Vector3d r = randomUnitVector(rng);
    const CastResult c = castShape(a, pa, b, pb, r);
    if (c.status != CastStatus::Miss) continue;
    ++checked;
    const Plane& plane = c.separatingPlane;
    EXPECT_NEAR(plane.normal.norm(), 1.0, 1e-12);
    for (const Vector3d& v : b.hull().vertices()) {
      EXPECT_LT(plane.normal.dot(pb.apply(v)), plane.offset) << trial;
    }
    for (const double s : {0.0, 0.5, 2.0, 100.0, 1e5}) {
      for (const Vector3d& v : a.hull().vertices()) {
        EXPECT_GT(plane.normal.dot(pa.apply(v) + s * r), plane.offset) << trial << " at " << s;
      }
    }
  }
  EXPECT_GE(checked, 100);
}

TEST(ShapeCast, BadInputIsReported) {
  const Shape s = Shape::sphere(0.1);
  EXPECT_EQ(
      castShape(s, Pose::identity(), s, Pose::translation({1, 0, 0}), Vector3d::Zero()).status,
      CastStatus::InvalidInput);
  Pose bad = Pose::identity();
  bad.p.x() = std::nan("");
  EXPECT_EQ(castShape(s, bad, s, Pose::identity(), Vector3d::UnitX()).status,
            CastStatus::InvalidInput);
  EXPECT_EQ(castShape(s, Pose::identity(), s, Pose::translation({1, 0, 0}),
                      Vector3d(std::numeric_limits<double>::infinity(), 0, 0))
                .status,
            CastStatus::InvalidInput);
}

}  // namespace
}  // namespace hb
