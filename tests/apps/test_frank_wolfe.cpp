// The Frank–Wolfe baselines of `heavyball bench gjk` (apps/bench/common/frank_wolfe.hpp) against
// vanilla GJK, analytic distances (spheres, axis-aligned boxes) and the brute-force Minkowski
// difference of two boxes. A converged run satisfies |x_k|^2 - |x*|^2 <= g_FW(x_k) <= eps with
// x_k in D, so its distance lies in [d*, sqrt(d*^2 + eps)]: within sqrt(eps) of GJK's, which obeys
// the same bound.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "apps/bench/common/frank_wolfe.hpp"
#include "collision/gjk.hpp"
#include "tests/collision/random_geometry.hpp"
#include "tests/collision/reference_distance.hpp"

namespace hb::bench {
namespace {

using Eigen::Vector3d;

constexpr double kRoundoff = 1e-9;  // metres; rounding of the supports and projections

/// Start of the paper: x_0 = c1 - c2, the difference of points of the two shapes.
Vector3d startOf(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB) {
  return poseA.apply(interiorPoint(a)) - poseB.apply(interiorPoint(b));
}

FrankWolfeResult runFw(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB,
                       const FrankWolfeOptions& options) {
  return frankWolfe(MinkowskiDifference(a, poseA, b, poseB), startOf(a, poseA, b, poseB), options);
}

GjkResult runGjk(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB,
                 GjkMode mode = GjkMode::Distance) {
  GjkOptions options;
  options.mode = mode;
  return gjk(a, poseA, b, poseB, poseA.p - poseB.p, options);
}

/// Distance by a tight GJK, within sqrt(1e-14) m of the true one; -1 when the shapes overlap
/// (the depth is not needed: the minimum-norm point is then the origin).
double referenceDistance(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB) {
  GjkOptions options;
  options.tolerance = 1e-14;
  options.maxIterations = 1000;
  const GjkResult r = gjk(a, poseA, b, poseB, poseA.p - poseB.p, options);
  EXPECT_TRUE(r.status == GjkStatus::Separated || r.status == GjkStatus::Intersecting);
  return r.coresOverlap ? -1.0 : r.distance;
}
constexpr double kReferenceError = 2e-7;

/// A converged distance query: within the duality-gap bound of the true distance `truth` (<= 0
/// when the shapes overlap, known to within `truthError`), and within sqrt(eps) of GJK's answer.
/// Distances within eps_col = sqrt(eps) are reported as 0, as GJK does.
void expectWithinGapBound(const FrankWolfeResult& fw, double truth, double truthError,
                          double gjkDistance, double eps) {
  ASSERT_TRUE(fw.status == FrankWolfeStatus::Separated ||
              fw.status == FrankWolfeStatus::Intersecting)
      << "iterations " << fw.iterations << " gap " << fw.dualityGap;
  EXPECT_LE(fw.dualityGap, eps);
  const double epsCol = std::sqrt(eps);
  const double d = std::max(truth, 0.0);
  const double lower = d > epsCol + truthError ? d - truthError - kRoundoff : -kRoundoff;
  EXPECT_GE(fw.distance, lower) << "truth " << truth;
  EXPECT_LE(fw.distance, std::sqrt(d * d + eps) + truthError + kRoundoff) << "truth " << truth;
  EXPECT_NEAR(fw.distance, gjkDistance, epsCol + kRoundoff) << "truth " << truth;
  // Away from the eps_col band both agree on collide.
  if (std::abs(truth) > 2.0 * epsCol) {
    EXPECT_EQ(fw.collide, truth < 0.0) << truth;
  }
}

struct EllipsoidCase {
  Shape a, b;
  Pose poseA, poseB;
};

/// Semi-axes in [0.02, 0.2] m, B's centre at up to 1.2 m: overlapping, close and distant pairs.
EllipsoidCase randomEllipsoids(std::mt19937& rng) {
  std::uniform_real_distribution<double> radius(0.02, 0.2), offset(0.0, 1.2);
  EllipsoidCase c{Shape::ellipsoid({radius(rng), radius(rng), radius(rng)}),
                  Shape::ellipsoid({radius(rng), radius(rng), radius(rng)}),
                  {test::randomRotation(rng), test::randomVector(rng, -0.5, 0.5)},
                  {}};
  c.poseB = {test::randomRotation(rng), c.poseA.p + offset(rng) * test::randomUnitVector(rng)};
  return c;
}

TEST(FrankWolfe, LineSearchMatchesGjkOnThousandsOfEllipsoidPairs) {
  std::mt19937 rng(20240521);
  FrankWolfeOptions options;
  options.step = FrankWolfeStep::LineSearch;
  int overlapping = 0, separated = 0;
  for (int i = 0; i < 3000; ++i) {
    const EllipsoidCase c = randomEllipsoids(rng);
    const GjkResult g = runGjk(c.a, c.poseA, c.b, c.poseB);
    ASSERT_TRUE(g.status == GjkStatus::Separated || g.status == GjkStatus::Intersecting);
    const double truth = referenceDistance(c.a, c.poseA, c.b, c.poseB);
    const FrankWolfeResult fw = runFw(c.a, c.poseA, c.b, c.poseB, options);
    SCOPED_TRACE(i);
    expectWithinGapBound(fw, truth, kReferenceError, g.distance, options.tolerance);
    ++(g.coresOverlap ? overlapping : separated);
  }
  EXPECT_GT(overlapping, 300);
  EXPECT_GT(separated, 1000);
}

TEST(FrankWolfe, BothStepsMatchAnalyticSphereDistances) {
  // Spheres as ellipsoids with equal semi-axes: d = |c_A - c_B| - r_A - r_B.
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> radius(0.02, 0.2), offset(0.0, 1.0);
  for (const FrankWolfeStep step : {FrankWolfeStep::LineSearch, FrankWolfeStep::OpenLoop}) {
    FrankWolfeOptions options;
    options.step = step;
    // The open-loop step reaches the gap only as O(1/k): a looser eps keeps it within the cap;
    // the bound it guarantees is looser by as much.
    if (step == FrankWolfeStep::OpenLoop) options.tolerance = 1e-5;
    const int cases = step == FrankWolfeStep::LineSearch ? 1000 : 300;
    for (int i = 0; i < cases; ++i) {
      const double ra = radius(rng), rb = radius(rng);
      const Pose poseA{test::randomRotation(rng), test::randomVector(rng, -0.5, 0.5)};
      const Pose poseB{test::randomRotation(rng),
                       poseA.p + offset(rng) * test::randomUnitVector(rng)};
      const Shape a = Shape::ellipsoid(Vector3d::Constant(ra));
      const Shape b = Shape::ellipsoid(Vector3d::Constant(rb));
      const double truth = (poseA.p - poseB.p).norm() - ra - rb;
      const FrankWolfeResult fw = runFw(a, poseA, b, poseB, options);
      const GjkResult g = runGjk(a, poseA, b, poseB);
      SCOPED_TRACE(::testing::Message() << "step " << static_cast<int>(step) << " case " << i);
      expectWithinGapBound(fw, truth, 0.0, g.distance, options.tolerance);
    }
  }
}

TEST(FrankWolfe, OpenLoopStepMatchesGjkOnEllipsoidsAtItsTolerance) {
  std::mt19937 rng(11);
  FrankWolfeOptions options;
  options.step = FrankWolfeStep::OpenLoop;
  options.tolerance = 1e-5;
  for (int i = 0; i < 500; ++i) {
    const EllipsoidCase c = randomEllipsoids(rng);
    const GjkResult g = runGjk(c.a, c.poseA, c.b, c.poseB);
    const double truth = referenceDistance(c.a, c.poseA, c.b, c.poseB);
    const FrankWolfeResult fw = runFw(c.a, c.poseA, c.b, c.poseB, options);
    SCOPED_TRACE(i);
    expectWithinGapBound(fw, truth, kReferenceError, g.distance, options.tolerance);
  }
}

std::vector<Vector3d> boxVertices(const Vector3d& h) {
  std::vector<Vector3d> v;
  for (int i = 0; i < 8; ++i) {
    v.emplace_back(i & 1 ? h.x() : -h.x(), i & 2 ? h.y() : -h.y(), i & 4 ? h.z() : -h.z());
  }
  return v;
}

TEST(FrankWolfe, LineSearchMatchesBruteForceAndGjkOnBoxPairs) {
  // Polytopes: Frank–Wolfe needs O(1/eps) iterations near contact, so fewer cases, and eps = 1e-6
  // for most of them (the bound scales with it); a few at the benchmark's eps = 1e-8.
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> half(0.02, 0.2), offset(0.0, 0.8);
  for (int i = 0; i < 240; ++i) {
    FrankWolfeOptions options;
    options.step = FrankWolfeStep::LineSearch;
    options.tolerance = i < 12 ? 1e-8 : 1e-6;
    options.maxIterations = 10'000'000;
    const Vector3d ha(half(rng), half(rng), half(rng)), hb(half(rng), half(rng), half(rng));
    const Pose poseA{test::randomRotation(rng), test::randomVector(rng, -0.5, 0.5)};
    const Pose poseB{test::randomRotation(rng),
                     poseA.p + offset(rng) * test::randomUnitVector(rng)};
    const Shape a = Shape::box(ha), b = Shape::box(hb);
    const double truth = test::referenceSignedDistance(test::transformed(boxVertices(ha), poseA),
                                                       test::transformed(boxVertices(hb), poseB));
    const FrankWolfeResult fw = runFw(a, poseA, b, poseB, options);
    const GjkResult g = runGjk(a, poseA, b, poseB);
    SCOPED_TRACE(::testing::Message() << "case " << i << " eps " << options.tolerance);
    expectWithinGapBound(fw, truth, 1e-9, g.distance, options.tolerance);
  }
}

TEST(FrankWolfe, BothStepsMatchAnalyticAxisAlignedCubeDistances) {
  // Axis-aligned boxes: d = |max(|c| - h_A - h_B, 0)| per axis when apart.
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> half(0.02, 0.2), offset(-0.8, 0.8);
  for (const FrankWolfeStep step : {FrankWolfeStep::LineSearch, FrankWolfeStep::OpenLoop}) {
    FrankWolfeOptions options;
    options.step = step;
    options.tolerance = step == FrankWolfeStep::LineSearch ? 1e-6 : 1e-4;
    options.maxIterations = 10'000'000;
    for (int i = 0; i < 200; ++i) {
      const double ha = half(rng), hb = half(rng);
      const Pose poseA = Pose::translation(test::randomVector(rng, -0.5, 0.5));
      const Pose poseB =
          Pose::translation(poseA.p + Vector3d(offset(rng), offset(rng), offset(rng)));
      const Vector3d gaps =
          ((poseA.p - poseB.p).cwiseAbs() - Vector3d::Constant(ha + hb)).cwiseMax(0.0);
      const bool apart = gaps.maxCoeff() > 0.0;
      const double truth = apart ? gaps.norm() : -1.0;  // depth not needed: overlap is d* = 0
      const Shape a = Shape::box(Vector3d::Constant(ha)), b = Shape::box(Vector3d::Constant(hb));
      const FrankWolfeResult fw = runFw(a, poseA, b, poseB, options);
      const GjkResult g = runGjk(a, poseA, b, poseB);
      SCOPED_TRACE(::testing::Message() << "step " << static_cast<int>(step) << " case " << i);
      expectWithinGapBound(fw, truth, 0.0, g.distance, options.tolerance);
    }
  }
}

TEST(FrankWolfe, BooleanModeAgreesWithGjkAndBoundsTheDistance) {
  std::mt19937 rng(13);
  const double epsCol = std::sqrt(defaults::kGjkTolerance);
  for (const FrankWolfeStep step : {FrankWolfeStep::LineSearch, FrankWolfeStep::OpenLoop}) {
    FrankWolfeOptions options;
    options.step = step;
    options.mode = GjkMode::Boolean;
    int decided = 0;
    for (int i = 0; i < 1000; ++i) {
      const EllipsoidCase c = randomEllipsoids(rng);
      const double d = referenceDistance(c.a, c.poseA, c.b, c.poseB);
      const FrankWolfeResult fw = runFw(c.a, c.poseA, c.b, c.poseB, options);
      if (fw.status == FrankWolfeStatus::MaxIterations) continue;  // only near contact
      ++decided;
      SCOPED_TRACE(i);
      const GjkResult g = runGjk(c.a, c.poseA, c.b, c.poseB, GjkMode::Boolean);
      if (std::abs(d) > 2.0 * epsCol) {
        EXPECT_EQ(fw.collide, d <= 0.0) << d;
        EXPECT_EQ(fw.collide, g.collide()) << d;
      }
      // A separating plane gives a lower bound of the distance.
      if (!fw.collide) {
        EXPECT_LE(fw.distance, d + kReferenceError);
      }
    }
    // Alg. 2 stops early: nearly every query is decided within the cap, even with the open-loop
    // step, which would need millions of iterations to reach the duality gap.
    EXPECT_GT(decided, 950) << static_cast<int>(step);
  }
}

TEST(FrankWolfe, ReportsTheIterationCap) {
  // Boxes 7 cm apart, then B slid 1 mm into A along the contact normal: Frank–Wolfe zig-zags for
  // thousands of iterations on both, and no separating plane exists for the second.
  const Shape a = Shape::box(Vector3d(0.1, 0.15, 0.2)), b = Shape::box(Vector3d(0.12, 0.1, 0.05));
  const Pose poseA{Eigen::Quaterniond(Eigen::AngleAxisd(0.4, Vector3d(1, 2, 3).normalized())),
                   Vector3d::Zero()};
  const Pose apart{Eigen::Quaterniond(Eigen::AngleAxisd(1.3, Vector3d(-2, 1, 1).normalized())),
                   Vector3d(0.25, 0.2, 0.3)};
  const GjkResult g = runGjk(a, poseA, b, apart);
  ASSERT_EQ(g.status, GjkStatus::Separated);
  const Vector3d towardsA = g.separation.normalized();  // witness A - witness B
  const Pose overlapping{apart.q, apart.p + (g.distance + 0.001) * towardsA};
  ASSERT_TRUE(runGjk(a, poseA, b, overlapping).collide());
  for (const FrankWolfeStep step : {FrankWolfeStep::LineSearch, FrankWolfeStep::OpenLoop}) {
    for (const GjkMode mode : {GjkMode::Distance, GjkMode::Boolean}) {
      FrankWolfeOptions options;
      options.step = step;
      options.mode = mode;
      options.maxIterations = 3;
      const Pose& poseB = mode == GjkMode::Distance ? apart : overlapping;
      const FrankWolfeResult fw = runFw(a, poseA, b, poseB, options);
      SCOPED_TRACE(::testing::Message()
                   << "step " << static_cast<int>(step) << " mode " << static_cast<int>(mode));
      EXPECT_EQ(fw.status, FrankWolfeStatus::MaxIterations);
      EXPECT_EQ(fw.iterations, 3);
      EXPECT_GT(fw.dualityGap, options.tolerance);
      // The last iterate is a point of D: an upper bound of the distance.
      if (mode == GjkMode::Distance) {
        EXPECT_GE(fw.distance, g.distance - kRoundoff);
      }
    }
  }
}

TEST(FrankWolfe, RejectsBadInput) {
  const Shape a = Shape::box(Vector3d::Constant(0.1));
  const MinkowskiDifference d(a, Pose::identity(), a, Pose::translation(Vector3d(1, 0, 0)));
  const Vector3d start(-1, 0, 0);
  FrankWolfeOptions options;
  EXPECT_EQ(frankWolfe(d, Vector3d(NAN, 0, 0), options).status, FrankWolfeStatus::InvalidInput);
  options.maxIterations = 0;
  EXPECT_EQ(frankWolfe(d, start, options).status, FrankWolfeStatus::InvalidInput);
  options = {};
  options.tolerance = 0.0;
  EXPECT_EQ(frankWolfe(d, start, options).status, FrankWolfeStatus::InvalidInput);
  const MinkowskiDifference badPose(a, Pose{Eigen::Quaterniond(2, 0, 0, 0), Vector3d::Zero()}, a,
                                    Pose::identity());
  EXPECT_EQ(frankWolfe(badPose, start, FrankWolfeOptions{}).status, FrankWolfeStatus::InvalidInput);
}

TEST(FrankWolfe, InteriorPointLiesInsideEveryShape) {
  std::mt19937 rng(17);
  const auto hull =
      std::make_shared<const ConvexHull>(ConvexHull::build(test::randomCloud(rng, 60, 0.3)));
  for (const Shape& s :
       {Shape::box(Vector3d(0.1, 0.2, 0.3)), Shape::ellipsoid(Vector3d(0.1, 0.2, 0.3)),
        Shape::cone(0.1, 0.2), Shape::cylinder(0.1, 0.2), Shape::capsule(0.1, 0.2),
        Shape::sphere(0.1), Shape::convexHull(hull)}) {
    const Vector3d p = interiorPoint(s);
    const MinkowskiDifference self(s, Pose::identity(), s, Pose::identity());
    for (int i = 0; i < 200; ++i) {
      // p inside the core: below its support plane in every direction.
      const Vector3d u = test::randomUnitVector(rng);
      SupportHints hints;
      EXPECT_LE(u.dot(p), u.dot(self.supportCore(u, hints).a) + 1e-12) << toString(s.type());
    }
  }
}

}  // namespace
}  // namespace hb::bench
