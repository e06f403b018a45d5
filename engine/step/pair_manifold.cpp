// The manifold a touching pair gets (World::pairManifold): where the bodies meet, when their gap
// closes later in the (sub)step while they also move sideways (collision/impact_manifold.hpp);
// else the pair's kept manifold, re-posed, while it barely moved
// (collision/persistent_manifold.hpp); else one built afresh at the narrow phase's answer.

#include "engine/world.hpp"

namespace hb {

Eigen::Vector3d World::substepVelocity(int body, const Eigen::Vector3d& point) const {
  const RigidBody& r = bodies_.state[body];
  if (!r.isActive()) return Eigen::Vector3d::Zero();
  return r.pointVelocity(point) + substepLength() * scene_.gravity;
}

double World::surfaceTurnSpeed(int proxy) const {
  const Proxy& p = pieces_.proxy[proxy];
  const RigidBody& r = bodies_.state[p.body];
  if (!r.isActive()) return 0.0;
  // A ball about its centre of mass turns without moving its surface.
  if (p.shape.type() == ShapeType::Sphere && p.inBody.p.isZero()) return 0.0;
  return r.angularVelocity.norm() * pieces_.reach[proxy];
}

ContactManifold World::pairManifold(const NarrowPhaseRecord& record, Eigen::Vector3d& shift,
                                    PairContacts& made) const {
  const CollisionResult& r = record.result;
  const Proxy& pa = pieces_.proxy[record.proxyA];
  const Proxy& pb = pieces_.proxy[record.proxyB];
  const PairCacheEntry* cache = record.cache;
  ManifoldSource& source = made.source;
  shift.setZero();
  if (r.distance > 0.0) {
    const Eigen::Vector3d relative =
        substepVelocity(pa.body, r.witnessA) - substepVelocity(pb.body, r.witnessB);
    const double turnSpeed = surfaceTurnSpeed(record.proxyA) + surfaceTurnSpeed(record.proxyB);
    if (const auto impact = impactManifold(pa.shape, record.poseA, pb.shape, record.poseB, r,
                                           relative, turnSpeed, substepLength(), record.margin)) {
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
    if (const auto kept = reposeManifold(*cache->manifold, record.poseA, record.poseB, r.normal,
                                         r.distance, record.margin, pieces_.reach[record.proxyA],
                                         pieces_.reach[record.proxyB], manifoldReuse_)) {
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
