// The soft step of the contact solver (ContactSolver::solveSoftStep): projected Gauss–Seidel on
// the Coulomb cone as in the sweeps, scheduled as Box2D v3's solver does (Catto, "Solver2D",
// 2024): substeps of one sweep each with soft contact rows, the bodies moved after it, and a
// relax sweep with rigid rows.
//
// A penetrating row is soft: a spring of natural frequency f and damping ratio zeta between the
// surfaces, integrated implicitly over the substep h. With omega = 2 pi f, a1 = 2 zeta + h omega
// and a2 = h omega a1, it pushes the depth out at biasRate = omega / a1 per second and yields as
// if its normal impulse lambda_n met a compliance W_nn / a2: the row solves
//   u_n - target + (W_nn / a2) lambda_n = 0,
// which is the update delta = -(W_nn + c)^-1 (u_n - target + c lambda_n) with c = W_nn / a2
// (Box2D's mass and impulse scales, a2 / (1 + a2) and 1 / (1 + a2), are the same update). The
// friction rows stay rigid, on the cone of the soft normal impulse. The relax sweep removes the
// push from the velocities, so that the push moves the bodies without launching them.
//
// The impulses are those of one substep: each substep's warm start applies the last one's, and
// the contacts carry n times them (the step's) into the pair cache and the next step.

#include <algorithm>
#include <bit>
#include <cmath>
#include <numbers>

#include "dynamics/contact_solver.hpp"

