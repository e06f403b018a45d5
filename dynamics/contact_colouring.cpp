// The sweeps of a large island, colour by colour (ContactSolver::kColouredIsland): graph
// colouring as in Box2D v3's solver. Within a colour no two manifolds share a moving body, so
// their visits commute: run one after the other or at once on several threads, they give the
// same bits. Gauss–Seidel then visits the island colour by colour instead of in pair order.

#include <algorithm>
#include <array>
#include <bit>

#include "dynamics/contact_solver.hpp"

namespace hb {

void ContactSolver::colourIslands() {
  colourGroups_.clear();
  bodyColours_.assign(solverBodies_.size(), 0);
  for (Island& island : islands_) {
    island.firstGroup = static_cast<int>(colourGroups_.size());
    island.groups = 0;
    if (island.count < kColouredIsland) continue;
    // Greedy, in the island's order: each manifold takes the lowest colour neither of its moving
    // bodies has yet (bodies that do not move take no impulse and join no colour).
    manifoldColour_.resize(island.count);
    int colours = 0;
    for (int q = 0; q < island.count; ++q) {
      const Row& row = rows_[manifolds_[islandManifolds_[island.first + q]].first];
      std::uint64_t taken = 0;
      for (const int body : {row.bodyA, row.bodyB}) {
        if (moves_[body]) taken |= bodyColours_[body];
      }
      const int colour = std::countr_one(taken);  // kColours when every colour is taken
      manifoldColour_[q] = colour;
      colours = std::max(colours, colour + 1);
      if (colour == kColours) continue;
      for (const int body : {row.bodyA, row.bodyB}) {
        if (moves_[body]) bodyColours_[body] |= std::uint64_t{1} << colour;
      }
    }
    // A stable counting sort of the island's manifolds by colour, the leftover last.
    std::array<int, kColours + 2> start{};
    for (int q = 0; q < island.count; ++q) ++start[manifoldColour_[q] + 1];
    for (int c = 0; c < colours; ++c) start[c + 1] += start[c];
    std::array<int, kColours + 1> next{};
    std::copy(start.begin(), start.begin() + colours, next.begin());
    byColour_.resize(island.count);
    for (int q = 0; q < island.count; ++q) {
      byColour_[next[manifoldColour_[q]]++] = islandManifolds_[island.first + q];
    }
    std::copy(byColour_.begin(), byColour_.end(), islandManifolds_.begin() + island.first);
    for (int c = 0; c < colours; ++c) {
      if (start[c + 1] == start[c]) continue;
      colourGroups_.push_back({island.first + start[c], start[c + 1] - start[c], c == kColours});
      ++island.groups;
    }
    // The bodies' colours are per island: islands share no moving body.
  }
}

void ContactSolver::layOutInSweepOrder() {
  // The sweeps stream through the manifolds and their rows (a few kilobytes each, megabytes in
  // all on a large pile): visited in colour order where they are stored in pair order, they read
  // memory out of order and ran slower (docs/design.md). Once any island is coloured, manifolds
  // and rows are stored in sweep order, island by island. Solves without one keep the pair order.
  if (colourGroups_.empty()) return;
  sortedManifolds_.clear();
  sortedRows_.clear();
  for (int& k : islandManifolds_) {
    const Manifold& m = manifolds_[k];
    Manifold& moved = sortedManifolds_.emplace_back();  // its blocks are not filled yet
    moved.first = static_cast<int>(sortedRows_.size());
    moved.count = m.count;
    sortedRows_.insert(sortedRows_.end(), rows_.begin() + m.first,
                       rows_.begin() + m.first + m.count);
    k = static_cast<int>(sortedManifolds_.size()) - 1;
  }
  manifolds_.swap(sortedManifolds_);
  rows_.swap(sortedRows_);
}

double ContactSolver::sweepIsland(int index) {
  const Island& island = islands_[index];
  double largest = 0.0;
  if (island.groups == 0) {
    for (int q = island.first; q < island.first + island.count; ++q) {
      largest = std::max(largest, solveManifold(islandManifolds_[q], options_.manifoldIterations));
    }
    return largest;
  }
  for (int g = island.firstGroup; g < island.firstGroup + island.groups; ++g) {
    const ColourGroup& group = colourGroups_[g];
    visitChange_.resize(group.count);
    const auto visit = [&](std::size_t i) {
      visitChange_[i] =
          solveManifold(islandManifolds_[group.first + i], options_.manifoldIterations);
    };
    if (group.shared) {
      for (int i = 0; i < group.count; ++i) visit(i);
    } else {
      parallelFor_(group.count, visit);
    }
    for (int i = 0; i < group.count; ++i) largest = std::max(largest, visitChange_[i]);
  }
  return largest;
}

}  // namespace hb
