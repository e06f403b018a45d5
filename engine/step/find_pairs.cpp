// The find-pairs stage of World::step: the bodies' world boxes, grown by how far each may move
// this (sub)step, go through the broad phase; compound bodies enter it as one box each, and the
// pieces of a pair they make are culled against the other side's box. Too many pairs stop the
// step (solver.max_pairs_per_piece).

#include <algorithm>
#include <sstream>

#include "engine/world.hpp"

namespace hb {

void World::updateWorldObbs() {
  pieces_.worldObb.resize(pieces_.proxy.size());
  highestDynamicTop_ = -std::numeric_limits<double>::infinity();
  for (size_t p = 0; p < pieces_.proxy.size(); ++p) {
    Obb& box = pieces_.worldObb[p];
    box = pieces_.proxy[p].localObb.transformed(proxyPose(static_cast<int>(p)));
    if (!pieces_.isStatic[p]) raiseDynamicTop(box);
  }
}

void World::raiseDynamicTop(const Obb& box) {
  highestDynamicTop_ = std::max(highestDynamicTop_, box.center.z() + box.aabbHalfExtents().z());
}

void World::findPairs() {
  StepContext& c = context_;
  // pieces_.worldObb are current: set by addBody and after each integration.
  // How far any point of each body can travel this step: |v| dt + |w| dt * (its reach).
  c.sweep.assign(bodies_.state.size(), 0.0);
  for (size_t i = 0; i < bodies_.state.size(); ++i) {
    const RigidBody& r = bodies_.state[i];
    if (!r.isActive()) continue;
    c.sweep[i] =
        substepLength() * (r.linearVelocity.norm() + r.angularVelocity.norm() * bodies_.reach[i]);
  }
  // Each box grows by half the speculative margin plus its body's sweep, so that the pairs that
  // could close their gap this step overlap (the narrow phase gives them the pair's margin).
  c.sweptObbs.resize(pieces_.worldObb.size());
  for (size_t p = 0; p < pieces_.worldObb.size(); ++p) {
    c.sweptObbs[p] = pieces_.worldObb[p];
    c.sweptObbs[p].halfExtents.array() +=
        0.5 * scene_.solver.speculativeMargin + c.sweep[pieces_.proxy[p].body];
  }
  // The broad phase sees each compound (a body of several pieces) as one box, its hull's; the
  // pieces of a pair it reports are then culled against the other side's box.
  c.entryBoxes.clear();
  c.entryOwners.clear();
  c.entryStatic.clear();
  c.entryProxy.clear();
  for (size_t p = 0; p < pieces_.proxy.size(); ++p) {
    const int body = pieces_.proxy[p].body;
    if (!isCompound(body)) {
      c.entryBoxes.push_back(c.sweptObbs[p]);
      c.entryProxy.push_back(static_cast<int>(p));
    } else if (bodies_.info[body].proxies.front() == static_cast<int>(p)) {
      Obb box = bodies_.compoundBox[body].transformed(bodyPose(body));
      box.halfExtents.array() += 0.5 * scene_.solver.speculativeMargin + c.sweep[body];
      c.entryBoxes.push_back(box);
      c.entryProxy.push_back(-1 - body);
    } else {
      continue;
    }
    c.entryOwners.push_back(body);
    c.entryStatic.push_back(pieces_.isStatic[p]);
  }
  BroadPhaseInput input;
  input.boxes = c.entryBoxes;
  input.owners = c.entryOwners;
  input.isStatic = c.entryStatic;
  const std::vector<ProxyPair>& entryPairs = broadPhase_.update(input);
  c.pairs.clear();
  for (const auto& [e1, e2] : entryPairs) {
    const int p1 = c.entryProxy[e1], p2 = c.entryProxy[e2];
    if (p1 >= 0 && p2 >= 0) {
      if (piecesMayMeet(p1, p2)) c.pairs.emplace_back(p1, p2);
      continue;
    }
    piecesMeeting(p1, c.entryBoxes[e2], c.piecesA);
    piecesMeeting(p2, c.entryBoxes[e1], c.piecesB);
    // Against a single piece, piecesMeeting already tested each piece against its box.
    const bool tested = p1 >= 0 || p2 >= 0;
    for (const int a : c.piecesA) {
      for (const int b : c.piecesB) {
        if ((tested || obbOverlap(c.sweptObbs[a], c.sweptObbs[b])) && piecesMayMeet(a, b)) {
          c.pairs.emplace_back(std::min(a, b), std::max(a, b));
        }
      }
    }
  }
  std::sort(c.pairs.begin(), c.pairs.end());
  checkPairLimit();
}

bool World::piecesMayMeet(int a, int b) const {
  // Boxes are loose around round pieces: two hulls of 2 m radius whose boxes overlap at the
  // corners may be 2.9 m apart. Pieces whose bounding spheres, grown as their boxes were, stay
  // apart cannot come within the pair's margin this step, and skip the narrow phase.
  const StepContext& c = context_;
  const double reach = pieces_.proxy[a].boundingRadius + pieces_.proxy[b].boundingRadius +
                       scene_.solver.speculativeMargin + c.sweep[pieces_.proxy[a].body] +
                       c.sweep[pieces_.proxy[b].body];
  return (pieces_.worldObb[a].center - pieces_.worldObb[b].center).squaredNorm() <= reach * reach;
}

void World::checkPairLimit() const {
  const std::size_t pieces = pieces_.proxy.size();
  const std::size_t limit = static_cast<std::size_t>(scene_.solver.maxPairsPerPiece) * pieces;
  if (context_.pairs.size() <= limit) return;
  std::ostringstream what;
  what << "step " << stepCount_ << ": the broad phase found " << context_.pairs.size()
       << " candidate pairs among " << pieces
       << " collision pieces, more than solver.max_pairs_per_piece ("
       << scene_.solver.maxPairsPerPiece << ") x " << pieces << " = " << limit
       << "; bodies placed inside one another? Move them apart, or raise the setting "
       << "(each pair costs the step up to about 10 kB)";
  throw PairLimitError(what.str());
}

bool World::isCompound(int body) const {
  return !bodies_.state[body].isStatic && bodies_.info[body].proxies.size() > 1;
}

void World::piecesMeeting(int entry, const Obb& other, std::vector<int>& pieces) const {
  pieces.clear();
  if (entry >= 0) {
    pieces.push_back(entry);
    return;
  }
  for (const int p : bodies_.info[-1 - entry].proxies) {
    if (obbOverlap(context_.sweptObbs[p], other)) pieces.push_back(p);
  }
}

}  // namespace hb
