// The find-pairs stage of World::step: the bodies' world boxes, grown by how far each may move
// this (sub)step, go through the broad phase; compound bodies enter it as one box each, and the
// pieces of a pair they make are culled against the other side's box. Too many pairs stop the
// step (solver.max_pairs_per_piece).

#include <algorithm>
#include <limits>
#include <sstream>

#include "engine/step/stages.hpp"

namespace hb {

bool isCompound(const BodyTable& bodies, int body) {
  return !bodies.state[body].isStatic && bodies.info[body].proxies.size() > 1;
}

namespace {

/// False when pieces a and b cannot come within their pair's margin this step (their bounding
/// spheres stay apart).
bool piecesMayMeet(const SolverDescription& settings, const PieceTable& pieces,
                   const StepContext& c, int a, int b) {
  // Boxes are loose around round pieces: two hulls of 2 m radius whose boxes overlap at the
  // corners may be 2.9 m apart. Pieces whose bounding spheres, grown as their boxes were, stay
  // apart cannot come within the pair's margin this step, and skip the narrow phase.
  const double reach = pieces.proxy[a].boundingRadius + pieces.proxy[b].boundingRadius +
                       settings.speculativeMargin + c.sweep[pieces.proxy[a].body] +
                       c.sweep[pieces.proxy[b].body];
  return (pieces.worldObb[a].center - pieces.worldObb[b].center).squaredNorm() <= reach * reach;
}

/// The pieces of a broad-phase entry (a proxy, or -1 - body for a compound) whose swept boxes
/// overlap `other`.
void piecesMeeting(const BodyTable& bodies, const StepContext& c, int entry, const Obb& other,
                   std::vector<int>& pieces) {
  pieces.clear();
  if (entry >= 0) {
    pieces.push_back(entry);
    return;
  }
  for (const int p : bodies.info[-1 - entry].proxies) {
    if (obbOverlap(c.sweptObbs[p], other)) pieces.push_back(p);
  }
}

void checkPairLimit(const SolverDescription& settings, const StepClock& clock,
                    const PieceTable& pieces, const StepContext& c) {
  const std::size_t count = pieces.proxy.size();
  const std::size_t limit = static_cast<std::size_t>(settings.maxPairsPerPiece) * count;
  if (c.pairs.size() <= limit) return;
  std::ostringstream what;
  what << "step " << clock.step << ": the broad phase found " << c.pairs.size()
       << " candidate pairs among " << count
       << " collision pieces, more than solver.max_pairs_per_piece (" << settings.maxPairsPerPiece
       << ") x " << count << " = " << limit
       << "; bodies placed inside one another? Move them apart, or raise the setting "
       << "(each pair costs the step up to about 10 kB)";
  throw PairLimitError(what.str());
}

}  // namespace

double updateWorldBoxes(const BodyTable& bodies, PieceTable& pieces, WorkerPool& workers) {
  pieces.worldObb.resize(pieces.proxy.size());
  workers.forEach(pieces.proxy.size(), [&](std::size_t p) {
    pieces.worldObb[p] = pieces.proxy[p].localObb.transformed(piecePose(bodies, pieces.proxy[p]));
  });
  double top = -std::numeric_limits<double>::infinity();
  for (size_t p = 0; p < pieces.proxy.size(); ++p) {
    const Obb& box = pieces.worldObb[p];
    if (!pieces.isStatic[p]) top = std::max(top, box.center.z() + box.aabbHalfExtents().z());
  }
  return top;
}

void findPairs(const SolverDescription& settings, const StepClock& clock, const BodyTable& bodies,
               const PieceTable& pieces, std::span<const std::pair<int, int>> jointed,
               BroadPhase& broadPhase, WorkerPool& workers, StepContext& c) {
  // pieces.worldObb are current: set by addBody and after each integration.
  // How far any point of each body can travel this step: |v| dt + |w| dt * (its reach).
  c.sweep.resize(bodies.state.size());
  workers.forEach(bodies.state.size(), [&](std::size_t i) {
    const RigidBody& r = bodies.state[i];
    c.sweep[i] =
        r.isActive()
            ? clock.h * (r.linearVelocity.norm() + r.angularVelocity.norm() * bodies.reach[i])
            : 0.0;
  });
  // Each box grows by half the speculative margin plus its body's sweep, so that the pairs that
  // could close their gap this step overlap (the narrow phase gives them the pair's margin).
  c.sweptObbs.resize(pieces.worldObb.size());
  workers.forEach(pieces.worldObb.size(), [&](std::size_t p) {
    c.sweptObbs[p] = pieces.worldObb[p];
    c.sweptObbs[p].halfExtents.array() +=
        0.5 * settings.speculativeMargin + c.sweep[pieces.proxy[p].body];
  });
  // The broad phase sees each compound (a body of several pieces) as one box, its hull's; the
  // pieces of a pair it reports are then culled against the other side's box.
  // Bodies held still while other islands take their substeps (World::step) are static to the
  // broad phase with the statics: nothing wakes them, so the narrow phase has nothing to do for
  // two of them, and the broad phase keeps them in a tree it builds once for the pass. (Sleeping
  // bodies are not: a contact that wakes one needs its pairs with its sleeping neighbours.)
  BroadPhaseEntries& entries = c.entries;
  entries.clear();
  for (size_t p = 0; p < pieces.proxy.size(); ++p) {
    const int body = pieces.proxy[p].body;
    const bool still = pieces.isStatic[p] || c.isHeld(body);
    if (!isCompound(bodies, body)) {
      entries.add(c.sweptObbs[p], body, still, static_cast<int>(p));
    } else if (bodies.info[body].proxies.front() == static_cast<int>(p)) {
      Obb box = bodies.compoundBox[body].transformed(bodyPose(bodies, body));
      box.halfExtents.array() += 0.5 * settings.speculativeMargin + c.sweep[body];
      entries.add(box, body, still, -1 - body);
    }
  }
  BroadPhaseInput input;
  input.boxes = entries.boxes;
  input.owners = entries.owners;
  input.isStatic = entries.isStatic;
  const std::vector<ProxyPair>& entryPairs = broadPhase.update(input);
  c.pairs.clear();
  for (const auto& [e1, e2] : entryPairs) {
    const int p1 = entries.proxy[e1], p2 = entries.proxy[e2];
    if (p1 >= 0 && p2 >= 0) {
      if (piecesMayMeet(settings, pieces, c, p1, p2)) c.pairs.emplace_back(p1, p2);
      continue;
    }
    piecesMeeting(bodies, c, p1, entries.boxes[e2], c.piecesA);
    piecesMeeting(bodies, c, p2, entries.boxes[e1], c.piecesB);
    // Against a single piece, piecesMeeting already tested each piece against its box.
    const bool tested = p1 >= 0 || p2 >= 0;
    for (const int a : c.piecesA) {
      for (const int b : c.piecesB) {
        if ((tested || obbOverlap(c.sweptObbs[a], c.sweptObbs[b])) &&
            piecesMayMeet(settings, pieces, c, a, b)) {
          c.pairs.emplace_back(std::min(a, b), std::max(a, b));
        }
      }
    }
  }
  if (!jointed.empty()) {
    std::erase_if(c.pairs, [&](const ProxyPair& pair) {
      const int a = pieces.proxy[pair.first].body, b = pieces.proxy[pair.second].body;
      return std::binary_search(jointed.begin(), jointed.end(),
                                std::pair<int, int>(std::min(a, b), std::max(a, b)));
    });
  }
  std::sort(c.pairs.begin(), c.pairs.end());
  checkPairLimit(settings, clock, pieces, c);
}

}  // namespace hb
