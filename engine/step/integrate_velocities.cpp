// The integrate-velocities stage of World::step: the first half of the integrator
// (dynamics/integrator.hpp) before the contact solve: held and one-step forces, gravity, the
// gyroscopic term, and the turn limit of bodies with contacts.

#include <algorithm>

#include "engine/step/stages.hpp"

namespace hb {

void applyExternalForces(BodyTable& bodies, double h, const EnergyLedger& energy) {
  for (size_t i = 0; i < bodies.state.size(); ++i) {
    RigidBody& r = bodies.state[i];
    const ExternalForces& f = bodies.forces[i];
    if (!r.isActive() || !f.any()) continue;
    const double before = r.kineticEnergy();
    r.linearVelocity += (h * r.inverseMass) * (f.heldForce + f.nextForce);
    r.angularVelocity += r.inverseInertiaWorld() * (h * (f.heldTorque + f.nextTorque));
    // The forces' work, counted as energy brought in (energyGain stays what contacts did).
    const double added = r.kineticEnergy() - before;
    energy.in += added;
    energy.scale += std::max(0.0, added);
  }
}

void integrateVelocities(const SolverDescription& settings, const Eigen::Vector3d& gravity,
                         const StepClock& clock, BodyTable& bodies, RigidBodyIntegrator& integrator,
                         const EnergyLedger& energy, StepContext& c, StepStatistics& stats) {
  // Bodies with contacts turn at most solver.max_contact_turn per substep; free ones freely.
  c.inContact.assign(bodies.state.size(), 0);
  for (const ContactConstraint& contact : c.contacts) {
    c.inContact[contact.bodyA] = c.inContact[contact.bodyB] = 1;
  }
  c.startSpin.resize(bodies.state.size());
  for (size_t i = 0; i < bodies.state.size(); ++i) c.startSpin[i] = bodies.state[i].angularVelocity;
  applyExternalForces(bodies, clock.h, energy);
  // The soft step takes gravity substep by substep, inside its solve.
  const bool soft = settings.softSubsteps > 0;
  const IntegratorStats integrated =
      integrator.integrateVelocities(bodies.state, soft ? Eigen::Vector3d::Zero() : gravity,
                                     clock.h, c.rotations, c.inContact, settings.maxContactTurn);
  stats.unconvergedRotations += integrated.unconvergedRotations;
  stats.limitedBodies += integrated.limitedBodies;
}

}  // namespace hb