namespace hb {

ContactSolver::Softness ContactSolver::springOver(double hertz, double dampingRatio,
                                                  double substep) {
  const double omega = 2.0 * std::numbers::pi * hertz;
  const double a1 = 2.0 * dampingRatio + substep * omega;
  return {omega / a1, substep * omega * a1};
}

void ContactSolver::prepareSoftness(double substep) {
  const double quarterRate = 0.25 / substep;
  const double hertz = std::min(options_.contactHertz, quarterRate);
  softMoving_ = springOver(hertz, options_.contactDampingRatio, substep);
  softFixed_ =
      springOver(std::min(2.0 * hertz, quarterRate), options_.contactDampingRatio, substep);
  // A joint pushes its error out at the rate of a contact with a static body, less damped
  // (Box2D's joints: twice the contacts' frequency, damping ratio 2).
  jointBiasRate_ =
      springOver(std::min(2.0 * hertz, quarterRate), options_.jointDampingRatio, substep).biasRate;
}

void ContactSolver::beginSoftJoints(const Island& island) {
  const bool push = softSweep_ == SoftSweep::Push;
  const auto motionOf = [&](int body) {
    const SoftBody& soft = softBodies_[body];
    return JointRows::Motion{Eigen::Vector3d(soft.movedLinear), Eigen::Vector3d(soft.movedAngular)};
  };
  for (int q = island.firstJoint; q < island.firstJoint + island.joints; ++q) {
    JointRows& joint = jointRows_[islandJoints_[q]];
    joint.beginSoftSweep(motionOf(joint.bodyA()), motionOf(joint.bodyB()), push, jointBiasRate_,
                         solverBodies_[joint.bodyA()], solverBodies_[joint.bodyB()]);
  }
  if (island.jointBlock >= 0) {
    JointBlock& block = jointBlocks_[island.jointBlock];
    block.build(jointRows_, std::vector<int>(block.members().begin(), block.members().end()));
  }
}

void ContactSolver::softenResponse(const PointResponse& rigid, double compliance,
                                   PointResponse& soft) {
  // (W + c e e^T)^-1 = W^-1 - c (W^-1 e)(W^-1 e)^T / (1 + c e^T W^-1 e), W^-1 symmetric.
  soft = rigid;
  soft.normalMass = 1.0 / (1.0 / rigid.normalMass + compliance);
  const double scale = compliance / (1.0 + compliance * rigid.delassusInverse[0][0]);
  for (int k = 0; k < 3; ++k) {
    for (int l = 0; l < 3; ++l) {
      soft.delassusInverse[k][l] -=
          scale * rigid.delassusInverse[k][0] * rigid.delassusInverse[0][l];
    }
  }
}

double ContactSolver::solvePointByPoint(const Manifold& m, const PointResponse* const* responses,
                                        bool movesA, bool movesB) {
  SolverBody& a = solverBodies_[rows_[m.first].bodyA];
  SolverBody& b = solverBodies_[rows_[m.first].bodyB];
  double largest = 0.0;
  for (int i = 0; i < m.count; ++i) {
    Row& row = rows_[m.first + i];
    double* lambda = row.impulse;
    const double u[3] = {velocity(row, 0, a, b), velocity(row, 1, a, b), velocity(row, 2, a, b)};
    // As in solvePasses: a point that carries nothing and does not approach stays so.
    if (lambda[0] == 0.0 && lambda[1] == 0.0 && lambda[2] == 0.0 &&
        u[0] >= row.targetNormalVelocity) {
      continue;
    }
    double next[3];
    pointUpdate(row, *responses[i], lambda, u, next);
    const double d[3] = {next[0] - lambda[0], next[1] - lambda[1], next[2] - lambda[2]};
    if (d[0] == 0.0 && d[1] == 0.0 && d[2] == 0.0) continue;
    // The change as the velocity it makes at the point: along the normal |d| W_nn (with the
    // compliance), along the tangents at most |d| lambda_max(W_tt).
    const PointResponse& response = *responses[i];
    largest =
        std::max({largest, std::abs(d[0]) / response.normalMass,
                  std::abs(d[1]) / response.tangentStep, std::abs(d[2]) / response.tangentStep});
    for (int k = 0; k < 3; ++k) lambda[k] = next[k];
    row.largestNormalImpulse = std::max(row.largestNormalImpulse, lambda[0]);
    double linear[3], turnA[3], turnB[3];
    for (int j = 0; j < 3; ++j) {
      linear[j] =
          d[0] * row.direction[0][j] + d[1] * row.direction[1][j] + d[2] * row.direction[2][j];
      turnA[j] = d[0] * row.turnA[0][j] + d[1] * row.turnA[1][j] + d[2] * row.turnA[2][j];
      turnB[j] = d[0] * row.turnB[0][j] + d[1] * row.turnB[1][j] + d[2] * row.turnB[2][j];
    }
    applyChange(row, linear, turnA, turnB, movesA, movesB);
  }
  return largest;
}

double ContactSolver::setSoftTarget(int index) {
  Row& row = rows_[index];
  const SoftBody& a = softBodies_[row.bodyA];
  const SoftBody& b = softBodies_[row.bodyB];
  // The gap after the bodies' motion so far, to first order in their turns.
  const double gap = row.separation + dot(row.direction[0], b.movedLinear) -
                     dot(row.direction[0], a.movedLinear) + dot(row.armB[0], b.movedAngular) -
                     dot(row.armA[0], a.movedAngular);
  if (gap > 0.0) {
    // Speculative: it may close this substep, no further.
    row.targetNormalVelocity = -gap / softSubstep_;
    row.compliance = 0.0;
  } else if (softSweep_ == SoftSweep::Push) {
    const Softness& soft = moves_[row.bodyA] && moves_[row.bodyB] ? softMoving_ : softFixed_;
    const double depth = std::max(-gap - row.slop, 0.0);
    row.targetNormalVelocity = std::min(soft.biasRate * depth, options_.maxCorrectionVelocity);
    row.compliance = 1.0 / (row.response.normalMass * soft.a2);  // W_nn / a2
  } else {
    row.targetNormalVelocity = 0.0;
    row.compliance = 0.0;
  }
  return gap;
}

void ContactSolver::carryImpulse(int manifold, int substeps) {
  const Manifold& m = manifolds_[manifold];
  const int bodyA = rows_[m.first].bodyA, bodyB = rows_[m.first].bodyB;
  const bool movesA = moves_[bodyA], movesB = moves_[bodyB];
  const double massA = solverBodies_[bodyA].inverseMass;
  const double massB = solverBodies_[bodyB].inverseMass;
  SoftBody& a = softBodies_[bodyA];
  SoftBody& b = softBodies_[bodyB];
  for (int i = m.first; i < m.first + m.count; ++i) {
    Row& row = rows_[i];
    for (double& impulse : row.impulse) impulse /= substeps;
    row.largestNormalImpulse = row.impulse[0];
    for (int k = 0; k < 3; ++k) {
      for (int j = 0; j < 3; ++j) {
        if (movesA) {
          a.carriedLinear[j] -= massA * row.impulse[k] * row.direction[k][j];
          a.carriedAngular[j] -= row.impulse[k] * row.turnA[k][j];
        }
        if (movesB) {
          b.carriedLinear[j] += massB * row.impulse[k] * row.direction[k][j];
          b.carriedAngular[j] += row.impulse[k] * row.turnB[k][j];
        }
      }
    }
  }
}

ContactSolverStats ContactSolver::solveSoftStep(std::span<RigidBody> bodies,
                                                PseudoVelocities& motion) {
  const int substeps = options_.softSubsteps;
  softSubstep_ = dt_ / substeps;
  loadVelocities(bodies);
  // What the carried impulses do to the bodies, once: each substep's warm start applies it, and
  // the sweeps keep it current (applyChange), so that a warm start is a pass over the bodies
  // rather than the rows. Summed in sweep order, whether or not the rows are stored so
  // (prepare).
  softBodies_.assign(solverBodies_.size(), SoftBody{});
  runManifoldPass([&](int q) { carryImpulse(q, substeps); });
  buildLanes();
  // The substeps as one run of phases on the team (a few dozen phases a step: a task per sweep
  // cost more than it shared on a pile), or on this thread.
  planSoftStep(substeps);
  readyTeam(softPlan_.size(), 2 * static_cast<std::size_t>(substeps));
  bool alone = false;  // though a team was there
  if (workers_ > 1 && manifolds_.size() >= static_cast<std::size_t>(kColouredIsland)) {
    alone = softChoice_.run(
        [&] {
          runTasks_(workers_,
                    [&](std::size_t worker) { softStepTogether(static_cast<int>(worker)); });
        },
        [&] { softStepTogether(0); }, [&] { return static_cast<double>(manifolds_.size()); });
  } else {
    softStepTogether(0);
  }
  ContactSolverStats stats;
  stats.solvesAlone = alone ? 1 : 0;
  stats.iterations = 2 * substeps;
  stats.residual =
      std::bit_cast<double>(sweepLargest_[2 * substeps - 1].load(std::memory_order_relaxed));
  stats.converged = stats.residual <= options_.tolerance;
  softSweep_ = SoftSweep::None;
  for (std::size_t j = 0; j < jointRows_.size(); ++j) jointRows_[j].store(joints_[jointOf_[j]]);
  storeVelocities(bodies);
  motion.linear.assign(bodies.size(), Eigen::Vector3d::Zero());
  motion.angular.assign(bodies.size(), Eigen::Vector3d::Zero());
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    if (!moves_[i]) continue;
    const SoftBody& soft = softBodies_[i];
    motion.linear[i] = Eigen::Vector3d(soft.movedLinear) / dt_ - bodies[i].linearVelocity;
    motion.angular[i] = Eigen::Vector3d(soft.movedAngular) / dt_ - bodies[i].angularVelocity;
  }
  return stats;
}

