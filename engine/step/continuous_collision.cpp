// Continuous collision in the world (SolverDescription::continuousCollision): after a
// (sub)step's integration, fast bodies are swept along their motion against what does not move
// and put back before they pass through it (collision/time_of_impact.hpp).

#include <algorithm>

#include "collision/portable_math.hpp"
#include "engine/step/stages.hpp"

namespace hb {
namespace {

/// Continuous collision: a body is swept when a point of it may travel further than this (m) in
/// a (sub)step, or half its thickness, whichever is less; a pair touching at the start of the step
/// may then overlap by this much (m), or a quarter of the thinner piece, before the body is put
/// back. 3 mm is the "few millimetres" a tall drop may sink in.
constexpr double kSweptMotion = 5e-3;
constexpr double kSweptOverlap = 3e-3;
/// Both grow with a large body, to this fraction of its thickness (of the thinner piece for the
/// overlap) where that is more: a 3 m body may sink in by 3 cm, as a 3 cm one by 0.3 mm would,
/// and its sweeps do not crawl along the ground at the millimetres a fixed allowance leaves to a
/// body rolling there.
constexpr double kSweptFraction = 0.01;
/// A sweep whose advancement stalls (its bound on how fast the gap closes, which counts every
/// turn at the body's reach, far above how fast a body rolling or sliding on a surface closes
/// it) goes on from where it got, allowing this fraction of the thinner body's thickness: deep
/// enough not to hold such bodies back step after step, too shallow to pass through anything.
constexpr double kStalledOverlapFraction = 0.25;

/// A body's motion over the (sub)step just integrated, from c.startPoses.
RigidMotion stepMotion(const StepClock& clock, const BodyTable& bodies, const StepContext& c,
                       int body) {
  // The integrator's path over the step: a straight line and a rotation about one axis.
  const Pose& start = c.startPoses[body];
  RigidMotion m;
  m.start = start;
  m.reach = bodies.reach[body];
  if (!bodies.state[body].isActive()) return m;
  m.linear = (bodies.state[body].position - start.p) / clock.h;
  m.angular =
      portable::rotationVector(bodies.state[body].orientation * start.q.conjugate()) / clock.h;
  return m;
}

/// When pair k's fast body first comes too close to what does not move, on a worker
/// (c.pairImpactTime: the substep's length when it does not or the pair is not swept;
/// c.pairSweepStalled).
void sweepPair(const StepClock& clock, const BodyTable& bodies, const PieceTable& pieces,
               StepContext& c, size_t k) {
  const double dt = clock.h;
  const Proxy& pa = pieces.proxy[c.pairs[k].first];
  const Proxy& pb = pieces.proxy[c.pairs[k].second];
  // Against what does not move this step (statics, sleeping bodies): walls, panels and the
  // ground are what a fast body tunnels through. Between moving bodies the speculative
  // contacts are left alone: sweeping those pairs too gave no less overlap (docs/physics.md).
  const bool stillA = !bodies.state[pa.body].isActive(), stillB = !bodies.state[pb.body].isActive();
  if (!(c.fast[pa.body] && stillB) && !(c.fast[pb.body] && stillA)) return;
  ToiOptions toiOptions;
  const double thinnerPiece =
      2.0 * std::min(pa.localObb.halfExtents.minCoeff(), pb.localObb.halfExtents.minCoeff());
  toiOptions.allowedOverlap =
      std::min(std::max(kSweptOverlap, kSweptFraction * thinnerPiece), 0.25 * thinnerPiece);
  toiOptions.stalledOverlap =
      kStalledOverlapFraction * std::min(bodies.thickness[pa.body], bodies.thickness[pb.body]);
  const ToiResult toi = timeOfImpact(pa.shape, pa.inBody, c.motions[pa.body], pb.shape, pb.inBody,
                                     c.motions[pb.body], dt, toiOptions);
  c.pairSweepStalled[k] = toi.relaxed;
  if (toi.status == ToiStatus::Hit || toi.status == ToiStatus::MaxIterations) {
    c.pairImpactTime[k] = toi.time;
  }
}

/// Fast bodies swept against what does not move and put back before they pass into it.
void sweepFastBodies(const StepClock& clock, BodyTable& bodies, const PieceTable& pieces,
                     WorkerPool& workers, StepContext& c, StepStatistics& stats) {
  // A body that moved far this step (kSweptMotion) may have passed into or through something its
  // speculative contacts, linear in the step, did not see: a spinning plate's far corner, a
  // thin panel. It is swept against what the broad phase found near it and put back where it
  // first came within the target distance of anything, or, for a pair already touching at the
  // start, where their overlap first exceeded kSweptOverlap; it keeps its velocity, and the next
  // step's contacts stop it.
  const double dt = clock.h;
  c.motions.resize(bodies.state.size());
  c.fast.assign(bodies.state.size(), 0);
  bool any = false;
  for (size_t i = 0; i < bodies.state.size(); ++i) {
    const RigidMotion& m = c.motions[i] = stepMotion(clock, bodies, c, static_cast<int>(i));
    if (!bodies.state[i].isActive()) continue;
    const double moved = dt * (m.linear.norm() + m.angular.norm() * m.reach);
    const double thickness = bodies.thickness[i];
    if (moved > std::min(0.5 * thickness, std::max(kSweptMotion, kSweptFraction * thickness))) {
      c.fast[i] = 1;
      any = true;
    }
  }
  if (!any) return;
  // Each pair's time of impact on the workers, then each fast body's earliest, in pair order.
  c.pairImpactTime.assign(c.pairs.size(), dt);
  c.pairSweepStalled.assign(c.pairs.size(), 0);
  workers.forEach(c.pairs.size(), [&](size_t k) { sweepPair(clock, bodies, pieces, c, k); });
  c.impactTime.assign(bodies.state.size(), dt);
  for (size_t k = 0; k < c.pairs.size(); ++k) {
    stats.stalledSweeps += c.pairSweepStalled[k];
    if (!(c.pairImpactTime[k] < dt)) continue;
    for (const int proxy : {c.pairs[k].first, c.pairs[k].second}) {
      const int body = pieces.proxy[proxy].body;
      if (c.fast[body]) c.impactTime[body] = std::min(c.impactTime[body], c.pairImpactTime[k]);
    }
  }
  for (size_t i = 0; i < bodies.state.size(); ++i) {
    if (!c.fast[i] || !(c.impactTime[i] < dt)) continue;
    const Pose pose = c.motions[i].at(c.impactTime[i]);
    bodies.state[i].position = pose.p;
    bodies.state[i].orientation = pose.q;
    ++stats.sweptBack;
  }
}

}  // namespace

void continuousCollision(const SolverDescription& settings, const StepClock& clock,
                         BodyTable& bodies, const PieceTable& pieces, WorkerPool& workers,
                         StepContext& c, StepStatistics& stats) {
  if (settings.continuousCollision) sweepFastBodies(clock, bodies, pieces, workers, c, stats);
}

}  // namespace hb
