// The fixed-step clock: whole steps from wall time, remainders carried, backlog dropped.

#include <gtest/gtest.h>

#include "apps/viewer/simulation_clock.hpp"

namespace hb::viewer {
namespace {

TEST(SimulationClock, CarriesTheRemainder) {
  SimulationClock clock(1.0 / 120.0, 8);
  // 60 Hz frames: two steps each, nothing lost over many frames.
  int steps = 0;
  for (int i = 0; i < 600; ++i) steps += clock.advance(1.0 / 60.0, 1.0);
  EXPECT_EQ(steps, 1200);
  // 144 Hz frames: 5 steps every 6 frames.
  SimulationClock fast(1.0 / 120.0, 8);
  steps = 0;
  for (int i = 0; i < 144; ++i) steps += fast.advance(1.0 / 144.0, 1.0);
  EXPECT_NEAR(steps, 120, 1);
  EXPECT_FALSE(fast.fellBehind());
}

TEST(SimulationClock, TimeScale) {
  SimulationClock clock(1.0 / 120.0, 8);
  int steps = 0;
  for (int i = 0; i < 60; ++i) steps += clock.advance(1.0 / 60.0, 0.25);
  EXPECT_NEAR(steps, 30, 1);
}

TEST(SimulationClock, DropsTheBacklog) {
  SimulationClock clock(1.0 / 120.0, 8);
  EXPECT_EQ(clock.advance(0.5, 1.0), 8);  // 60 steps due, 8 allowed
  EXPECT_TRUE(clock.fellBehind());
  EXPECT_EQ(clock.advance(1.0 / 60.0, 1.0), 2);  // the rest was dropped, not owed
  EXPECT_FALSE(clock.fellBehind());
}

TEST(RealTimeMeter, Averages) {
  RealTimeMeter meter;
  for (int i = 0; i < 60; ++i) meter.add(1.0 / 60.0, 0.5 / 60.0);
  EXPECT_NEAR(meter.factor(), 0.5, 1e-9);
}

}  // namespace
}  // namespace hb::viewer
