// The sleep stage of World::step: islands of touching bodies at rest fall asleep together and
// keep their membership, so that a contact wakes the whole island (wakeIsland).

#include <algorithm>

#include "dynamics/islands.hpp"
#include "engine/step/stages.hpp"

namespace hb {

bool sleep(const SolverDescription& settings, double dt, BodyTable& bodies,
           std::span<const Joint> joints, long& sleepIslands, StepContext& c,
           StepStatistics& stats) {
  c.wasAwake.resize(bodies.state.size());
  for (size_t i = 0; i < bodies.state.size(); ++i)
    c.wasAwake[i] = bodies.state[i].isActive() ? 1 : 0;
  // With sleeping off nothing falls asleep, and the islands are not needed (on a wall of 5050
  // cubes they were a millisecond a step).
  if (settings.sleeping) {
    c.touching.clear();
    for (const ContactConstraint& contact : c.contacts) {
      c.touching.emplace_back(contact.bodyA, contact.bodyB);
    }
    for (const Joint& joint : joints) c.touching.emplace_back(joint.bodyA, joint.bodyB);
    c.islands = findIslands(bodies.state, c.touching);
    SleepOptions options;
    updateSleep(bodies.state, c.islands, dt, options);
  }
  // An island that falls asleep keeps its membership, to wake whole.
  int islandCount = 0;
  bool finite = true;
  int awake = 0;
  for (size_t i = 0; i < bodies.state.size(); ++i) {
    const RigidBody& r = bodies.state[i];
    if (c.wasAwake[i] && r.sleeping) {
      bodies.sleepIsland[i] = sleepIslands + c.islands[i];
      islandCount = std::max(islandCount, c.islands[i] + 1);
    }
    finite &= r.isValid();
    if (r.isActive()) ++awake;
  }
  sleepIslands += islandCount;
  stats.awakeBodies = awake;
  return finite;
}

int wakeIsland(BodyTable& bodies, int body) {
  if (!bodies.state[body].sleeping) return 0;
  const long island = bodies.sleepIsland[body];
  int woken = 0;
  for (size_t i = 0; i < bodies.state.size(); ++i) {
    const bool member =
        static_cast<int>(i) == body || (island >= 0 && bodies.sleepIsland[i] == island);
    if (!member) continue;
    bodies.state[i].sleeping = false;
    bodies.state[i].restingTime = 0.0;
    bodies.sleepIsland[i] = -1;
    ++woken;
  }
  return woken;
}

}  // namespace hb
