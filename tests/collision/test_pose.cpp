#include "collision/pose.hpp"

#include <gtest/gtest.h>

#include <limits>

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

}  // namespace
}  // namespace hb
