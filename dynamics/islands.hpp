#pragma once
// Islands of dynamic bodies joined by contacts (union–find; static bodies join nothing), and the
// sleep bookkeeping that runs on them: an island whose bodies all stayed slow for a while goes
// to sleep (the World wakes it whole when an awake body touches it).

#include <span>
#include <utility>
#include <vector>

#include "dynamics/rigid_body.hpp"

namespace hb {

struct SleepOptions {
  bool enabled = true;
  double linearThreshold = 0.02;   ///< m/s
  double angularThreshold = 0.05;  ///< rad/s
  double timeToSleep = 0.5;        ///< s below both thresholds before sleeping
};

/// Island index per body (-1 for static bodies), given the contact pairs (body indices).
std::vector<int> findIslands(std::span<const RigidBody> bodies,
                             std::span<const std::pair<int, int>> pairs);

/// Updates resting times after a step and puts islands that rested long enough to sleep
/// (velocities zeroed). Returns the number of bodies put to sleep.
int updateSleep(std::span<RigidBody> bodies, std::span<const int> islandOf, double dt,
                const SleepOptions& options);

}  // namespace hb
