// Shape: the convex radius of every type, rounding boxes and hulls (clamping rule, shared cores,
// bad input), rounded hulls from a stored core, and the core support functions GJK uses.

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <random>
#include <stdexcept>
#include <vector>

#include "collision/inset_hull.hpp"
#include "collision/shape.hpp"
#include "collision/support.hpp"
#include "random_geometry.hpp"

namespace hb {
namespace {

using Eigen::Vector3d;

std::shared_ptr<const ConvexHull> randomHull(std::mt19937& rng, int points) {
  return std::make_shared<const ConvexHull>(ConvexHull::build(test::randomCloud(rng, points, 0.1)));
}

TEST(Shape, ConvexRadiusOfEveryType) {
  std::mt19937 rng(1);
  EXPECT_EQ(Shape::sphere(0.3).convexRadius(), 0.3);
  EXPECT_EQ(Shape::capsule(0.2, 0.5).convexRadius(), 0.2);
  EXPECT_EQ(Shape::cylinder(0.2, 0.5).convexRadius(), 0.0);
  EXPECT_EQ(Shape::cone(0.2, 0.5).convexRadius(), 0.0);
  EXPECT_EQ(Shape::ellipsoid({0.1, 0.2, 0.3}).convexRadius(), 0.0);
  EXPECT_EQ(Shape::box({0.1, 0.2, 0.3}).convexRadius(), 0.0);
  EXPECT_EQ(Shape::convexHull(randomHull(rng, 20)).convexRadius(), 0.0);
  EXPECT_EQ(Shape::box({0.1, 0.2, 0.3}).withConvexRadius(0.01).convexRadius(), 0.01);
}

TEST(Shape, RoundedBoxShrinksItsCoreAndKeepsItsFaces) {
  const Shape box = Shape::box({0.1, 0.2, 0.3});
  EXPECT_DOUBLE_EQ(box.maxConvexRadius(), 0.025);  // a quarter of the smallest half extent
  const Shape rounded = box.withConvexRadius(0.01);
  EXPECT_EQ(rounded.halfExtents(), box.halfExtents());
  EXPECT_TRUE(rounded.coreHalfExtents().isApprox(Vector3d(0.09, 0.19, 0.29), 1e-15));
  // Clamped to the largest radius.
  const Shape clamped = box.withConvexRadius(1.0);
  EXPECT_EQ(clamped.convexRadius(), box.maxConvexRadius());
  // Rounding again replaces the radius; zero gives the sharp box back.
  EXPECT_EQ(rounded.withConvexRadius(0.005).convexRadius(), 0.005);
  EXPECT_EQ(rounded.withConvexRadius(0.0).coreHalfExtents(), box.halfExtents());
}

TEST(Shape, FullSupportOfARoundedBoxIsTheRoundedSurface) {
  // The support of the box rounded by r along unit u: the core's corner plus r u, so its value
  // is sum |u_i| (h_i - r) + r, the sharp box's minus r (|u|_1 - 1).
  std::mt19937 rng(2);
  const Vector3d h(0.1, 0.05, 0.2);
  const double r = 0.01;
  const Shape rounded = Shape::box(h).withConvexRadius(r);
  for (int t = 0; t < 1000; ++t) {
    const Vector3d u = test::randomUnitVector(rng);
    int hint = -1;
    const double value = u.dot(support(rounded, u, hint));
    EXPECT_NEAR(value, u.cwiseAbs().dot(h) - r * (u.lpNorm<1>() - 1.0), 1e-15);
    EXPECT_NEAR(u.dot(supportCore(rounded, u, hint)), u.cwiseAbs().dot(h) - r * u.lpNorm<1>(),
                1e-15);
  }
}

TEST(Shape, RoundedHullCoreIsTheInsetHullSharedByEveryCopy) {
  std::mt19937 rng(3);
  const auto hull = randomHull(rng, 40);
  const Shape shape = Shape::convexHull(hull);
  EXPECT_EQ(shape.coreHullPtr(), hull);
  EXPECT_DOUBLE_EQ(shape.maxConvexRadius(), 0.25 * hull->innerRadius());
  const double r = 0.5 * shape.maxConvexRadius();
  const Shape first = shape.withConvexRadius(r);
  EXPECT_EQ(first.hullPtr(), hull);
  EXPECT_NE(first.coreHullPtr(), hull);
  EXPECT_EQ(first.coreHull().vertices(), insetHull(*hull, r).vertices());
  // A hundred bodies of one asset hold one core.
  for (int i = 0; i < 100; ++i) {
    EXPECT_EQ(shape.withConvexRadius(r).coreHullPtr(), first.coreHullPtr());
  }
  // GJK's support is the core's; the full support adds r along the direction.
  for (int t = 0; t < 200; ++t) {
    const Vector3d u = test::randomUnitVector(rng);
    int hint = -1;
    const Vector3d core = supportCore(first, u, hint);
    int coreHint = -1;
    EXPECT_EQ(core, first.coreHull().vertices()[first.coreHull().supportVertex(u, coreHint)]);
    EXPECT_TRUE(support(first, u, hint).isApprox(core + r * u, 1e-15));
  }
  EXPECT_EQ(shape.withConvexRadius(0.0).coreHullPtr(), hull);
  EXPECT_EQ(shape.withConvexRadius(10.0).convexRadius(), shape.maxConvexRadius());
}

TEST(Shape, ConvexRadiusRejectsBadValuesAndOtherTypes) {
  const Shape box = Shape::box({0.1, 0.1, 0.1});
  for (const double r : {-0.001, std::nan(""), double(INFINITY)}) {
    EXPECT_THROW(box.withConvexRadius(r), std::invalid_argument) << r;
  }
  for (const Shape& s : {Shape::sphere(0.1), Shape::capsule(0.1, 0.2), Shape::cylinder(0.1, 0.2),
                         Shape::cone(0.1, 0.2), Shape::ellipsoid({0.1, 0.2, 0.3})}) {
    EXPECT_THROW(s.withConvexRadius(0.01), std::invalid_argument) << toString(s.type());
    EXPECT_EQ(s.maxConvexRadius(), 0.0);
  }
}

TEST(Shape, RoundedHullFromAStoredCore) {
  std::mt19937 rng(4);
  const auto hull = randomHull(rng, 30);
  const double r = 0.2 * hull->innerRadius();
  const auto core = std::make_shared<const ConvexHull>(insetHull(*hull, r));
  const Shape s = Shape::roundedConvexHull(hull, core, r);
  EXPECT_EQ(s.coreHullPtr(), core);
  EXPECT_EQ(s.convexRadius(), r);
  // A core that reaches past the moved planes, a radius out of range, no core: errors.
  EXPECT_THROW(Shape::roundedConvexHull(hull, hull, r), std::invalid_argument);
  EXPECT_THROW(Shape::roundedConvexHull(hull, core, hull->innerRadius()), std::invalid_argument);
  EXPECT_THROW(Shape::roundedConvexHull(hull, core, -r), std::invalid_argument);
  EXPECT_THROW(Shape::roundedConvexHull(hull, nullptr, r), std::invalid_argument);
  // A smaller radius with this core is fine: the core is then further inside than needed.
  EXPECT_NO_THROW(Shape::roundedConvexHull(hull, core, 0.5 * r));
}

}  // namespace
}  // namespace hb
