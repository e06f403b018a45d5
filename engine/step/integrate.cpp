// The integrate stage of World::step: poses from the solved velocities and the position pass's
// pseudo-velocities, after noting where continuous collision's sweeps start from.

#include "engine/step/stages.hpp"

namespace hb {

void integrate(const SolverDescription& settings, const StepClock& clock, BodyTable& bodies,
               RigidBodyIntegrator& integrator, StepContext& c) {
  if (settings.continuousCollision) {  // where the sweeps start from
    c.startPoses.resize(bodies.state.size());
    for (size_t i = 0; i < bodies.state.size(); ++i)
      c.startPoses[i] = bodyPose(bodies, static_cast<int>(i));
  }
  integrator.integratePositions(bodies.state, c.rotations, c.pseudo, clock.h);
}

}  // namespace hb
