// ConvexHull: containment, merged polygonal faces and their winding, topology (Euler
// characteristic, adjacency), degenerate inputs, and the support queries (climb == scan).

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <limits>
#include <numbers>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "collision/convex_hull.hpp"
#include "collision/defaults.hpp"
#include "random_geometry.hpp"

namespace hb {
namespace {

using Eigen::Vector3d;

std::vector<Vector3d> sphereCloud(std::mt19937& rng, int n, double radius) {
  std::vector<Vector3d> points;
  for (int i = 0; i < n; ++i) points.push_back(radius * test::randomUnitVector(rng));
  return points;
}

std::vector<Vector3d> boxCloud(std::mt19937& rng, int n, const Vector3d& halfExtents) {
  std::vector<Vector3d> points;
  for (int i = 0; i < n; ++i) {
    points.push_back(test::randomVector(rng, -1.0, 1.0).cwiseProduct(halfExtents));
  }
  return points;
}

// The 8 corners of [-1, 1]^3 and `interior` points strictly inside.
std::vector<Vector3d> cubeWithInteriorPoints(std::mt19937& rng, int interior) {
  std::vector<Vector3d> points;
  for (int k = 0; k < 8; ++k) {
    points.emplace_back((k & 1) ? 1.0 : -1.0, (k & 2) ? 1.0 : -1.0, (k & 4) ? 1.0 : -1.0);
  }
  for (int i = 0; i < interior; ++i) points.push_back(test::randomVector(rng, -0.99, 0.99));
  return points;
}

double scaleOf(const std::vector<Vector3d>& points) {
  double s = 0.0;
  for (const Vector3d& p : points) s = std::max(s, p.norm());
  return s;
}

// Random clouds of several kinds and sizes, some far from the origin.
std::vector<std::vector<Vector3d>> randomClouds(std::mt19937& rng) {
  std::vector<std::vector<Vector3d>> clouds;
  for (int n : {4, 5, 10, 50, 300, 2000}) {
    clouds.push_back(sphereCloud(rng, n, 0.3));
    clouds.push_back(boxCloud(rng, n, Vector3d(0.5, 0.1, 0.02)));
  }
  std::vector<Vector3d> far = sphereCloud(rng, 200, 0.05);
  for (Vector3d& p : far) p += Vector3d(1e3, -2e3, 5e2);
  clouds.push_back(far);
  return clouds;
}

int edgeCount(const ConvexHull& hull) {
  int directed = 0;
  for (int v = 0; v < hull.numVertices(); ++v) directed += hull.neighbours(v).size();
  return directed / 2;
}

double maxDot(const ConvexHull& hull, const Vector3d& dir) {
  double best = -std::numeric_limits<double>::infinity();
  for (const Vector3d& v : hull.vertices()) best = std::max(best, dir.dot(v));
  return best;
}

}  // namespace

TEST(ConvexHull, ContainsEveryInputPoint) {
  std::mt19937 rng(11);
  for (const std::vector<Vector3d>& points : randomClouds(rng)) {
    const ConvexHull hull = ConvexHull::build(points);
    const double tolerance = 1e-9 * scaleOf(points);
    ASSERT_GE(hull.numVertices(), 4);
    ASSERT_GE(hull.numFaces(), 4);
    for (int f = 0; f < hull.numFaces(); ++f) {
      const Vector3d& n = hull.faceNormal(f);
      EXPECT_NEAR(n.norm(), 1.0, 1e-12);
      for (const Vector3d& p : points) ASSERT_LE(n.dot(p), hull.faceOffset(f) + tolerance);
      for (int v : hull.face(f)) {
        EXPECT_NEAR(n.dot(hull.vertices()[v]), hull.faceOffset(f), tolerance);
      }
      // The interior point is strictly inside every face plane.
      EXPECT_LT(n.dot(hull.interiorPoint()), hull.faceOffset(f));
    }
  }
}

TEST(ConvexHull, VerticesAreDistinctInputPoints) {
  std::mt19937 rng(12);
  const std::vector<Vector3d> points = boxCloud(rng, 500, Vector3d(1.0, 2.0, 3.0));
  const ConvexHull hull = ConvexHull::build(points);
  std::set<std::pair<double, std::pair<double, double>>> input, seen;
  for (const Vector3d& p : points) input.insert({p.x(), {p.y(), p.z()}});
  for (const Vector3d& v : hull.vertices()) {
    const auto key = std::make_pair(v.x(), std::make_pair(v.y(), v.z()));
    EXPECT_TRUE(input.count(key)) << "vertex is not an input point";
    EXPECT_TRUE(seen.insert(key).second) << "vertex listed twice";
  }
  Vector3d mean = Vector3d::Zero();
  for (const Vector3d& v : hull.vertices()) mean += v;
  EXPECT_LT((hull.interiorPoint() - mean / hull.numVertices()).norm(), 1e-12);
}

// A tolerance keeps a subset of the input as vertices, no point further outside the smaller
// hull than the tolerance (Qhull's round-off aside), and far fewer vertices on a dense curved
// cloud; tolerance 0 is the exact hull.
TEST(ConvexHull, ToleranceKeepsEveryPointWithinItOfFewerVertices) {
  std::mt19937 rng(17);
  const std::vector<Vector3d> sphere = sphereCloud(rng, 20000, 0.05);
  const std::vector<Vector3d> box = boxCloud(rng, 5000, Vector3d(0.1, 0.05, 0.02));
  for (const std::vector<Vector3d>* points : {&sphere, &box}) {
    const ConvexHull exact = ConvexHull::build(*points);
    const ConvexHull exactAgain = ConvexHull::build(*points, 0.0);
    EXPECT_EQ(exactAgain.vertices(), exact.vertices());
    std::set<std::pair<double, std::pair<double, double>>> input;
    for (const Vector3d& p : *points) input.insert({p.x(), {p.y(), p.z()}});
    int previous = exact.numVertices();
    for (const double tolerance : {1e-4, 5e-4, 1e-3}) {
      const ConvexHull hull = ConvexHull::build(*points, tolerance);
      EXPECT_LT(hull.numVertices(), previous) << "tolerance " << tolerance;
      previous = hull.numVertices();
      for (const Vector3d& v : hull.vertices()) {
        ASSERT_TRUE(input.count({v.x(), {v.y(), v.z()}})) << "vertex is not an input point";
      }
      double outside = 0.0;
      for (const Vector3d& p : *points) {
        double distance = -std::numeric_limits<double>::infinity();
        for (int f = 0; f < hull.numFaces(); ++f) {
          distance = std::max(distance, hull.faceNormal(f).dot(p) - hull.faceOffset(f));
        }
        outside = std::max(outside, distance);
      }
      EXPECT_LE(outside, tolerance * (1.0 + 1e-6) + 1e-12) << "tolerance " << tolerance;
      EXPECT_GT(outside, 0.0) << "tolerance " << tolerance << " left nothing out";
    }
  }
  // The sphere of 5 cm radius within 0.5 mm: caps of sqrt(2 x 0.5 / 50) = 0.14 rad, about 500
  // vertices, not 20000.
  EXPECT_LT(ConvexHull::build(sphere, 5e-4).numVertices(), 1000);
  EXPECT_GT(ConvexHull::build(sphere).numVertices(), 10000);
}

TEST(ConvexHull, BadToleranceThrowsHullError) {
  std::mt19937 rng(18);
  const std::vector<Vector3d> points = sphereCloud(rng, 100, 1.0);
  for (const double bad :
       {-1e-3, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    EXPECT_THROW(ConvexHull::build(points, bad), HullError) << bad;
  }
}

TEST(ConvexHull, CubeWithInteriorPointsHasEightCornersAndSixSquares) {
  std::mt19937 rng(13);
  const ConvexHull hull = ConvexHull::build(cubeWithInteriorPoints(rng, 300));
  ASSERT_EQ(hull.numVertices(), 8);
  ASSERT_EQ(hull.numFaces(), 6);
  std::set<std::pair<int, int>> normals;  // (axis, sign)
  for (int f = 0; f < hull.numFaces(); ++f) {
    EXPECT_EQ(hull.face(f).size(), 4u);
    const Vector3d& n = hull.faceNormal(f);
    int axis;
    n.cwiseAbs().maxCoeff(&axis);
    EXPECT_NEAR(std::abs(n[axis]), 1.0, 1e-12);
    EXPECT_NEAR(hull.faceOffset(f), 1.0, 1e-12);
    normals.insert({axis, n[axis] > 0 ? 1 : -1});
  }
  EXPECT_EQ(normals.size(), 6u);
  for (int v = 0; v < hull.numVertices(); ++v) {
    EXPECT_EQ(hull.vertices()[v].cwiseAbs(), Vector3d::Ones());
    ASSERT_EQ(hull.neighbours(v).size(), 3u);
    for (int w : hull.neighbours(v)) {
      // A cube edge changes exactly one coordinate.
      EXPECT_EQ((hull.vertices()[v] - hull.vertices()[w]).cwiseAbs().sum(), 2.0);
    }
  }
  EXPECT_LT(hull.interiorPoint().norm(), 1e-12);
}

TEST(ConvexHull, CoplanarTrianglesMergeIntoPolygons) {
  // Hexagonal prism sampled densely on its faces and edges: Qhull's facets must merge into two
  // hexagons and six rectangles over the 12 corners only.
  std::vector<Vector3d> points;
  const double pi = std::numbers::pi;
  std::vector<Vector3d> ring;
  for (int k = 0; k < 6; ++k) ring.emplace_back(std::cos(k * pi / 3), std::sin(k * pi / 3), 0.0);
  for (int k = 0; k < 6; ++k) {
    const Vector3d a = ring[k], b = ring[(k + 1) % 6];
    for (int i = 0; i <= 4; ++i) {
      for (int j = 0; j <= 4; ++j) {
        points.push_back(a + (b - a) * (i / 4.0) + Vector3d(0, 0, -0.5 + j / 4.0));
      }
      points.push_back((a + (b - a) * (i / 4.0)) * 0.5 + Vector3d(0, 0, 0.5));   // on the cap
      points.push_back((a + (b - a) * (i / 4.0)) * 0.5 + Vector3d(0, 0, -0.5));  // on the base
    }
  }
  const ConvexHull hull = ConvexHull::build(points);
  EXPECT_EQ(hull.numVertices(), 12);
  ASSERT_EQ(hull.numFaces(), 8);
  int hexagons = 0, rectangles = 0;
  for (int f = 0; f < hull.numFaces(); ++f) {
    hexagons += hull.face(f).size() == 6;
    rectangles += hull.face(f).size() == 4;
  }
  EXPECT_EQ(hexagons, 2);
  EXPECT_EQ(rectangles, 6);
  EXPECT_EQ(hull.numVertices() - edgeCount(hull) + hull.numFaces(), 2);
}

TEST(ConvexHull, FacesWindCounterClockwiseAroundOutwardNormals) {
  std::mt19937 rng(14);
  std::vector<std::vector<Vector3d>> clouds = randomClouds(rng);
  clouds.push_back(cubeWithInteriorPoints(rng, 50));
  for (const std::vector<Vector3d>& points : clouds) {
    const ConvexHull hull = ConvexHull::build(points);
    const double scale = scaleOf(points);
    for (int f = 0; f < hull.numFaces(); ++f) {
      const std::span<const int> face = hull.face(f);
      ASSERT_GE(face.size(), 3u);
      const Vector3d& n = hull.faceNormal(f);
      // Newell's normal of the polygon in its stored order, relative to its centroid.
      Vector3d centroid = Vector3d::Zero();
      for (int v : face) centroid += hull.vertices()[v];
      centroid /= static_cast<double>(face.size());
      Vector3d areaNormal = Vector3d::Zero();
      for (std::size_t i = 0; i < face.size(); ++i) {
        const Vector3d a = hull.vertices()[face[i]] - centroid;
        const Vector3d b = hull.vertices()[face[(i + 1) % face.size()]] - centroid;
        areaNormal += a.cross(b);
        // Every corner turns left (convex polygon, no reflex corner from a bad ordering).
        const Vector3d c = hull.vertices()[face[(i + 2) % face.size()]] - centroid;
        EXPECT_GE((b - a).cross(c - b).dot(n), -1e-12 * scale * scale);
      }
      ASSERT_GT(areaNormal.norm(), 0.0);
      EXPECT_GT(areaNormal.normalized().dot(n), 1.0 - 1e-9);
      // Outward: the face lies beyond the interior point along n.
      EXPECT_GT(n.dot(centroid - hull.interiorPoint()), 0.0);
    }
  }
}

TEST(ConvexHull, EulerCharacteristicIsTwo) {
  std::mt19937 rng(15);
  for (const std::vector<Vector3d>& points : randomClouds(rng)) {
    const ConvexHull hull = ConvexHull::build(points);
    const int edges = edgeCount(hull);
    EXPECT_EQ(hull.numVertices() - edges + hull.numFaces(), 2) << points.size() << " points";
    // Each edge borders two faces; adjacency is symmetric, without loops or repeats.
    int faceEdges = 0;
    for (int f = 0; f < hull.numFaces(); ++f) faceEdges += hull.face(f).size();
    EXPECT_EQ(faceEdges, 2 * edges);
    for (int v = 0; v < hull.numVertices(); ++v) {
      const std::span<const int> nb = hull.neighbours(v);
      EXPECT_GE(nb.size(), 3u);
      EXPECT_EQ(std::set<int>(nb.begin(), nb.end()).size(), nb.size());
      for (int w : nb) {
        EXPECT_NE(w, v);
        const std::span<const int> back = hull.neighbours(w);
        EXPECT_NE(std::find(back.begin(), back.end(), v), back.end());
      }
    }
  }
}

TEST(ConvexHull, DegenerateInputsThrowHullError) {
  std::mt19937 rng(16);
  const auto expectError = [](const std::vector<Vector3d>& points, const std::string& words) {
    testing::internal::CaptureStderr();
    try {
      ConvexHull::build(points);
      ADD_FAILURE() << "no HullError for: " << words;
    } catch (const HullError& e) {
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
    EXPECT_EQ(testing::internal::GetCapturedStderr(), "") << "something was printed";
  };
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();

  expectError({}, "at least 4");
  expectError({Vector3d(0, 0, 0), Vector3d(1, 0, 0), Vector3d(0, 1, 0)}, "at least 4");

  std::vector<Vector3d> withNan = boxCloud(rng, 10, Vector3d::Ones());
  withNan[5].y() = nan;
  expectError(withNan, "point 5");
  std::vector<Vector3d> withInf = boxCloud(rng, 10, Vector3d::Ones());
  withInf[2].z() = -inf;
  expectError(withInf, "point 2");

  std::vector<Vector3d> duplicates;
  for (int i = 0; i < 10; ++i) {
    duplicates.push_back(Vector3d(0, 0, 0));
    duplicates.push_back(Vector3d(1, 0, 0));
    duplicates.push_back(Vector3d(0, 1, 0));
  }
  expectError(duplicates, "distinct");
  expectError(std::vector<Vector3d>(8, Vector3d(1, 2, 3)), "distinct");

  std::vector<Vector3d> collinear;
  const Vector3d origin(0.3, -1.0, 2.0), along = test::randomUnitVector(rng);
  for (int i = 0; i < 20; ++i) collinear.push_back(origin + (i * 0.37 - 3.0) * along);
  expectError(collinear, "collinear");

  // Coplanar, on a rotated plane away from the origin; then with round-off sized noise.
  const Eigen::Quaterniond q = test::randomRotation(rng);
  std::vector<Vector3d> coplanar;
  for (int i = 0; i < 50; ++i) {
    coplanar.push_back(
        q * Vector3d(test::randomVector(rng, -1, 1).x(), test::randomVector(rng, -1, 1).y(), 0.0) +
        Vector3d(5, 6, 7));
  }
  expectError(coplanar, "coplanar");
  std::vector<Vector3d> noisy = coplanar;
  for (Vector3d& p : noisy) p += 1e-13 * test::randomUnitVector(rng);
  expectError(noisy, "coplanar");

  // A thin but genuinely 3-D slab still builds.
  std::vector<Vector3d> slab = boxCloud(rng, 100, Vector3d(1.0, 1.0, 1e-6));
  EXPECT_NO_THROW(ConvexHull::build(slab));
}

TEST(ConvexHull, ClimbMatchesScanOnRandomHulls) {
  std::mt19937 rng(17);
  std::uniform_int_distribution<int> any(0, 1 << 30);
  for (int n : {50, 300, 2000}) {
    for (const std::vector<Vector3d>& points :
         {sphereCloud(rng, n, 1.0), boxCloud(rng, n, Vector3d(1.0, 0.5, 0.2))}) {
      const ConvexHull hull = ConvexHull::build(points);
      for (int k = 0; k < 2000; ++k) {
        const Vector3d dir = test::randomUnitVector(rng);
        const int hint = any(rng) % hull.numVertices();
        const int scan = hull.supportVertexScan(dir);
        const int climb = hull.supportVertexClimb(dir, hint);
        ASSERT_GE(climb, 0);
        ASSERT_LT(climb, hull.numVertices());
        ASSERT_NEAR(dir.dot(hull.vertices()[climb]), dir.dot(hull.vertices()[scan]), 1e-12)
            << n << " points, hint " << hint;
        // From any vertex, without the table.
        const int from = hull.supportVertexFrom(dir, hint);
        ASSERT_NEAR(dir.dot(hull.vertices()[from]), dir.dot(hull.vertices()[scan]), 1e-12)
            << n << " points, start " << hint;
      }
      // Warm-started: a slowly turning direction, as GJK produces.
      int hint = 0;
      Vector3d dir = test::randomUnitVector(rng);
      for (int k = 0; k < 1000; ++k) {
        dir = (dir + 0.05 * test::randomUnitVector(rng)).normalized();
        const int v = hull.supportVertex(dir, hint);
        ASSERT_EQ(v, hint);
        ASSERT_NEAR(dir.dot(hull.vertices()[v]), maxDot(hull, dir), 1e-12);
      }
    }
  }
}

TEST(ConvexHull, ClimbIsExactWithTiesAndOddDirections) {
  // A cube with its faces and edges sampled: directions along axes and diagonals make whole
  // faces and edges tie for the maximum.
  std::mt19937 rng(18);
  std::vector<Vector3d> points = cubeWithInteriorPoints(rng, 20);
  for (int i = 0; i < 200; ++i) {
    Vector3d p = test::randomVector(rng, -1.0, 1.0);
    p[i % 3] = (i % 2) ? 1.0 : -1.0;
    points.push_back(p);
  }
  const ConvexHull hull = ConvexHull::build(points);
  ASSERT_EQ(hull.numVertices(), 8);
  for (int x = -1; x <= 1; ++x) {
    for (int y = -1; y <= 1; ++y) {
      for (int z = -1; z <= 1; ++z) {
        const Vector3d dir(x, y, z);
        for (int hint = -1; hint <= hull.numVertices(); ++hint) {  // includes invalid hints
          const int v = hull.supportVertexClimb(dir, hint);
          ASSERT_GE(v, 0);
          EXPECT_EQ(dir.dot(hull.vertices()[v]), maxDot(hull, dir));
        }
      }
    }
  }
  // Zero and NaN directions terminate on a valid vertex.
  EXPECT_EQ(hull.supportVertexClimb(Vector3d::Zero(), 3), 3);
  const int v = hull.supportVertexClimb(Vector3d::Constant(std::nan("")), 5);
  EXPECT_TRUE(v >= 0 && v < hull.numVertices());
}

TEST(ConvexHull, SupportVertexUpdatesHintOnSmallAndLargeHulls) {
  std::mt19937 rng(19);
  const ConvexHull small = ConvexHull::build(sphereCloud(rng, 12, 1.0));
  const ConvexHull large = ConvexHull::build(sphereCloud(rng, 500, 1.0));
  ASSERT_LT(small.numVertices(), defaults::kHullScanThreshold);
  ASSERT_GE(large.numVertices(), defaults::kHullScanThreshold);
  for (const ConvexHull* hull : {&small, &large}) {
    int hint = -7;  // invalid hints are tolerated
    for (int k = 0; k < 200; ++k) {
      const Vector3d dir = test::randomUnitVector(rng);
      const int v = hull->supportVertex(dir, hint);
      EXPECT_EQ(v, hint);
      EXPECT_NEAR(dir.dot(hull->vertices()[v]), maxDot(*hull, dir), 1e-12);
    }
  }
}

TEST(ConvexHull, DirectionTableHoldsTheSupportOfEachCellCentre) {
  std::mt19937 rng(21);
  for (int n : {12, 300, 2000}) {
    const ConvexHull hull = ConvexHull::build(sphereCloud(rng, n, 1.0));
    const int cells = hull.directionCells();
    ASSERT_GE(cells, 8);
    ASSERT_LE(cells, 64);
    // The centre of cell (i, j) on face 2a (+) or 2a + 1 (-) of the cube of directions.
    for (int face = 0; face < 6; ++face) {
      const int a = face / 2;
      for (int i = 0; i < cells; ++i) {
        for (int j = 0; j < cells; ++j) {
          Vector3d dir;
          dir[a] = face % 2 == 0 ? 1.0 : -1.0;
          dir[(a + 1) % 3] = -1.0 + (i + 0.5) * 2.0 / cells;
          dir[(a + 2) % 3] = -1.0 + (j + 0.5) * 2.0 / cells;
          const int v = hull.tableVertex(3.7 * dir);  // any length
          ASSERT_GE(v, 0);
          ASSERT_EQ(dir.dot(hull.vertices()[v]), maxDot(hull, dir)) << "cell " << i << ", " << j;
        }
      }
    }
  }
  const ConvexHull hull = ConvexHull::build(sphereCloud(rng, 100, 1.0));
  EXPECT_EQ(hull.tableVertex(Vector3d::Zero()), -1);
  EXPECT_EQ(hull.tableVertex(Vector3d::Constant(std::nan(""))), -1);
  const int v = hull.tableVertex(Vector3d(1.0, std::nan(""), 0.0));
  EXPECT_TRUE(v >= 0 && v < hull.numVertices());
}

TEST(ConvexHull, ColdClimbMatchesScanOnCellBordersAndScaledDirections) {
  // Without a hint the climb starts from the direction table, and for directions inside a cell
  // whose vertex is exact it returns that vertex without climbing: every case must still give a
  // maximiser, on cell borders and corners too, for any length of dir.
  std::mt19937 rng(22);
  for (int n : {40, 300, 2000}) {
    for (const std::vector<Vector3d>& points :
         {sphereCloud(rng, n, 0.2), boxCloud(rng, n, Vector3d(1.0, 0.5, 0.02))}) {
      const ConvexHull hull = ConvexHull::build(points);
      const int cells = hull.directionCells();
      const double scale = scaleOf(points);
      std::uniform_int_distribution<int> border(0, cells);
      for (int k = 0; k < 3000; ++k) {
        Vector3d dir = test::randomUnitVector(rng);
        if (k % 3 == 1) {
          // On a cell border (and on a corner every other time).
          int a = 0;
          dir.cwiseAbs().maxCoeff(&a);
          const double m = std::abs(dir[a]);
          dir[(a + 1) % 3] = m * (-1.0 + 2.0 * border(rng) / cells);
          if (k % 2 == 0) dir[(a + 2) % 3] = m * (-1.0 + 2.0 * border(rng) / cells);
        }
        dir *= std::pow(10.0, (k % 7) - 3.0);
        const int v = hull.supportVertexClimb(dir, -1);
        ASSERT_GE(v, 0);
        ASSERT_NEAR(dir.dot(hull.vertices()[v]), maxDot(hull, dir), 1e-14 * scale * dir.norm())
            << n << " points, direction " << dir.transpose();
      }
    }
  }
}

TEST(ConvexHull, HintWinsTiesBetweenMaximisers) {
  // A cube's top face: along +z its four corners tie, and a hint among them is kept.
  std::mt19937 rng(23);
  std::vector<Vector3d> points = cubeWithInteriorPoints(rng, 10);
  for (int i = 0; i < 40; ++i) points.push_back(test::randomVector(rng, -0.9, 0.9));
  const ConvexHull hull = ConvexHull::build(points);
  const Vector3d up = Vector3d::UnitZ();
  for (int hint = 0; hint < hull.numVertices(); ++hint) {
    const int v = hull.supportVertexClimb(up, hint);
    EXPECT_EQ(up.dot(hull.vertices()[v]), 1.0);
    if (hull.vertices()[hint].z() == 1.0) {
      EXPECT_EQ(v, hint);
    }
  }
}

TEST(ConvexHull, MostAlignedFaceMatchesBruteForce) {
  std::mt19937 rng(20);
  const ConvexHull cube = ConvexHull::build(cubeWithInteriorPoints(rng, 10));
  const int f = cube.mostAlignedFace(Vector3d(-0.2, 0.1, -1.0));
  EXPECT_NEAR(cube.faceNormal(f).z(), -1.0, 1e-12);

  const ConvexHull hull = ConvexHull::build(sphereCloud(rng, 400, 1.0));
  for (int k = 0; k < 500; ++k) {
    const Vector3d dir = test::randomVector(rng, -2.0, 2.0);
    double best = -std::numeric_limits<double>::infinity();
    for (int g = 0; g < hull.numFaces(); ++g) best = std::max(best, dir.dot(hull.faceNormal(g)));
    EXPECT_EQ(dir.dot(hull.faceNormal(hull.mostAlignedFace(dir))), best);
  }
}

}  // namespace hb
