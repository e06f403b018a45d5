// The four warm starts of the GJK++ paper's Sec. IV-E.

#include <gtest/gtest.h>

#include <random>

#include "collision/collide.hpp"
#include "collision/warm_start.hpp"
#include "random_geometry.hpp"

namespace hb {
namespace {

using Eigen::Vector3d;

Obb boxAt(const Vector3d& c) {
  Obb o;
  o.center = c;
  o.halfExtents = {0.1, 0.1, 0.1};
  return o;
}

TEST(WarmStart, NoneAndObbCenters) {
  const Obb a = boxAt({1, 2, 3}), b = boxAt({0.5, 2, 4});
  const Pose p = Pose::identity();
  EXPECT_EQ(initialGuess(WarmStart::None, a, b, p, p, std::nullopt), Vector3d(1, 0, 0));
  EXPECT_EQ(initialGuess(WarmStart::ObbCenters, a, b, p, p, std::nullopt), Vector3d(0.5, 0, -1));
}

TEST(WarmStart, PreviousFallsBackToObbWithoutHistory) {
  const Obb a = boxAt({1, 0, 0}), b = boxAt({0, 0, 0});
  const Pose p = Pose::identity();
  for (WarmStart w : {WarmStart::PreviousSolution, WarmStart::TransformedPrevious}) {
    EXPECT_EQ(initialGuess(w, a, b, p, p, std::nullopt), Vector3d(1, 0, 0));
  }
}

TEST(WarmStart, PreviousSolutionIsTheSeparationVector) {
  // Separated: x* = wA - wB; overlapping: its opposite, so the guess always points along -normal.
  const Pose pa = Pose::identity(), pb = Pose::translation({1, 0, 0});
  const Vector3d n(1, 0, 0);
  PreviousSolution apart = makePreviousSolution(pa, pb, {0.4, 0, 0}, {0.6, 0, 0}, n, 0.2);
  EXPECT_TRUE(apart.separation.isApprox(Vector3d(-0.2, 0, 0)));
  PreviousSolution overlap = makePreviousSolution(pa, pb, {0.6, 0, 0}, {0.4, 0, 0}, n, -0.2);
  EXPECT_TRUE(overlap.separation.isApprox(Vector3d(-0.2, 0, 0)));
  EXPECT_TRUE(overlap.overlapping);
  const Obb o = boxAt(Vector3d::Zero());
  EXPECT_TRUE(
      initialGuess(WarmStart::PreviousSolution, o, o, pa, pb, apart).isApprox(apart.separation));
}

TEST(WarmStart, TransformedPreviousFollowsTheBodies) {
  std::mt19937 rng(4);
  const Obb o = boxAt(Vector3d::Zero());
  for (int t = 0; t < 100; ++t) {
    const Pose pa = test::randomPose(rng), pb = test::randomPose(rng);
    const Vector3d wa = test::randomVector(rng, -1, 1), wb = test::randomVector(rng, -1, 1);
    const Vector3d n = (wb - wa).normalized();
    const PreviousSolution prev = makePreviousSolution(pa, pb, wa, wb, n, (wb - wa).norm());
    // Both bodies moved by one rigid motion: the guess is the old vector rotated with them.
    const Pose motion = test::randomPose(rng);
    const Vector3d moved =
        initialGuess(WarmStart::TransformedPrevious, o, o, motion * pa, motion * pb, prev);
    EXPECT_TRUE(moved.isApprox(motion.q * (wa - wb), 1e-12));
    // B alone translated by d: the guess shrinks by d.
    const Vector3d d = test::randomVector(rng, -0.1, 0.1);
    const Vector3d shifted =
        initialGuess(WarmStart::TransformedPrevious, o, o, pa, Pose::translation(d) * pb, prev);
    EXPECT_TRUE(shifted.isApprox(wa - wb - d, 1e-12));
  }
}

// A pair that moved a little since the previous solution: its warm starts give the same answer,
// and the previous solution's support saves iterations against a cold start.
TEST(WarmStart, PreviousSolutionSavesIterations) {
  std::mt19937 rng(9);
  std::vector<Vector3d> cloud = test::randomCloud(rng, 200, 0.2);
  auto hull = std::make_shared<const ConvexHull>(ConvexHull::build(cloud));
  const Shape s = Shape::convexHull(hull);
  long cold = 0, warm = 0;
  for (int t = 0; t < 200; ++t) {
    const Pose pa = test::randomPose(rng, 0.0);
    Pose pb{test::randomRotation(rng), test::randomUnitVector(rng) * 0.5};
    CollisionOptions o;
    const CollisionResult first = collide(s, pa, s, pb, pa.p - pb.p, o);
    const PreviousSolution prev =
        makePreviousSolution(pa, pb, first.witnessA, first.witnessB, first.normal, first.distance);
    pb.p += Vector3d(0.001, -0.002, 0.001);  // one step later
    const Obb box = localObb(s).transformed(pa), boxB = localObb(s).transformed(pb);
    const CollisionResult c =
        collide(s, pa, s, pb, initialGuess(WarmStart::None, box, boxB, pa, pb, prev), o);
    const CollisionResult w = collide(
        s, pa, s, pb, initialGuess(WarmStart::TransformedPrevious, box, boxB, pa, pb, prev), o);
    EXPECT_NEAR(c.distance, w.distance, 1e-4);
    cold += c.gjkIterations;
    warm += w.gjkIterations;
  }
  EXPECT_LT(warm, cold);
}

}  // namespace
}  // namespace hb
