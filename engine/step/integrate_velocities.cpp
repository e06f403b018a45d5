// The integrate-velocities stage of World::step: the first half of the integrator
// (dynamics/integrator.hpp) before the contact solve: held and one-step forces, gravity, the
// gyroscopic term, and the turn limit of bodies with contacts.

#include "engine/world.hpp"

namespace hb {

void World::integrateVelocities() {
  StepContext& c = context_;
  const double h = substepLength();
  // Bodies with contacts turn at most solver.max_contact_turn per substep; free ones freely.
  c.inContact.assign(bodies_.state.size(), 0);
  for (const ContactConstraint& contact : c.contacts) {
    c.inContact[contact.bodyA] = c.inContact[contact.bodyB] = 1;
  }
  applyExternalForces(h);
  // The soft step takes gravity substep by substep, inside its solve.
  const bool soft = scene_.solver.softSubsteps > 0;
  const IntegratorStats integrated = integrator_.integrateVelocities(
      bodies_.state, soft ? Eigen::Vector3d::Zero() : scene_.gravity, h, c.rotations, c.inContact,
      scene_.solver.maxContactTurn);
  stats_.unconvergedRotations += integrated.unconvergedRotations;
  stats_.limitedBodies += integrated.limitedBodies;
}

}  // namespace hb
