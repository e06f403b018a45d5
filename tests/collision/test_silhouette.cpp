// The silhouette walker against a brute-force silhouette: on seeded random hulls and view
// directions, the vertices with both a face facing n and a face facing -n. The traced loop must
// visit exactly those, once each, along hull edges with a face facing n on the left, start at the
// given vertex when it is on the silhouette, and project to the outline of the hull's shadow
// (counter-clockwise, the same area as the monotone chain of every projected vertex). Faces
// parallel to the view count as not facing it; bad input makes trace() fail.

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numbers>
#include <random>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "collision/convex_hull.hpp"
#include "collision/silhouette.hpp"
#include "random_geometry.hpp"
#include "reference_hull_2d.hpp"

namespace hb {
namespace {

using Eigen::Vector2d;
using Eigen::Vector3d;

using test::cross2;

// Area of the convex hull of the points (monotone chain, then the shoelace formula).
double convexHullArea(std::vector<Vector2d> points) {
  const std::vector<Vector2d> hull = test::monotoneChain(std::move(points));
  double area = 0.0;
  for (std::size_t i = 0; i < hull.size(); ++i) {
    area += cross2(Vector2d::Zero(), hull[i], hull[(i + 1) % hull.size()]);
  }
  return 0.5 * area;
}

// Each directed hull edge (a, b) mapped to the face in which corner b follows corner a.
std::map<std::pair<int, int>, int> edgeFaces(const ConvexHull& hull) {
  std::map<std::pair<int, int>, int> edges;
  for (int f = 0; f < hull.numFaces(); ++f) {
    const std::span<const int> corners = hull.face(f);
    for (std::size_t i = 0; i < corners.size(); ++i) {
      edges[{corners[i], corners[(i + 1) % corners.size()]}] = f;
    }
  }
  return edges;
}

// The silhouette by brute force over the faces.
struct BruteSilhouette {
  std::vector<bool> facing;  // per face: n . normal > 0
  std::set<int> vertices;    // with a face facing n and one that does not
};

BruteSilhouette bruteSilhouette(const ConvexHull& hull, const Vector3d& n) {
  BruteSilhouette s;
  std::vector<int> facingFaces(hull.numVertices(), 0), otherFaces(hull.numVertices(), 0);
  for (int f = 0; f < hull.numFaces(); ++f) {
    s.facing.push_back(n.dot(hull.faceNormal(f)) > 0.0);
    for (int v : hull.face(f)) ++(s.facing.back() ? facingFaces : otherFaces)[v];
  }
  for (int v = 0; v < hull.numVertices(); ++v) {
    if (facingFaces[v] > 0 && otherFaces[v] > 0) s.vertices.insert(v);
  }
  return s;
}

// Checks a traced loop against the brute-force silhouette: the same vertices, once each, every
// step along an edge between a face facing n (on its left) and one that does not.
void expectSilhouette(const std::map<std::pair<int, int>, int>& edges, const BruteSilhouette& brute,
                      const std::vector<int>& loop, const std::string& what) {
  ASSERT_FALSE(brute.vertices.empty()) << what;
  const std::set<int> visited(loop.begin(), loop.end());
  EXPECT_EQ(visited.size(), loop.size()) << what << ": a vertex visited twice";
  EXPECT_EQ(visited, brute.vertices) << what;
  for (std::size_t i = 0; i < loop.size(); ++i) {
    const int a = loop[i], b = loop[(i + 1) % loop.size()];
    const auto left = edges.find({a, b});
    const auto right = edges.find({b, a});
    ASSERT_TRUE(left != edges.end() && right != edges.end())
        << what << ": " << a << " -> " << b << " is no hull edge";
    EXPECT_TRUE(brute.facing[left->second]) << what << ", step " << i;
    EXPECT_FALSE(brute.facing[right->second]) << what << ", step " << i;
  }
}

// Seeded hulls of four kinds: uniform in a box, on a sphere, anisotropic Gaussian, lattice points
// (coplanar points merged into polygonal faces), rotated and moved.
ConvexHull randomHull(std::mt19937& rng, int kind, int size) {
  std::normal_distribution<double> gauss(0.0, 1.0);
  std::uniform_int_distribution<int> lattice(-2, 2);
  const Vector3d scale = test::randomVector(rng, 0.2, 1.0);
  const Pose pose = test::randomPose(rng, 2.0);
  std::vector<Vector3d> points;
  if (kind == 3) {  // a lattice tetrahedron, so that the points are never all in a plane
    for (const Vector3d& p :
         {Vector3d(-2, -2, -2), Vector3d(2, -2, -2), Vector3d(-2, 2, -2), Vector3d(-2, -2, 2)}) {
      points.push_back(pose.apply(p));
    }
  }
  for (int i = 0; i < size; ++i) {
    Vector3d p;
    if (kind == 0) {
      p = test::randomVector(rng, -1.0, 1.0).cwiseProduct(scale);
    } else if (kind == 1) {
      p = test::randomUnitVector(rng);
    } else if (kind == 2) {
      p = Vector3d(gauss(rng), gauss(rng), gauss(rng)).cwiseProduct(scale);
    } else {
      p = Vector3d(lattice(rng), lattice(rng), lattice(rng));
    }
    points.push_back(pose.apply(p));
  }
  return ConvexHull::build(points);
}

TEST(Silhouette, RandomHullsAndDirectionsMatchBruteForce) {
  std::mt19937 rng(21);
  std::vector<int> loop;
  int checked = 0;
  for (int size : {4, 8, 30, 100, 400, 2000}) {
    for (int kind = 0; kind < 4; ++kind) {
      for (int repeat = 0; repeat < 3; ++repeat) {
        const ConvexHull hull = randomHull(rng, kind, size);
        const SilhouetteTracer tracer(hull);
        const std::map<std::pair<int, int>, int> edges = edgeFaces(hull);
        for (int d = 0; d < 20; ++d) {
          const Vector3d n = test::randomUnitVector(rng);
          const std::string what = "kind " + std::to_string(kind) + ", " + std::to_string(size) +
                                   " points, repeat " + std::to_string(repeat) + ", direction " +
                                   std::to_string(d);
          // A random direction is perpendicular to no face, so "not facing n" is "facing -n".
          for (int f = 0; f < hull.numFaces(); ++f) ASSERT_NE(n.dot(hull.faceNormal(f)), 0.0);
          const BruteSilhouette brute = bruteSilhouette(hull, n);

          // From a vertex on the silhouette, the loop starts there; from one off it (or from
          // vertex 0), the loop is the same cycle.
          std::vector<int> silhouette(brute.vertices.begin(), brute.vertices.end());
          const int on = silhouette[rng() % silhouette.size()];
          ASSERT_TRUE(tracer.trace(n, on, loop)) << what;
          EXPECT_EQ(loop.front(), on) << what;
          expectSilhouette(edges, brute, loop, what);
          int off = 0;
          while (off < hull.numVertices() && brute.vertices.count(off) > 0) ++off;
          ASSERT_TRUE(tracer.trace(n, off < hull.numVertices() ? off : 0, loop)) << what;
          expectSilhouette(edges, brute, loop, what + ", started off the silhouette");

          // Projected on the plane normal to n, in a frame (u, w) with (u, w, n) right-handed:
          // the outline of the whole shadow, counter-clockwise.
          const Vector3d u = n.unitOrthogonal();
          const Vector3d w = n.cross(u);
          const auto project = [&](int v) {
            return Vector2d(u.dot(hull.vertices()[v]), w.dot(hull.vertices()[v]));
          };
          std::vector<Vector2d> shadow;
          for (int v = 0; v < hull.numVertices(); ++v) shadow.push_back(project(v));
          double loopArea = 0.0;
          for (std::size_t i = 0; i < loop.size(); ++i) {
            loopArea += 0.5 * cross2(project(loop[0]), project(loop[i]),
                                     project(loop[(i + 1) % loop.size()]));
          }
          const double shadowArea = convexHullArea(shadow);
          EXPECT_NEAR(loopArea, shadowArea, 1e-10 * shadowArea) << what;
          ++checked;
        }
      }
    }
  }
  EXPECT_EQ(checked, 6 * 4 * 3 * 20);
}

// Views along face normals and coordinate axes of hulls with faces parallel to them: those faces
// do not face n, so the silhouette runs round the faces that do.
TEST(Silhouette, FacesParallelToTheViewDoNotFaceIt) {
  // An axis-aligned box seen along +z: its top face, counter-clockwise seen from above.
  std::vector<Vector3d> corners;
  for (int k = 0; k < 8; ++k) {
    corners.emplace_back(k & 1 ? 1.5 : -1.5, k & 2 ? 0.5 : -0.5, k & 4 ? 0.25 : -0.25);
  }
  const ConvexHull box = ConvexHull::build(corners);
  const SilhouetteTracer boxTracer(box);
  std::vector<int> loop;
  for (const Vector3d& n :
       {Vector3d(0, 0, 1), Vector3d(0, 0, -1), Vector3d(1, 0, 0), Vector3d(0, -1, 0)}) {
    ASSERT_TRUE(boxTracer.trace(n, 0, loop));
    ASSERT_EQ(loop.size(), 4u);
    double turn = 0.0;  // the loop's area times n: positive when counter-clockwise about n
    for (std::size_t i = 0; i < 4; ++i) {
      const Vector3d& v = box.vertices()[loop[i]];
      EXPECT_DOUBLE_EQ(n.dot(v), n.cwiseAbs().dot(Vector3d(1.5, 0.5, 0.25))) << n.transpose();
      turn += n.dot(v.cross(box.vertices()[loop[(i + 1) % 4]]));
    }
    EXPECT_GT(turn, 0.0) << n.transpose();
    expectSilhouette(edgeFaces(box), bruteSilhouette(box, n), loop, "box");
  }

  // Random hulls seen along each of their face normals, and lattice hulls (faces parallel to the
  // coordinate planes) along the axes.
  std::mt19937 rng(22);
  for (bool onLattice : {false, true}) {
    for (int size : {10, 60, 300}) {
      std::vector<Vector3d> points{Vector3d(0, 0, 0), Vector3d(4, 0, 0), Vector3d(0, 3, 0),
                                   Vector3d(0, 0, 2)};
      for (int i = 0; i < size; ++i) {
        points.push_back(onLattice ? Vector3d(rng() % 5, rng() % 4, rng() % 3)
                                   : test::randomVector(rng, -1.0, 4.0));
      }
      const ConvexHull hull = ConvexHull::build(points);
      const SilhouetteTracer tracer(hull);
      const std::map<std::pair<int, int>, int> edges = edgeFaces(hull);
      std::vector<Vector3d> views;
      for (int f = 0; f < hull.numFaces(); ++f) views.push_back(hull.faceNormal(f));
      for (int axis = 0; axis < 3; ++axis) {
        views.push_back(Vector3d::Unit(axis));
        views.push_back(-Vector3d::Unit(axis));
      }
      for (std::size_t k = 0; k < views.size(); ++k) {
        const std::string what = std::string(onLattice ? "lattice" : "random") + ", " +
                                 std::to_string(size) + " points, view " + std::to_string(k);
        ASSERT_TRUE(tracer.trace(views[k], static_cast<int>(k) % hull.numVertices(), loop)) << what;
        expectSilhouette(edges, bruteSilhouette(hull, views[k]), loop, what);
      }
    }
  }
}

TEST(Silhouette, BadInputFails) {
  std::mt19937 rng(23);
  const ConvexHull hull = randomHull(rng, 0, 50);
  const SilhouetteTracer tracer(hull);
  std::vector<int> loop;
  const Vector3d n = test::randomUnitVector(rng);
  EXPECT_FALSE(tracer.trace(Vector3d::Zero(), 0, loop));
  EXPECT_FALSE(tracer.trace(Vector3d::Constant(std::numeric_limits<double>::quiet_NaN()), 0, loop));
  EXPECT_FALSE(tracer.trace(n, -1, loop));
  EXPECT_FALSE(tracer.trace(n, hull.numVertices(), loop));
  EXPECT_TRUE(tracer.trace(n, hull.numVertices() - 1, loop));
}

}  // namespace
}  // namespace hb
