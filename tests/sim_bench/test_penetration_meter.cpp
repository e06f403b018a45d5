// The penetration meter on placements whose overlaps are known exactly.

#include <gtest/gtest.h>

#include <vector>

#include "apps/bench/sim/penetration_meter.hpp"

namespace {

using hb::sim::PenetrationMeter;

/// The ground (top face z = 0) and two boxes of half-extents 0.1, 0.05, 0.02.
hb::sim::SimScene boxesOnGround() {
  hb::sim::SimScene scene;
  scene.statics.push_back(
      {hb::Shape::box({50.0, 50.0, 0.5}), hb::Pose::translation({0.0, 0.0, -0.5}), 0});
  for (int i = 0; i < 2; ++i) {
    hb::sim::SimBody b;
    b.shape = hb::Shape::box({0.1, 0.05, 0.02});
    scene.bodies.push_back(b);
  }
  return scene;
}

TEST(PenetrationMeter, MeasuresKnownDepthsOfBodyGroundAndBodyBodyOverlaps) {
  const hb::sim::SimScene scene = boxesOnGround();
  PenetrationMeter meter(scene);
  // Box 0 sinks 1 mm into the ground; box 1 rests 3 mm deep in box 0's side, 1 cm above ground.
  const std::vector<hb::Pose> poses = {hb::Pose::translation({0.0, 0.0, 0.019}),
                                       hb::Pose::translation({0.197, 0.0, 0.03})};
  meter.measure(poses);
  const hb::sim::PenetrationStats& s = meter.stats();
  EXPECT_EQ(s.samples, 1);
  EXPECT_EQ(s.overlaps, 2);
  EXPECT_NEAR(s.maxDepth, 0.003, 1e-9);
  EXPECT_NEAR(s.meanDepth(), 0.002, 1e-9);
  EXPECT_EQ(s.failedQueries, 0);
}

TEST(PenetrationMeter, SeparatedAndTouchingBodiesDoNotCount) {
  const hb::sim::SimScene scene = boxesOnGround();
  PenetrationMeter meter(scene);
  meter.measure(std::vector<hb::Pose>{hb::Pose::translation({0.0, 0.0, 0.0205}),
                                      hb::Pose::translation({1.0, 0.0, 0.5})});
  // Only the first body dropped so far.
  meter.measure(std::vector<hb::Pose>{hb::Pose::translation({0.0, 0.0, 0.021})});
  EXPECT_EQ(meter.stats().samples, 2);
  EXPECT_EQ(meter.stats().overlaps, 0);
  EXPECT_EQ(meter.stats().meanDepth(), 0.0);
  EXPECT_EQ(meter.stats().maxDepth, 0.0);
}

}  // namespace

namespace {

TEST(PenetrationMeter, DropOverlapsAreLeftOutUntilThePairComesApart) {
  const hb::sim::SimScene scene = boxesOnGround();
  PenetrationMeter meter(scene);
  const hb::Pose first = hb::Pose::translation({0.0, 0.0, 0.5});
  // Body 1 is dropped 5 mm into body 0 (both in the air).
  meter.excludeDropOverlaps(std::vector<hb::Pose>{first, hb::Pose::translation({0.195, 0.0, 0.5})},
                            1);
  EXPECT_EQ(meter.stats().dropOverlaps, 1);
  EXPECT_NEAR(meter.stats().dropOverlapMaxDepth, 0.005, 1e-9);
  // Still overlapping: left out.
  meter.measure(std::vector<hb::Pose>{first, hb::Pose::translation({0.196, 0.0, 0.5})});
  EXPECT_EQ(meter.stats().overlaps, 0);
  // Apart, then into each other again: from then on it counts.
  meter.measure(std::vector<hb::Pose>{first, hb::Pose::translation({0.201, 0.0, 0.5})});
  meter.measure(std::vector<hb::Pose>{first, hb::Pose::translation({0.198, 0.0, 0.5})});
  EXPECT_EQ(meter.stats().samples, 3);
  EXPECT_EQ(meter.stats().overlaps, 1);
  EXPECT_NEAR(meter.stats().maxDepth, 0.002, 1e-9);
}

}  // namespace
