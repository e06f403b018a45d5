// The solve stage of World::step: the velocities' own step (gravity, the gyroscopic term, the
// turn limit of bodies with contacts), then the contact solver: warm start, Gauss–Seidel sweeps,
// shock and position passes, or the soft step's substeps (dynamics/contact_solver.hpp).

#include <algorithm>

#include "engine/world.hpp"

namespace hb {

void World::solve() {
  StepContext& c = context_;
  const SolverDescription& s = scene_.solver;
  ContactSolverOptions options;
  options.velocityIterations = s.velocityIterations;
  options.manifoldIterations = s.manifoldIterations;
  options.shockIterations = s.shockIterations;
  options.positionIterations = s.positionIterations;
  options.tolerance = s.solverTolerance;
  options.restitutionThreshold = s.restitutionThreshold;
  options.softSubsteps = s.softSubsteps;
  options.contactHertz = s.contactHertz;
  options.contactDampingRatio = s.contactDampingRatio;
  const bool soft = s.softSubsteps > 0;
  const double h = substepLength();
  // Bodies with contacts turn at most solver.max_contact_turn per substep; free ones freely.
  c.inContact.assign(rigid_.size(), 0);
  for (const ContactConstraint& contact : c.contacts) {
    c.inContact[contact.bodyA] = c.inContact[contact.bodyB] = 1;
  }
  applyExternalForces(h);
  // The soft step takes gravity substep by substep.
  const IntegratorStats integrated =
      integrator_.integrateVelocities(rigid_, soft ? Eigen::Vector3d::Zero() : scene_.gravity, h,
                                      c.inContact, scene_.solver.maxContactTurn);
  stats_.unconvergedRotations += integrated.unconvergedRotations;
  stats_.limitedBodies += integrated.limitedBodies;
  solver_.prepare(rigid_, c.contacts, h, options, scene_.gravity);
  ContactSolverStats stats;
  if (soft) {
    stats = solver_.solveSoftStep(rigid_, c.pseudo);
  } else {
    solver_.warmStart(rigid_);
    stats = solver_.solveVelocities(rigid_);
    solver_.solvePositions(rigid_, c.pseudo);
  }
  stats_.solverIterations = std::max(stats_.solverIterations, stats.iterations);
  stats_.solverResidual = std::max(stats_.solverResidual, stats.residual);
  updatePairCache();
}

}  // namespace hb
