// The contact stage of World::step (buildContacts): each touching pair's manifold and its
// contact constraints, built on the world's workers and gathered in pair order, warm-started from
// the pair cache; a compound's contacts reduced per contact region.

#include <algorithm>
#include <cmath>

#include "engine/contact_reduction.hpp"
#include "engine/step/stages.hpp"

namespace hb {
namespace {

/// Contacts of consecutive steps are the same contact when their points on A are this close (m).
constexpr double kContactMatchRadius = 0.01;

/// A touching pair's contact constraints (on a worker).
void pairContacts(const PairContactInputs& in, const NarrowPhaseRecord& record,
                  PairContacts& made) {
  made.count = 0;
  made.source = ManifoldSource::None;
  made.keptManifold.reset();
  const CollisionResult& r = record.result;
  if (r.gjkStatus == GjkStatus::InvalidInput || !(r.distance < record.margin)) return;
  const Proxy& pa = in.pieces.proxy[record.proxyA];
  const Proxy& pb = in.pieces.proxy[record.proxyB];
  // shift: A's motion relative to B until they meet, for a manifold at its time of impact.
  Eigen::Vector3d shift = Eigen::Vector3d::Zero();
  const ContactManifold manifold = pairManifold(in, record, shift, made);
  const Material& a = in.bodies.info[pa.body].material;
  const Material& b = in.bodies.info[pb.body].material;
  // A fifth of the thinner piece may stay in penetration, at most (the solver's slop is
  // sized for bodies of centimetres).
  const double maxSlop =
      0.2 * std::min(pa.localObb.halfExtents.minCoeff(), pb.localObb.halfExtents.minCoeff());
  const Pose bodyA = bodyPose(in.bodies, pa.body);
  for (int i = 0; i < manifold.size; ++i) {
    const ContactPoint& point = manifold.points[i];
    ContactConstraint& contact = made.contacts[made.count++];
    contact = ContactConstraint{};
    contact.bodyA = pa.body;
    contact.bodyB = pb.body;
    // On A where it is now; B's arm from where A meets it; the gap as it is now.
    contact.point = 0.5 * (point.pointA + point.pointB) - shift;
    contact.offsetOnB = shift;
    contact.normal = manifold.normal;
    contact.buildTangents();
    contact.depth = point.depth - shift.dot(manifold.normal);
    contact.maxSlop = maxSlop;
    contact.friction = std::sqrt(a.friction * b.friction);
    contact.restitution = std::max(a.restitution, b.restitution);
    if (record.cache) {
      PairCache::warmStart(*record.cache, contact, bodyA, kContactMatchRadius, in.clock.h);
    }
  }
}

/// Contacts of one body pair through several pieces, reduced per contact region.
void reduceContacts(StepContext& c) {
  // A compound touching through many pieces keeps four points per contact region
  // (engine/contact_reduction.hpp); each record keeps its surviving contacts, in order.
  reduceContactRegions(c.contacts, c.keepContact);
  int kept = 0;
  for (NarrowPhaseRecord& record : c.narrowPhase) {
    const int first = record.firstContact;
    record.firstContact = kept;
    for (int k = first; k < first + record.contactCount; ++k) {
      if (c.keepContact[k]) c.contacts[kept++] = c.contacts[k];
    }
    record.contactCount = kept - record.firstContact;
  }
  c.contacts.resize(kept);
}

}  // namespace

void buildContacts(const PairContactInputs& in, WorkerPool& workers, StepContext& c,
                   StepStatistics& stats) {
  // Each pair's contacts on the workers, then gathered in pair order.
  c.pairContacts.resize(c.narrowPhase.size());
  workers.forEach(c.narrowPhase.size(),
                  [&](size_t i) { pairContacts(in, c.narrowPhase[i], c.pairContacts[i]); });
  c.contacts.clear();
  c.reusedManifolds = 0;
  for (size_t i = 0; i < c.narrowPhase.size(); ++i) {
    NarrowPhaseRecord& record = c.narrowPhase[i];
    const PairContacts& made = c.pairContacts[i];
    record.firstContact = static_cast<int>(c.contacts.size());
    record.contactCount = made.count;
    for (int k = 0; k < made.count; ++k) {
      stats.maxPenetration = std::max(stats.maxPenetration, made.contacts[k].depth);
      c.contacts.push_back(made.contacts[k]);
    }
    if (made.source == ManifoldSource::Impact) ++stats.impactPairs;
    if (made.source == ManifoldSource::Reposed) ++c.reusedManifolds;
  }
  reduceContacts(c);
  stats.contacts = static_cast<int>(c.contacts.size());
}

}  // namespace hb
