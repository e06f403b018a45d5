// The shock pass of the contact solver (ContactSolver::propagateShock, after the velocity
// sweeps): the manifolds between bodies of different support levels, from the ground up, each
// moving only its upper body, a body on several supports taking them together.

#include <Eigen/Core>
#include <algorithm>

#include "dynamics/contact_solver.hpp"

namespace hb {

void ContactSolver::propagateShock() {
  // The manifolds between bodies of different support levels (a static body is level 0),
  // ordered by their upper level: the ground's contacts first, then what rests on them, ...;
  // within a level, by upper body, and an upper body's in sweep order (islandManifolds_), which
  // is the same whether or not the rows are stored in that order.
  shockOrder_.clear();
  for (std::size_t q = 0; q < islandManifolds_.size(); ++q) {
    const int k = islandManifolds_[q];
    const Row& row = rows_[manifolds_[k].first];
    const int la = moves_[row.bodyA] ? level_[row.bodyA] : 0;
    const int lb = moves_[row.bodyB] ? level_[row.bodyB] : 0;
    if (la != lb) {
      shockOrder_.push_back(
          {std::max(la, lb), la > lb ? row.bodyA : row.bodyB, static_cast<int>(q), k});
    }
  }
  std::sort(shockOrder_.begin(), shockOrder_.end());
  // Each upper body's visits in a run of their own; the runs of one level move different
  // bodies and read only lower ones, which that level leaves alone, so they run at once.
  shockRuns_.clear();
  for (size_t v = 0; v < shockOrder_.size(); ++v) {
    if (v == 0 || shockOrder_[v].level != shockOrder_[v - 1].level ||
        shockOrder_[v].upper != shockOrder_[v - 1].upper) {
      shockRuns_.push_back(static_cast<int>(v));
    }
  }
  shockRuns_.push_back(static_cast<int>(shockOrder_.size()));
  const size_t runs = shockRuns_.size() - 1;
  for (size_t first = 0; first < runs;) {
    size_t last = first + 1;
    const int level = shockOrder_[shockRuns_[first]].level;
    while (last < runs && shockOrder_[shockRuns_[last]].level == level) ++last;
    parallelFor_(last - first,
                 [&](size_t i) { shockRun(shockRuns_[first + i], shockRuns_[first + i + 1]); });
    first = last;
  }
}

void ContactSolver::shockRun(int first, int last) {
  // A body resting on several (a brick on two below it) takes the push of all its supports
  // together: passes over its manifolds until they settle. Visited once each, the first
  // support stopped the body alone and the next ones took what was left, a lopsided push that
  // the next step's sweeps undid, and that grew step by step until a tall wall fell.
  // Each of those passes visits a manifold's points once: passes over one manifold's points
  // inside a pass over all of them settled each support against the others' stale pushes,
  // work the next pass redid. A body on one support takes its passes inside the one visit.
  thread_local std::vector<ShockBlocks> blocks;  // scratch of the thread running the visits
  blocks.resize(last - first);
  for (int v = first; v < last; ++v) prepareShockVisit(shockOrder_[v], blocks[v - first]);
  const bool several = last - first > 1;
  const int passes = several ? options_.shockIterations : 1;
  const int pointPasses = several ? 1 : options_.shockIterations;
  for (int pass = 0; pass < passes; ++pass) {
    double changed = 0.0;
    for (int v = first; v < last; ++v) {
      changed = std::max(changed, shockVisit(shockOrder_[v], blocks[v - first], pointPasses));
    }
    if (changed <= options_.tolerance) break;
  }
}

void ContactSolver::prepareShockVisit(const ShockVisit& visit, ShockBlocks& blocks) {
  const Manifold& m = manifolds_[visit.manifold];
  const Row& first = rows_[m.first];
  blocks.upperIsB = first.bodyB == visit.upper;
  // On something static the visit is an ordinary one.
  blocks.onStatic = !moves_[blocks.upperIsB ? first.bodyA : first.bodyB];
  blocks.inert = false;
  if (blocks.onStatic) return;
  // The upper body's own response: the lower one is held, as if it were static.
  fillDelassus(m, !blocks.upperIsB, blocks.upperIsB, blocks.delassus);
  for (int i = 0; i < m.count; ++i) {
    Eigen::Matrix3d block;
    for (int c = 0; c < 3; ++c) {
      for (int d = 0; d < 3; ++d) block(c, d) = blocks.delassus[3 * i + c][3 * i + d];
    }
    blocks.inert |= !responseOf(block, blocks.responses[i]);
  }
  if (blocks.inert) return;
  // What the pair carries into the next step is the sweeps' friction, which both bodies took:
  // the pass's own is computed against a lower body held still, and warm-started on both it
  // is a push the lower body never had. (Its normal impulses, which carry the weight above,
  // are carried.)
  for (int i = 0; i < m.count; ++i) {
    Row& row = rows_[m.first + i];
    row.carriesSweptFriction = true;
    row.sweptFriction[0] = row.impulse[1];
    row.sweptFriction[1] = row.impulse[2];
  }
}

double ContactSolver::shockVisit(const ShockVisit& visit, const ShockBlocks& blocks,
                                 int pointPasses) {
  if (blocks.onStatic) return solveManifold(visit.manifold, pointPasses);
  if (blocks.inert) return 0.0;
  const Manifold& m = manifolds_[visit.manifold];
  const PointResponse* responses[NormalBlock::kMaxPoints];
  for (int i = 0; i < m.count; ++i) responses[i] = &blocks.responses[i];
  return solvePasses(m, blocks.delassus, responses, pointPasses, !blocks.upperIsB, blocks.upperIsB);
}

}  // namespace hb