void ContactSolver::planSoftStep(int substeps) {
  const int bodies = static_cast<int>(solverBodies_.size());
  const int rows = static_cast<int>(rows_.size());
  // Bodies and rows are cheap items: claimed many at a time.
  constexpr int kBodiesPerClaim = 64, kRowsPerClaim = 64, kBundlesPerClaim = 16;
  softPlan_.clear();
  const auto add = [&](SoftPhase kind, int sweep, int group, int count, int claim) {
    if (count > 0) softPlan_.push_back({kind, sweep, group, count, claim});
  };
  // A sweep: the small islands whole, then each coloured island colour by colour (islands share
  // no moving body, so the small ones may run beside one another).
  const auto addSweep = [&](int sweep) {
    add(SoftPhase::SmallIslands, sweep, 0, static_cast<int>(smallIslands_.size()), 1);
    for (const Island& island : islands_) {
      for (int g = island.firstGroup; g < island.firstGroup + island.groups; ++g) {
        const int bundles = groupBundles_[g + 1] - groupBundles_[g];
        if (bundles > 0) {
          add(SoftPhase::LaneGroup, sweep, g, bundles, std::max(1, visitsPerClaim(g) / laneWidth_));
        } else {
          add(SoftPhase::ColourGroup, sweep, g, colourGroups_[g].count, visitsPerClaim(g));
        }
      }
    }
  };
  for (int substep = 0; substep < substeps; ++substep) {
    add(SoftPhase::Carry, 0, 0, bodies, kBodiesPerClaim);
    addSweep(2 * substep);
    add(SoftPhase::Move, 0, 0, bodies, kBodiesPerClaim);
    addSweep(2 * substep + 1);
  }
  add(SoftPhase::Unload, 0, 0, static_cast<int>(bundles_.size()), kBundlesPerClaim);
  add(SoftPhase::Finish, 0, 0, rows, kRowsPerClaim);
}

