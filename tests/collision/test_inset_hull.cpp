// The core of a rounded hull (insetHull): the hull's face planes moved in by r, intersected.
// Checked against analytic cores (boxes, the regular octahedron), against a brute-force
// intersection of every triple of moved planes on small random hulls, and on YCB hulls against
// its defining properties and a bound on the support function. Also the hull's centroid and
// inner radius the clamping rule rests on, the process-wide sharing of cores, and bad input.

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "collision/convex_hull.hpp"
#include "collision/inset_hull.hpp"
#include "collision/inset_hull_cache.hpp"
#include "random_geometry.hpp"
#include "ycb_vertices.hpp"

namespace hb {
namespace {

using Eigen::Vector3d;

constexpr double kPlaneTolerance = 1e-9;  // metres

std::vector<Vector3d> boxCorners(const Vector3d& h, const Pose& pose) {
  std::vector<Vector3d> corners;
  for (int k = 0; k < 8; ++k) {
    const Vector3d c((k & 1) ? h.x() : -h.x(), (k & 2) ? h.y() : -h.y(), (k & 4) ? h.z() : -h.z());
    corners.push_back(pose.apply(c));
  }
  return corners;
}

double supportValue(const std::vector<Vector3d>& points, const Vector3d& u) {
  double best = -INFINITY;
  for (const Vector3d& p : points) best = std::max(best, u.dot(p));
  return best;
}

// Largest n_f . x - (d_f - r) over the hull's faces: <= 0 inside every moved plane.
double movedPlaneExcess(const ConvexHull& hull, double r, const Vector3d& x) {
  double worst = -INFINITY;
  for (int f = 0; f < hull.numFaces(); ++f) {
    worst = std::max(worst, hull.faceNormal(f).dot(x) - (hull.faceOffset(f) - r));
  }
  return worst;
}

// How many moved planes pass within the tolerance of x.
int planesThrough(const ConvexHull& hull, double r, const Vector3d& x) {
  int count = 0;
  for (int f = 0; f < hull.numFaces(); ++f) {
    if (std::abs(hull.faceNormal(f).dot(x) - (hull.faceOffset(f) - r)) <= kPlaneTolerance) ++count;
  }
  return count;
}

// Vertices of the intersection of the moved half-spaces by brute force: every triple of planes
// with a well-conditioned intersection point that lies inside all the others.
std::vector<Vector3d> bruteForceInset(const ConvexHull& hull, double r) {
  std::vector<Vector3d> vertices;
  const int n = hull.numFaces();
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      for (int k = j + 1; k < n; ++k) {
        Eigen::Matrix3d a;
        a.row(0) = hull.faceNormal(i);
        a.row(1) = hull.faceNormal(j);
        a.row(2) = hull.faceNormal(k);
        if (std::abs(a.determinant()) < 1e-9) continue;
        const Vector3d b(hull.faceOffset(i) - r, hull.faceOffset(j) - r, hull.faceOffset(k) - r);
        const Vector3d x = a.partialPivLu().solve(b);
        if (movedPlaneExcess(hull, r, x) <= kPlaneTolerance) vertices.push_back(x);
      }
    }
  }
  return vertices;
}

// Random polytopes from a few points in a box, so that triples of faces stay few.
ConvexHull randomHull(std::mt19937& rng, int points) {
  const Vector3d scale = test::randomVector(rng, 0.03, 0.3);
  std::vector<Vector3d> cloud;
  for (int i = 0; i < points; ++i) {
    cloud.push_back(test::randomVector(rng, -1.0, 1.0).cwiseProduct(scale));
  }
  const Pose pose = test::randomPose(rng, 0.5);
  for (Vector3d& p : cloud) p = pose.apply(p);
  return ConvexHull::build(cloud);
}

std::shared_ptr<const ConvexHull> ycbHull(const std::string& name) {
  return std::make_shared<const ConvexHull>(ConvexHull::build(test::ycbVertices(name)));
}

TEST(HullInnerBall, BoxCentroidAndInnerRadiusAreExact) {
  std::mt19937 rng(3);
  for (int t = 0; t < 50; ++t) {
    const Vector3d h = test::randomVector(rng, 0.01, 0.5);
    const Pose pose = test::randomPose(rng, 2.0);
    const ConvexHull hull = ConvexHull::build(boxCorners(h, pose));
    EXPECT_LE((hull.centroid() - pose.p).norm(), 1e-12 * (1.0 + pose.p.norm()));
    EXPECT_NEAR(hull.innerRadius(), h.minCoeff(), 1e-12);
  }
}

