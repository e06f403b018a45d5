// Signed-volume projection against an independent brute force: for every subset of the points,
// project the origin on the subset's affine hull by least squares and keep the closest
// projection with non-negative barycentric weights.

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <random>

#include "collision/simplex.hpp"
#include "random_geometry.hpp"

namespace hb {
namespace {

using Eigen::Vector3d;

double bruteForceDistance2(const std::vector<Vector3d>& pts) {
  const int n = static_cast<int>(pts.size());
  double best = 1e300;
  for (int mask = 1; mask < (1 << n); ++mask) {
    std::vector<Vector3d> sub;
    for (int i = 0; i < n; ++i)
      if (mask & (1 << i)) sub.push_back(pts[i]);
    // x = p0 + sum_j mu_j (p_j - p0); minimise |x| over mu.
    const int m = static_cast<int>(sub.size()) - 1;
    Eigen::VectorXd lambda(m + 1);
    if (m == 0) {
      lambda(0) = 1;
    } else {
      Eigen::MatrixXd E(3, m);
      for (int j = 0; j < m; ++j) E.col(j) = sub[j + 1] - sub[0];
      const Eigen::VectorXd mu = E.completeOrthogonalDecomposition().solve(-sub[0]);
      lambda(0) = 1 - mu.sum();
      lambda.tail(m) = mu;
    }
    if ((lambda.array() < -1e-12).any()) continue;
    Vector3d x = Vector3d::Zero();
    for (int j = 0; j <= m; ++j) x += lambda(j) * sub[j];
    best = std::min(best, x.squaredNorm());
  }
  return best;
}

Simplex makeSimplex(const std::vector<Vector3d>& pts) {
  Simplex s;
  s.size = static_cast<int>(pts.size());
  for (int i = 0; i < s.size; ++i) s.points[i] = {pts[i], pts[i], Vector3d::Zero()};
  return s;
}

TEST(Simplex, MatchesBruteForceOnRandomSimplices) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 20000; ++trial) {
    const int n = 1 + trial % 4;
    std::vector<Vector3d> pts;
    for (int i = 0; i < n; ++i) pts.push_back(test::randomVector(rng, -1, 1));
    Simplex s = makeSimplex(pts);
    const Vector3d x = projectOriginOnSimplex(s);
    ASSERT_TRUE(x.allFinite());
    const double expected = bruteForceDistance2(pts);
    ASSERT_NEAR(x.squaredNorm(), expected, 1e-10) << "trial " << trial;
    double sum = 0;
    for (int i = 0; i < s.size; ++i) {
      EXPECT_GT(s.weights[i], 0.0);
      sum += s.weights[i];
    }
    EXPECT_NEAR(sum, 1.0, 1e-12);
  }
}

TEST(Simplex, DegenerateSimplicesNeverGiveNaN) {
  std::mt19937 rng(12);
  for (int trial = 0; trial < 5000; ++trial) {
    const Vector3d a = test::randomVector(rng, -1, 1);
    const Vector3d b = test::randomVector(rng, -1, 1);
    const Vector3d c = test::randomVector(rng, -1, 1);
    std::vector<std::vector<Vector3d>> cases = {
        {a, a},                                  // repeated point
        {a, b, a},                               // repeated in a triangle
        {a, b, 0.5 * (a + b)},                   // collinear triangle
        {a, b, c, 0.3 * a + 0.3 * b + 0.4 * c},  // flat tetrahedron
        {a, a, a, a},                            // all the same
        {a, b, 2.0 * b - a, 3.0 * b - 2.0 * a},  // collinear tetrahedron
    };
    for (const auto& pts : cases) {
      Simplex s = makeSimplex(pts);
      const Vector3d x = projectOriginOnSimplex(s);
      ASSERT_TRUE(x.allFinite());
      EXPECT_NEAR(x.squaredNorm(), bruteForceDistance2(pts), 1e-9);
    }
  }
}

TEST(Simplex, OriginInsideTetrahedronKeepsFourPoints) {
  Simplex s = makeSimplex({{1, 0, 0}, {-1, 1, 0}, {-1, -1, 1}, {-1, -1, -1}});
  const Vector3d x = projectOriginOnSimplex(s);
  EXPECT_EQ(s.size, 4);
  EXPECT_LT(x.norm(), 1e-15);
}

}  // namespace
}  // namespace hb
