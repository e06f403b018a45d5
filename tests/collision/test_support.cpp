// Support functions against brute force: the support value must equal the maximum of dir . x
// over a dense sampling of the shape's surface, and the support point must lie on the shape.

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>
#include <vector>

#include "collision/support.hpp"
#include "random_geometry.hpp"

namespace hb {
namespace {

using Eigen::Vector3d;

// Dense samples of the surface of each primitive (full shape, radius included).
std::vector<Vector3d> surfaceSamples(const Shape& s) {
  std::vector<Vector3d> pts;
  const int n = 160;
  const double pi = std::numbers::pi;
  auto sphereDir = [&](int i, int j) {
    const double th = pi * (i + 0.5) / n, ph = 2 * pi * j / n;
    return Vector3d(std::sin(th) * std::cos(ph), std::sin(th) * std::sin(ph), std::cos(th));
  };
  switch (s.type()) {
    case ShapeType::Sphere:
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) pts.push_back(s.radius() * sphereDir(i, j));
      break;
    case ShapeType::Ellipsoid:
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) pts.push_back(s.radii().cwiseProduct(sphereDir(i, j)));
      break;
    case ShapeType::Box:
      for (int c = 0; c < 8; ++c)
        pts.push_back({(c & 1 ? 1 : -1) * s.halfExtents().x(),
                       (c & 2 ? 1 : -1) * s.halfExtents().y(),
                       (c & 4 ? 1 : -1) * s.halfExtents().z()});
      break;
    case ShapeType::Capsule:
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
          const Vector3d u = sphereDir(i, j);
          const double z = (u.z() >= 0 ? 1 : -1) * s.halfLength();
          pts.push_back(Vector3d(0, 0, z) + s.radius() * u);
        }
      break;
    case ShapeType::Cylinder:
    case ShapeType::Cone:
      for (int j = 0; j < 4 * n; ++j) {
        const double ph = 2 * pi * j / (4 * n);
        const Vector3d rim(s.radius() * std::cos(ph), s.radius() * std::sin(ph), 0);
        if (s.type() == ShapeType::Cylinder) {
          pts.push_back(rim + Vector3d(0, 0, s.halfLength()));
          pts.push_back(rim - Vector3d(0, 0, s.halfLength()));
        } else {
          pts.push_back(rim - Vector3d(0, 0, s.halfLength()));
        }
      }
      if (s.type() == ShapeType::Cone) pts.push_back({0, 0, s.halfLength()});
      break;
    case ShapeType::ConvexHull:
    case ShapeType::Superquadric:  // tested against their surfaces in test_smooth_convex.cpp
    case ShapeType::SupportPoints:
      break;
  }
  return pts;
}

TEST(Support, PrimitivesMatchDenseSampling) {
  const std::vector<Shape> shapes = {Shape::sphere(0.3),        Shape::box({0.1, 0.2, 0.3}),
                                     Shape::capsule(0.05, 0.2), Shape::cylinder(0.15, 0.1),
                                     Shape::cone(0.2, 0.3),     Shape::ellipsoid({0.1, 0.25, 0.4})};
  std::mt19937 rng(7);
  for (const Shape& shape : shapes) {
    const std::vector<Vector3d> samples = surfaceSamples(shape);
    for (int trial = 0; trial < 300; ++trial) {
      const Vector3d dir = test::randomUnitVector(rng) * (trial % 2 ? 3.0 : 0.5);
      int hint = 0;
      const Vector3d p = support(shape, dir, hint);
      double best = -1e300;
      for (const Vector3d& q : samples) best = std::max(best, dir.dot(q));
      // The support reaches at least as far as every sample and, since it lies on the shape,
      // no further than the true maximum, which the dense samples approach within ~1e-3.
      EXPECT_GE(dir.dot(p), best - 1e-12) << toString(shape.type());
      EXPECT_LE(dir.dot(p), best + 2e-3 * dir.norm()) << toString(shape.type());
    }
  }
}

TEST(Support, CoreOfInflatedShapes) {
  int hint = 0;
  const Vector3d dir(0.3, -0.2, 0.9);
  EXPECT_TRUE(supportCore(Shape::sphere(0.5), dir, hint).isZero());
  EXPECT_TRUE(supportCore(Shape::capsule(0.1, 0.4), dir, hint).isApprox(Vector3d(0, 0, 0.4)));
  EXPECT_TRUE(support(Shape::sphere(0.5), dir, hint).isApprox(0.5 * dir.normalized()));
}

TEST(Support, ZeroDirectionGivesAPointOfTheShape) {
  const Vector3d zero = Vector3d::Zero();
  int hint = 0;
  for (const Shape& s : {Shape::sphere(1), Shape::box({1, 2, 3}), Shape::capsule(1, 2),
                         Shape::cylinder(1, 2), Shape::cone(1, 2), Shape::ellipsoid({1, 2, 3})}) {
    EXPECT_TRUE(support(s, zero, hint).allFinite()) << toString(s.type());
  }
}

// Smooth shapes: the core's support point is the support function's gradient, the full shape
// adds the convex radius, and the tessellation standing in for the body lies inside it, within
// the radius plus a fraction of its size of the true surface.
TEST(Support, SmoothShapesUseTheirSupportFunction) {
  const Shape sq = Shape::superquadric({0.2, 0.3, 0.4}, 1.5, 1.2);
  std::mt19937 rng(8);
  for (int trial = 0; trial < 100; ++trial) {
    const Vector3d dir = test::randomUnitVector(rng);
    int hint = 0;
    EXPECT_LT((supportCore(sq, dir, hint) - sq.smooth().supportPoint(dir)).norm(), 1e-15);
    EXPECT_NEAR(dir.dot(support(sq, dir, hint)), sq.smooth().evaluate(dir).h + 1e-4, 1e-12);
    const ConvexHull& mesh = sq.hull();
    const double meshReach = dir.dot(mesh.vertices()[mesh.supportVertexScan(dir)]);
    EXPECT_LE(meshReach, sq.smooth().evaluate(dir).h + 1e-4 + 1e-12);
    EXPECT_GE(meshReach, sq.smooth().evaluate(dir).h - 0.01);
  }
  EXPECT_EQ(toString(sq.type()), "superquadric");
}

TEST(Support, InvalidParametersThrow) {
  EXPECT_THROW(Shape::sphere(0.0), std::invalid_argument);
  EXPECT_THROW(Shape::sphere(std::nan("")), std::invalid_argument);
  EXPECT_THROW(Shape::box({1, -1, 1}), std::invalid_argument);
  EXPECT_THROW(Shape::capsule(1, INFINITY), std::invalid_argument);
  EXPECT_THROW(Shape::convexHull(nullptr), std::invalid_argument);
}

}  // namespace
}  // namespace hb