TEST(HullInnerBall, TetrahedronCentroidIsTheVertexMean) {
  std::mt19937 rng(4);
  for (int t = 0; t < 100; ++t) {
    std::vector<Vector3d> v = test::randomCloud(rng, 4, 1.0);
    const Vector3d mean = (v[0] + v[1] + v[2] + v[3]) / 4.0;
    // The distance from the mean to each face plane, from the face's own cross product.
    double nearest = INFINITY;
    for (int f = 0; f < 4; ++f) {
      const Vector3d& a = v[(f + 1) % 4];
      const Vector3d& b = v[(f + 2) % 4];
      const Vector3d& c = v[(f + 3) % 4];
      const Vector3d n = (b - a).cross(c - a).normalized();
      nearest = std::min(nearest, std::abs(n.dot(mean - a)));
    }
    if (nearest < 1e-3) continue;  // slivers: Qhull's planes are fine, the comparison is not
    const ConvexHull hull = ConvexHull::build(v);
    EXPECT_LE((hull.centroid() - mean).norm(), 1e-12);
    EXPECT_NEAR(hull.innerRadius(), nearest, 1e-12);
  }
}

TEST(HullInnerBall, CentroidMatchesMonteCarloAndBoundsTheWidth) {
  std::mt19937 rng(5);
  for (int t = 0; t < 5; ++t) {
    std::vector<Vector3d> cloud = test::randomCloud(rng, 30, 1.0);
    const ConvexHull hull = ConvexHull::build(cloud);
    // Uniform samples of the cube [-1, 1]^3 that fall inside the hull: their mean is the
    // centroid, to about 1 / sqrt(samples) of the size.
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    Vector3d sum = Vector3d::Zero();
    int inside = 0;
    for (int s = 0; s < 400000; ++s) {
      const Vector3d x(u(rng), u(rng), u(rng));
      bool in = true;
      for (int f = 0; f < hull.numFaces() && in; ++f) {
        in = hull.faceNormal(f).dot(x) <= hull.faceOffset(f);
      }
      if (in) {
        sum += x;
        ++inside;
      }
    }
    ASSERT_GT(inside, 10000);
    EXPECT_LE((hull.centroid() - sum / inside).norm(), 0.01) << "hull " << t;
    // Minkowski-Radon: the centroid is at least a quarter of the width from either supporting
    // plane, in every direction.
    for (int d = 0; d < 200; ++d) {
      const Vector3d dir = test::randomUnitVector(rng);
      const double width = supportValue(hull.vertices(), dir) + supportValue(hull.vertices(), -dir);
      EXPECT_GE(supportValue(hull.vertices(), dir) - dir.dot(hull.centroid()),
                0.25 * width - 1e-12);
    }
    // The inner radius is the centroid's distance to the nearest face plane, so a quarter of
    // the width across that face at least.
    double nearestPlane = INFINITY, narrowest = INFINITY;
    for (int f = 0; f < hull.numFaces(); ++f) {
      const Vector3d& n = hull.faceNormal(f);
      nearestPlane =
          std::min(nearestPlane, supportValue(hull.vertices(), n) - n.dot(hull.centroid()));
      narrowest =
          std::min(narrowest, supportValue(hull.vertices(), n) + supportValue(hull.vertices(), -n));
    }
    EXPECT_NEAR(hull.innerRadius(), nearestPlane, 1e-12);
    EXPECT_GE(hull.innerRadius(), 0.25 * narrowest - 1e-12);
  }
}

TEST(InsetHull, BoxCoreIsTheShrunkBox) {
  std::mt19937 rng(6);
  for (int t = 0; t < 50; ++t) {
    const Vector3d h = test::randomVector(rng, 0.01, 0.5);
    const Pose pose = test::randomPose(rng, 1.0);
    const ConvexHull hull = ConvexHull::build(boxCorners(h, pose));
    const double r = 0.9 * h.minCoeff() * std::uniform_real_distribution<double>(0.0, 1.0)(rng);
    const ConvexHull core = insetHull(hull, r);
    ASSERT_EQ(core.numVertices(), 8);
    const std::vector<Vector3d> expected = boxCorners(h - Vector3d::Constant(r), pose);
    for (const Vector3d& v : core.vertices()) {
      double nearest = INFINITY;
      for (const Vector3d& e : expected) nearest = std::min(nearest, (v - e).norm());
      EXPECT_LE(nearest, 1e-12) << "trial " << t;
    }
  }
}

