// The sweeps of a large island, colour by colour (ContactSolver::kColouredIsland): graph
// colouring as in Box2D v3's solver. Within a colour no two manifolds share a moving body, so
// their visits commute: run one after the other or at once on several threads, they give the
// same bits. Gauss–Seidel then visits the island colour by colour instead of in pair order.

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>

#include "dynamics/contact_solver.hpp"
#include "dynamics/team_phases.hpp"

namespace hb {

void ContactSolver::colourIslands() {
  colourGroups_.clear();
  bodyColours_.assign(solverBodies_.size(), 0);
  for (Island& island : islands_) {
    island.firstGroup = static_cast<int>(colourGroups_.size());
    island.groups = 0;
    // An island with joints is swept in order (its joints first).
    if (island.count < kColouredIsland || island.joints > 0) continue;
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
  sortedManifolds_.resize(islandManifolds_.size());
  sortedFrom_.resize(islandManifolds_.size());
  int rows = 0;
  for (std::size_t q = 0; q < islandManifolds_.size(); ++q) {
    const Manifold& m = manifolds_[islandManifolds_[q]];
    sortedManifolds_[q] = {rows, m.count, false};  // its blocks are not filled yet
    sortedFrom_[q] = m.first;
    islandManifolds_[q] = static_cast<int>(q);
    rows += m.count;
  }
  // The rows, megabytes of them on a large pile, copied on the workers.
  sortedRows_.resize(rows);
  parallelFor_(sortedManifolds_.size(), [&](std::size_t q) {
    const Manifold& m = sortedManifolds_[q];
    std::copy_n(rows_.begin() + sortedFrom_[q], m.count, sortedRows_.begin() + m.first);
  });
  manifolds_.swap(sortedManifolds_);
  rows_.swap(sortedRows_);
}

double ContactSolver::sweepIsland(int index) {
  const Island& island = islands_[index];
  if (softSweep_ != SoftSweep::None && island.joints > 0) beginSoftJoints(island);
  double largest = 0.0;
  for (int q = island.first; q < island.first + island.count; ++q) {
    largest = std::max(largest, solveManifold(islandManifolds_[q], options_.manifoldIterations));
  }
  // The joints last: a sweep ends with them held, and what the sweeps leave unresolved stays
  // in the contacts (a heavy body on a joint ploughing into light ones pulls its joint open
  // otherwise).
  if (island.joints > 0) largest = std::max(largest, solveIslandJoints(island, 0.0));
  return largest;
}

namespace {

// Visits a worker claims at once: at least a few (kClaimsPerShare: its share's part), so that
// claiming stays a small part of the visits.
constexpr int kFewestVisitsPerClaim = 4;

}  // namespace

ContactSolverStats ContactSolver::sweepColoured(int index, int sweeps, double tolerance,
                                                const std::function<void()>& alongside) {
  const Island& island = islands_[index];
  readyTeam(static_cast<std::size_t>(sweeps) * island.groups, sweeps);
  const auto together = [&](std::size_t worker) {
    if (alongside) alongside();
    sweepColouredTogether(index, sweeps, tolerance, static_cast<int>(worker));
  };
  bool alone = false;  // though a team was there
  if (workers_ > 1) {
    alone = colouredChoice_.run(
        [&] { runTasks_(workers_, together); }, [&] { together(0); },
        [&] {
          return static_cast<double>(sweepStats(sweeps, tolerance).iterations) * island.count;
        });
  } else {
    together(0);
  }
  ContactSolverStats stats = sweepStats(sweeps, tolerance);
  stats.solvesAlone = alone ? 1 : 0;
  return stats;
}

ContactSolverStats ContactSolver::sweepStats(int sweeps, double tolerance) const {
  ContactSolverStats stats;
  for (int s = 0; s < sweeps && !stats.converged; ++s) {
    stats.residual = std::bit_cast<double>(sweepLargest_[s].load(std::memory_order_relaxed));
    stats.converged = stats.residual <= tolerance;
    stats.iterations = s + 1;
  }
  return stats;
}

void ContactSolver::readyTeam(std::size_t phases, std::size_t sweeps) {
  phases_.ready(phases, workers_);
  if (sweepCapacity_ < sweeps) {
    sweepLargest_ = std::make_unique<std::atomic<std::uint64_t>[]>(sweeps);
    sweepCapacity_ = sweeps;
  }
  for (std::size_t s = 0; s < sweeps; ++s) sweepLargest_[s].store(0, std::memory_order_relaxed);
}

double ContactSolver::sweepGroup(int index, int begin, int end) {
  const ColourGroup& group = colourGroups_[index];
  double largest = 0.0;
  for (int i = begin; i < end; ++i) {
    largest = std::max(
        largest, solveManifold(islandManifolds_[group.first + i], options_.manifoldIterations));
  }
  return largest;
}

int ContactSolver::visitsPerClaim(int index) const {
  const ColourGroup& group = colourGroups_[index];
  return visitsPerClaim(group.count, group.shared);
}

int ContactSolver::visitsPerClaim(int count, bool shared) const {
  // The leftover group's manifolds may share bodies: one worker takes it whole, in order.
  return shared ? count : std::max(kFewestVisitsPerClaim, count / (kClaimsPerShare * workers_));
}

void ContactSolver::sweepColouredTogether(int index, int sweeps, double tolerance, int worker) {
  // Within a colour no two visits share a moving body, so whichever worker makes a visit, and
  // in whatever order, the bodies end with the same bits; a worker moves to the next colour
  // only when the last one is done (its wait sees every visit's writes). Each worker
  // reads the same largest change of a sweep, so all stop after the same sweep.
  const Island& island = islands_[index];
  for (int s = 0; s < sweeps; ++s) {
    // This worker's largest change of the sweep, published when it grew.
    double own = 0.0, published = 0.0;
    for (int g = 0; g < island.groups; ++g) {
      const int group = island.firstGroup + g;
      // A group in lanes is visited bundle by bundle (contact_sweep_lanes.cpp).
      const int firstBundle = groupBundles_[group];
      const int bundles = groupBundles_[group + 1] - firstBundle;
      runTeamPhase(
          phases_, static_cast<std::size_t>(s) * island.groups + g, worker,
          bundles > 0 ? bundles : colourGroups_[group].count,
          bundles > 0 ? std::max(1, visitsPerClaim(group) / laneWidth_) : visitsPerClaim(group),
          [&](int begin, int end) {
            if (bundles == 0) {
              own = std::max(own, sweepGroup(group, begin, end));
              return;
            }
            for (int i = begin; i < end; ++i) own = std::max(own, sweepBundle(firstBundle + i));
          },
          [&] {
            if (own > published) raiseTo(sweepLargest_[s], published = own);
          });
    }
    const double largest = std::bit_cast<double>(sweepLargest_[s].load(std::memory_order_relaxed));
    if (largest <= tolerance) return;
  }
}

}  // namespace hb
