#pragma once
// The steps and gravities of the dynamics suites' scenes, shared so that each is written once.

#include <Eigen/Core>

namespace hb::solver_test {

/// The 60 Hz walls and rows of unit cubes (colouring, soft lanes).
inline constexpr double kCubeDt = 1.0 / 60.0;
inline constexpr double kCubeHalf = 0.5;  // m, the cubes' half extent
inline const Eigen::Vector3d kCubeGravity(0, 0, -10.0);

/// The 120 Hz scenes of the solver and integrator suites.
inline constexpr double kDt = 1.0 / 120.0;
inline const Eigen::Vector3d kGravity(0, 0, -9.81);

}  // namespace hb::solver_test
