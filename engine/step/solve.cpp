// The solve stage of World::step: the contact solver's warm start, Gauss–Seidel sweeps, shock and
// position passes, or the soft step's substeps (dynamics/contact_solver.hpp), on the velocities
// the integrate-velocities stage left.

#include <algorithm>

#include "engine/step/stages.hpp"

namespace hb {

void solve(const SolverDescription& settings, const Eigen::Vector3d& gravity,
           const StepClock& clock, BodyTable& bodies, std::span<Joint> joints,
           ContactSolver& solver, StepContext& c, StepStatistics& stats) {
  ContactSolverOptions options;
  options.velocityIterations = settings.velocityIterations;
  options.manifoldIterations = settings.manifoldIterations;
  options.shockIterations = settings.shockIterations;
  options.positionIterations = settings.positionIterations;
  options.tolerance = settings.solverTolerance;
  options.restitutionThreshold = settings.restitutionThreshold;
  options.softSubsteps = settings.softSubsteps;
  options.contactHertz = settings.contactHertz;
  options.contactDampingRatio = settings.contactDampingRatio;
  solver.prepare(bodies.state, c.contacts, clock.h, options, gravity, joints, c.startSpin);
  ContactSolverStats solved;
  if (settings.softSubsteps > 0) {
    solved = solver.solveSoftStep(bodies.state, c.pseudo);
  } else {
    solver.warmStart(bodies.state);
    solved = solver.solveVelocities(bodies.state);
    solver.solvePositions(bodies.state, c.pseudo);
  }
  stats.solverIterations = std::max(stats.solverIterations, solved.iterations);
  stats.solverResidual = std::max(stats.solverResidual, solved.residual);
  stats.solvesAlone += solved.solvesAlone;
}

}  // namespace hb
