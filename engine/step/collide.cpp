// The narrow-phase stage of World::step (collide): every pair the broad phase found with an awake
// body goes through collide() on the world's workers, warm-started from the pair cache; what
// they touch wakes, in pair order, and the woken islands' pairs take a further round.

#include <cmath>

#include "engine/world.hpp"

namespace hb {

void World::collide() {
  StepContext& c = context_;
  ++collisionRound_;
  if (substep_ == 0) {
    c.earlierNarrowPhase.clear();
  } else {
    for (NarrowPhaseRecord& record : c.narrowPhase) {
      record.cache = nullptr;  // valid during its own substep only
      c.earlierNarrowPhase.push_back(std::move(record));
    }
  }
  c.narrowPhase.clear();
  c.collided.assign(c.pairs.size(), 0);
  // Pairs with an awake body go through the narrow phase. One that touches a sleeping body wakes
  // its whole island, whose other pairs (with the ground, with its neighbours) then take their
  // turn in a further round of this same step, until no further island wakes. Each round sets up
  // its pairs in pair order, runs their narrow phases on the workers, and then counts them and
  // wakes what they touch in pair order again.
  for (bool woke = true; woke;) {
    const size_t first = c.narrowPhase.size();
    for (size_t k = 0; k < c.pairs.size(); ++k) {
      if (c.collided[k]) continue;
      const RigidBody& a = bodies_.state[pieces_.proxy[c.pairs[k].first].body];
      const RigidBody& b = bodies_.state[pieces_.proxy[c.pairs[k].second].body];
      if (!a.isActive() && !b.isActive()) continue;
      c.collided[k] = 1;
      NarrowPhaseRecord& record = c.narrowPhase.emplace_back();
      record.proxyA = c.pairs[k].first;
      record.proxyB = c.pairs[k].second;
      record.substep = substep_;
    }
    const size_t count = c.narrowPhase.size() - first;
    // Each pair reads what the cache remembers of it (nothing writes the cache until the
    // substep's pair cache stage).
    workers_.forEach(count, [&](size_t i) {
      NarrowPhaseRecord& record = c.narrowPhase[first + i];
      record.cache = pairCache_.find(record.proxyA, record.proxyB);
      runNarrowPhase(record);
    });
    woke = false;
    for (size_t i = first; i < c.narrowPhase.size(); ++i) {
      woke |= tallyNarrowPhase(c.narrowPhase[i]);
    }
  }
  stats_.candidatePairs = static_cast<int>(c.narrowPhase.size());
}

void World::runNarrowPhase(NarrowPhaseRecord& record) const {
  // The input: poses, margin and warm start from the pair cache.
  const StepContext& c = context_;
  const int proxyA = record.proxyA, proxyB = record.proxyB;
  const PairCacheEntry* cache = record.cache;
  record.poseA = proxyPose(proxyA);
  record.poseB = proxyPose(proxyB);
  if (cache) record.hints = cache->hints;
  record.margin = scene_.solver.speculativeMargin + c.sweep[pieces_.proxy[proxyA].body] +
                  c.sweep[pieces_.proxy[proxyB].body];
  if (cache && cache->previous && cache->lastRound == collisionRound_ - 1) {
    record.previous = cache->previous;
  }
  record.obbCenterA = pieces_.worldObb[proxyA].center;
  record.obbCenterB = pieces_.worldObb[proxyB].center;
  record.initialGuess =
      initialGuess(scene_.solver.warmStart, pieces_.worldObb[proxyA], pieces_.worldObb[proxyB],
                   record.poseA, record.poseB, record.previous);
  // The queries.
  const SolverDescription& solver = scene_.solver;
  CollisionOptions options;
  options.gjk.variant = solver.gjkVariant;
  options.gjk.schedule = solver.momentumSchedule;
  options.gjk.tolerance = solver.gjkTolerance;
  options.gjk.maxIterations = solver.gjkMaxIterations;
  record.result = hb::collide(pieces_.proxy[record.proxyA].shape, record.poseA,
                              pieces_.proxy[record.proxyB].shape, record.poseB, record.initialGuess,
                              options, record.hints);
}

bool World::tallyNarrowPhase(const NarrowPhaseRecord& record) {
  const CollisionResult& r = record.result;
  ++stats_.gjkCalls;
  stats_.gjkIterations += r.gjkIterations;
  if (r.epaStatus) ++stats_.epaCalls;
  if (r.rtrStatus) ++stats_.rtrCalls;
  const bool touches = r.gjkStatus != GjkStatus::InvalidInput && r.distance < record.margin;
  // A contact with an awake body wakes a sleeping one, so that it takes part in this step.
  bool woke = false;
  for (const int proxy : {record.proxyA, record.proxyB}) {
    const int body = pieces_.proxy[proxy].body;
    if (touches && bodies_.state[body].sleeping) {
      stats_.wokenBodies += wakeIsland(body);
      woke = true;
    }
  }
  return woke;
}

}  // namespace hb
