// The contact solver's islands (ContactSolver::buildIslands): the moving bodies joined by
// manifolds and joints, each island's manifolds and joints grouped, its depth in support
// levels, and its joints' held rows as one system; and one visit of an island's joints
// (solveIslandJoints).

#include <algorithm>
#include <span>

#include "dynamics/contact_solver.hpp"

namespace hb {

void ContactSolver::computeSupportLevels() {
  const int n = static_cast<int>(solverBodies_.size());
  // Support levels, breadth first: 1 for a body resting on something that does not move, one
  // more per body in between. An island with no support counts from its first body.
  // The neighbours of body i: neighbours_[neighbourStart_[i], neighbourStart_[i + 1]).
  neighbourStart_.assign(n + 1, 0);
  for (const Manifold& m : manifolds_) {
    const int a = rows_[m.first].bodyA, b = rows_[m.first].bodyB;
    if (moves_[a] && moves_[b]) {
      ++neighbourStart_[a + 1];
      ++neighbourStart_[b + 1];
    }
  }
  for (int i = 0; i < n; ++i) neighbourStart_[i + 1] += neighbourStart_[i];
  neighbours_.resize(neighbourStart_[n]);
  frontier_.assign(neighbourStart_.begin(), neighbourStart_.end() - 1);  // fill positions
  level_.assign(n, 0);
  for (const Manifold& m : manifolds_) {
    const int a = rows_[m.first].bodyA, b = rows_[m.first].bodyB;
    if (moves_[a] && moves_[b]) {
      neighbours_[frontier_[a]++] = b;
      neighbours_[frontier_[b]++] = a;
    }
  }
  frontier_.clear();
  for (const Manifold& m : manifolds_) {
    const int a = rows_[m.first].bodyA, b = rows_[m.first].bodyB;
    if (moves_[a] && moves_[b]) continue;
    const int moving = moves_[a] ? a : b;
    if (level_[moving] == 0) frontier_.push_back(moving);
    level_[moving] = 1;
  }
  const auto spread = [&](size_t from) {
    for (size_t q = from; q < frontier_.size(); ++q) {
      const int body = frontier_[q];
      for (int e = neighbourStart_[body]; e < neighbourStart_[body + 1]; ++e) {
        const int next = neighbours_[e];
        if (level_[next] != 0) continue;
        level_[next] = level_[body] + 1;
        frontier_.push_back(next);
      }
    }
  };
  spread(0);
  for (const Manifold& m : manifolds_) {
    for (const int body : {rows_[m.first].bodyA, rows_[m.first].bodyB}) {
      if (!moves_[body] || level_[body] != 0) continue;
      level_[body] = 1;
      frontier_.push_back(body);
      spread(frontier_.size() - 1);
    }
  }
}

void ContactSolver::buildIslands() {
  // Islands: the moving bodies joined by manifolds and joints (union-find; bodies that do not
  // move join nothing).
  const int n = static_cast<int>(solverBodies_.size());
  islandSets_.reset(n);
  const auto join = [&](int a, int b) {
    if (moves_[a] && moves_[b]) islandSets_.join(a, b);
  };
  for (const Manifold& m : manifolds_) join(rows_[m.first].bodyA, rows_[m.first].bodyB);
  for (const JointRows& joint : jointRows_) join(joint.bodyA(), joint.bodyB());
  computeSupportLevels();
  // Manifolds and joints grouped by island, in their order; an island's depth is its deepest
  // level.
  islands_.clear();
  islandOf_.assign(n, -1);
  const auto islandOfPair = [&](int a, int b) -> Island& {
    const int r = islandSets_.root(moves_[a] ? a : b);
    if (islandOf_[r] < 0) {
      islandOf_[r] = static_cast<int>(islands_.size());
      islands_.push_back({});
    }
    return islands_[islandOf_[r]];
  };
  for (const Manifold& m : manifolds_) {
    const int a = rows_[m.first].bodyA, b = rows_[m.first].bodyB;
    Island& island = islandOfPair(a, b);
    ++island.count;
    island.depth = std::max({island.depth, moves_[a] ? level_[a] : 0, moves_[b] ? level_[b] : 0});
  }
  for (const JointRows& joint : jointRows_) ++islandOfPair(joint.bodyA(), joint.bodyB()).joints;
  int start = 0, startJoint = 0;
  for (Island& island : islands_) {
    island.first = start;
    start += island.count;
    island.count = 0;
    island.firstJoint = startJoint;
    startJoint += island.joints;
    island.joints = 0;
  }
  islandManifolds_.resize(manifolds_.size());
  for (size_t k = 0; k < manifolds_.size(); ++k) {
    Island& island =
        islandOfPair(rows_[manifolds_[k].first].bodyA, rows_[manifolds_[k].first].bodyB);
    islandManifolds_[island.first + island.count++] = static_cast<int>(k);
  }
  islandJoints_.resize(jointRows_.size());
  for (size_t j = 0; j < jointRows_.size(); ++j) {
    Island& island = islandOfPair(jointRows_[j].bodyA(), jointRows_[j].bodyB());
    islandJoints_[island.firstJoint + island.joints++] = static_cast<int>(j);
  }
  // Several joints of an island: their held rows as one system.
  std::size_t blocks = 0;
  for (Island& island : islands_) {
    if (island.joints < 2) continue;
    if (jointBlocks_.size() <= blocks) jointBlocks_.emplace_back();
    const std::span<const int> members(islandJoints_.data() + island.firstJoint, island.joints);
    if (jointBlocks_[blocks].build(jointRows_, members))
      island.jointBlock = static_cast<int>(blocks++);
  }
}

double ContactSolver::solveIslandJoints(const Island& island, double fraction) {
  double largest = 0.0;
  const bool position = fraction > 0.0;
  // (The soft step rebuilds the block before each sweep; where it cannot, one by one.)
  const bool block = island.jointBlock >= 0 && jointBlocks_[island.jointBlock].valid();
  if (block) largest = jointBlocks_[island.jointBlock].solve(jointRows_, solverBodies_, fraction);
  for (int q = island.firstJoint; q < island.firstJoint + island.joints; ++q) {
    JointRows& joint = jointRows_[islandJoints_[q]];
    SolverBody& a = solverBodies_[joint.bodyA()];
    SolverBody& b = solverBodies_[joint.bodyB()];
    if (!block) {
      if (position) {
        joint.solveHeldPosition(a, b, fraction);
      } else {
        largest = std::max(largest, joint.solveHeld(a, b));
      }
    }
    if (position) {
      joint.solveAxisPosition(a, b, fraction);
    } else {
      largest = std::max(largest, joint.solveAxis(a, b));
    }
  }
  return largest;
}

}  // namespace hb