TEST(InsetHull, RegularOctahedronShrinksAboutItsCentre) {
  // Every face is at the inradius a / sqrt(3) from the centre: moving them in by r scales the
  // octahedron by 1 - r sqrt(3) / a.
  const double a = 0.2;
  std::vector<Vector3d> points;
  for (int i = 0; i < 3; ++i) {
    points.push_back(a * Vector3d::Unit(i));
    points.push_back(-a * Vector3d::Unit(i));
  }
  const ConvexHull hull = ConvexHull::build(points);
  EXPECT_NEAR(hull.innerRadius(), a / std::sqrt(3.0), 1e-15);
  for (const double r : {0.001, 0.01, 0.05}) {
    const ConvexHull core = insetHull(hull, r);
    ASSERT_EQ(core.numVertices(), 6);
    const double scaled = a * (1.0 - r * std::sqrt(3.0) / a);
    for (const Vector3d& v : core.vertices()) {
      EXPECT_NEAR(v.norm(), scaled, 1e-14);
      EXPECT_NEAR(v.cwiseAbs().maxCoeff(), scaled, 1e-14);
    }
  }
}

TEST(InsetHull, MatchesBruteForceIntersectionOnRandomHulls) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> fraction(0.0, 0.6);
  int compared = 0;
  for (int t = 0; t < 200; ++t) {
    const ConvexHull hull = randomHull(rng, 6 + t % 10);
    const double r = fraction(rng) * hull.innerRadius();
    const ConvexHull core = insetHull(hull, r);
    const std::vector<Vector3d> reference = bruteForceInset(hull, r);
    ASSERT_GE(reference.size(), 4u);
    // Same polytope: the same support in every direction.
    for (int d = 0; d < 200; ++d) {
      const Vector3d u = test::randomUnitVector(rng);
      EXPECT_NEAR(supportValue(core.vertices(), u), supportValue(reference, u), 1e-10)
          << "hull " << t;
    }
    ++compared;
  }
  EXPECT_EQ(compared, 200);
}

// The bound on the support function tested below. K the hull, C its core, B(c, rho) the ball at
// the centroid of radius rho = innerRadius. C inflated by r lies in K (each point of C is r
// inside every face plane), so h_K(u) - r - h_C(u) >= 0. Conversely K contains B(c, rho), so
// for y in K the point c + (1 - r / rho) (y - c) is in C: its r-ball is the convex combination
// (1 - r / rho) y + (r / rho) (c + w rho / r), |w| <= r, of two points of K. Hence
//   0 <= h_K(u) - r - h_C(u) <= r ((h_K(u) - u . c) / rho - 1).
// The bound is exact for boxes and regular polytopes (rounded corners: r (|u|_1 - 1) for a
// cube). It is first order in the angle theta between u and the nearest face normal, not
// second: a square corner gives r (cos theta + sin theta - 1), so no bound in 1 - cos theta
// alone holds.
void expectSupportBound(const ConvexHull& hull, const ConvexHull& core, double r, std::mt19937& rng,
                        const std::string& what) {
  const double rho = hull.innerRadius();
  const Vector3d& c = hull.centroid();
  for (int d = 0; d < 2000; ++d) {
    const Vector3d u = test::randomUnitVector(rng);
    const double hullSupport = supportValue(hull.vertices(), u);
    const double gap = hullSupport - r - supportValue(core.vertices(), u);
    EXPECT_GE(gap, -kPlaneTolerance) << what;
    EXPECT_LE(gap, r * ((hullSupport - u.dot(c)) / rho - 1.0) + kPlaneTolerance) << what;
  }
}

TEST(InsetHull, RoundedCubeSupportGapIsTheCornerRounding) {
  const Vector3d h(0.1, 0.1, 0.1);
  const ConvexHull hull = ConvexHull::build(boxCorners(h, Pose{}));
  const double r = 0.02;
  const ConvexHull core = insetHull(hull, r);
  std::mt19937 rng(8);
  for (int d = 0; d < 1000; ++d) {
    const Vector3d u = test::randomUnitVector(rng);
    const double gap = supportValue(hull.vertices(), u) - r - supportValue(core.vertices(), u);
    EXPECT_NEAR(gap, r * (u.lpNorm<1>() - 1.0), 1e-14);
  }
  expectSupportBound(hull, core, r, rng, "cube");
}

