// The statistics plots' ticks: round steps that cover the data in at most the ticks asked for.

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "render/plot_axes.hpp"

namespace {

TEST(PlotAxes, StepsAreOneTwoOrFiveTimesAPowerOfTen) {
  EXPECT_DOUBLE_EQ(hb::niceTickStep(10.0, 5), 2.0);
  EXPECT_DOUBLE_EQ(hb::niceTickStep(1.0, 4), 0.5);
  EXPECT_DOUBLE_EQ(hb::niceTickStep(0.37, 4), 0.1);
  EXPECT_DOUBLE_EQ(hb::niceTickStep(7300.0, 3), 5000.0);
  EXPECT_DOUBLE_EQ(hb::niceTickStep(0.0, 3), 1.0);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> exponent(-6.0, 6.0);
  for (int i = 0; i < 2000; ++i) {
    const double largest = std::pow(10.0, exponent(rng));
    const int maxTicks = 2 + i % 5;
    const hb::AxisTicks axis = hb::axisTicks(largest, maxTicks);
    const double mantissa = axis.step / std::pow(10.0, std::floor(std::log10(axis.step) + 1e-12));
    EXPECT_TRUE(std::abs(mantissa - 1) < 1e-9 || std::abs(mantissa - 2) < 1e-9 ||
                std::abs(mantissa - 5) < 1e-9)
        << axis.step;
    EXPECT_GE(axis.top, largest * (1 - 1e-12));
    EXPECT_LE(static_cast<int>(axis.ticks.size()) - 1, maxTicks) << largest;
    EXPECT_LT(axis.top - axis.step, largest);  // no empty interval above the data
    EXPECT_DOUBLE_EQ(axis.ticks.front(), 0.0);
  }
}

}  // namespace
