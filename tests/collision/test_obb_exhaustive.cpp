// fitObb's pruned search against a plain exhaustive one. For every face of the hull the reference
// takes the box with a face on that face's plane, with no silhouette, no lower bounds and no
// pruning: height from all vertices, every vertex projected on the plane, their convex hull by
// Andrew's monotone chain, and for every edge of it the rectangle with a side along the edge,
// measured over the whole outline. With the PCA box, the smallest of these is the volume fitObb
// must find, on a few hundred seeded random hulls (round ones, where every plane comes within a
// few percent of the best, elongated ones, and ones with parallel or coplanar faces) and on YCB
// hulls.

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "collision/convex_hull.hpp"
#include "collision/obb.hpp"
#include "random_geometry.hpp"
#include "reference_hull_2d.hpp"
#include "reference_pca_box.hpp"
#include "ycb_vertices.hpp"

namespace hb {
namespace {

using Eigen::Matrix3d;
using Eigen::Vector2d;
using Eigen::Vector3d;

using test::monotoneChain;

// Smallest volume of a box with a face on the plane of one of the hull's faces.
double exhaustiveFaceBoxVolume(const ConvexHull& hull) {
  const std::vector<Vector3d>& vertices = hull.vertices();
  double best = std::numeric_limits<double>::infinity();
  for (int f = 0; f < hull.numFaces(); ++f) {
    const Vector3d n = hull.faceNormal(f);
    const Vector3d a = n.unitOrthogonal();
    const Vector3d b = n.cross(a);
    double low = std::numeric_limits<double>::infinity(), high = -low;
    std::vector<Vector2d> shadow;
    for (const Vector3d& v : vertices) {
      low = std::min(low, n.dot(v));
      high = std::max(high, n.dot(v));
      shadow.emplace_back(a.dot(v), b.dot(v));
    }
    const std::vector<Vector2d> outline = monotoneChain(shadow);
    for (std::size_t i = 0; i < outline.size(); ++i) {
      const Vector2d edge = outline[(i + 1) % outline.size()] - outline[i];
      if (edge.norm() == 0.0) continue;
      const Vector2d e = edge.normalized();
      const Vector2d p(-e.y(), e.x());
      Vector2d lo = Vector2d::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
      for (const Vector2d& q : outline) {
        const Vector2d local(e.dot(q), p.dot(q));
        lo = lo.cwiseMin(local);
        hi = hi.cwiseMax(local);
      }
      best = std::min(best, (high - low) * (hi - lo).prod());
    }
  }
  return best;
}

void expectExhaustiveVolume(const ConvexHull& hull, const std::string& what) {
  const double expected =
      std::min(test::pcaBoxVolume(hull, hull.vertices()), exhaustiveFaceBoxVolume(hull));
  const Obb box = fitObb(hull);
  EXPECT_NEAR(box.volume(), expected, 1e-9 * expected) << what;
  for (const Vector3d& v : hull.vertices()) ASSERT_TRUE(box.contains(v, 1e-9)) << what;
}

// A seeded point cloud of one of seven kinds, axis-aligned (exactly parallel faces) or moved.
std::vector<Vector3d> randomCloud(std::mt19937& rng, int kind, int size, bool moved) {
  std::normal_distribution<double> gauss(0.0, 1.0);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  const Vector3d scale = test::randomVector(rng, 0.1, 1.0);
  const Pose pose = test::randomPose(rng, 3.0);
  std::vector<Vector3d> points;
  for (int i = 0; i < size; ++i) {
    Vector3d p;
    switch (kind) {
      case 0:  // uniform in a box
        p = test::randomVector(rng, -1.0, 1.0).cwiseProduct(scale);
        break;
      case 1:  // on a sphere: every plane's box within a few percent of the best
        p = test::randomUnitVector(rng);
        break;
      case 2:  // on an ellipsoid
        p = test::randomUnitVector(rng).cwiseProduct(scale);
        break;
      case 3:  // anisotropic Gaussian
        p = Vector3d(gauss(rng), gauss(rng), gauss(rng)).cwiseProduct(scale);
        break;
      case 4: {  // two rims of a cylinder and points inside: side faces parallel to the axis
        const double angle = 2.0 * std::numbers::pi * (i / 2) / std::max(3, size / 4);
        p = i < size / 2 ? Vector3d(std::cos(angle), std::sin(angle), i % 2 == 0 ? -1.0 : 1.0)
                         : 0.9 * test::randomVector(rng, -1.0, 1.0);
        break;
      }
      case 5:  // a box's corners and points inside
        p = i < 8 ? Vector3d(i & 1 ? 1 : -1, i & 2 ? 1 : -1, i & 4 ? 1 : -1)
                  : test::randomVector(rng, -1.0, 1.0);
        p = p.cwiseProduct(scale);
        break;
      default:  // integer lattice points: coplanar points, faces merged into polygons
        p = Vector3d(std::round(4.0 * unit(rng)), std::round(3.0 * unit(rng)),
                     std::round(2.0 * unit(rng)));
        break;
    }
    points.push_back(moved ? pose.apply(p) : p);
  }
  return points;
}

TEST(ObbExhaustive, RandomHullsMatchEveryFacePlane) {
  std::mt19937 rng(39);
  int hulls = 0;
  for (int size : {8, 20, 60, 200, 600}) {
    const int repeats = size == 600 ? 4 : 10;
    for (int kind = 0; kind < 7; ++kind) {
      for (int r = 0; r < repeats; ++r) {
        const std::vector<Vector3d> points = randomCloud(rng, kind, size, r % 2 == 1);
        ConvexHull hull;
        try {
          hull = ConvexHull::build(points);
        } catch (const HullError&) {
          continue;  // a few lattice points can all lie in a plane
        }
        expectExhaustiveVolume(hull, "kind " + std::to_string(kind) + ", " + std::to_string(size) +
                                         " points, repeat " + std::to_string(r));
        ++hulls;
      }
    }
  }
  EXPECT_GE(hulls, 300);
}

TEST(ObbExhaustive, YcbHullsMatchEveryFacePlane) {
  // The YCB hulls with the fewest vertices (244 to 466), which the reference handles quickly.
  for (const char* name : {"002_master_chef_can", "003_cracker_box", "036_wood_block",
                           "042_adjustable_wrench", "050_medium_clamp", "061_foam_brick"}) {
    const std::vector<Vector3d> points = test::ycbVertices(name);
    ASSERT_GT(points.size(), 1000u) << name;
    expectExhaustiveVolume(ConvexHull::build(points), name);
  }
}

}  // namespace
}  // namespace hb
