#include "dynamics/islands.hpp"

#include "dynamics/union_find.hpp"

namespace hb {

std::vector<int> findIslands(std::span<const RigidBody> bodies,
                             std::span<const std::pair<int, int>> pairs) {
  const int n = static_cast<int>(bodies.size());
  UnionFind sets;
  sets.reset(n);
  for (const auto& [a, b] : pairs) {
    if (!bodies[a].isStatic && !bodies[b].isStatic) sets.join(a, b);
  }
  std::vector<int> island(n, -1);
  std::vector<int> label(n, -1);
  int count = 0;
  for (int i = 0; i < n; ++i) {
    if (bodies[i].isStatic) continue;
    const int r = sets.root(i);
    if (label[r] < 0) label[r] = count++;
    island[i] = label[r];
  }
  return island;
}

int updateSleep(std::span<RigidBody> bodies, std::span<const int> islandOf, double dt,
                const SleepOptions& options) {
  if (!options.enabled) return 0;
  int islands = 0;
  for (int i : islandOf) islands = std::max(islands, i + 1);
  std::vector<double> minRest(islands, 1e300);
  for (size_t i = 0; i < bodies.size(); ++i) {
    RigidBody& b = bodies[i];
    if (!b.isActive()) continue;
    const bool slow = b.linearVelocity.norm() < options.linearThreshold &&
                      b.angularVelocity.norm() < options.angularThreshold;
    b.restingTime = slow ? b.restingTime + dt : 0.0;
    minRest[islandOf[i]] = std::min(minRest[islandOf[i]], b.restingTime);
  }
  int slept = 0;
  for (size_t i = 0; i < bodies.size(); ++i) {
    RigidBody& b = bodies[i];
    if (!b.isActive() || minRest[islandOf[i]] < options.timeToSleep) continue;
    b.sleeping = true;
    b.linearVelocity.setZero();
    b.angularVelocity.setZero();
    ++slept;
  }
  return slept;
}

}  // namespace hb
