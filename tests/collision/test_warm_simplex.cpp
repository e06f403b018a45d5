// GJK started from a pair's kept simplex (collision/warm_simplex.hpp) answers as GJK from x0 and
// as the Qhull reference do, and stops early where the kept simplex is still the answer's.

#include "collision/warm_simplex.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <random>

#include "collision/collide.hpp"
#include "tests/collision/random_geometry.hpp"
#include "tests/collision/reference_distance.hpp"

namespace hb {
namespace {

using Eigen::Vector3d;

CollisionOptions distanceOptions(GjkVariant variant, double bound) {
  CollisionOptions o;
  o.gjk.variant = variant;
  o.gjk.separationBound = bound;
  return o;
}

std::vector<Vector3d> worldVertices(const ConvexHull& hull, const Pose& pose) {
  std::vector<Vector3d> out;
  for (const Vector3d& v : hull.vertices()) out.push_back(pose.apply(v));
  return out;
}

Shape randomHullShape(std::mt19937& rng, int points, double scale) {
  return Shape::convexHull(
      std::make_shared<const ConvexHull>(ConvexHull::build(test::randomCloud(rng, points, scale))));
}

// A pose moved by a small random turn and shift, as a body moves between two steps.
Pose nudged(std::mt19937& rng, const Pose& p, double turn, double shift) {
  const Eigen::Quaterniond dq(Eigen::AngleAxisd(turn, test::randomUnitVector(rng)));
  return {(dq * p.q).normalized(), p.p + shift * test::randomUnitVector(rng)};
}

TEST(WarmSimplex, KeptAndPlacedAtTheSamePosesGivesTheSamePoints) {
  std::mt19937 rng(3);
  for (int t = 0; t < 200; ++t) {
    const Shape a = randomHullShape(rng, 12, 0.2), b = randomHullShape(rng, 12, 0.2);
    const Pose pa = test::randomPose(rng, 0.3), pb = test::randomPose(rng, 0.3);
    const MinkowskiDifference d(a, pa, b, pb);
    const GjkResult g = gjk(d, pa.p - pb.p, GjkOptions{});
    const WarmSimplex kept = keepSimplex(d, g.simplex);
    ASSERT_EQ(kept.size, g.simplex.size);
    const Simplex placed = placeSimplex(d, kept);
    ASSERT_EQ(placed.size, g.simplex.size);
    for (int i = 0; i < placed.size; ++i) {
      EXPECT_EQ(placed.points[i].a, g.simplex.points[i].a);
      EXPECT_LT((placed.points[i].b - g.simplex.points[i].b).norm(), 1e-14);
      EXPECT_LT((placed.points[i].w - g.simplex.points[i].w).norm(), 1e-14);
    }
  }
}

// The invariant: from the pair's last simplex, at poses moved a little or a lot since, every
// variant gives the distance (or depth) of the Qhull reference and of the run from x0.
TEST(WarmSimplex, MovedPairsAnswerAsFromScratchAndAsTheReference) {
  std::mt19937 rng(11);
  const double tolerance = std::sqrt(defaults::kGjkTolerance);
  int seededOverlaps = 0, firstSupportStops = 0, trials = 0;
  for (int t = 0; t < 3000; ++t) {
    const Shape a = randomHullShape(rng, 6 + t % 24, 0.2);
    const Shape b = randomHullShape(rng, 6 + t % 17, 0.2);
    const Pose pa = test::randomPose(rng, 0.0);
    const Pose before = test::randomPose(rng, 0.45);
    const double turn = t % 3 == 0 ? 0.5 : 0.01, shift = t % 3 == 0 ? 0.1 : 0.002;
    const Pose pb = nudged(rng, before, turn, shift);
    const GjkVariant variant = t % 3 == 0   ? GjkVariant::Vanilla
                               : t % 3 == 1 ? GjkVariant::Polyak
                                            : GjkVariant::Nesterov;
    const CollisionOptions options = distanceOptions(variant, 1e9);
    const CollisionResult last = collide(a, pa, b, before, pa.p - before.p, options);
    ASSERT_TRUE(last.ok());
    const CollisionResult cold = collide(a, pa, b, pb, pa.p - pb.p, options);
    const CollisionResult warm = collide(a, pa, b, pb, pa.p - pb.p, options, {}, &last.simplex);
    ASSERT_TRUE(warm.ok()) << "trial " << t;
    ASSERT_EQ(warm.collide, cold.collide) << "trial " << t;
    const double reference =
        test::referenceSignedDistance(worldVertices(a.hull(), pa), worldVertices(b.hull(), pb));
    // EPA's depth is exact to its own tolerance; GJK's distance to sqrt of its gap tolerance.
    const double allowed = reference < 0.0 ? 1e-5 : tolerance;
    EXPECT_NEAR(warm.distance, reference, allowed) << "trial " << t;
    EXPECT_NEAR(warm.distance, cold.distance, allowed) << "trial " << t;
    if (reference > 0.0) {
      EXPECT_NEAR((warm.witnessA - warm.witnessB).norm(), reference, tolerance) << "trial " << t;
    }
    seededOverlaps += warm.gjkIterations == 0 ? 1 : 0;
    firstSupportStops += warm.gjkIterations == 1 ? 1 : 0;
    ++trials;
  }
  // The small moves keep most answers' simplices: the overlaps start inside, the rest converge
  // at their first support.
  EXPECT_GT(seededOverlaps, trials / 10);
  EXPECT_GT(firstSupportStops, trials / 10);
}

TEST(WarmSimplex, UnmovedPairsStopAtTheirFirstSupportOrGoStraightToEpa) {
  std::mt19937 rng(5);
  for (int t = 0; t < 1000; ++t) {
    const Shape a = randomHullShape(rng, 16, 0.2), b = randomHullShape(rng, 16, 0.2);
    const Pose pa = test::randomPose(rng, 0.0), pb = test::randomPose(rng, 0.4);
    const CollisionOptions options = distanceOptions(GjkVariant::Nesterov, 1e9);
    const CollisionResult last = collide(a, pa, b, pb, pa.p - pb.p, options);
    const CollisionResult again = collide(a, pa, b, pb, pa.p - pb.p, options, {}, &last.simplex);
    ASSERT_EQ(again.collide, last.collide);
    if (last.epaStatus) {
      EXPECT_EQ(again.gjkIterations, 0) << "trial " << t;  // the tetrahedron encloses the origin
      EXPECT_NEAR(again.distance, last.distance, 1e-5);
    } else {
      EXPECT_EQ(again.gjkIterations, 1) << "trial " << t;
      EXPECT_NEAR(again.distance, last.distance, std::sqrt(defaults::kGjkTolerance));
    }
  }
}

// Rounded and smooth shapes: the kept points are points of their cores, whatever the core.
TEST(WarmSimplex, RoundedAndSmoothShapesAnswerAsFromScratch) {
  std::mt19937 rng(13);
  for (int t = 0; t < 1500; ++t) {
    const int kind = t % 3;
    const Shape a = kind == 0
                        ? Shape::box(test::randomVector(rng, 0.05, 0.2)).withConvexRadius(0.01)
                    : kind == 1 ? Shape::ellipsoid(test::randomVector(rng, 0.05, 0.2))
                                : Shape::capsule(0.05, 0.1);
    const Shape b = randomHullShape(rng, 14, 0.2);
    const Pose pa = test::randomPose(rng, 0.0);
    const Pose before = test::randomPose(rng, 0.4), pb = nudged(rng, before, 0.05, 0.005);
    const CollisionOptions options = distanceOptions(GjkVariant::Nesterov, 1e9);
    const CollisionResult last = collide(a, pa, b, before, pa.p - before.p, options);
    const CollisionResult cold = collide(a, pa, b, pb, pa.p - pb.p, options);
    const CollisionResult warm = collide(a, pa, b, pb, pa.p - pb.p, options, {}, &last.simplex);
    ASSERT_TRUE(warm.ok()) << "trial " << t;
    ASSERT_EQ(warm.collide, cold.collide) << "trial " << t;
    EXPECT_NEAR(warm.distance, cold.distance, 1e-5) << "trial " << t;
  }
}

// The world's queries stop at a plane beyond their margin; Boolean mode stops at eps_col. A kept
// simplex changes neither answer.
TEST(WarmSimplex, BoundedAndBooleanQueriesAnswerAsFromScratch) {
  std::mt19937 rng(17);
  for (int t = 0; t < 2000; ++t) {
    const Shape a = randomHullShape(rng, 10, 0.2), b = randomHullShape(rng, 10, 0.2);
    const Pose pa = test::randomPose(rng, 0.0);
    const Pose before = test::randomPose(rng, 0.5), pb = nudged(rng, before, 0.05, 0.01);
    const double margin = 0.01;
    const CollisionOptions bounded = distanceOptions(GjkVariant::Nesterov, margin);
    const CollisionResult last = collide(a, pa, b, before, pa.p - before.p, bounded);
    const CollisionResult cold = collide(a, pa, b, pb, pa.p - pb.p, bounded);
    const CollisionResult warm = collide(a, pa, b, pb, pa.p - pb.p, bounded, {}, &last.simplex);
    ASSERT_EQ(warm.distance < margin, cold.distance < margin) << "trial " << t;
    if (cold.distance < margin) EXPECT_NEAR(warm.distance, cold.distance, 1e-5) << "trial " << t;
    GjkOptions boolean;
    boolean.mode = GjkMode::Boolean;
    boolean.variant = GjkVariant::Nesterov;
    const MinkowskiDifference d(a, pa, b, pb);
    EXPECT_EQ(gjk(d, pa.p - pb.p, boolean, {}, &last.simplex).collide(),
              gjk(d, pa.p - pb.p, boolean).collide())
        << "trial " << t;
  }
}

TEST(WarmSimplex, AnEmptySimplexIsTheRunFromX0BitForBit) {
  std::mt19937 rng(19);
  const WarmSimplex none;
  for (int t = 0; t < 300; ++t) {
    const Shape a = randomHullShape(rng, 12, 0.2), b = randomHullShape(rng, 12, 0.2);
    const Pose pa = test::randomPose(rng, 0.0), pb = test::randomPose(rng, 0.4);
    const CollisionOptions options = distanceOptions(GjkVariant::Nesterov, 0.01);
    const CollisionResult cold = collide(a, pa, b, pb, pa.p - pb.p, options);
    const CollisionResult warm = collide(a, pa, b, pb, pa.p - pb.p, options, {}, &none);
    EXPECT_EQ(warm.distance, cold.distance);
    EXPECT_EQ(warm.normal, cold.normal);
    EXPECT_EQ(warm.gjkIterations, cold.gjkIterations);
  }
}

}  // namespace
}  // namespace hb