void ContactSolver::softStepTogether(int worker) {
  for (std::size_t p = 0; p < softPlan_.size(); ++p) {
    const SoftPlanStep& step = softPlan_[p];
    runTeamPhase(phases_, p, worker, step.count, step.claim,
                 [&](int begin, int end) { softStepItems(step, begin, end); });
  }
}

void ContactSolver::softStepItems(const SoftPlanStep& step, int begin, int end) {
  const double h = softSubstep_;
  switch (step.kind) {
    case SoftPhase::Carry:
      // The sweeps read softSweep_ only after this phase is done.
      if (begin == 0) softSweep_ = SoftSweep::Push;
      for (int i = begin; i < end; ++i) {
        if (!moves_[i]) continue;
        SolverBody& body = solverBodies_[i];
        const SoftBody& soft = softBodies_[i];
        for (int k = 0; k < 3; ++k) {
          body.linear[k] += h * gravity_[k] + soft.carriedLinear[k];
          body.angular[k] += soft.carriedAngular[k];
        }
      }
      return;
    case SoftPhase::SmallIslands: {
      double largest = 0.0;
      for (int i = begin; i < end; ++i) largest = std::max(largest, sweepIsland(smallIslands_[i]));
      raiseTo(sweepLargest_[step.sweep], largest);
      return;
    }
    case SoftPhase::ColourGroup:
      raiseTo(sweepLargest_[step.sweep], sweepGroup(step.group, begin, end));
      return;
    case SoftPhase::LaneGroup: {
      double largest = 0.0;
      for (int i = begin; i < end; ++i) {
        largest = std::max(largest, sweepBundle(groupBundles_[step.group] + i));
      }
      raiseTo(sweepLargest_[step.sweep], largest);
      return;
    }
    case SoftPhase::Unload:
      unloadLanes(begin, end);
      return;
    case SoftPhase::Move:
      if (begin == 0) softSweep_ = SoftSweep::Relax;
      for (int i = begin; i < end; ++i) {
        if (!moves_[i]) continue;
        const SolverBody& body = solverBodies_[i];
        SoftBody& soft = softBodies_[i];
        for (int k = 0; k < 3; ++k) {
          soft.movedLinear[k] += h * body.linear[k];
          soft.movedAngular[k] += h * body.angular[k];
        }
      }
      return;
    case SoftPhase::Finish:
      // The gap the step leaves (for the bounce), and the step's impulses for the next one;
      // the rows are rigid again for the bounce.
      for (int i = begin; i < end; ++i) {
        Row& row = rows_[i];
        row.endGap = setSoftTarget(i);
        row.compliance = 0.0;
        for (double& impulse : row.impulse) impulse *= options_.softSubsteps;
        contacts_[row.contact].impulse = {row.impulse[0], row.impulse[1], row.impulse[2]};
      }
      return;
  }
}

}  // namespace hb
