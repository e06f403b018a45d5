// One pass over every manifold, shared by the team (team_phases.hpp): the small islands whole,
// side by side, then each coloured island colour by colour. Islands share no moving body and a
// colour's manifolds share none either, so each moving body meets its manifolds in the order of
// islandManifolds_ whichever worker makes a visit: the pass gives the bits of a visit of
// islandManifolds_ in order (the warm start, the soft step's carried impulses), as long as a visit
// writes only the bodies that move.

#include <algorithm>

#include "dynamics/contact_solver.hpp"
#include "dynamics/team_phases.hpp"

namespace hb {

void ContactSolver::planManifoldPass() {
  smallIslands_.clear();
  for (std::size_t i = 0; i < islands_.size(); ++i) {
    if (islands_[i].groups == 0) smallIslands_.push_back(static_cast<int>(i));
  }
  passPlan_.clear();
  const int small = static_cast<int>(smallIslands_.size());
  if (small > 0) {
    passPlan_.push_back({-1, small, std::max(1, small / (kClaimsPerShare * workers_))});
  }
  for (const Island& island : islands_) {
    for (int g = island.firstGroup; g < island.firstGroup + island.groups; ++g) {
      passPlan_.push_back({g, colourGroups_[g].count, visitsPerClaim(g)});
    }
  }
}

void ContactSolver::runManifoldPass(const std::function<void(int)>& visit) {
  readyTeam(passPlan_.size(), 0);
  const auto together = [&](int worker) {
    for (std::size_t p = 0; p < passPlan_.size(); ++p) {
      const PassPhase& phase = passPlan_[p];
      runTeamPhase(phases_, p, worker, phase.count, phase.claim, [&](int begin, int end) {
        for (int i = begin; i < end; ++i) {
          if (phase.group >= 0) {
            visit(islandManifolds_[colourGroups_[phase.group].first + i]);
            continue;
          }
          const Island& island = islands_[smallIslands_[i]];
          for (int q = island.first; q < island.first + island.count; ++q) {
            visit(islandManifolds_[q]);
          }
        }
      });
    }
  };
  // A pass of a few manifolds costs less on this thread than the team's start.
  if (workers_ > 1 && manifolds_.size() >= static_cast<std::size_t>(kColouredIsland)) {
    runTasks_(workers_, [&](std::size_t worker) { together(static_cast<int>(worker)); });
  } else {
    together(0);
  }
}

}  // namespace hb
