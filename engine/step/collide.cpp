// The narrow-phase stage of World::step (collide): every pair the broad phase found with an awake
// body goes through collide() on the world's workers, warm-started from the pair cache, unless it
// touches and barely moved since its manifold was kept, which then answers for it; what they
// touch wakes, in pair order, and the woken islands' pairs take a further round.

#include "collision/collide.hpp"

#include "collision/persistent_manifold.hpp"
#include "collision/warm_start.hpp"
#include "engine/step/stages.hpp"

namespace hb {

namespace {

/// A pair's narrow phase (on a worker: it writes only the record).
void runNarrowPhase(const SolverDescription& settings, const ManifoldReuseTolerances& reuse,
                    const StepClock& clock, const BodyTable& bodies, const PieceTable& pieces,
                    const StepContext& c, NarrowPhaseRecord& record) {
  // The input: poses, margin and warm start from the pair cache.
  const Proxy& pa = pieces.proxy[record.proxyA];
  const Proxy& pb = pieces.proxy[record.proxyB];
  const PairCacheEntry* cache = record.cache;
  record.poseA = piecePose(bodies, pa);
  record.poseB = piecePose(bodies, pb);
  if (cache) record.hints = cache->hints;
  record.margin = settings.speculativeMargin + c.sweep[pa.body] + c.sweep[pb.body];
  const bool seenLastRound = cache && cache->lastRound == clock.round - 1;
  if (seenLastRound && cache->previous) record.previous = cache->previous;
  // A touching pair that barely moved since its manifold was kept takes the manifold's answer
  // without a query: in a resting pile, most pairs.
  if (seenLastRound && cache->manifold && manifoldMayBeKept(pa.shape, pb.shape)) {
    if (auto kept =
            standInResult(*cache->manifold, record.poseA, record.poseB, record.margin,
                          pieces.reach[record.proxyA], pieces.reach[record.proxyB], reuse)) {
      record.queried = false;
      record.result = *kept;
      record.result.hints = record.hints;
      return;
    }
  }
  record.obbCenterA = pieces.worldObb[record.proxyA].center;
  record.obbCenterB = pieces.worldObb[record.proxyB].center;
  record.initialGuess =
      initialGuess(settings.warmStart, pieces.worldObb[record.proxyA],
                   pieces.worldObb[record.proxyB], record.poseA, record.poseB, record.previous);
  // The queries.
  CollisionOptions options;
  options.gjk.variant = settings.gjkVariant;
  options.gjk.schedule = settings.momentumSchedule;
  options.gjk.tolerance = settings.gjkTolerance;
  options.gjk.maxIterations = settings.gjkMaxIterations;
  options.gjk.separationBound = record.margin;
  if (seenLastRound && settings.warmSimplex) record.warmSimplex = cache->simplex;
  record.result = hb::collide(pa.shape, record.poseA, pb.shape, record.poseB, record.initialGuess,
                              options, record.hints, &record.warmSimplex);
}

/// What the step counts of a pair's narrow phase, and what it wakes; returns whether it woke an
/// island.
bool tallyNarrowPhase(BodyTable& bodies, const PieceTable& pieces, const StepContext& c,
                      const NarrowPhaseRecord& record, StepStatistics& stats) {
  const CollisionResult& r = record.result;
  if (record.queried) {
    ++stats.gjkCalls;
  } else {
    ++stats.keptPairs;
  }
  stats.gjkIterations += r.gjkIterations;
  if (r.epaStatus) ++stats.epaCalls;
  if (r.rtrStatus) ++stats.rtrCalls;
  const bool touches = r.gjkStatus != GjkStatus::InvalidInput && r.distance < record.margin;
  // A contact with an awake body wakes a sleeping one, so that it takes part in this step; one
  // held while other islands take their substeps has taken its step, and stays as it is.
  bool woke = false;
  for (const int proxy : {record.proxyA, record.proxyB}) {
    const int body = pieces.proxy[proxy].body;
    if (touches && c.isHeld(body)) {
      ++stats.heldContacts;
    } else if (touches && bodies.state[body].sleeping) {
      stats.wokenBodies += wakeIsland(bodies, body);
      woke = true;
    }
  }
  return woke;
}

}  // namespace

void collide(const SolverDescription& settings, const ManifoldReuseTolerances& reuse,
             const StepClock& clock, BodyTable& bodies, const PieceTable& pieces,
             const PairCache& pairCache, WorkerPool& workers, StepContext& c,
             StepStatistics& stats) {
  if (clock.substep == 0) {
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
      const RigidBody& a = bodies.state[pieces.proxy[c.pairs[k].first].body];
      const RigidBody& b = bodies.state[pieces.proxy[c.pairs[k].second].body];
      if (!a.isActive() && !b.isActive()) continue;
      c.collided[k] = 1;
      NarrowPhaseRecord& record = c.narrowPhase.emplace_back();
      record.proxyA = c.pairs[k].first;
      record.proxyB = c.pairs[k].second;
      record.substep = clock.substep;
    }
    const size_t count = c.narrowPhase.size() - first;
    // Each pair reads what the cache remembers of it (nothing writes the cache until the
    // substep's pair cache stage), found in one walk: the round's pairs are in order.
    PairCache::Cursor cursor(pairCache);
    for (size_t i = first; i < c.narrowPhase.size(); ++i) {
      NarrowPhaseRecord& record = c.narrowPhase[i];
      record.cache = cursor.find(record.proxyA, record.proxyB);
    }
    workers.forEach(count, [&](size_t i) {
      runNarrowPhase(settings, reuse, clock, bodies, pieces, c, c.narrowPhase[first + i]);
    });
    woke = false;
    for (size_t i = first; i < c.narrowPhase.size(); ++i) {
      woke |= tallyNarrowPhase(bodies, pieces, c, c.narrowPhase[i], stats);
    }
  }
  stats.candidatePairs = static_cast<int>(c.narrowPhase.size());
}

}  // namespace hb
