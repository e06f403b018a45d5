// The solve stage of World::step: the contact solver's warm start, Gauss–Seidel sweeps, shock and
// position passes, or the soft step's substeps (dynamics/contact_solver.hpp), on the velocities
// the integrate-velocities stage left.

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
  solver_.prepare(bodies_.state, c.contacts, substepLength(), options, scene_.gravity);
  ContactSolverStats stats;
  if (s.softSubsteps > 0) {
    stats = solver_.solveSoftStep(bodies_.state, c.pseudo);
  } else {
    solver_.warmStart(bodies_.state);
    stats = solver_.solveVelocities(bodies_.state);
    solver_.solvePositions(bodies_.state, c.pseudo);
  }
  stats_.solverIterations = std::max(stats_.solverIterations, stats.iterations);
  stats_.solverResidual = std::max(stats_.solverResidual, stats.residual);
}

}  // namespace hb
