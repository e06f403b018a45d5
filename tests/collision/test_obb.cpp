// Oriented bounding boxes: corners, containment and posing; fitting (containment, a proper
// rotation, never worse than PCA, exact on boxes); local boxes of shapes; and the 15-axis overlap
// test against an independent exact intersection check.

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <Eigen/LU>
#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <numbers>
#include <random>
#include <vector>

#include "collision/convex_hull.hpp"
#include "collision/obb.hpp"
#include "collision/shape.hpp"
#include "random_geometry.hpp"
#include "reference_pca_box.hpp"

namespace hb {
namespace {

using Eigen::Matrix3d;
using Eigen::Vector3d;

Obb randomBox(std::mt19937& rng, double centreExtent, double minHalf, double maxHalf) {
  Obb box;
  box.center = test::randomVector(rng, -centreExtent, centreExtent);
  box.axes = test::randomRotation(rng).toRotationMatrix();
  box.halfExtents = test::randomVector(rng, minHalf, maxHalf);
  return box;
}

void expectRotation(const Matrix3d& axes) {
  EXPECT_LT((axes.transpose() * axes - Matrix3d::Identity()).norm(), 1e-12);
  EXPECT_NEAR(axes.determinant(), 1.0, 1e-12);
}

// Point clouds of assorted shapes, rotated and moved.
std::vector<std::vector<Vector3d>> randomClouds(std::mt19937& rng) {
  std::vector<std::vector<Vector3d>> clouds;
  std::normal_distribution<double> gauss(0.0, 1.0);
  for (int n : {6, 20, 100, 400}) {
    for (int kind = 0; kind < 3; ++kind) {
      const Pose pose = test::randomPose(rng, 3.0);
      std::vector<Vector3d> points;
      for (int i = 0; i < n; ++i) {
        Vector3d p;
        if (kind == 0) p = test::randomVector(rng, -1.0, 1.0).cwiseProduct(Vector3d(0.8, 0.3, 0.1));
        if (kind == 1) p = 0.4 * test::randomUnitVector(rng);
        if (kind == 2) p = Vector3d(gauss(rng), 0.5 * gauss(rng), 0.1 * gauss(rng));
        points.push_back(pose.apply(p));
      }
      clouds.push_back(points);
    }
  }
  return clouds;
}

// Independent exact intersection check. Each box is 6 half-spaces; A n B is a bounded
// polyhedron, which when non-empty has a vertex, and every vertex solves 3 of the 12 plane
// equations with independent normals. So the boxes intersect iff one of the 220 triple
// intersections lies in all 12 half-spaces. No separating axis is involved.
bool boxesIntersectByVertexEnumeration(const Obb& a, const Obb& b) {
  std::array<Vector3d, 12> normals;
  std::array<double, 12> offsets;  // normal . x <= offset
  int k = 0;
  for (const Obb* box : {&a, &b}) {
    for (int i = 0; i < 3; ++i) {
      const Vector3d n = box->axes.col(i);
      const double c = n.dot(box->center);
      normals[k] = n;
      offsets[k++] = c + box->halfExtents[i];
      normals[k] = -n;
      offsets[k++] = -c + box->halfExtents[i];
    }
  }
  const double tolerance = 1e-9;
  for (int i = 0; i < 12; ++i) {
    for (int j = i + 1; j < 12; ++j) {
      for (int l = j + 1; l < 12; ++l) {
        Matrix3d m;
        m.row(0) = normals[i];
        m.row(1) = normals[j];
        m.row(2) = normals[l];
        if (std::abs(m.determinant()) < 1e-12) continue;
        const Vector3d x = m.partialPivLu().solve(Vector3d(offsets[i], offsets[j], offsets[l]));
        bool inside = true;
        for (int h = 0; h < 12 && inside; ++h) inside = normals[h].dot(x) <= offsets[h] + tolerance;
        if (inside) return true;
      }
    }
  }
  return false;
}

// Separation along the 6 face axes only; boxes disjoint without it need an edge-edge axis.
bool separatedOnFaceAxes(const Obb& a, const Obb& b) {
  for (const Obb* box : {&a, &b}) {
    for (int i = 0; i < 3; ++i) {
      const Vector3d axis = box->axes.col(i);
      const double ra = (a.axes.transpose() * axis).cwiseAbs().dot(a.halfExtents);
      const double rb = (b.axes.transpose() * axis).cwiseAbs().dot(b.halfExtents);
      if (std::abs(axis.dot(b.center - a.center)) > ra + rb) return true;
    }
  }
  return false;
}

}  // namespace

TEST(Obb, CornersContainmentAndPose) {
  std::mt19937 rng(31);
  for (int trial = 0; trial < 50; ++trial) {
    const Obb box = randomBox(rng, 2.0, 0.1, 1.0);
    const std::array<Vector3d, 8> corners = box.corners();
    for (int k = 0; k < 8; ++k) {
      EXPECT_TRUE(box.contains(corners[k], 1e-12));
      for (int l = 0; l < k; ++l) EXPECT_GT((corners[k] - corners[l]).norm(), 0.1);
      // Just beyond a corner along an axis is outside.
      const int axis = k % 3;
      const double side = (k >> axis & 1) ? 1.0 : -1.0;
      EXPECT_FALSE(box.contains(corners[k] + side * 1e-6 * box.axes.col(axis), 1e-9));
    }
    EXPECT_TRUE(box.contains(box.center));
    EXPECT_NEAR(box.volume(), 8.0 * box.halfExtents.prod(), 1e-15);

    const Pose pose = test::randomPose(rng, 5.0);
    const Obb moved = box.transformed(pose);
    expectRotation(moved.axes);
    EXPECT_EQ(moved.halfExtents, box.halfExtents);
    const std::array<Vector3d, 8> movedCorners = moved.corners();
    for (int k = 0; k < 8; ++k) EXPECT_LT((movedCorners[k] - pose.apply(corners[k])).norm(), 1e-12);
  }
}

TEST(Obb, FitContainsItsPointsWithARotation) {
  std::mt19937 rng(32);
  for (const std::vector<Vector3d>& points : randomClouds(rng)) {
    const Obb box = fitObb(points);
    expectRotation(box.axes);
    EXPECT_TRUE((box.halfExtents.array() >= 0.0).all());
    for (const Vector3d& p : points) ASSERT_TRUE(box.contains(p, 1e-9 * 4.0));

    // The hull overload gives the same box around the hull.
    const ConvexHull hull = ConvexHull::build(points);
    const Obb fromHull = fitObb(hull);
    expectRotation(fromHull.axes);
    for (const Vector3d& v : hull.vertices()) ASSERT_TRUE(fromHull.contains(v, 1e-9 * 4.0));
    EXPECT_NEAR(fromHull.volume(), box.volume(), 1e-9 * box.volume());
  }
}

TEST(Obb, FitIsNoLargerThanThePcaBox) {
  std::mt19937 rng(33);
  for (const std::vector<Vector3d>& points : randomClouds(rng)) {
    EXPECT_LE(fitObb(points).volume(),
              test::pcaBoxVolume(ConvexHull::build(points), points) * (1.0 + 1e-12));
  }
}

TEST(Obb, FitRecoversARotatedBox) {
  std::mt19937 rng(34);
  for (int trial = 0; trial < 40; ++trial) {
    Obb truth = randomBox(rng, 10.0, 0.05, 2.0);
    // Cubes make PCA arbitrary (isotropic covariance): only the face candidates find them.
    if (trial % 2 == 0) truth.halfExtents.setConstant(truth.halfExtents.x());
    std::vector<Vector3d> points;
    for (const Vector3d& c : truth.corners()) points.push_back(c);
    for (int i = 0; i < 100; ++i) {
      const Vector3d local = test::randomVector(rng, -1.0, 1.0).cwiseProduct(truth.halfExtents);
      points.push_back(truth.center + truth.axes * local);
    }
    std::shuffle(points.begin(), points.end(), rng);
    const Obb box = fitObb(points);
    EXPECT_NEAR(box.volume(), truth.volume(), 1e-6 * truth.volume());
    Vector3d fitted = box.halfExtents, expected = truth.halfExtents;
    std::sort(fitted.data(), fitted.data() + 3);
    std::sort(expected.data(), expected.data() + 3);
    EXPECT_LT((fitted - expected).norm(), 1e-9 * expected.norm());
    EXPECT_LT((box.center - truth.center).norm(), 1e-9 * truth.center.norm() + 1e-12);
  }
}

// Hulls beyond kExactObbFitFaces faces take their orientation from a sample of supports. 30,000
// points on a rotated ellipsoid and on a rotated rounded box (a superellipsoid of exponent 8),
// whose smallest boxes are the ones along their axes: the fit holds every vertex and is within 2%
// of the smallest volume.
TEST(Obb, LargeHullsFitNearTheSmallestBox) {
  std::mt19937 rng(77);
  std::normal_distribution<double> gaussian;
  const Vector3d radii(0.1, 0.05, 0.03);
  const Matrix3d turn =
      Eigen::AngleAxisd(0.7, Vector3d(1.0, 2.0, 3.0).normalized()).toRotationMatrix();
  for (const bool ellipsoid : {true, false}) {
    std::vector<Vector3d> points;
    for (int i = 0; i < 30000; ++i) {
      Vector3d v(gaussian(rng), gaussian(rng), gaussian(rng));
      // On the unit sphere, or on the rounded cube |x|^8 + |y|^8 + |z|^8 = 1.
      v /= ellipsoid ? v.norm() : std::pow(v.array().pow(8).sum(), 1.0 / 8.0);
      points.push_back(turn * radii.cwiseProduct(v) + Vector3d(1.0, -2.0, 0.5));
    }
    const ConvexHull hull = ConvexHull::build(points);
    ASSERT_GT(hull.numFaces(), kExactObbFitFaces) << "the test needs the sampled fit";
    const Obb box = fitObb(hull);
    for (const Vector3d& v : hull.vertices()) ASSERT_TRUE(box.contains(v, 1e-12));
    const double smallest = 8.0 * radii.prod();
    EXPECT_LT(box.volume(), 1.02 * smallest) << (ellipsoid ? "ellipsoid" : "rounded box");
    EXPECT_GT(box.volume(), 0.97 * smallest) << (ellipsoid ? "ellipsoid" : "rounded box");
  }
}

TEST(Obb, FitMatchesBruteForceOverFaceNormalsAndEdgeDirections) {
  // The minimum-area rectangle of a shadow has a side along a shadow edge, which is the shadow
  // of a hull edge. So trying every face normal with every hull edge direction projected on
  // the face plane (plus PCA) must find exactly the fitted volume: this checks the silhouette
  // pruning, the 2-D hull and the rotating calipers.
  std::mt19937 rng(38);
  for (const std::vector<Vector3d>& points : randomClouds(rng)) {
    if (points.size() > 100) continue;
    const ConvexHull hull = ConvexHull::build(points);
    const std::vector<Vector3d>& vertices = hull.vertices();
    double best = test::pcaBoxVolume(ConvexHull::build(points), points);
    for (int f = 0; f < hull.numFaces(); ++f) {
      const Vector3d n = hull.faceNormal(f);
      for (int v = 0; v < hull.numVertices(); ++v) {
        for (int w : hull.neighbours(v)) {
          const Vector3d edge = vertices[w] - vertices[v];
          const Vector3d d = edge - edge.dot(n) * n;
          if (d.norm() < 1e-9 * edge.norm()) continue;
          Matrix3d axes;
          axes << d.normalized(), n.cross(d.normalized()), n;
          Vector3d lo = Vector3d::Constant(1e300), hi = -lo;
          for (const Vector3d& p : vertices) {
            lo = lo.cwiseMin(axes.transpose() * p);
            hi = hi.cwiseMax(axes.transpose() * p);
          }
          best = std::min(best, (hi - lo).prod());
        }
      }
    }
    EXPECT_NEAR(fitObb(hull).volume(), best, 1e-9 * best) << points.size() << " points";
  }
}

TEST(Obb, FitRejectsDegenerateInput) {
  const std::vector<Vector3d> flat = {Vector3d(0, 0, 1), Vector3d(1, 0, 1), Vector3d(0, 1, 1),
                                      Vector3d(1, 1, 1), Vector3d(0.5, 0.2, 1)};
  EXPECT_THROW(fitObb(flat), HullError);
  EXPECT_THROW(fitObb(std::vector<Vector3d>(2, Vector3d::Zero())), HullError);
}

TEST(Obb, LocalObbOfShapes) {
  const auto expectCentredBox = [](const Obb& box, const Vector3d& halfExtents) {
    EXPECT_EQ(box.center, Vector3d::Zero());
    EXPECT_EQ(box.axes, Matrix3d::Identity());
    EXPECT_LT((box.halfExtents - halfExtents).norm(), 1e-15);
  };
  expectCentredBox(localObb(Shape::sphere(0.3)), Vector3d(0.3, 0.3, 0.3));
  expectCentredBox(localObb(Shape::box(Vector3d(0.1, 0.2, 0.3))), Vector3d(0.1, 0.2, 0.3));
  expectCentredBox(localObb(Shape::capsule(0.2, 0.5)), Vector3d(0.2, 0.2, 0.7));
  expectCentredBox(localObb(Shape::cylinder(0.2, 0.5)), Vector3d(0.2, 0.2, 0.5));
  expectCentredBox(localObb(Shape::cone(0.2, 0.5)), Vector3d(0.2, 0.2, 0.5));
  expectCentredBox(localObb(Shape::ellipsoid(Vector3d(0.4, 0.5, 0.6))), Vector3d(0.4, 0.5, 0.6));

  std::mt19937 rng(35);
  std::vector<Vector3d> points;
  const Pose pose = test::randomPose(rng, 0.5);
  for (int i = 0; i < 200; ++i) {
    points.push_back(
        pose.apply(test::randomVector(rng, -1, 1).cwiseProduct(Vector3d(0.3, 0.2, 0.1))));
  }
  const auto hull = std::make_shared<const ConvexHull>(ConvexHull::build(points));
  const Obb box = localObb(Shape::convexHull(hull));
  expectRotation(box.axes);
  for (const Vector3d& v : hull->vertices()) EXPECT_TRUE(box.contains(v, 1e-12));
  EXPECT_NEAR(box.volume(), fitObb(*hull).volume(), 1e-15);
}

TEST(Obb, OverlapAgreesWithExactIntersectionCheck) {
  std::mt19937 rng(36);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  int overlapping = 0, separated = 0, separatedOnlyByEdgeAxes = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const Obb a = randomBox(rng, 0.0, 0.05, 1.0);
    Obb b = randomBox(rng, 0.0, 0.05, 1.0);
    // Centre distances spread around the contact distance, so both outcomes are common.
    const double reach = a.halfExtents.norm() + b.halfExtents.norm();
    b.center = a.center + (0.3 + 0.7 * unit(rng)) * reach * test::randomUnitVector(rng);

    const bool expected = boxesIntersectByVertexEnumeration(a, b);
    ASSERT_EQ(obbOverlap(a, b), expected) << "trial " << trial;
    ASSERT_EQ(obbOverlap(b, a), expected) << "trial " << trial;
    overlapping += expected;
    separated += !expected;
    separatedOnlyByEdgeAxes += !expected && !separatedOnFaceAxes(a, b);
  }
  EXPECT_GT(overlapping, 500);
  EXPECT_GT(separated, 500);
  EXPECT_GT(separatedOnlyByEdgeAxes, 10);  // the nine cross-product axes are exercised
}

