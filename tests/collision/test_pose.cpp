#include "collision/pose.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

namespace hb {
namespace {

TEST(Pose, ValidityRejectsEveryNonFiniteCoefficient) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  for (const double bad : {nan, inf, -inf}) {
    for (int i = 0; i < 7; ++i) {
      Pose pose;
      pose.p = {1e300, -1e300, 1e300};  // large but finite: valid until a coefficient turns bad
      EXPECT_TRUE(pose.isValid());
      if (i < 4) {
        pose.q.coeffs()[i] = bad;
      } else {
        pose.p[i - 4] = bad;
      }
      EXPECT_FALSE(pose.isValid()) << "coefficient " << i << " = " << bad;
    }
  }
}

TEST(Pose, ValidityNeedsAUnitQuaternion) {
  Pose pose;
  pose.q = Eigen::Quaterniond(1.0, 2.0, -3.0, 0.5).normalized();
  EXPECT_TRUE(pose.isValid());
  pose.q.coeffs() *= 1.0 + 1e-5;
  EXPECT_FALSE(pose.isValid());
  pose.q.coeffs().setZero();
  EXPECT_FALSE(pose.isValid());
  pose.q.coeffs() = Eigen::Vector4d(1e200, 0.0, 0.0, 0.0);  // finite, its squared norm is not
  EXPECT_FALSE(pose.isValid());
}

TEST(Pose, RotateIsEigensRotationBitForBit) {
  // The same operations as Eigen's q * v: rotations written inline leave trajectories as they
  // were.
  std::mt19937 rng(20261202);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::uniform_real_distribution<double> exponent(-8.0, 8.0);
  for (int i = 0; i < 10000; ++i) {
    Eigen::Quaterniond q(unit(rng), unit(rng), unit(rng), unit(rng));
    if (q.squaredNorm() == 0.0) continue;
    q.normalize();
    const Eigen::Vector3d v =
        Eigen::Vector3d(unit(rng), unit(rng), unit(rng)) * std::pow(10.0, exponent(rng));
    const Eigen::Vector3d got[2] = {rotate(q, v), rotate(q.conjugate(), v)};
    const Eigen::Vector3d expected[2] = {q * v, q.conjugate() * v};
    for (int r = 0; r < 2; ++r) {
      for (int k = 0; k < 3; ++k) {
#ifdef HB_GOLDEN_BITS
        ASSERT_EQ(got[r][k], expected[r][k]) << "case " << i << ", axis " << k;
#else  // a native build may fuse multiply-adds differently at each site
        ASSERT_NEAR(got[r][k], expected[r][k], 1e-14 * v.norm()) << "case " << i;
#endif
      }
    }
  }
}

}  // namespace
}  // namespace hb
