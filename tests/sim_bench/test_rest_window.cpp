// Settled bodies and their jitter on hand-made trajectories.

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "apps/bench/sim/rest_window.hpp"

namespace {

using hb::sim::RestWindow;

TEST(RestWindow, SettledBodiesAndTheirMeanSpeed) {
  const double dt = 0.01;
  RestWindow window(dt, 0.01, Eigen::Vector3d::Constant(-2.0), Eigen::Vector3d::Constant(2.0));
  // 0: still; 1: vibrates by +-1 mm about its place; 2: slides 5 cm; 3: still, out of bounds.
  std::vector<Eigen::Vector3d> p = {Eigen::Vector3d(0, 0, 0.1), Eigen::Vector3d(0.5, 0, 0.1),
                                    Eigen::Vector3d(1, 0, 0.1), Eigen::Vector3d(0, 0, -3)};
  window.begin(p);
  const int steps = 100;
  for (int k = 1; k <= steps; ++k) {
    p[1].z() = 0.1 + (k % 2 == 1 ? 0.001 : 0.0);
    p[2].x() = 1.0 + 0.05 * k / steps;
    // A body dropped during the window is not a candidate.
    std::vector<Eigen::Vector3d> withLate = p;
    withLate.emplace_back(0.0, 1.0, 1.0);
    window.add(withLate);
  }
  const hb::sim::RestStats s = window.finish();
  EXPECT_EQ(s.candidates, 4);
  EXPECT_EQ(s.windowSteps, steps);
  EXPECT_EQ(s.settled, 2);
  // Body 1 moves 1 mm every step: 0.1 m/s; body 0 does not move.
  EXPECT_NEAR(s.maxJitter, 0.001 / dt, 1e-12);
  EXPECT_NEAR(s.meanJitter, 0.5 * 0.001 / dt, 1e-12);
}

TEST(RestWindow, EmptyWindowAndBadInput) {
  RestWindow window(0.01, 0.01, Eigen::Vector3d::Constant(-1.0), Eigen::Vector3d::Constant(1.0));
  window.begin(std::vector<Eigen::Vector3d>{Eigen::Vector3d::Zero()});
  EXPECT_EQ(window.finish().settled, 0);
  EXPECT_THROW(window.add(std::vector<Eigen::Vector3d>{}), std::invalid_argument);
  EXPECT_THROW(RestWindow(0.0, 0.01, Eigen::Vector3d::Zero(), Eigen::Vector3d::Ones()),
               std::invalid_argument);
}

}  // namespace
