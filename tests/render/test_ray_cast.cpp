// Ray casts against every shape type: analytic entry distances, misses, starts inside, and
// agreement with the shape's support function along random rays.

#include <gtest/gtest.h>

#include <random>

#include "render/ray_cast.hpp"

namespace hb {
namespace {

Ray along(const Eigen::Vector3d& origin, const Eigen::Vector3d& direction) {
  return {origin, direction.normalized()};
}

TEST(RayCast, SphereHitFromOutside) {
  const auto t = rayCast(Shape::sphere(0.5), along({-2, 0, 0}, {1, 0, 0}));
  ASSERT_TRUE(t);
  EXPECT_NEAR(*t, 1.5, 1e-12);
}

TEST(RayCast, SphereMissAndBehind) {
  EXPECT_FALSE(rayCast(Shape::sphere(0.5), along({-2, 0.6, 0}, {1, 0, 0})));
  EXPECT_FALSE(rayCast(Shape::sphere(0.5), along({2, 0, 0}, {1, 0, 0})));
}

TEST(RayCast, StartInsideIsZero) {
  for (const Shape& s :
       {Shape::sphere(0.5), Shape::box({0.3, 0.2, 0.1}), Shape::capsule(0.2, 0.3),
        Shape::cylinder(0.2, 0.3), Shape::cone(0.3, 0.2), Shape::ellipsoid({0.3, 0.2, 0.1})}) {
    const auto t = rayCast(s, along({0, 0, -0.05}, {0.3, 0.4, 1.0}));
    ASSERT_TRUE(t) << toString(s.type());
    EXPECT_EQ(*t, 0.0) << toString(s.type());
  }
}

TEST(RayCast, BoxFaces) {
  const Shape box = Shape::box({0.3, 0.2, 0.1});
  EXPECT_NEAR(*rayCast(box, along({0, 0, 1}, {0, 0, -1})), 0.9, 1e-12);
  EXPECT_NEAR(*rayCast(box, along({0, -1, 0}, {0, 1, 0})), 0.8, 1e-12);
  EXPECT_FALSE(rayCast(box, along({0, 0.25, 1}, {0, 0, -1})));
}

TEST(RayCast, CylinderSideAndCap) {
  const Shape c = Shape::cylinder(0.2, 0.3);
  EXPECT_NEAR(*rayCast(c, along({1, 0, 0}, {-1, 0, 0})), 0.8, 1e-12);
  EXPECT_NEAR(*rayCast(c, along({0.1, 0, 1}, {0, 0, -1})), 0.7, 1e-12);
  EXPECT_FALSE(rayCast(c, along({1, 0, 0.31}, {-1, 0, 0})));
}

TEST(RayCast, CapsuleEndsAreRound) {
  const Shape c = Shape::capsule(0.2, 0.3);
  EXPECT_NEAR(*rayCast(c, along({0, 0, 1}, {0, 0, -1})), 0.5, 1e-12);
  // Off the axis by 0.1: the cap sphere is entered at z = 0.3 + sqrt(0.04 - 0.01).
  EXPECT_NEAR(*rayCast(c, along({0.1, 0, 1}, {0, 0, -1})), 1.0 - 0.3 - std::sqrt(0.03), 1e-12);
}

TEST(RayCast, ConeApexBaseAndSide) {
  const Shape c = Shape::cone(0.3, 0.2);  // apex at z = 0.2, base radius 0.3 at z = -0.2
  EXPECT_NEAR(*rayCast(c, along({0, 0, 1}, {0, 0, -1})), 0.8, 1e-12);
  EXPECT_NEAR(*rayCast(c, along({0.1, 0, -1}, {0, 0, 1})), 0.8, 1e-12);
  // Horizontally at z = 0 the radius is 0.15.
  EXPECT_NEAR(*rayCast(c, along({1, 0, 0}, {-1, 0, 0})), 0.85, 1e-12);
  // Above the apex along the axis extended by the other nappe: a miss.
  EXPECT_FALSE(rayCast(c, along({1, 0, 0.5}, {-1, 0, 0})));
}

TEST(RayCast, HullMatchesBox) {
  std::vector<Eigen::Vector3d> corners;
  for (int i = 0; i < 8; ++i) {
    corners.emplace_back(i & 1 ? 0.3 : -0.3, i & 2 ? 0.2 : -0.2, i & 4 ? 0.1 : -0.1);
  }
  const Shape hull = Shape::convexHull(std::make_shared<ConvexHull>(ConvexHull::build(corners)));
  const Shape box = Shape::box({0.3, 0.2, 0.1});
  std::mt19937 rng(7);
  std::normal_distribution<double> n(0.0, 1.0);
  for (int i = 0; i < 500; ++i) {
    const Eigen::Vector3d origin(n(rng), n(rng), n(rng));
    const Eigen::Vector3d target = 0.2 * Eigen::Vector3d(n(rng), n(rng), n(rng));
    const Ray ray = along(origin, target - origin);
    const auto a = rayCast(hull, ray), b = rayCast(box, ray);
    ASSERT_EQ(a.has_value(), b.has_value());
    if (a) {
      EXPECT_NEAR(*a, *b, 1e-9);
    }
  }
}

TEST(RayCast, HitPointsLieOnTheSurface) {
  // Every hit point of a ray from outside is on the boundary: the support value along the
  // outward direction reaches it, so moving inward by a little stays inside and outward leaves.
  std::mt19937 rng(3);
  std::normal_distribution<double> n(0.0, 1.0);
  for (const Shape& s : {Shape::sphere(0.3), Shape::capsule(0.1, 0.2), Shape::cylinder(0.15, 0.2),
                         Shape::cone(0.2, 0.15), Shape::ellipsoid({0.3, 0.2, 0.1})}) {
    for (int i = 0; i < 200; ++i) {
      const Eigen::Vector3d origin = 2.0 * Eigen::Vector3d(n(rng), n(rng), n(rng)).normalized();
      const Ray ray = along(origin, 0.05 * Eigen::Vector3d(n(rng), n(rng), n(rng)) - origin);
      const auto t = rayCast(s, ray);
      if (!t) continue;
      EXPECT_TRUE(rayCast(s, Ray{ray.at(*t + 1e-6), ray.direction}).value_or(1.0) == 0.0)
          << toString(s.type());
      EXPECT_GT(rayCast(s, Ray{ray.at(*t - 1e-6), ray.direction}).value_or(0.0), 0.0)
          << toString(s.type());
    }
  }
}

TEST(RayCast, PosedShape) {
  Pose pose;
  pose.p = {1.0, 2.0, 3.0};
  pose.q = Eigen::AngleAxisd(0.7, Eigen::Vector3d::UnitZ());
  const auto t = rayCast(Shape::sphere(0.5), pose, along({1.0, 2.0, 5.0}, {0, 0, -1}));
  ASSERT_TRUE(t);
  EXPECT_NEAR(*t, 1.5, 1e-12);
}

}  // namespace
}  // namespace hb