TEST(InsetHull, YcbCoresAreInsideByTheRadiusAndTight) {
  std::mt19937 rng(9);
  for (const char* name : {"003_cracker_box", "005_tomato_soup_can", "011_banana", "025_mug",
                           "037_scissors", "055_baseball"}) {
    const auto hull = ycbHull(name);
    for (const double r : {0.001, 0.003, 0.25 * hull->innerRadius()}) {
      const std::string what = std::string(name) + " r = " + std::to_string(r);
      const ConvexHull core = insetHull(*hull, r);
      ASSERT_GE(core.numVertices(), 4) << what;
      for (const Vector3d& v : core.vertices()) {
        // At least r inside every face plane of the hull...
        ASSERT_LE(movedPlaneExcess(*hull, r, v), kPlaneTolerance) << what;
        // ...and on one of the moved planes at least: the core is not smaller than the
        // intersection (its vertices are the intersection's).
        ASSERT_GE(planesThrough(*hull, r, v), 1) << what;
      }
      expectSupportBound(*hull, core, r, rng, what);
    }
  }
}

TEST(InsetHull, RandomHullCoresSatisfyTheBound) {
  std::mt19937 rng(10);
  std::uniform_real_distribution<double> fraction(0.0, 0.9);
  for (int t = 0; t < 100; ++t) {
    const ConvexHull hull = ConvexHull::build(test::randomCloud(rng, 20 + 10 * (t % 20), 0.2));
    const double r = fraction(rng) * hull.innerRadius();
    const ConvexHull core = insetHull(hull, r);
    for (const Vector3d& v : core.vertices()) {
      ASSERT_LE(movedPlaneExcess(hull, r, v), kPlaneTolerance) << "hull " << t;
      ASSERT_GE(planesThrough(hull, r, v), 3) << "hull " << t;
    }
    expectSupportBound(hull, core, r, rng, "hull " + std::to_string(t));
  }
}

TEST(InsetHull, ZeroRadiusGivesTheHullBack) {
  std::mt19937 rng(11);
  const ConvexHull hull = randomHull(rng, 40);
  const ConvexHull core = insetHull(hull, 0.0);
  for (int d = 0; d < 200; ++d) {
    const Vector3d u = test::randomUnitVector(rng);
    EXPECT_NEAR(supportValue(core.vertices(), u), supportValue(hull.vertices(), u), 1e-12);
  }
}

TEST(InsetHull, BadRadiiAndTooThinHullsFailWithAClearError) {
  std::mt19937 rng(12);
  const ConvexHull hull = ConvexHull::build(boxCorners({0.1, 0.05, 0.01}, test::randomPose(rng)));
  for (const double r : {-1e-3, std::nan(""), double(INFINITY), 0.01, 0.02}) {
    try {
      insetHull(hull, r);
      ADD_FAILURE() << "r = " << r << " accepted";
    } catch (const HullError& e) {
      EXPECT_NE(std::string(e.what()).find("insetHull"), std::string::npos) << e.what();
    }
  }
  // Just below the inner radius the core of a slab is a sheet: too thin, an error.
  try {
    insetHull(hull, 0.01 * (1.0 - 1e-12));
    ADD_FAILURE() << "a flat core was accepted";
  } catch (const HullError& e) {
    EXPECT_NE(std::string(e.what()).find("too thin"), std::string::npos) << e.what();
  }
}

TEST(InsetHullCache, OneCorePerHullAndRadius) {
  std::mt19937 rng(13);
  auto hull = std::make_shared<const ConvexHull>(randomHull(rng, 30));
  const double r = 0.1 * hull->innerRadius();
  const auto first = sharedInsetHull(hull, r);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(sharedInsetHull(hull, r), first);
  const auto other = sharedInsetHull(hull, 0.5 * r);
  EXPECT_NE(other, first);
  // A copy of the hull is another hull: its own core, the same geometry.
  auto copy = std::make_shared<const ConvexHull>(*hull);
  const auto copied = sharedInsetHull(copy, r);
  EXPECT_NE(copied, first);
  EXPECT_EQ(copied->vertices(), first->vertices());
}

}  // namespace
}  // namespace hb
