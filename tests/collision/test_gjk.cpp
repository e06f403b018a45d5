// GJK against analytic distances and an independent polytope reference, variant agreement on
// ellipsoids, Boolean mode against the distance sign, and robustness cases.

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "collision/collide.hpp"
#include "collision/gjk.hpp"
#include "random_geometry.hpp"
#include "reference_distance.hpp"

namespace hb {
namespace {

using Eigen::Vector3d;

constexpr GjkVariant kVariants[] = {GjkVariant::Vanilla, GjkVariant::Polyak, GjkVariant::Nesterov,
                                    GjkVariant::Auto};

GjkOptions options(GjkVariant v, GjkMode mode = GjkMode::Distance) {
  GjkOptions o;
  o.variant = v;
  o.mode = mode;
  return o;
}

// Distance error allowed by the duality-gap test: |x|^2 - |x*|^2 <= eps gives
// |x| - |x*| <= eps / (|x| + |x*|), capped by sqrt(eps) near contact.
double gapTolerance(double distance) {
  const double eps = defaults::kGjkTolerance;
  return std::min(std::sqrt(eps), eps / std::max(1e-300, 2.0 * std::abs(distance))) + 1e-9;
}

// Closest distance between segments [p0,p1] and [q0,q1] by nested ternary search: the distance
// is convex in both parameters, so this converges to the exact minimum.
double segmentSegmentDistance(const Vector3d& p0, const Vector3d& p1, const Vector3d& q0,
                              const Vector3d& q1) {
  auto inner = [&](double s) {
    const Vector3d p = p0 + s * (p1 - p0);
    double lo = 0, hi = 1;
    for (int i = 0; i < 100; ++i) {
      const double m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
      if ((q0 + m1 * (q1 - q0) - p).norm() < (q0 + m2 * (q1 - q0) - p).norm())
        hi = m2;
      else
        lo = m1;
    }
    return (q0 + 0.5 * (lo + hi) * (q1 - q0) - p).norm();
  };
  double lo = 0, hi = 1;
  for (int i = 0; i < 100; ++i) {
    const double m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
    if (inner(m1) < inner(m2))
      hi = m2;
    else
      lo = m1;
  }
  return inner(0.5 * (lo + hi));
}

TEST(Gjk, SphereSphereAnalytic) {
  std::mt19937 rng(1);
  for (int t = 0; t < 2000; ++t) {
    const double ra = 0.05 + 0.5 * (t % 7) / 7.0, rb = 0.1 + 0.3 * (t % 5) / 5.0;
    const Pose pa = test::randomPose(rng), pb = test::randomPose(rng);
    const double expected = (pa.p - pb.p).norm() - ra - rb;
    for (GjkVariant v : kVariants) {
      const GjkResult r =
          gjk(Shape::sphere(ra), pa, Shape::sphere(rb), pb, pa.p - pb.p, options(v));
      ASSERT_NE(r.status, GjkStatus::MaxIterations);
      EXPECT_NEAR(r.distance, expected, 1e-9);
      EXPECT_NEAR((r.witnessA - pa.p).norm(), ra, 1e-9);
      EXPECT_NEAR((r.witnessB - pb.p).norm(), rb, 1e-9);
      EXPECT_EQ(r.collide(), expected <= std::sqrt(defaults::kGjkTolerance));
    }
  }
}

TEST(Gjk, SphereBoxAnalytic) {
  std::mt19937 rng(2);
  const Vector3d h(0.2, 0.1, 0.3);
  for (int t = 0; t < 2000; ++t) {
    const double r = 0.05 + 0.1 * (t % 3);
    const Pose pb = test::randomPose(rng);
    // Sphere centre outside the box, in the box frame.
    Vector3d local = test::randomVector(rng, -0.8, 0.8);
    if ((local.cwiseAbs() - h).maxCoeff() <= 0.01) local.x() = h.x() + 0.05;
    const Vector3d closest = local.cwiseMax(-h).cwiseMin(h);
    const double expected = (local - closest).norm() - r;
    const Pose pa{test::randomRotation(rng), pb.apply(local)};
    for (GjkVariant v : kVariants) {
      const GjkResult res = gjk(Shape::sphere(r), pa, Shape::box(h), pb, pa.p - pb.p, options(v));
      ASSERT_TRUE(res.status == GjkStatus::Separated || res.status == GjkStatus::Intersecting);
      EXPECT_NEAR(res.distance, expected, gapTolerance(expected)) << "trial " << t;
      // Witness on the box: its surface point closest to the sphere centre.
      EXPECT_NEAR((pb.applyInverse(res.witnessB) - closest).norm(), 0.0, 1e-4);
    }
  }
}

TEST(Gjk, BoxBoxAnalyticUnderRigidTransforms) {
  std::mt19937 rng(3);
  for (int t = 0; t < 2000; ++t) {
    const Vector3d ha = test::randomVector(rng, 0.05, 0.5), hb = test::randomVector(rng, 0.05, 0.5);
    const Vector3d offset = test::randomVector(rng, -1.5, 1.5);
    const Vector3d gap = (offset.cwiseAbs() - ha - hb).cwiseMax(0.0);
    const double expected = gap.norm();
    if (expected < 1e-3) continue;  // overlapping or touching: covered by EPA tests
    // Axis-aligned pair in a common frame, then the whole pair moved by a random rigid motion.
    const Pose common = test::randomPose(rng);
    const Pose pa = common * Pose::identity();
    const Pose pb = common * Pose::translation(offset);
    for (GjkVariant v : kVariants) {
      const GjkResult r = gjk(Shape::box(ha), pa, Shape::box(hb), pb, pa.p - pb.p, options(v));
      ASSERT_EQ(r.status, GjkStatus::Separated);
      EXPECT_NEAR(r.distance, expected, gapTolerance(expected));
      EXPECT_NEAR((r.witnessA - r.witnessB - r.separation).norm(), 0.0, 1e-9);
      EXPECT_NEAR(r.separation.norm(), r.distance, 1e-12);
      // Witnesses lie on their boxes (inside, within tolerance, and on the boundary).
      const Vector3d wa = pa.applyInverse(r.witnessA), wb = pb.applyInverse(r.witnessB);
      EXPECT_LE((wa.cwiseAbs() - ha).maxCoeff(), 1e-9);
      EXPECT_GE((wa.cwiseAbs() - ha).maxCoeff(), -1e-9);
      EXPECT_LE((wb.cwiseAbs() - hb).maxCoeff(), 1e-9);
    }
  }
}

TEST(Gjk, CapsuleCapsuleAnalytic) {
  std::mt19937 rng(4);
  for (int t = 0; t < 500; ++t) {
    const double ra = 0.05, rb = 0.08, la = 0.3, lb = 0.2;
    const Pose pa = test::randomPose(rng, 0.5), pb = test::randomPose(rng, 0.5);
    const Vector3d za = pa.q * Vector3d::UnitZ(), zb = pb.q * Vector3d::UnitZ();
    const double segment =
        segmentSegmentDistance(pa.p - la * za, pa.p + la * za, pb.p - lb * zb, pb.p + lb * zb);
    if (segment < 1e-3) continue;  // crossing cores need EPA
    const double expected = segment - ra - rb;
    for (GjkVariant v : kVariants) {
      const GjkResult r =
          gjk(Shape::capsule(ra, la), pa, Shape::capsule(rb, lb), pb, pa.p - pb.p, options(v));
      ASSERT_TRUE(r.status == GjkStatus::Separated || r.status == GjkStatus::Intersecting);
      EXPECT_NEAR(r.distance, expected, gapTolerance(segment)) << "trial " << t;
    }
  }
}

TEST(Gjk, RandomSmallHullsAgainstPolytopeReference) {
  std::mt19937 rng(5);
  int checked = 0;
  for (int t = 0; t < 300; ++t) {
    const auto cloudA = test::randomCloud(rng, 6 + t % 10, 0.3);
    const auto cloudB = test::randomCloud(rng, 6 + (t / 3) % 12, 0.2);
    auto hullA = std::make_shared<const ConvexHull>(ConvexHull::build(cloudA));
    auto hullB = std::make_shared<const ConvexHull>(ConvexHull::build(cloudB));
    const Pose pa = test::randomPose(rng, 0.4), pb = test::randomPose(rng, 0.4);
    const double expected = test::referenceSignedDistance(test::transformed(hullA->vertices(), pa),
                                                          test::transformed(hullB->vertices(), pb));
    const Shape a = Shape::convexHull(hullA), b = Shape::convexHull(hullB);
    for (GjkVariant v : kVariants) {
      CollisionOptions o;
      o.gjk = options(v);
      const CollisionResult r = collide(a, pa, b, pb, pa.p - pb.p, o);
      ASSERT_TRUE(r.ok());
      if (expected > 0) {
        // Below eps_col the pair counts as touching and EPA may report a zero depth.
        const double tol = expected <= std::sqrt(defaults::kGjkTolerance)
                               ? std::sqrt(defaults::kGjkTolerance)
                               : gapTolerance(expected);
        EXPECT_NEAR(r.distance, expected, tol) << "trial " << t;
      } else {
        EXPECT_TRUE(r.collide);
        EXPECT_NEAR(r.distance, expected, 1e-5) << "trial " << t << " (EPA depth)";
      }
    }
    ++checked;
  }
  EXPECT_EQ(checked, 300);
}

// Ellipsoid pairs at separations from deep overlap to 1 m (the paper's worst case).
TEST(Gjk, VariantsAgreeOnEllipsoids) {
  std::mt19937 rng(6);
  std::uniform_real_distribution<double> radius(0.05, 0.5);
  int problems = 0;
  for (int t = 0; t < 1200; ++t) {
    const Shape a = Shape::ellipsoid({radius(rng), radius(rng), radius(rng)});
    const Shape b = Shape::ellipsoid({radius(rng), radius(rng), radius(rng)});
    const Pose pa = test::randomPose(rng, 0.0);
    const double reach = a.radii().maxCoeff() + b.radii().maxCoeff();
    std::uniform_real_distribution<double> dist(0.2 * reach, 1.0 + reach);
    const Pose pb{test::randomRotation(rng), test::randomUnitVector(rng) * dist(rng)};
    const GjkResult ref = gjk(a, pa, b, pb, pa.p - pb.p, options(GjkVariant::Vanilla));
    ASSERT_TRUE(ref.status == GjkStatus::Separated || ref.status == GjkStatus::Intersecting);
    for (GjkVariant v : kVariants) {
      const GjkResult r = gjk(a, pa, b, pb, pa.p - pb.p, options(v));
      ASSERT_EQ(r.status, ref.status)
          << "trial " << t << " " << toString(v) << " it " << r.iterations << " d " << r.distance
          << " ref " << ref.distance << " it " << ref.iterations << " mstop "
          << r.momentumStopIteration;
      EXPECT_NEAR(r.distance, ref.distance, std::sqrt(defaults::kGjkTolerance));
      const GjkResult boolean = gjk(a, pa, b, pb, pa.p - pb.p, options(v, GjkMode::Boolean));
      EXPECT_EQ(boolean.collide(), ref.collide()) << "trial " << t << " " << toString(v);
      if (!boolean.collide()) {
        EXPECT_LE(boolean.distance, ref.distance + 1e-9);  // a lower bound
      }
    }
    ++problems;
  }
  EXPECT_GE(problems, 1000);
}

/// Two random ellipsoids (semi-axes in [0.02, 0.2] m), B slid along the separation vector of a
/// first solve until they are `distance` apart: sliding changes the distance by exactly the slide.
struct EllipsoidPair {
  Shape a, b;
  Pose poseA, poseB;
};
EllipsoidPair ellipsoidsAtDistance(std::mt19937& rng, double distance) {
  std::uniform_real_distribution<double> radius(0.02, 0.2);
  const Shape a = Shape::ellipsoid({radius(rng), radius(rng), radius(rng)});
  const Shape b = Shape::ellipsoid({radius(rng), radius(rng), radius(rng)});
  const Pose pa = test::randomPose(rng, 0.0);
  Pose pb{test::randomRotation(rng), pa.p + test::randomUnitVector(rng)};
  const GjkResult far = gjk(a, pa, b, pb, pa.p - pb.p, options(GjkVariant::Vanilla));
  EXPECT_EQ(far.status, GjkStatus::Separated);
  const Vector3d n = (far.witnessB - far.witnessA).normalized();
  pb.p += (distance - far.distance) * n;
  return {a, b, pa, pb};
}

// The paper's Fig. 7: on strictly convex shapes in close proximity, Nesterov momentum with the
// plain direction rule (eq. 28b) needs markedly fewer iterations than vanilla GJK.
// The late momentum schedule, (k+2)/(k+3), answers as vanilla GJK does on hulls and ellipsoids
// from overlap to far apart, in both modes.
TEST(Gjk, LateMomentumScheduleAgreesWithVanilla) {
  std::mt19937 rng(8);
  for (int t = 0; t < 2000; ++t) {
    const bool hulls = t % 2 == 0;
    const Shape a = hulls ? Shape::convexHull(std::make_shared<const ConvexHull>(
                                ConvexHull::build(test::randomCloud(rng, 8 + t % 20, 0.2))))
                          : Shape::ellipsoid(test::randomVector(rng, 0.05, 0.3));
    const Shape b = hulls ? Shape::convexHull(std::make_shared<const ConvexHull>(
                                ConvexHull::build(test::randomCloud(rng, 8 + t % 13, 0.2))))
                          : Shape::ellipsoid(test::randomVector(rng, 0.05, 0.3));
    const Pose pa = test::randomPose(rng, 0.0), pb = test::randomPose(rng, 0.6);
    const GjkResult ref = gjk(a, pa, b, pb, pa.p - pb.p, options(GjkVariant::Vanilla));
    for (const GjkVariant v : {GjkVariant::Polyak, GjkVariant::Nesterov}) {
      GjkOptions late = options(v);
      late.schedule = MomentumSchedule::Late;
      const GjkResult r = gjk(a, pa, b, pb, pa.p - pb.p, late);
      ASSERT_EQ(r.status, ref.status) << "trial " << t << " " << toString(v);
      EXPECT_NEAR(r.distance, ref.distance, std::sqrt(defaults::kGjkTolerance)) << "trial " << t;
      late.mode = GjkMode::Boolean;
      EXPECT_EQ(gjk(a, pa, b, pb, pa.p - pb.p, late).collide(), ref.collide()) << "trial " << t;
    }
  }
}

TEST(Gjk, NesterovAcceleratesCloseEllipsoids) {
  std::mt19937 rng(7);
  long vanilla = 0, nesterov = 0;
  int problems = 0;
  for (int t = 0; t < 300; ++t) {
    const double target = t % 2 == 0 ? 0.001 : 0.01;
    const auto [a, b, pa, pb] = ellipsoidsAtDistance(rng, target);
    const GjkResult v = gjk(a, pa, b, pb, pa.p - pb.p, options(GjkVariant::Vanilla));
    const GjkResult m = gjk(a, pa, b, pb, pa.p - pb.p, options(GjkVariant::Nesterov));
    // The far solve's direction is exact to within its duality gap, so the slide lands within
    // a few micrometres of the target.
    ASSERT_NEAR(v.distance, target, 1e-4);
    ASSERT_NEAR(m.distance, v.distance, std::sqrt(defaults::kGjkTolerance));
    vanilla += v.iterations;
    nesterov += m.iterations;
    ++problems;
  }
  EXPECT_LT(nesterov, 0.75 * vanilla) << "mean iterations: vanilla " << double(vanilla) / problems
                                      << ", nesterov " << double(nesterov) / problems;
}

TEST(Gjk, TouchingBoxesCollide) {
  const Shape box = Shape::box({0.5, 0.5, 0.5});
  for (GjkVariant v : kVariants) {
    const GjkResult r =
        gjk(box, Pose::identity(), box, Pose::translation({1.0, 0.2, 0.1}), {-1, 0, 0}, options(v));
    EXPECT_EQ(r.status, GjkStatus::Intersecting) << toString(v);
    EXPECT_NEAR(r.distance, 0.0, 1e-9);
  }
}

// Boolean mode stops as soon as an iterate of D lies within eps_col of the origin: the distance
// cannot exceed |x_k|, so the answer is collision, found before the gap test would converge.
TEST(Gjk, BooleanModeStopsOnceAnIterateIsWithinTheTolerance) {
  std::mt19937 rng(17);
  const double epsCol = std::sqrt(defaults::kGjkTolerance);
  long distanceIterations = 0, booleanIterations = 0;
  for (int t = 0; t < 500; ++t) {
    // Touching to within a quarter of the tolerance, or three tolerances apart.
    const bool touching = t % 2 == 0;
    const auto [a, b, pa, pb] = ellipsoidsAtDistance(rng, (touching ? 0.25 : 3.0) * epsCol);
    const double truth = gjk(a, pa, b, pb, pa.p - pb.p, options(GjkVariant::Vanilla)).distance;
    for (GjkVariant v : kVariants) {
      SCOPED_TRACE(::testing::Message() << "trial " << t << " " << toString(v));
      const GjkResult full = gjk(a, pa, b, pb, pa.p - pb.p, options(v));
      const GjkResult boolean = gjk(a, pa, b, pb, pa.p - pb.p, options(v, GjkMode::Boolean));
      ASSERT_EQ(boolean.status, touching ? GjkStatus::Intersecting : GjkStatus::Separated);
      EXPECT_EQ(boolean.collide(), full.collide());
      EXPECT_LE(boolean.iterations, full.iterations);
      if (touching) {
        // The reported distance is |x_k|: an upper bound, within the tolerance.
        EXPECT_GE(boolean.distance, truth - gapTolerance(truth));
        EXPECT_LE(boolean.distance, epsCol);
        distanceIterations += full.iterations;
        booleanIterations += boolean.iterations;
      }
    }
  }
  EXPECT_LT(booleanIterations, 0.9 * distanceIterations);
}

TEST(Gjk, BooleanModeOnInflatedShapesCountsTheRadii) {
  // Spheres are points inflated by their radii: the cores are 0.3 apart, the surfaces within
  // eps_col / 2, so the first iterate already settles the answer.
  const double epsCol = std::sqrt(defaults::kGjkTolerance);
  const Shape sphere = Shape::sphere(0.15);
  for (const double gap : {0.5 * epsCol, 2.0 * epsCol}) {
    for (GjkVariant v : kVariants) {
      const GjkResult r =
          gjk(sphere, Pose::identity(), sphere, Pose::translation({0.3 + gap, 0, 0}), {-1, 0, 0},
              options(v, GjkMode::Boolean));
      EXPECT_EQ(r.collide(), gap < epsCol) << toString(v);
      EXPECT_LE(r.iterations, 2) << toString(v);
    }
  }
}

// A separation bound stops a distance query at the first plane that separates the shapes by
// more than the bound; a pair within the bound runs exactly as without one. Hulls, rounded hulls
// and ellipsoids, from overlap to a metre apart, bounds from 0 to 0.5 m.
TEST(Gjk, SeparationBoundStopsOnlyBeyondTheBound) {
  std::mt19937 rng(31);
  std::uniform_real_distribution<double> boundOf(0.0, 0.5);
  int stopped = 0, within = 0;
  long fullIterations = 0, boundedIterations = 0;
  for (int t = 0; t < 3000; ++t) {
    const int kind = t % 3;  // hulls, rounded hulls, ellipsoids
    const auto make = [&](int points) {
      if (kind == 2) return Shape::ellipsoid(test::randomVector(rng, 0.05, 0.3));
      auto hull = std::make_shared<const ConvexHull>(
          ConvexHull::build(test::randomCloud(rng, points, 0.25)));
      return kind == 0 ? Shape::convexHull(hull) : Shape::convexHull(hull).withConvexRadius(0.02);
    };
    const Shape a = make(8 + t % 20), b = make(8 + t % 13);
    const Pose pa = test::randomPose(rng, 0.0), pb = test::randomPose(rng, 1.2);
    const double bound = t % 10 == 0 ? 0.0 : boundOf(rng);
    for (GjkVariant v : kVariants) {
      SCOPED_TRACE(::testing::Message() << "trial " << t << " " << toString(v));
      const GjkResult full = gjk(a, pa, b, pb, pa.p - pb.p, options(v));
      GjkOptions o = options(v);
      o.separationBound = bound;
      const GjkResult bounded = gjk(a, pa, b, pb, pa.p - pb.p, o);
      ASSERT_TRUE(full.status == GjkStatus::Separated || full.status == GjkStatus::Intersecting);
      if (bounded.distance > bound) {
        // Stopped on a plane (or converged) beyond the bound: a lower bound of the distance.
        EXPECT_EQ(bounded.status, GjkStatus::Separated);
        EXPECT_LE(bounded.distance, full.distance + gapTolerance(full.distance));
        EXPECT_GT(full.distance, bound - gapTolerance(full.distance));
        EXPECT_LE(bounded.iterations, full.iterations);
        fullIterations += full.iterations;
        boundedIterations += bounded.iterations;
        ++stopped;
      } else {
        // No plane separates them by more than the bound: the very same run.
        EXPECT_EQ(bounded.status, full.status);
        EXPECT_EQ(bounded.distance, full.distance);
        EXPECT_EQ(bounded.iterations, full.iterations);
        EXPECT_EQ(bounded.witnessA, full.witnessA);
        ++within;
      }
    }
  }
  EXPECT_GT(stopped, 3000);
  EXPECT_GT(within, 1000);
  EXPECT_LT(boundedIterations, 0.8 * fullIterations);
}

TEST(Gjk, IdenticalShapesAtIdenticalPoses) {
  const Pose p{Eigen::Quaterniond(Eigen::AngleAxisd(0.3, Vector3d(1, 2, 3).normalized())),
               {0.1, 0.2, 0.3}};
  for (const Shape& s :
       {Shape::box({0.1, 0.2, 0.3}), Shape::ellipsoid({0.1, 0.2, 0.3}), Shape::cylinder(0.1, 0.2),
        Shape::cone(0.1, 0.2), Shape::sphere(0.1), Shape::capsule(0.1, 0.2)}) {
    for (GjkVariant v : kVariants) {
      for (const Vector3d& guess : {Vector3d(0, 0, 0), Vector3d(1, 0, 0)}) {
        const GjkResult r = gjk(s, p, s, p, guess, options(v));
        EXPECT_EQ(r.status, GjkStatus::Intersecting) << toString(s.type()) << " " << toString(v);
        EXPECT_TRUE(r.coresOverlap || s.convexRadius() > 0);
        EXPECT_TRUE(r.witnessA.allFinite());
      }
    }
  }
}

TEST(Gjk, ExtremeScales) {
  std::mt19937 rng(8);
  for (double scale : {1e-4, 100.0}) {
    for (int t = 0; t < 200; ++t) {
      const Vector3d ha = scale * test::randomVector(rng, 0.5, 1.0);
      const Vector3d hb = scale * test::randomVector(rng, 0.5, 1.0);
      const Vector3d offset(ha.x() + hb.x() + scale * 0.1, scale * 0.2, -scale * 0.1);
      const Pose common = test::randomPose(rng, scale);
      const Pose pa = common, pb = common * Pose::translation(offset);
      const double expected = 0.1 * scale;
      for (GjkVariant v : kVariants) {
        // Tolerances are absolute (squared metres): scale them with the problem.
        GjkOptions o = options(v);
        o.tolerance = defaults::kGjkTolerance * scale * scale;
        const GjkResult r = gjk(Shape::box(ha), pa, Shape::box(hb), pb, pa.p - pb.p, o);
        ASSERT_EQ(r.status, GjkStatus::Separated) << scale << " " << toString(v);
        EXPECT_NEAR(r.distance, expected, 1e-9 * scale);
        EXPECT_LE(r.iterations, defaults::kGjkMaxIterations);
      }
    }
  }
}

TEST(Gjk, NonFiniteInputIsRejected) {
  const Shape box = Shape::box({1, 1, 1});
  const double nan = std::nan(""), inf = INFINITY;
  const Pose good = Pose::identity();
  std::vector<Pose> bad = {Pose::translation({nan, 0, 0}), Pose::translation({inf, 0, 0}),
                           Pose{Eigen::Quaterniond(nan, 0, 0, 0), Vector3d::Zero()},
                           Pose{Eigen::Quaterniond(2, 0, 0, 0), Vector3d::Zero()}};
  for (const Pose& p : bad) {
    for (GjkVariant v : kVariants) {
      EXPECT_EQ(gjk(box, p, box, good, {1, 0, 0}, options(v)).status, GjkStatus::InvalidInput);
      EXPECT_EQ(gjk(box, good, box, p, {1, 0, 0}, options(v)).status, GjkStatus::InvalidInput);
    }
  }
  EXPECT_EQ(gjk(box, good, box, good, {nan, 0, 0}, options(GjkVariant::Vanilla)).status,
            GjkStatus::InvalidInput);
}

TEST(Gjk, IterationCapIsRespected) {
  const Shape a = Shape::ellipsoid({0.3, 0.2, 0.1}), b = Shape::ellipsoid({0.1, 0.4, 0.2});
  GjkOptions o = options(GjkVariant::Vanilla);
  o.maxIterations = 2;
  o.tolerance = 1e-14;
  const GjkResult r = gjk(a, Pose::identity(), b, Pose::translation({0.5, 0.5, 0.1}), {1, 0, 0}, o);
  EXPECT_EQ(r.status, GjkStatus::MaxIterations);
  EXPECT_EQ(r.iterations, 2);
  EXPECT_TRUE(std::isfinite(r.distance));
}

TEST(Gjk, MomentumStopIsReported) {
  const Shape a = Shape::box({0.2, 0.2, 0.2});
  const GjkResult r = gjk(a, Pose::identity(), a, Pose::translation({0.5, 0.1, 0.05}), {1, 0, 0},
                          options(GjkVariant::Nesterov));
  ASSERT_EQ(r.status, GjkStatus::Separated);
  EXPECT_GE(r.momentumStopIteration, 1);
  EXPECT_LE(r.momentumStopIteration, r.iterations);
  const GjkResult vanilla = gjk(a, Pose::identity(), a, Pose::translation({0.5, 0.1, 0.05}),
                                {1, 0, 0}, options(GjkVariant::Vanilla));
  EXPECT_EQ(vanilla.momentumStopIteration, -1);
}

}  // namespace
}  // namespace hb

