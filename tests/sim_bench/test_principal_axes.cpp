// Principal axes against tensors built from known moments and rotations.

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <random>
#include <stdexcept>

#include "apps/bench/sim/principal_axes.hpp"

namespace {

using hb::sim::PrincipalAxes;
using hb::sim::principalAxes;

TEST(PrincipalAxes, RecoversMomentsAndRotationOfRandomTensors) {
  std::mt19937 rng(7);
  std::normal_distribution<double> n(0.0, 1.0);
  std::uniform_real_distribution<double> moment(0.001, 0.05);
  for (int trial = 0; trial < 200; ++trial) {
    const Eigen::Vector3d moments(moment(rng), moment(rng), moment(rng));
    const Eigen::Matrix3d r =
        Eigen::Quaterniond(n(rng), n(rng), n(rng), n(rng)).normalized().toRotationMatrix();
    const Eigen::Matrix3d inertia = r * moments.asDiagonal() * r.transpose();
    const PrincipalAxes axes = principalAxes(inertia);

    Eigen::Vector3d sorted = moments;
    std::sort(sorted.data(), sorted.data() + 3);
    EXPECT_LT((axes.moments - sorted).norm(), 1e-12 * sorted.norm());
    const Eigen::Matrix3d back = axes.rotation.toRotationMatrix();
    EXPECT_NEAR(back.determinant(), 1.0, 1e-12);
    EXPECT_LT((back * axes.moments.asDiagonal() * back.transpose() - inertia).norm(),
              1e-12 * inertia.norm());
  }
}

TEST(PrincipalAxes, DiagonalTensorKeepsItsAxes) {
  const PrincipalAxes axes = principalAxes(Eigen::Vector3d(3.0, 1.0, 2.0).asDiagonal());
  EXPECT_EQ(axes.moments, Eigen::Vector3d(1.0, 2.0, 3.0));
  // Principal axis k is a body axis: each column of the rotation is +- a unit vector.
  const Eigen::Matrix3d r = axes.rotation.toRotationMatrix();
  EXPECT_NEAR(std::abs(r(1, 0)), 1.0, 1e-15);
  EXPECT_NEAR(std::abs(r(2, 1)), 1.0, 1e-15);
  EXPECT_NEAR(std::abs(r(0, 2)), 1.0, 1e-15);
}

TEST(PrincipalAxes, RejectsTensorsThatAreNotPositiveDefinite) {
  EXPECT_THROW(principalAxes(Eigen::Vector3d(1.0, 0.0, 1.0).asDiagonal()), std::invalid_argument);
  EXPECT_THROW(principalAxes(Eigen::Vector3d(1.0, -1.0, 1.0).asDiagonal()), std::invalid_argument);
  Eigen::Matrix3d bad = Eigen::Matrix3d::Identity();
  bad(1, 1) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(principalAxes(bad), std::invalid_argument);
}

}  // namespace
