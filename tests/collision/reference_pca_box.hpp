#pragma once
// Independent reference for the OBB fit's starting point: the volume of the tightest box around
// `points` along the principal axes of the hull's vertices.

#include <Eigen/Eigenvalues>
#include <limits>
#include <span>

#include "collision/convex_hull.hpp"

namespace hb::test {

inline double pcaBoxVolume(const ConvexHull& hull, std::span<const Eigen::Vector3d> points) {
  using Eigen::Matrix3d;
  using Eigen::Vector3d;
  Vector3d mean = Vector3d::Zero();
  for (const Vector3d& v : hull.vertices()) mean += v;
  mean /= hull.numVertices();
  Matrix3d covariance = Matrix3d::Zero();
  for (const Vector3d& v : hull.vertices()) covariance += (v - mean) * (v - mean).transpose();
  const Matrix3d axes = Eigen::SelfAdjointEigenSolver<Matrix3d>(covariance).eigenvectors();
  Vector3d lo = Vector3d::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
  for (const Vector3d& p : points) {
    lo = lo.cwiseMin(axes.transpose() * p);
    hi = hi.cwiseMax(axes.transpose() * p);
  }
  return (hi - lo).prod();
}

}  // namespace hb::test
