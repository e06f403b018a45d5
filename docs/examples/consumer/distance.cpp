// Distance and contact between a box, a sphere and a convex hull, with heavyball's collision
// library alone.
#include <cmath>
#include <cstdio>
#include <memory>
#include <vector>

#include "collision/collide.hpp"
#include "collision/convex_hull.hpp"
#include "collision/shape.hpp"

int main() {
  const hb::Shape box = hb::Shape::box({0.1, 0.1, 0.1});
  const hb::Shape ball = hb::Shape::sphere(0.05);
  const hb::Pose origin = hb::Pose::identity();
  const hb::Pose right = hb::Pose::translation({0.3, 0.0, 0.0});
  const hb::CollisionResult apart =
      hb::collide(box, origin, ball, right, right.p - origin.p, hb::CollisionOptions{});
  std::printf("box-sphere: distance %.6f m, normal (%.3f, %.3f, %.3f)\n", apart.distance,
              apart.normal.x(), apart.normal.y(), apart.normal.z());

  // A tetrahedron's hull (Qhull), overlapping the box by 0.02 m.
  const std::vector<Eigen::Vector3d> corners = {{0, 0, 0}, {0.2, 0, 0}, {0, 0.2, 0}, {0, 0, 0.2}};
  const hb::Shape tetrahedron =
      hb::Shape::convexHull(std::make_shared<const hb::ConvexHull>(hb::ConvexHull::build(corners)));
  const hb::Pose above = hb::Pose::translation({-0.05, -0.05, 0.08});
  const hb::CollisionResult overlap =
      hb::collide(box, origin, tetrahedron, above, above.p - origin.p, hb::CollisionOptions{});
  std::printf("box-tetrahedron: collide %s, depth %.6f m\n", overlap.collide ? "yes" : "no",
              -overlap.distance);
  const bool right1 = !apart.collide && std::abs(apart.distance - 0.15) < 1e-6;
  const bool right2 = overlap.collide && std::abs(overlap.distance + 0.02) < 1e-6;
  return right1 && right2 ? 0 : 1;
}
