// The project's transcendental functions (SLEEF's pure-C ones): within SLEEF's stated error
// (1 ulp) of long double results over a million arguments each, the special values as libm has
// them, and the rotation helpers as Eigen's AngleAxis gives them. That their bits do not depend on
// the CPU is checked end to end by the `portable_math_fma_off` test (a recorded run with libm's FMA
// versions switched off).

#include "collision/portable_math.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <numbers>
#include <random>
#include <string>
#include <vector>

namespace hb {
namespace {

/// Distance in units in the last place between two finite doubles of the same sign.
std::int64_t ulps(double a, double b) {
  std::int64_t ia, ib;
  std::memcpy(&ia, &a, sizeof a);
  std::memcpy(&ib, &b, sizeof b);
  if (ia < 0) ia = std::numeric_limits<std::int64_t>::min() - ia;
  if (ib < 0) ib = std::numeric_limits<std::int64_t>::min() - ib;
  return ia > ib ? ia - ib : ib - ia;
}

/// A long double result (64-bit mantissa, x87) rounded to double: within about half an ulp of
/// the exact value, a reference independent of both libraries.
double reference(long double exact) {
  return static_cast<double>(exact);
}

struct Case {
  std::string name;
  std::function<double(double, double)> mine, exact;
  double lo, hi;  // arguments drawn in [lo, hi] (the second one too, for two-argument functions)
};

TEST(PortableMath, WithinAnUlpOfLongDoubleOverAMillionArguments) {
  const std::vector<Case> cases = {
      {"sin", [](double x, double) { return portable::sin(x); },
       [](double x, double) { return reference(std::sin(static_cast<long double>(x))); }, -100.0,
       100.0},
      {"cos", [](double x, double) { return portable::cos(x); },
       [](double x, double) { return reference(std::cos(static_cast<long double>(x))); }, -100.0,
       100.0},
      {"tan", [](double x, double) { return portable::tan(x); },
       [](double x, double) { return reference(std::tan(static_cast<long double>(x))); }, -1.5,
       1.5},
      {"atan", [](double x, double) { return portable::atan(x); },
       [](double x, double) { return reference(std::atan(static_cast<long double>(x))); }, -1e3,
       1e3},
      {"atan2", [](double x, double y) { return portable::atan2(x, y); },
       [](double x, double y) {
         return reference(std::atan2(static_cast<long double>(x), static_cast<long double>(y)));
       },
       -10.0, 10.0},
      {"acos", [](double x, double) { return portable::acos(x); },
       [](double x, double) { return reference(std::acos(static_cast<long double>(x))); }, -1.0,
       1.0},
      {"asin", [](double x, double) { return portable::asin(x); },
       [](double x, double) { return reference(std::asin(static_cast<long double>(x))); }, -1.0,
       1.0},
      {"pow", [](double x, double y) { return portable::pow(x, y); },
       [](double x, double y) {
         return reference(std::pow(static_cast<long double>(x), static_cast<long double>(y)));
       },
       1e-3, 8.0},
      {"log", [](double x, double) { return portable::log(x); },
       [](double x, double) { return reference(std::log(static_cast<long double>(x))); }, 1e-12,
       1e12},
      {"cbrt", [](double x, double) { return portable::cbrt(x); },
       [](double x, double) { return reference(std::cbrt(static_cast<long double>(x))); }, -1e6,
       1e6},
      {"hypot", [](double x, double y) { return portable::hypot(x, y); },
       [](double x, double y) {
         return reference(std::hypot(static_cast<long double>(x), static_cast<long double>(y)));
       },
       -1e3, 1e3}};
  std::mt19937_64 rng(31);
  for (const Case& c : cases) {
    std::uniform_real_distribution<double> draw(c.lo, c.hi);
    std::int64_t worst = 0;
    for (int i = 0; i < 1'000'000; ++i) {
      const double x = draw(rng), y = draw(rng);
      const double mine = c.mine(x, y), exact = c.exact(x, y);
      ASSERT_TRUE(std::isfinite(mine)) << c.name << "(" << x << ", " << y << ")";
      worst = std::max(worst, ulps(mine, exact));
    }
    EXPECT_LE(worst, 1) << c.name;
  }
}

TEST(PortableMath, SpecialValuesAreLibms) {
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(portable::sin(0.0), 0.0);
  EXPECT_EQ(portable::cos(0.0), 1.0);
  EXPECT_EQ(portable::atan2(0.0, -1.0), std::atan2(0.0, -1.0));
  EXPECT_EQ(portable::atan(inf), std::atan(inf));
  EXPECT_EQ(portable::log(1.0), 0.0);
  EXPECT_EQ(portable::log(0.0), -inf);
  EXPECT_TRUE(std::isnan(portable::log(-1.0)));
  EXPECT_TRUE(std::isnan(portable::sin(std::nan(""))));
  EXPECT_EQ(portable::pow(2.0, 10.0), 1024.0);
  EXPECT_EQ(portable::pow(0.0, 0.5), 0.0);
  EXPECT_EQ(portable::cbrt(-27.0), -3.0);
  EXPECT_EQ(portable::hypot(3.0, 4.0), 5.0);
  EXPECT_EQ(portable::acos(1.0), 0.0);
}

TEST(PortableMath, RotationsAreEigensAngleAxis) {
  std::mt19937 rng(32);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int i = 0; i < 10000; ++i) {
    const Eigen::Vector3d axis = Eigen::Vector3d(u(rng), u(rng), u(rng)).normalized();
    const double angle = 4.0 * u(rng);
    const Eigen::Quaterniond mine = portable::rotationAbout(axis, angle);
    const Eigen::Quaterniond eigen(Eigen::AngleAxisd(angle, axis));
    ASSERT_LT((mine.coeffs() - eigen.coeffs()).norm(), 1e-15) << angle;
    const Eigen::Quaterniond q = Eigen::Quaterniond(u(rng), u(rng), u(rng), u(rng)).normalized();
    const Eigen::AngleAxisd back(q);
    ASSERT_LT((portable::rotationVector(q) - back.axis() * back.angle()).norm(), 1e-14);
    const Eigen::Quaterniond other =
        Eigen::Quaterniond(u(rng), u(rng), u(rng), u(rng)).normalized();
    ASSERT_NEAR(portable::angleBetween(q, other), q.angularDistance(other), 1e-14);
    // A rotation vector and back: the same vector while its angle is within pi.
    const Eigen::Vector3d turn = 0.999 * std::numbers::pi * std::abs(u(rng)) * axis;
    ASSERT_LT((portable::rotationVector(portable::rotationOf(turn)) - turn).norm(), 1e-13);
  }
  EXPECT_EQ(portable::rotationVector(Eigen::Quaterniond::Identity()), Eigen::Vector3d::Zero());
  EXPECT_EQ(portable::rotationOf(Eigen::Vector3d::Zero()).coeffs(),
            Eigen::Quaterniond::Identity().coeffs());
}

}  // namespace
}  // namespace hb
