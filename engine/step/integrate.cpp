// The integrate stage of World::step: poses from the solved velocities and the position pass's
// pseudo-velocities, after noting where continuous collision's sweeps start from.

#include "engine/world.hpp"

namespace hb {

void World::integrate() {
  StepContext& c = context_;
  if (scene_.solver.continuousCollision) {  // where the sweeps start from
    c.startPoses.resize(rigid_.size());
    for (size_t i = 0; i < rigid_.size(); ++i) {
      c.startPoses[i] = {rigid_[i].orientation, rigid_[i].position};
    }
  }
  integrator_.integratePositions(rigid_, c.pseudo, substepLength());
}

}  // namespace hb
