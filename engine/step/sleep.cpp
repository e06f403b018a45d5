// The sleep stage of World::step: islands of touching bodies at rest fall asleep together and
// keep their membership, so that a contact wakes the whole island (World::wakeIsland).

#include <algorithm>

#include "engine/world.hpp"

namespace hb {

void World::sleep() {
  StepContext& c = context_;
  c.wasAwake.resize(bodies_.state.size());
  for (size_t i = 0; i < bodies_.state.size(); ++i)
    c.wasAwake[i] = bodies_.state[i].isActive() ? 1 : 0;
  // With sleeping off nothing falls asleep, and the islands are not needed (on a wall of 5050
  // cubes they were a millisecond a step).
  if (scene_.solver.sleeping) {
    c.touching.clear();
    for (const ContactConstraint& contact : c.contacts) {
      c.touching.emplace_back(contact.bodyA, contact.bodyB);
    }
    c.islands = findIslands(bodies_.state, c.touching);
    SleepOptions options;
    updateSleep(bodies_.state, c.islands, scene_.dt, options);
  }
  // An island that falls asleep keeps its membership, to wake whole.
  int islandCount = 0;
  int awake = 0;
  for (size_t i = 0; i < bodies_.state.size(); ++i) {
    const RigidBody& r = bodies_.state[i];
    if (c.wasAwake[i] && r.sleeping) {
      bodies_.sleepIsland[i] = sleepIslands_ + c.islands[i];
      islandCount = std::max(islandCount, c.islands[i] + 1);
    }
    if (!r.isValid()) nonFinite_ = true;
    if (r.isActive()) ++awake;
  }
  sleepIslands_ += islandCount;
  stats_.awakeBodies = awake;
}

int World::wakeIsland(int body) {
  if (!bodies_.state[body].sleeping) return 0;
  const long island = bodies_.sleepIsland[body];
  int woken = 0;
  for (size_t i = 0; i < bodies_.state.size(); ++i) {
    const bool member =
        static_cast<int>(i) == body || (island >= 0 && bodies_.sleepIsland[i] == island);
    if (!member) continue;
    bodies_.state[i].sleeping = false;
    bodies_.state[i].restingTime = 0.0;
    bodies_.sleepIsland[i] = -1;
    ++woken;
  }
  return woken;
}

}  // namespace hb
