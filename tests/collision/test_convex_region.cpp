// The search region of the collision-translation algorithm: a square cut by half-planes, against
// the areas, centroids and diameters worked out by hand.

#include <gtest/gtest.h>

#include <cmath>

#include "collision/convex_region.hpp"

namespace hb::cta {
namespace {

Region unitSquare() {
  return {{0.0, 0.0}, {1.0, 0.0}, {1.0, 1.0}, {0.0, 1.0}};
}

TEST(ConvexRegion, AHalfPlaneCutsTheSquareInHalf) {
  Region r = unitSquare();
  cut(r, {1.0, 0.0}, 0.5);  // x <= 0.5
  ASSERT_EQ(r.size(), 4u);
  EXPECT_TRUE(centroid(r).isApprox(Eigen::Vector2d(0.25, 0.5), 1e-15));
  EXPECT_NEAR(diameter(r), std::sqrt(1.25), 1e-15);
  EXPECT_TRUE(inside(r, {0.2, 0.9}));
  EXPECT_TRUE(inside(r, {0.5, 0.5}));  // on the cut
  EXPECT_FALSE(inside(r, {0.7, 0.2}));
}

TEST(ConvexRegion, ADiagonalCutLeavesATriangle) {
  Region r = unitSquare();
  cut(r, {1.0, 1.0}, 1.0);  // x + y <= 1
  ASSERT_EQ(r.size(), 3u);
  EXPECT_TRUE(centroid(r).isApprox(Eigen::Vector2d(1.0, 1.0) / 3.0, 1e-15));
  EXPECT_NEAR(diameter(r), std::sqrt(2.0), 1e-15);
  EXPECT_FALSE(inside(r, {0.6, 0.6}));
}

TEST(ConvexRegion, CutsThatMissOrTakeEverything) {
  Region r = unitSquare();
  cut(r, {1.0, 0.0}, 2.0);  // the whole square lies in x <= 2
  EXPECT_EQ(r.size(), 4u);
  cut(r, {1.0, 0.0}, -1.0);  // none of it in x <= -1
  EXPECT_TRUE(r.empty());
}

}  // namespace
}  // namespace hb::cta
