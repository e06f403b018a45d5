// The manifold a touching pair gets (pairManifold): where the bodies meet, when their gap
// closes later in the (sub)step while they also move sideways (collision/impact_manifold.hpp);
// else the pair's kept manifold, re-posed, while it barely moved
// (collision/persistent_manifold.hpp); else one built afresh at the narrow phase's answer.

#include "collision/impact_manifold.hpp"
#include "engine/step/stages.hpp"

namespace hb {

namespace {

/// The velocity of a body's material point at `point` over this substep: after gravity, before
/// the contacts (zero for bodies that do not move).
Eigen::Vector3d substepVelocity(const PairContactInputs& in, int body,
                                const Eigen::Vector3d& point) {
  const RigidBody& r = in.bodies.state[body];
  if (!r.isActive()) return Eigen::Vector3d::Zero();
  return r.pointVelocity(point) + in.clock.h * in.gravity;
}

/// How fast a piece's turn moves its surface at most (m/s): its body's spin times its reach.
double surfaceTurnSpeed(const PairContactInputs& in, int proxy) {
  const Proxy& p = in.pieces.proxy[proxy];
  const RigidBody& r = in.bodies.state[p.body];
  if (!r.isActive()) return 0.0;
  // A ball about its centre of mass turns without moving its surface.
  if (p.shape.type() == ShapeType::Sphere && p.inBody.p.isZero()) return 0.0;
  return r.angularVelocity.norm() * in.pieces.reach[proxy];
}

}  // namespace

ContactManifold pairManifold(const PairContactInputs& in, const NarrowPhaseRecord& record,
                             Eigen::Vector3d& shift, PairContacts& made) {
  const CollisionResult& r = record.result;
  const Proxy& pa = in.pieces.proxy[record.proxyA];
  const Proxy& pb = in.pieces.proxy[record.proxyB];
  const PairCacheEntry* cache = record.cache;
  ManifoldSource& source = made.source;
  shift.setZero();
  if (r.distance > 0.0) {
    const Eigen::Vector3d relative =
        substepVelocity(in, pa.body, r.witnessA) - substepVelocity(in, pb.body, r.witnessB);
    const double turnSpeed =
        surfaceTurnSpeed(in, record.proxyA) + surfaceTurnSpeed(in, record.proxyB);
    if (const auto impact = impactManifold(pa.shape, record.poseA, pb.shape, record.poseB, r,
                                           relative, turnSpeed, in.clock.h, record.margin)) {
      // Built away from the pair's poses: nothing to keep for the next substep.
      shift = impact->shift;
      source = ManifoldSource::Impact;
      return impact->manifold;
    }
  }
  // A pair that barely moved since its manifold was built keeps it, re-posed, unless a body of
  // it rolls.
  const bool keep = manifoldMayBeKept(pa.shape, pb.shape);
  if (keep && cache && cache->manifold) {
    // A pair the kept manifold answered for (collide) is within its tolerances already.
    const auto kept =
        record.queried ? reposeManifold(*cache->manifold, record.poseA, record.poseB, r.normal,
                                        r.distance, record.margin, in.pieces.reach[record.proxyA],
                                        in.pieces.reach[record.proxyB], in.reuse)
                       : reposeStandIn(*cache->manifold, record.poseA, record.poseB, record.margin);
    if (kept) {
      source = ManifoldSource::Reposed;
      return *kept;
    }
  }
  source = ManifoldSource::Built;
  const ContactManifold built =
      buildContactManifold(pa.shape, record.poseA, pb.shape, record.poseB, r.normal, r.witnessA,
                           r.witnessB, r.distance, record.margin);
  if (keep) {
    made.keptManifold =
        persistManifold(built, record.poseA, record.poseB, r.distance, record.margin);
  }
  return built;
}

}  // namespace hb
