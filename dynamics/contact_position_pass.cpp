// Stage 4 of the contact solver: the split-impulse position pass. Manifolds with a point beyond
// the slop push their bodies apart with pseudo-velocities (their other points held at zero), for
// a few Gauss–Seidel passes, then the joints pull their bodies back onto them. Islands share no
// moving body, so each runs its passes on its own: the small ones side by side, a coloured one
// colour by colour on the team (team_phases.hpp), visiting only the manifolds that push. Each
// moving body meets its manifolds in the same order whichever worker visits them, so the
// pseudo-velocities have the same bits on any number of workers.

#include <algorithm>
#include <atomic>

#include "dynamics/contact_solver.hpp"
#include "dynamics/team_phases.hpp"

namespace hb {

namespace {

// A coloured island's passes run on one thread when fewer of its manifolds push than this: their
// visits then cost less than the team's start and its waits between colours.
constexpr int kFewestPushingForTheTeam = 64;

}  // namespace

void ContactSolver::solvePositions(std::span<const RigidBody> bodies, PseudoVelocities& pseudo) {
  // The pseudo-velocities live in the solver's body array during the pass, then go out.
  parallelFor_(bodies.size(), [&](std::size_t i) {
    std::fill(solverBodies_[i].linear, solverBodies_[i].linear + 3, 0.0);
    std::fill(solverBodies_[i].angular, solverBodies_[i].angular + 3, 0.0);
  });
  positionNeeded_.resize(manifolds_.size());
  parallelFor_(manifolds_.size(), [&](std::size_t k) {
    const Manifold& m = manifolds_[k];
    bool needed = false;
    for (int i = 0; i < m.count; ++i) {
      rows_[m.first + i].positionImpulse = 0.0;
      needed |= rows_[m.first + i].positionTarget > 0.0;
    }
    if (needed) prepareBlocks(static_cast<int>(k));
    positionNeeded_[k] = needed ? 1 : 0;
  });
  planPushing();
  if (workers_ > 1 && static_cast<int>(pushingOrder_.size()) >= kFewestPushingForTheTeam) {
    // Each worker takes small islands while any is left, then joins the coloured passes, which
    // a late worker finds done as far as they got: a long small island does not hold the rest.
    std::atomic<int> nextSmall{0};
    runTasks_(workers_, [&](std::size_t worker) {
      for (int i; (i = nextSmall.fetch_add(1, std::memory_order_relaxed)) <
                  static_cast<int>(smallIslands_.size());) {
        pushOutIsland(islands_[smallIslands_[i]]);
      }
      pushOutColoured(static_cast<int>(worker));
    });
  } else {
    parallelFor_(smallIslands_.size(),
                 [&](std::size_t i) { pushOutIsland(islands_[smallIslands_[i]]); });
    pushOutColoured(0);
  }
  pseudo.linear.resize(bodies.size());
  pseudo.angular.resize(bodies.size());
  parallelFor_(bodies.size(), [&](std::size_t i) {
    pseudo.linear[i] = Eigen::Vector3d(solverBodies_[i].linear);
    pseudo.angular[i] = Eigen::Vector3d(solverBodies_[i].angular);
  });
}

void ContactSolver::pushOut(int k) {
  double normal[NormalBlock::kMaxPoints], target[NormalBlock::kMaxPoints];
  double impulse[NormalBlock::kMaxPoints], change[NormalBlock::kMaxPoints];
  const Manifold& m = manifolds_[k];
  const int bodyA = rows_[m.first].bodyA, bodyB = rows_[m.first].bodyB;
  SolverBody& a = solverBodies_[bodyA];
  SolverBody& b = solverBodies_[bodyB];
  for (int i = 0; i < m.count; ++i) {
    const Row& row = rows_[m.first + i];
    normal[i] = velocity(row, 0, a, b);
    target[i] = row.positionTarget;
    impulse[i] = row.positionImpulse;
  }
  blocks_[k].block.solve(normal, target, impulse, change);
  for (int i = 0; i < m.count; ++i) {
    Row& row = rows_[m.first + i];
    row.positionImpulse = std::max(0.0, row.positionImpulse + change[i]);
    // Bodies that do not move may be shared by the visits running at once; they take nothing.
    applyToMoving(row, 0, change[i], a, b, moves_[bodyA], moves_[bodyB]);
  }
}

void ContactSolver::pushOutIsland(const Island& island) {
  for (int pass = 0; pass < options_.positionIterations; ++pass) {
    for (int q = island.first; q < island.first + island.count; ++q) {
      if (positionNeeded_[islandManifolds_[q]]) pushOut(islandManifolds_[q]);
    }
    // The joints last, as in the sweeps: a body pushed out of others stays on its joint.
    if (island.joints > 0) solveIslandJoints(island, options_.baumgarte);
  }
}

void ContactSolver::planPushing() {
  // (A coloured island has no joints: colourIslands sweeps those in order.)
  pushingOrder_.clear();
  pushingGroups_.clear();
  for (const Island& island : islands_) {
    for (int g = island.firstGroup; g < island.firstGroup + island.groups; ++g) {
      const ColourGroup& group = colourGroups_[g];
      const int first = static_cast<int>(pushingOrder_.size());
      for (int q = group.first; q < group.first + group.count; ++q) {
        if (positionNeeded_[islandManifolds_[q]]) pushingOrder_.push_back(islandManifolds_[q]);
      }
      const int count = static_cast<int>(pushingOrder_.size()) - first;
      if (count == 0) continue;
      pushingGroups_.push_back(
          {first, count, visitsPerClaim(count, group.shared), g == island.firstGroup});
    }
  }
  readyTeam(static_cast<std::size_t>(options_.positionIterations) * pushingGroups_.size(), 0);
}

void ContactSolver::pushOutColoured(int worker) {
  // Island by island, each for all its passes; a pass colour by colour.
  std::size_t phase = 0;
  for (std::size_t first = 0; first < pushingGroups_.size();) {
    std::size_t last = first + 1;
    while (last < pushingGroups_.size() && !pushingGroups_[last].startsIsland) ++last;
    for (int pass = 0; pass < options_.positionIterations; ++pass) {
      for (std::size_t g = first; g < last; ++g) {
        const PushingGroup& group = pushingGroups_[g];
        runTeamPhase(phases_, phase++, worker, group.count, group.claim, [&](int begin, int end) {
          for (int i = begin; i < end; ++i) pushOut(pushingOrder_[group.first + i]);
        });
      }
    }
    first = last;
  }
}

}  // namespace hb
