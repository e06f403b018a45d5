// Two unit squares, the first translated along d until it first touches the second: face on
// face, corner on a tilted face, edge across edge, and a miss, against the times by hand.

#include <gtest/gtest.h>

#include <cmath>

#include "collision/polygon_touch.hpp"

namespace hb::cta {
namespace {

using Eigen::Vector3d;
using Quad = std::array<Vector3d, 4>;

/// The unit square [0, 1]^2 at height z (counter-clockwise seen from +z), moved by `shift`.
Quad square(double z, const Vector3d& shift = Vector3d::Zero()) {
  return {Vector3d(0, 0, z) + shift, Vector3d(1, 0, z) + shift, Vector3d(1, 1, z) + shift,
          Vector3d(0, 1, z) + shift};
}

const Vector3d up = Vector3d::UnitZ();

TEST(PolygonTouch, FaceOnFaceAtTheirDistance) {
  const Touch t = touchPolygons(square(0.0), up, square(2.0, {0.5, 0.25, 0.0}), -up, up, 1e-12);
  EXPECT_NEAR(t.time, 2.0, 1e-15);
  EXPECT_NEAR(t.pointQ.z(), 2.0, 1e-15);
  ASSERT_FALSE(t.normals.empty());
  for (const Vector3d& n : t.normals) EXPECT_GT(n.dot(up), 0.0);  // along d
}

TEST(PolygonTouch, ACornerReachesATiltedFaceFirst) {
  // Q: the square tilted about the x axis so that its height is 2 + y / 2; P's corners at y = 0
  // reach it first, after 2 m.
  Quad q = square(0.0);
  for (Vector3d& v : q) v.z() = 2.0 + 0.5 * v.y();
  const Vector3d nq = Vector3d(0.0, 0.5, -1.0).normalized();
  const Touch t = touchPolygons(square(0.0), up, q, nq, up, 1e-12);
  EXPECT_NEAR(t.time, 2.0, 1e-14);
  EXPECT_NEAR(t.pointP.y(), 0.0, 1e-14);
}

TEST(PolygonTouch, EdgeAcrossEdge) {
  // P upright in the plane y = 0.5 (x in [0, 1], z in [0, 1]); Q upright in x = 0.5 (y in
  // [0, 1], z in [3, 4]): moving up, P's top edge meets Q's bottom edge after 2 m.
  const Quad p = {Vector3d(0, 0.5, 0), Vector3d(1, 0.5, 0), Vector3d(1, 0.5, 1),
                  Vector3d(0, 0.5, 1)};
  const Quad q = {Vector3d(0.5, 0, 3), Vector3d(0.5, 1, 3), Vector3d(0.5, 1, 4),
                  Vector3d(0.5, 0, 4)};
  const Touch t = touchPolygons(p, Vector3d::UnitY(), q, Vector3d::UnitX(), up, 1e-12);
  EXPECT_NEAR(t.time, 2.0, 1e-14);
  EXPECT_TRUE(t.pointQ.isApprox(Vector3d(0.5, 0.5, 3.0), 1e-14));
}

TEST(PolygonTouch, SquaresSideBySideNeverTouch) {
  const Touch t = touchPolygons(square(0.0), up, square(2.0, {3.0, 0.0, 0.0}), -up, up, 1e-12);
  EXPECT_TRUE(std::isinf(t.time));
}

}  // namespace
}  // namespace hb::cta
