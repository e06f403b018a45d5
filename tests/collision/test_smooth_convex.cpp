// Support functions of smooth convex bodies: superquadrics against the ellipsoid's closed form and
// their own implicit surface, prescribed support functions against their points' hull, and
// every gradient and Hessian against central differences of h; homogeneity (h = x . grad h,
// Hess x = 0) on random directions.

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "collision/superquadric.hpp"
#include "collision/support_points.hpp"
#include "collision/support_points_fit.hpp"
#include "tests/collision/random_geometry.hpp"

namespace hb {
namespace {

using Eigen::Matrix3d;
using Eigen::Vector2d;
using Eigen::Vector3d;
using test::randomUnitVector;

// Gradient and Hessian by central differences of h (and of the gradient).
void expectDerivativesMatchDifferences(const SmoothConvex& body, const Vector3d& x,
                                       double tolerance) {
  const SupportValue v = body.evaluate(x);
  const double step = 1e-6;
  for (int i = 0; i < 3; ++i) {
    const Vector3d e = step * Vector3d::Unit(i);
    const SupportValue plus = body.evaluate(x + e), minus = body.evaluate(x - e);
    EXPECT_NEAR((plus.h - minus.h) / (2 * step), v.gradient[i], tolerance) << "dh/dx" << i;
    const Vector3d column = (plus.gradient - minus.gradient) / (2 * step);
    for (int j = 0; j < 3; ++j)
      EXPECT_NEAR(column[j], v.hessian(j, i), tolerance * (1.0 + std::abs(v.hessian(j, i))))
          << "d2h/dx" << j << "dx" << i;
  }
  // Positive homogeneity of degree one.
  EXPECT_NEAR(v.h, x.dot(v.gradient), 1e-12 * (1.0 + std::abs(v.h)));
  EXPECT_LT((v.hessian * x).norm(), 1e-9 * (1.0 + v.hessian.norm()));
  EXPECT_LT((body.supportPoint(x) - v.gradient).norm(), 1e-12);
}

TEST(Superquadric, UnitExponentsGiveTheEllipsoid) {
  const Vector3d r(0.5, 0.3, 0.7);
  const Superquadric s(r, 1.0, 1.0);
  std::mt19937 rng(3);
  for (int i = 0; i < 200; ++i) {
    const Vector3d x = randomUnitVector(rng);
    const Vector3d rx = r.cwiseProduct(x);
    EXPECT_NEAR(s.evaluate(x).h, rx.norm(), 1e-12);
    EXPECT_LT((s.supportPoint(x) - r.cwiseProduct(rx) / rx.norm()).norm(), 1e-12);
  }
}

TEST(Superquadric, SupportPointsLieOnTheSurfaceAndMaximise) {
  std::mt19937 rng(4);
  std::uniform_real_distribution<double> alpha(1.0, 1.9), scale(0.2, 1.0);
  for (int shape = 0; shape < 30; ++shape) {
    const Superquadric s({scale(rng), scale(rng), scale(rng)}, alpha(rng), alpha(rng));
    std::vector<Vector3d> onSurface;
    for (int i = 0; i < 200; ++i) onSurface.push_back(s.supportPoint(randomUnitVector(rng)));
    for (const Vector3d& p : onSurface) EXPECT_NEAR(s.implicit(p), 0.0, 1e-9);
    for (int i = 0; i < 50; ++i) {
      const Vector3d x = randomUnitVector(rng);
      const double h = s.evaluate(x).h;
      for (const Vector3d& p : onSurface) EXPECT_LE(x.dot(p), h + 1e-12);
    }
  }
}

TEST(Superquadric, DerivativesMatchDifferences) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> alpha(1.0, 1.9), scale(0.2, 1.0);
  for (int i = 0; i < 100; ++i) {
    const Superquadric s({scale(rng), scale(rng), scale(rng)}, alpha(rng), alpha(rng));
    expectDerivativesMatchDifferences(s, randomUnitVector(rng), 1e-5);
  }
}

TEST(SupportPoints, SharpBetaTendsToTheHull) {
  std::mt19937 rng(6);
  const std::vector<Vector3d> cube = {{-1, -1, -1}, {1, -1, -1}, {-1, 1, -1}, {1, 1, -1},
                                      {-1, -1, 1},  {1, -1, 1},  {-1, 1, 1},  {1, 1, 1}};
  for (const double beta : {5.0, 50.0, 500.0}) {
    const SupportPoints s(cube, beta);
    double worst = 0.0;
    for (int i = 0; i < 500; ++i) {
      const Vector3d x = randomUnitVector(rng);
      const double hull = std::abs(x.x()) + std::abs(x.y()) + std::abs(x.z());
      const double h = s.evaluate(x).h;
      EXPECT_GE(h, hull - 1e-12);  // a p-norm of the facing points: never below their max
      worst = std::max(worst, h / hull - 1.0);
    }
    // At most 4 corners face any direction: h <= 4^(1/beta) max.
    EXPECT_LE(worst, std::pow(4.0, 1.0 / beta) - 1.0 + 1e-12) << beta;
  }
}

TEST(SupportPoints, DerivativesMatchDifferences) {
  std::mt19937 rng(7);
  for (int i = 0; i < 50; ++i) {
    std::vector<Vector3d> points = test::randomCloud(rng, 20, 0.5);
    for (Vector3d& p : points) p += Vector3d(0.6, 0.6, 0.6).cwiseProduct(p.cwiseSign());
    const SupportPoints s(points, 2.0 + 20.0 * std::uniform_real_distribution<double>()(rng));
    expectDerivativesMatchDifferences(s, randomUnitVector(rng), 1e-4);
  }
  // A cylinder of revolution (the paper's Table I: gamma 1e-3, beta 40).
  const SupportPoints cylinder = SupportPoints::revolution({{0.4, 0.5}, {0.4, -0.5}}, 40.0, 1e-3);
  for (int i = 0; i < 50; ++i)
    expectDerivativesMatchDifferences(cylinder, randomUnitVector(rng), 1e-4);
  // Along the axis its support is the flat cap's height; sideways its radius.
  EXPECT_NEAR(cylinder.evaluate(Vector3d::UnitZ()).h, 0.5, 0.05);
  EXPECT_NEAR(cylinder.evaluate(Vector3d::UnitX()).h, 0.4, 0.02);
}

// A fit of 20 points to a box's hull (off the origin) reaches its support function within a few
// percent of its size, and makes a valid prescribed support function about the centroid.
TEST(SupportPointsFit, FitsABoxWithinAFewPercent) {
  std::vector<Vector3d> corners;
  for (int k = 0; k < 8; ++k)
    corners.emplace_back(k & 1 ? 0.15 : 0.05, k & 2 ? 0.04 : -0.04, k & 4 ? 0.02 : -0.02);
  const ConvexHull box = ConvexHull::build(corners);
  const SupportPointsFit fit = fitSupportPoints(box, 20, 20.0);
  EXPECT_LT((fit.origin - Vector3d(0.1, 0, 0)).norm(), 1e-12);
  EXPECT_LT(fit.rmsError, 0.002) << fit.rmsError;
  EXPECT_LT(fit.maxError, 0.005) << fit.maxError;
  const SupportPoints body(fit.points, 20.0);
  // Along the axes the fit reaches the box's faces (0.05, 0.04, 0.02 from its centre).
  EXPECT_NEAR(body.evaluate(Vector3d::UnitX()).h, 0.05, 0.004);
  EXPECT_NEAR(body.evaluate(Vector3d::UnitZ()).h, 0.02, 0.004);
  EXPECT_THROW(fitSupportPoints(box, 3, 20.0), std::invalid_argument);
}

TEST(SmoothConvex, BadParametersAreRefused) {
  EXPECT_THROW(Superquadric({0.1, 0.1, 0.1}, 2.0, 1.0), std::invalid_argument);
  EXPECT_THROW(Superquadric({0.1, 0.1, 0.1}, 1.0, 0.0), std::invalid_argument);
  EXPECT_THROW(Superquadric({0.1, -0.1, 0.1}, 1.0, 1.0), std::invalid_argument);
  const std::vector<Vector3d> offset = {{1, 1, 1}, {2, 1, 1}, {1, 2, 1}, {1, 1, 2}};
  EXPECT_THROW(SupportPoints(offset, 10.0), std::invalid_argument);  // origin outside
  const std::vector<Vector3d> tetra = {
      {1, 0, -0.3}, {-0.5, 0.8, -0.3}, {-0.5, -0.8, -0.3}, {0, 0, 1}};
  EXPECT_NO_THROW(SupportPoints(tetra, 10.0));
  EXPECT_THROW(SupportPoints(tetra, 1.5), std::invalid_argument);
  EXPECT_THROW(SupportPoints::revolution({{0.4, 0.5}, {0.4, 0.2}}, 10.0, 1e-3),
               std::invalid_argument);  // the profile lies above the origin
}

}  // namespace
}  // namespace hb