TEST(Obb, TouchingBoxesOverlapAndParallelEdgesAreSafe) {
  Obb a;
  a.halfExtents = Vector3d(1.0, 0.5, 0.25);
  Obb b = a;
  EXPECT_TRUE(obbOverlap(a, b));  // identical: every cross product axis is zero

  // Face against face.
  b.center = Vector3d(2.0, 0.3, -0.1);
  EXPECT_TRUE(obbOverlap(a, b));
  b.center.x() += 1e-6;
  EXPECT_FALSE(obbOverlap(a, b));

  // An edge of a box turned 45 degrees about z resting on a's +x face.
  b = Obb{};
  b.halfExtents = Vector3d(0.5, 0.5, 0.5);
  b.axes = Eigen::AngleAxisd(std::numbers::pi / 4, Vector3d::UnitZ()).toRotationMatrix();
  b.center = Vector3d(1.0 + 0.5 * std::sqrt(2.0), 0.0, 0.0);
  EXPECT_TRUE(obbOverlap(a, b));
  b.center.x() += 1e-6;
  EXPECT_FALSE(obbOverlap(a, b));

  // Same, posed anywhere: overlap is invariant under a common rigid motion.
  std::mt19937 rng(37);
  for (int k = 0; k < 20; ++k) {
    const Pose pose = test::randomPose(rng, 10.0);
    b.center.x() = 1.0 + 0.5 * std::sqrt(2.0) - 1e-6;
    EXPECT_TRUE(obbOverlap(a.transformed(pose), b.transformed(pose)));
    b.center.x() = 1.0 + 0.5 * std::sqrt(2.0) + 1e-6;
    EXPECT_FALSE(obbOverlap(a.transformed(pose), b.transformed(pose)));
  }
}

}  // namespace hb
