// The integrate stage of World::step: poses from the solved velocities and the position pass's
// pseudo-velocities, after noting where continuous collision's sweeps start from.

#include "engine/world.hpp"

namespace hb {

void World::integrate() {
  StepContext& c = context_;
  if (scene_.solver.continuousCollision) {  // where the sweeps start from
    c.startPoses.resize(bodies_.state.size());
    for (size_t i = 0; i < bodies_.state.size(); ++i) {
      c.startPoses[i] = {bodies_.state[i].orientation, bodies_.state[i].position};
    }
  }
  integrator_.integratePositions(bodies_.state, c.rotations, c.pseudo, substepLength());
}

}  // namespace hb