namespace hb {
namespace {

// Overlapping cores of inflated shapes: the depth comes from the cores plus the radii, exactly.
TEST(Collide, InflatedShapesWithOverlappingCores) {
  std::mt19937 rng(31);
  CollisionOptions o;
  for (int t = 0; t < 200; ++t) {
    const Pose common = test::randomPose(rng);
    // Concentric spheres: depth r1 + r2.
    CollisionResult r = collide(Shape::sphere(0.3), common, Shape::sphere(0.2), common,
                                test::randomUnitVector(rng), o);
    EXPECT_NEAR(r.distance, -0.5, 1e-12);
    // Sphere centre inside a box: depth = distance to the nearest face + radius.
    const Eigen::Vector3d h(0.4, 0.3, 0.2);
    const Eigen::Vector3d c = test::randomVector(rng, -0.15, 0.15);
    const double toFace = (h - c.cwiseAbs()).minCoeff();
    r = collide(Shape::sphere(0.05), common * Pose::translation(c), Shape::box(h), common,
                common.q * c, o);
    ASSERT_TRUE(r.epaStatus.has_value());
    EXPECT_EQ(*r.epaStatus, EpaStatus::Converged);
    EXPECT_NEAR(r.distance, -(toFace + 0.05), 1e-6);
    // Crossing capsules: depth r1 + r2 along the axes' common perpendicular.
    const Pose pb =
        common *
        Pose{Eigen::Quaterniond(Eigen::AngleAxisd(0.4 + t * 0.01, Eigen::Vector3d::UnitX())),
             Eigen::Vector3d::Zero()};
    r = collide(Shape::capsule(0.1, 0.5), common, Shape::capsule(0.2, 0.5), pb, {1, 0, 0}, o);
    EXPECT_NEAR(r.distance, -0.3, 1e-12);
    EXPECT_NEAR(std::abs(r.normal.dot(common.q * Eigen::Vector3d::UnitX())), 1.0, 1e-9);  // z x z'
  }
}

}  // namespace
}  // namespace hb
